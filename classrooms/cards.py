"""Class cards (opt-in per class): a roster of nicknames, each member with a card code to join
the class's sessions as the same member on any device, and a member's data rights.

A card code is 8 characters from the join codes' alphabet (no 0/O, 1/I/L), printed in two groups
(``K7QH-M3WX``): 31⁸ ≈ 8.5·10¹¹ codes, behind the join throttle (``core.throttle``). It is
kept as printed (the teacher reprints cards) and looked up by its sha256; re-issuing a card
draws a new code, so the old one stops working.

Joining with a card: the member's participant in the session (made on the first join, with the
member's nickname) is shared by every browser that joins with the card, so the student can move
to another device and the old one keeps working too.

Deleting a member (``delete_member``) deletes all their data in one step: their participants in
every session; their seats at the tables keep the game playable but become a neutral "former
student" with no link to anyone, their name is taken out of the tables' action logs, and the
browsers that joined as them forget it.
"""
from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta
from importlib import import_module

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from classrooms import codes, names, services
from classrooms.broadcast import announce_session_changed
from classrooms.models import ClassMember, Classroom, ClassSession, Participant
from games import services as match_services
from games.access import PARTICIPANT_IDS_KEY
from games.bots import bot_levels
from games.broadcast import announce_match_changed, announce_seat_lost
from games.engines.base import render_text
from games.errors import AppError
from games.event_text import texts_of
from games.models import Action, Match, Seat

CARD_LENGTH = 8
MAX_MEMBERS = 200
FORMER_STUDENT = "former student"  # a seat's name once its member was deleted (stored, English)


def new_card_code() -> str:
    raw = "".join(secrets.choice(codes.ALPHABET) for _ in range(CARD_LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def card_hash(typed: str) -> str:
    """The hash a card is looked up by: case, spaces and dashes forgiven."""
    return hashlib.sha256(codes.normalise(typed).encode()).hexdigest()


def set_cards_enabled(classroom: Classroom, enabled: bool) -> None:
    classroom.cards_enabled = bool(enabled)
    classroom.save(update_fields=["cards_enabled"])


def _issue(member: ClassMember) -> None:
    member.card_code = new_card_code()
    member.card_code_hash = card_hash(member.card_code)
    member.issued_at = timezone.now()


def add_members(classroom: Classroom, text: str) -> list[ClassMember]:
    """Nicknames, one a line (blank lines skipped): all added, or none with every problem said."""
    if not classroom.cards_enabled:
        raise AppError("cards_off", gettext("Turn class cards on first."))
    if not isinstance(text, str):
        text = ""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise AppError("no_names", gettext("Type at least one nickname, one a line."))
    taken = {n.lower() for n in classroom.members.values_list("nickname", flat=True)}
    if len(taken) + len(lines) > MAX_MEMBERS:
        raise AppError("too_many", ngettext("A class can have at most %(max)d member.",
                                            "A class can have at most %(max)d members.", MAX_MEMBERS)
                       % {"max": MAX_MEMBERS})
    problems, seen, cleaned = [], set(), []
    for number, line in enumerate(lines, 1):
        try:
            nickname = names.clean_name(line)
        except names.BadName as exc:
            problems.append(gettext("Line %(n)d (“%(line)s”): %(reason)s")
                            % {"n": number, "line": line.strip()[:40], "reason": exc})
            continue
        if nickname.lower() in taken:
            problems.append(gettext("Line %(n)d: “%(name)s” is already in the class.") % {"n": number, "name": nickname})
        elif nickname.lower() in seen:
            problems.append(gettext("Line %(n)d: “%(name)s” is twice in the list.") % {"n": number, "name": nickname})
        seen.add(nickname.lower())
        cleaned.append(nickname)
    if problems:
        raise AppError("bad_names", " ".join([gettext("Nobody was added."), *problems]))
    with transaction.atomic():
        made = []
        for nickname in cleaned:
            member = ClassMember(classroom=classroom, nickname=nickname)
            _issue(member)
            member.save()
            made.append(member)
    return made


def reissue(member: ClassMember) -> ClassMember:
    """A new card for a lost one: the old code stops working at once."""
    _issue(member)
    member.save(update_fields=["card_code", "card_code_hash", "issued_at"])
    return member


def member_by_card(classroom: Classroom, typed: str) -> ClassMember | None:
    if not isinstance(typed, str) or not codes.normalise(typed):
        return None
    return ClassMember.objects.filter(classroom=classroom, card_code_hash=card_hash(typed)).first()


def member_by_card_anywhere(typed: str) -> ClassMember | None:
    """The member of any class (with cards on) whose card this is (homework: no join code)."""
    if not isinstance(typed, str) or not codes.normalise(typed):
        return None
    return ClassMember.objects.filter(card_code_hash=card_hash(typed), classroom__cards_enabled=True).first()


def join_with_card(session: ClassSession, typed_card: str, browser_session, *, may_add=None) -> Participant:
    """The card's member joins the session: the same participant on every browser using the card.
    A card of another class, a re-issued (old) card or a wrong one is refused; nothing is made.

    One student stays one student: the member's name join in this session (a participant who
    joined by name with the member's nickname, before the card) is taken over by the card, with
    its seats and games, and every browser that was it stays it. A removed member stays removed
    and asks the teacher to come back (``services.ask_to_come_back``). A new member waits in the
    waiting room when the teacher turned it on."""
    classroom = session.classroom
    member = member_by_card(classroom, typed_card) if classroom.cards_enabled else None
    if member is None:
        raise AppError("bad_card", gettext("This card does not belong to this class, or it was replaced by a "
                                           "new one. Check the code or ask your teacher."), status=403)
    mine = services.returning_participant(session, browser_session, removed=True)
    existing = _members_participant(session, member)
    if existing is None and not _name_taken_over(session, member):
        if session.status == ClassSession.Status.ENDED:
            raise AppError("ended", gettext("This class session has ended."), status=403)
        if session.status == ClassSession.Status.LOCKED:
            raise AppError("locked", gettext("This class session is locked: ask your teacher."), status=403)
        if may_add is not None and not may_add():
            raise AppError("slow_down", gettext("Too many new students from this network at once: wait a minute "
                                                "and try again."), status=429)
    for _ in range(5):
        try:
            with transaction.atomic():
                locked = ClassSession.objects.select_for_update().get(pk=session.pk)
                existing = _members_participant(session, member)
                if existing is None:
                    existing = _take_over_name_join(locked, member)
                if existing is None:
                    services.check_room_for(locked)
                    taken = set(locked.participants.values_list("display_name", flat=True))
                    existing = Participant.objects.create(
                        session=session, member=member, display_name=names.unique_name(member.nickname, taken),
                        admitted=not locked.waiting_room)
                    transaction.on_commit(lambda: announce_session_changed(session.pk))
            break
        except IntegrityError:
            continue
    else:
        raise AppError("busy", gettext("Too many students joined at once; try again."))
    ClassMember.objects.filter(pk=member.pk).update(last_seen_at=timezone.now())
    services.remember_participant(browser_session, session.pk, existing.pk)
    if existing.removed:
        return services.ask_to_come_back(existing, same_browser=mine is not None and mine.pk == existing.pk)
    return existing


def _members_participant(session: ClassSession, member: ClassMember) -> Participant | None:
    return Participant.objects.filter(session=session, member=member, merged_into=None).first()


def _name_join_of(session: ClassSession, member: ClassMember) -> Participant | None:
    """The participant who joined this session by name with the member's nickname (case forgiven)."""
    return services.same_name(session.participants.filter(member=None), member.nickname)


def _name_taken_over(session: ClassSession, member: ClassMember) -> bool:
    return _name_join_of(session, member) is not None


def _take_over_name_join(session: ClassSession, member: ClassMember) -> Participant | None:
    """The member's name join becomes the member's participant (same seats, same games, same
    browsers), named as on the card."""
    found = _name_join_of(session, member)
    if found is None:
        return None
    found.member = member
    found.display_name = member.nickname
    found.save(update_fields=["member", "display_name"])
    Seat.objects.filter(Q(participant_id=found.pk) | Q(former_participant_id=found.pk)).update(name=member.nickname)
    transaction.on_commit(lambda: announce_session_changed(session.pk))
    return found


def _scrub(value, words: list[str], texts: dict[str, str]):
    """``value`` (an action's events) without the names ``words``: a string that is one of them
    (a name parameter) becomes the neutral name, an event's text is rendered again from its
    scrubbed parameters, and any other text has the names replaced where they stand as words."""
    if isinstance(value, str):
        if value in words:
            return FORMER_STUDENT
        for word in words:
            value = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", FORMER_STUDENT, value)
        return value
    if isinstance(value, list):
        return [_scrub(v, words, texts) for v in value]
    if isinstance(value, dict):
        scrubbed = {k: _scrub(v, words, texts) for k, v in value.items()}
        code, params = scrubbed.get("code"), scrubbed.get("params")
        if isinstance(code, str) and code in texts and isinstance(params, dict) and "text" in scrubbed:
            try:
                scrubbed["text"] = render_text(texts, code, params)
            except (KeyError, TypeError, ValueError):
                pass  # the word-wise replacement above stands
        return scrubbed
    return value


def delete_member(member: ClassMember) -> None:
    """All of the member's data, in one step: their participants (every session), the link and
    the name of their seats, their name in the action logs, the member itself."""
    participants = list(member.participants.values_list("pk", "display_name", "session_id"))
    # and the rows the teacher merged into theirs (their other names: deleted with them)
    aliases = participants
    for _ in range(services.MAX_MERGE_HOPS):
        aliases = list(Participant.objects.filter(merged_into_id__in=[pk for pk, _n, _s in aliases])
                       .values_list("pk", "display_name", "session_id"))
        if not aliases:
            break
        participants += aliases
    ids = [pk for pk, _name, _session in participants]
    # longest first: "Sam 2" is replaced before "Sam"
    words = sorted({member.nickname, *(name for _pk, name, _s in participants)}, key=len, reverse=True)
    with transaction.atomic():
        _bots_take_their_live_seats(participants)
        seats = Seat.objects.filter(Q(participant_id__in=ids) | Q(former_participant_id__in=ids))
        match_ids = set(seats.values_list("match_id", flat=True))
        seats.update(name=FORMER_STUDENT, participant_id=None, former_participant_id=None)
        for action in Action.objects.filter(match_id__in=match_ids).select_related("match").only(
                "pk", "events", "match__game"):
            scrubbed = _scrub(action.events, words, texts_of(action.match.game))
            if scrubbed != action.events:
                Action.objects.filter(pk=action.pk).update(events=scrubbed)
        member.delete()  # its participants go with it (CASCADE)
    _forget_in_browsers(set(ids))
    for session_id in {s for _pk, _name, s in participants}:
        transaction.on_commit(lambda s=session_id: announce_session_changed(s))


def _bots_take_their_live_seats(participants) -> None:
    """At tables still waiting or playing, a bot takes the member's seat (as when the teacher
    removes a student) so that the other players play on."""
    for pk, _name, session_id in participants:
        session = ClassSession.objects.get(pk=session_id)
        level = session.bot_level or next(iter(bot_levels(session.game)), "")
        live = session.tables.filter(match__status__in=[Match.Status.WAITING, Match.Status.PLAYING],
                                     match__seats__participant_id=pk)
        for match_id in live.values_list("match_id", flat=True):
            applied = match_services.replace_with_bot(match_id, pk, level)
            if applied is not None:
                transaction.on_commit(lambda m=match_id, p=pk: announce_seat_lost(m, p))
                transaction.on_commit(lambda a=applied: announce_match_changed(a.match_id, a.snapshot, a.events))


def _forget_in_browsers(participant_ids: set[int]) -> None:
    """Browsers that joined as one of ``participant_ids`` forget it (their stored sessions)."""
    if not participant_ids:
        return
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    for stored in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        data = stored.get_decoded()
        mapping = data.get(services.SESSION_PARTICIPANTS_KEY) or {}
        if not set(mapping.values()) & participant_ids:
            continue
        browser = store_class(session_key=stored.session_key)
        kept = {sid: pid for sid, pid in mapping.items() if pid not in participant_ids}
        browser[services.SESSION_PARTICIPANTS_KEY] = kept
        browser[PARTICIPANT_IDS_KEY] = sorted(set(kept.values()))
        browser.save()


def purge_inactive_members(now=None) -> int:
    """Members who joined no session for the retention period (or never, since their card was
    issued) are deleted with all their data. Returns how many."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.RETENTION_DAYS)
    stale = ClassMember.objects.filter(Q(last_seen_at__lt=cutoff) | Q(last_seen_at__isnull=True, issued_at__lt=cutoff))
    count = 0
    for member in stale.iterator():
        delete_member(member)
        count += 1
    return count
