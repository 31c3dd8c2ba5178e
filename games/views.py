"""Pages of a match: the live board and the replay. Thin: access and selectors do the work."""
from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.csp import policy_for
from games.access import LOBBY_URL_KEY, match_access, participant_ids
from games.engines import UnknownGame, get_game
from games.how_to_play import guide_of, rules_page
from games.models import Match, Seat
from games.partner_signals import phrases_for
from games.selectors import replay_frames
from games.snapshot import localized_seats, seats_summary


class SeatLost(Exception):
    """This browser's student was removed by the teacher: their seat went to a bot."""


def _match_for(request: HttpRequest, match_id: int):
    access = match_access(match_id, request.user, request.session)
    if access is None:
        ids = participant_ids(request.session)
        if ids and Seat.objects.filter(match_id=match_id, former_participant_id__in=ids).exists():
            raise SeatLost
        raise Http404(_("No match here for you."))
    return Match.objects.get(pk=match_id), access


def seat_lost_page(request: HttpRequest) -> HttpResponse:
    return render(request, "removed.html", {}, status=403)


def play(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match, access = _match_for(request, match_id)
    except SeatLost:
        return seat_lost_page(request)
    table = getattr(match, "table", None)  # a class session's table (classrooms), if any
    return render(request, "games/play.html", {
        "match": match, "game": get_game(match.game), "access": access,
        "lobby_url": request.session.get(LOBBY_URL_KEY) if access.seats else None,
        "session_socket": f"/ws/sessions/{table.session_id}/" if table is not None and access.seats else "",
        "signals": phrases_for(match.game) if access.seats or access.is_teacher else [],
        "seat_name": next((s["name"] for s in seats_summary(match.seats.all()) if s["index"] == access.view_seat), None),
    })


def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match, access = _match_for(request, match_id)
    except SeatLost:
        return seat_lost_page(request)
    if match.status not in (Match.Status.FINISHED, Match.Status.ABANDONED) and not access.is_teacher:
        return render(request, "games/replay_wait.html", {"match": match}, status=403)
    return render(request, "games/replay.html", {
        "match": match, "game": get_game(match.game),
        "frames": replay_frames(match, access.view_seat if not access.is_teacher else None),
        "seats": localized_seats(seats_summary(match.seats.all())),
    })


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    """How to play a game: its rules page (public: a student reads it from the lobby or, with
    ``?embed=1``, in the play page's dialog, without the site's header)."""
    try:
        game = get_game(slug)
    except UnknownGame:
        raise Http404(_("No such game.")) from None
    if guide_of(game) is None:
        raise Http404(_("No such game."))
    embed = request.GET.get("embed") == "1"
    response = render(request, "games/rules.html", {
        "game": game, "slug": slug, "page": rules_page(game), "embed": embed,
    })
    if embed:  # the play page's dialog frames it: this origin only, no other site
        response["X-Frame-Options"] = "SAMEORIGIN"
        response["Content-Security-Policy"] = policy_for(request).replace(
            "frame-ancestors 'none'", "frame-ancestors 'self'")
    return response
