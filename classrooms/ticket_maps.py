"""Maps uploaded by a teacher (the session extension ``"ticket_maps"``, which Quantum
Ticket-to-Ride declares: ``Abilities.session_extension``): size-capped, parsed, checked by the
engine's own map validator (every problem named, nothing stored on failure), stored on the
class, and handed to the engine through a session's setup options."""
from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from classrooms.models import Classroom, TicketMap
from core import limits
from games.engines import Game, IllegalAction, UnknownGame, abilities_of, find_games, get_game
from games.errors import AppError, from_illegal

EXTENSION = "ticket_maps"  # the engines that declare it take a map (option "map") from the class
MAX_MAP_BYTES = 48 * 1024  # an uploaded file or pasted text (pretty-printed JSON included)


class MapError(AppError):
    """A map that was refused (an upload, or a choice of map); ``problems`` lists every reason,
    each fit to show (``message`` joins them)."""

    def __init__(self, code: str, problems: list[str]):
        super().__init__(code, " ".join(problems))
        self.problems = problems


def takes_maps(game_slug: str) -> bool:
    """Whether a session of this game takes a map of the class (its engine declares the extension)."""
    try:
        return abilities_of(get_game(game_slug)).session_extension == EXTENSION
    except UnknownGame:
        return False


def map_game() -> Game:
    """The game the class's maps are for (the first that declares the extension)."""
    return find_games(session_extension=EXTENSION)[0]


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
        raise MapError("bad_json", [_("The map is not valid JSON: %(error)s") % {"error": limits.json_problem(exc)}]) from exc


def check_map(data: Any) -> dict:
    """The map as the engine's validator returns it, or ``MapError`` naming every problem it
    found (the engine checks shape, cities, gates, lengths, connection and that every mission
    is solvable on the empty board)."""
    game = map_game()
    if not isinstance(data, dict):
        raise MapError("bad_map", [_("The map must be a JSON object with cities, routes and missions.")])
    too_big = limits.options_problem({"map": data})  # first: the size is cheap, the check is not
    if too_big:
        raise MapError("too_large", [too_big])
    checked, problems = game.map_problems(data)  # type: ignore[attr-defined]  # (its search is bounded)
    if problems or checked is None:
        raise MapError("bad_map", [_render(game.render_map_problem, m) for m in problems])  # type: ignore[attr-defined]
    too_big = limits.options_problem({"map": checked})
    if too_big:
        raise MapError("too_large", [too_big])
    return checked


def upload_map(classroom: Classroom, name: str, raw: bytes | str) -> TicketMap:
    """Store a map on the class after the engine accepted it; raises ``MapError`` otherwise."""
    name = (name or "").strip()
    data = check_map(parse_map(raw))
    if not name:
        name = str(data.get("name") or "").strip() if isinstance(data, dict) else ""
    if not name:
        raise MapError("no_name", [_("Give the map a name.")])
    return TicketMap.objects.create(classroom=classroom, name=name[:80], data=data)


def session_options(classroom: Classroom, map_id: Any, game_slug: str | None = None) -> dict:
    """The engine options a session of a game taking maps gets from a map stored on its class
    (blank: the engine's default map). The mission level is the session's variant."""
    if map_id in (None, ""):
        return {}
    try:
        stored = classroom.ticket_maps.get(pk=int(map_id))
    except (TypeError, ValueError, TicketMap.DoesNotExist) as exc:
        raise MapError("no_map", [_("No such map in this class.")]) from exc
    options = {"map": stored.data}
    try:  # the engine has the last word (a map that no longer fits a newer engine)
        (get_game(game_slug) if game_slug else map_game()).setup(players=2, seed=1, options=options)
    except IllegalAction as exc:
        raise MapError(exc.code, [from_illegal(exc).message]) from exc
    return options


def _render(render_problem, problem) -> str:
    """An engine's map problem in the reader's language (English if a translation lost a
    placeholder)."""
    try:
        return render_problem(problem, _)
    except (KeyError, TypeError, ValueError):
        return render_problem(problem)


def pretty(data: Any) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False)
