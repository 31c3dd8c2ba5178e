"""Quotas on circuit runs, checked when a *new* run is requested (asking again for an existing
run is free): active runs per class and per requester, runs per class per day, and a rate
limit per requester per minute. A refusal says which limit and when to try again."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import ngettext

from core import throttle
from simulator.models import Run


class QuotaExceeded(ValueError):
    pass


def requester_key(user, participant_id: int | None) -> str:
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    return f"participant:{participant_id}"


def _runs_of_requester(user, participant_id: int | None):
    if user is not None and getattr(user, "is_authenticated", False):
        return Run.objects.filter(requested_by=user)
    return Run.objects.filter(requested_by_participant=participant_id, requested_by__isnull=True)


def check(classroom, user, participant_id: int | None) -> None:
    """Raise ``QuotaExceeded`` if one more run would break a limit; otherwise count it."""
    who = requester_key(user, participant_id)
    if throttle.over("runs", who, settings.RUNS_PER_REQUESTER_PER_MINUTE):
        raise QuotaExceeded(ngettext("At most %(n)d new run a minute: wait a minute and try again.",
                                     "At most %(n)d new runs a minute: wait a minute and try again.",
                                     settings.RUNS_PER_REQUESTER_PER_MINUTE)
                            % {"n": settings.RUNS_PER_REQUESTER_PER_MINUTE})
    if _runs_of_requester(user, participant_id).filter(status__in=Run.ACTIVE).count() \
            >= settings.RUNS_ACTIVE_PER_REQUESTER:
        raise QuotaExceeded(ngettext("You already have %(n)d run waiting or running: let it finish (or cancel "
                                     "it) first.",
                                     "You already have %(n)d runs waiting or running: let them finish (or cancel "
                                     "one) first.", settings.RUNS_ACTIVE_PER_REQUESTER)
                            % {"n": settings.RUNS_ACTIVE_PER_REQUESTER})
    if classroom is not None:
        of_class = Run.objects.filter(match__table__session__classroom=classroom)
        if of_class.filter(status__in=Run.ACTIVE).count() >= settings.RUNS_ACTIVE_PER_CLASS:
            raise QuotaExceeded(ngettext("This class already has %(n)d run waiting or running: try again when "
                                         "it has finished.",
                                         "This class already has %(n)d runs waiting or running: try again when "
                                         "some have finished.", settings.RUNS_ACTIVE_PER_CLASS)
                                % {"n": settings.RUNS_ACTIVE_PER_CLASS})
        if of_class.filter(queued_at__gte=timezone.now() - timedelta(days=1)).count() \
                >= settings.RUNS_PER_CLASS_PER_DAY:
            raise QuotaExceeded(ngettext("This class has used its %(n)d run for today.",
                                         "This class has used its %(n)d runs for today.",
                                         settings.RUNS_PER_CLASS_PER_DAY) % {"n": settings.RUNS_PER_CLASS_PER_DAY})
    throttle.record("runs", who)
