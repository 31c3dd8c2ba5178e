"""Exercise mode: a teacher composes a starting position (the engine's ``options``), validates it
through the engine's own ``setup`` (so the engine's clear error is shown and nothing is saved),
saves it to a class, and opens a session from it so every table plays the same puzzle."""
from __future__ import annotations

import copy
from functools import cache
from typing import Any

from django.utils.translation import gettext as _

from classrooms import services
from classrooms.models import Classroom, ClassSession, Exercise
from core import limits
from games.engines import Game, find_games, get_game
from games.engines.base import IllegalAction
from games.errors import AppError, from_illegal
from games.names import game_name

MAX_OPTIONS_CHARS = 20_000

def _examples() -> list[dict[str, Any]]:
    """The ready-made positions the engines offer (``exercise_examples``), each with its game."""
    return [{**ex, "game": game.slug} for game in find_games(exercises=True) for ex in game.exercise_examples]


# the ready-made exercises of the games that have exercise mode (QTris: the rulebook's "Worked
# examples", docs/rules/qtris.md), in the engine's options format
EXAMPLES: list[dict[str, Any]] = _examples()


def exercise_game() -> Game:
    """The game of the exercise editor: the (first) game declaring ``Abilities.exercises``."""
    return find_games(exercises=True)[0]


def exercise_name(name: str) -> str:
    """A saved exercise's name in the reader's language when it is a rulebook example's name
    (in English or in any language of the catalogs); another name is the teacher's own."""
    for ex in EXAMPLES:
        if name == ex["name"] or name in _example_names(ex["name"]):
            return _(ex["name"])
    return name


@cache
def _example_names(msgid: str) -> frozenset[str]:
    from django.conf import settings
    from django.utils import translation

    names = set()
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            names.add(_(msgid))
    return frozenset(names)


def examples_for_reader() -> list[dict[str, Any]]:
    """The rulebook examples with their names and descriptions in the reader's language."""
    return [ex | {"name": _(ex["name"]), "description": _(ex["description"])} for ex in EXAMPLES]


# the app's one error (``games.errors.AppError``) under the name this module used before
ExerciseError = AppError


def parse_options(raw: Any) -> dict:
    """The options from pasted JSON text (or an already-parsed object), or a clear error."""
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str) or not raw.strip():
        raise AppError("no_options", _("The starting position is empty: compose one or paste its JSON."))
    if len(raw) > MAX_OPTIONS_CHARS:
        raise AppError("too_long", _("That JSON is too long for a starting position."))
    try:
        value = limits.loads(raw, what=_("That JSON"))
    except limits.JSONTooBig as exc:
        raise AppError("too_large", str(exc)) from None
    except ValueError as exc:
        raise AppError("bad_json", _("The position is not valid JSON: %(why)s.")
                       % {"why": limits.json_problem(exc)}) from None
    if not isinstance(value, dict):
        raise AppError("bad_json", _("The position must be a JSON object, like {\"board\": [...], ...}."))
    return value


def players_for(game, variant: str, options: dict) -> int:
    size = options.get("table_size")
    if type(size) is int:
        return size
    return max(game.min_players, 3 if variant == "eve" else 2)


def validate(game_slug: str, variant: str | None, options: Any) -> tuple[dict, dict]:
    """Check a position with the engine's setup. Returns (options, the initial state)."""
    try:
        game = get_game(game_slug)
    except Exception:  # noqa: BLE001 — an unknown slug is a user error here
        raise AppError("bad_game", _("There is no game called %(game)r.") % {"game": game_slug}) from None
    variant = variant or game.variants[0]
    if variant not in game.variants:
        raise AppError("bad_variant", _("%(game)s has no variant %(variant)r (one of %(choices)s).")
                       % {"game": game_name(game.slug), "variant": variant, "choices": ", ".join(game.variants)})
    options = parse_options(options)
    problem = limits.options_problem(options)
    if problem:
        raise AppError("too_large", problem)
    engine_options = {k: v for k, v in options.items() if k != "table_size"}
    try:
        state = game.setup(players=players_for(game, variant, options), variant=variant, seed=1,
                           options=copy.deepcopy(engine_options))
    except IllegalAction as exc:
        raise from_illegal(exc) from None
    return options, state


def preview_payload(game_slug: str, variant: str, options: Any) -> dict:
    """What a spectator would see at the start of a game from this position (for the editor)."""
    options, state = validate(game_slug, variant, options)
    game = get_game(game_slug)
    players = players_for(game, variant, options)
    return {"view": game.view(state, None), "legal": [], "seat": None, "to_act": [], "events": [],
            "outcome": None, "replay": True, "seq": 0, "analysis": game.analysis(state),
            "seats": [{"index": i} for i in range(players)]}


def create_exercise(classroom: Classroom, name: str, game_slug: str, variant: str | None,
                    options: Any) -> Exercise:
    """Validate, then save. A bad position raises AppError and saves nothing."""
    name = (name or "").strip()
    if not name:
        raise AppError("no_name", _("Give the exercise a name."))
    if len(name) > 80:
        raise AppError("long_name", _("The name is too long (80 characters at most)."))
    game = get_game(game_slug) if game_slug else None
    variant = variant or (game.variants[0] if game else None)
    options, _state = validate(game_slug, variant, options)
    return Exercise.objects.create(classroom=classroom, game=game_slug, variant=variant, name=name,
                                   options=options)


def open_session_from(exercise: Exercise, *, bot_level: str = "strong", show_odds: bool = True) -> ClassSession:
    """A class session whose every table starts from the exercise's position."""
    options = dict(exercise.options)
    game = get_game(exercise.game)
    options.setdefault("table_size", players_for(game, exercise.variant, options))
    session = services.open_session(exercise.classroom, exercise.game, variant=exercise.variant,
                                    options=options, bot_level=bot_level, show_odds=show_odds)
    session.exercise = exercise  # remembered: the progress pages count who solved it
    session.save(update_fields=["exercise"])
    return session
