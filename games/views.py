"""Pages of a match: the live board and the replay. Thin: access and selectors do the work."""
from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.access import LOBBY_URL_KEY, match_access
from games.engines import get_game
from games.models import Match
from games.selectors import replay_frames
from games.snapshot import seats_summary


def _match_for(request: HttpRequest, match_id: int):
    access = match_access(match_id, request.user, request.session)
    if access is None:
        raise Http404("No match here for you.")
    return Match.objects.get(pk=match_id), access


def play(request: HttpRequest, match_id: int) -> HttpResponse:
    match, access = _match_for(request, match_id)
    return render(request, "games/play.html", {
        "match": match, "game": get_game(match.game), "access": access,
        "lobby_url": request.session.get(LOBBY_URL_KEY) if access.seats else None,
        "seat_name": next((s["name"] for s in seats_summary(match.seats.all()) if s["index"] == access.view_seat), None),
    })


def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    match, access = _match_for(request, match_id)
    if match.status != Match.Status.FINISHED and not access.is_teacher:
        return render(request, "games/replay_wait.html", {"match": match}, status=403)
    return render(request, "games/replay.html", {
        "match": match, "game": get_game(match.game),
        "frames": replay_frames(match, access.view_seat if not access.is_teacher else None),
        "seats": seats_summary(match.seats.all()),
    })
