"""Quantum Ticket-to-Ride maps uploaded by a teacher: size-capped, parsed, checked by the
engine's own map validator (every problem named, nothing stored on failure), stored on the
class, and handed to the engine through a session's setup options."""
from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from classrooms.models import Classroom, TicketMap
from games import limits
from games.engines import IllegalAction, get_game

GAME = "quantum-ticket-to-ride"
MAX_MAP_BYTES = 48 * 1024  # an uploaded file or pasted text (pretty-printed JSON included)
MISSION_LEVELS = ("basic", "intermediate", "advanced")


class MapError(Exception):
    """An upload that was refused; ``problems`` lists every reason, each fit to show."""

    def __init__(self, code: str, problems: list[str]):
        super().__init__("; ".join(problems))
        self.code = code
        self.problems = problems


def too_large_message(size: int) -> str:
    return _("The map file is too large (%(size)d bytes; at most %(max)d).") % {"size": size, "max": MAX_MAP_BYTES}


def parse_map(raw: bytes | str) -> Any:
    """The map's JSON from an upload, behind the size and nesting caps."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode())
    if size > MAX_MAP_BYTES:
        raise MapError("too_large", [too_large_message(size)])
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise MapError("bad_json", [_("The map file is not text (UTF-8 JSON expected).")]) from exc
    if not raw.strip():
        raise MapError("empty", [_("The map is empty: choose a JSON file or paste its text.")])
    try:
        return limits.loads(raw, max_bytes=MAX_MAP_BYTES, what=_("The map"))
    except limits.JSONTooBig as exc:
        raise MapError("too_large", [str(exc)]) from exc
    except ValueError as exc:
        raise MapError("bad_json", [_("The map is not valid JSON: %(error)s") % {"error": exc}]) from exc


def map_problems(data: Any) -> list[str]:
    """Every problem the engine's validator finds in the map (empty: the map is good)."""
    from games.engines.quantum_ticket_to_ride import validate_map

    return list(validate_map(data))


def check_map(data: Any) -> dict:
    problems = map_problems(data)
    if problems:
        raise MapError("bad_map", problems)
    too_big = limits.options_problem({"map": data})
    if too_big:
        raise MapError("too_large", [too_big])
    return data


def upload_map(classroom: Classroom, name: str, raw: bytes | str) -> TicketMap:
    """Store a map on the class after the engine accepted it; raises ``MapError`` otherwise."""
    name = (name or "").strip()
    data = check_map(parse_map(raw))
    if not name:
        name = str(data.get("name") or "").strip() if isinstance(data, dict) else ""
    if not name:
        raise MapError("no_name", [_("Give the map a name.")])
    return TicketMap.objects.create(classroom=classroom, name=name[:80], data=data)


def session_options(classroom: Classroom, map_id: Any, level: Any) -> dict:
    """The engine options a Ticket-to-Ride session gets from the teacher's choices: a stored map
    of this class (blank: the default map) and the mission level."""
    options: dict = {}
    if map_id not in (None, ""):
        try:
            stored = classroom.ticket_maps.get(pk=int(map_id))
        except (TypeError, ValueError, TicketMap.DoesNotExist) as exc:
            raise MapError("no_map", [_("No such map in this class.")]) from exc
        options["map"] = stored.data
    if level not in (None, ""):
        if level not in MISSION_LEVELS:
            raise MapError("bad_level", [_("The mission level is one of: %(levels)s.")
                                         % {"levels": ", ".join(MISSION_LEVELS)}])
        options["mission_level"] = level
    if options:  # the engine has the last word (a map that no longer fits a newer engine)
        try:
            get_game(GAME).setup(players=2, seed=1, options=options)
        except IllegalAction as exc:
            raise MapError(exc.code, [exc.message]) from exc
    return options


def pretty(data: Any) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False)
