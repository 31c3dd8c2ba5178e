"""What the dashboard (teacher) and a lobby (one student) are shown."""
from __future__ import annotations

from django.urls import reverse

from classrooms.models import ClassSession, Participant
from games.engines import get_game
from games.models import Match


def tables_summary(session: ClassSession) -> list[dict]:
    tables = []
    for table in session.tables.select_related("match").prefetch_related("match__seats"):
        match = table.match
        tables.append({
            "number": table.number,
            "match": match.pk,
            "status": match.status,
            "moves": match.seq,
            "seats": [{"index": s.index, "name": s.name, "bot": s.bot or None,
                       "participant": s.participant_id} for s in match.seats.all()],
            "outcome": match.outcome,
            "watch_url": reverse("games:play", args=[match.pk]),
            "replay_url": reverse("games:replay", args=[match.pk]),
        })
    return tables


def dashboard_payload(session: ClassSession) -> dict:
    tables = tables_summary(session)
    table_of = {s["participant"]: t["number"] for t in tables for s in t["seats"]
                if s["participant"] and t["status"] in (Match.Status.WAITING, Match.Status.PLAYING)}
    participants = [
        {"id": p.pk, "name": p.display_name, "table": table_of.get(p.pk)}
        for p in session.participants.filter(removed=False)
    ]
    return {
        "type": "dashboard",
        "session": session_summary(session),
        "participants": participants,
        "tables": tables,
    }


def session_summary(session: ClassSession) -> dict:
    game = get_game(session.game)
    return {
        "id": session.pk,
        "game": session.game,
        "game_name": game.name,
        "variant": session.variant,
        "join_code": session.join_code if session.is_live else None,
        "status": session.status,
        "show_odds": session.show_odds,
        "bot_level": session.bot_level,
        "table_size": session.options.get("table_size", game.min_players),
    }


def lobby_payload(session: ClassSession, participant: Participant | None) -> dict:
    if participant is None or participant.removed:
        return {"type": "lobby", "status": session.status, "removed": True, "match": None,
                "message": "Your teacher removed you from this session."}
    seat_match = Match.objects.filter(table__session=session, seats__participant_id=participant.pk) \
        .order_by("-id").first()
    payload = {"type": "lobby", "status": session.status, "removed": False,
               "name": participant.display_name, "match": None, "match_status": None}
    if seat_match is not None:
        payload["match"] = seat_match.pk
        payload["match_status"] = seat_match.status
        payload["table"] = seat_match.label
        payload["play_url"] = reverse("games:play", args=[seat_match.pk])
    return payload
