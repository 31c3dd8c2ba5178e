"""Golden playthroughs: recorded games that every engine must still replay exactly, under the
rules version they were recorded with (games/engines/base.py, "Rules versions").

A golden file (``tests/golden/<game>/<variant>-<name>.v<rules version>.json``) holds one game
played by bots (every level, the random bot standing in for a student whose time ran out), with
its chance events, sometimes ended by the platform's "time is up" (``FINISH_ACTION``): the set-up
(``players``, ``variant``, ``options``, ``seed``), the ``actions`` as the match log stores them,
and what the engine gave at every step: the seats awaited (``to_act``), a digest of each awaited
seat's legal actions, the events of the step, the view of the spectator and of every seat, and at
the end the ``outcome``.

What is compared is what the rules decide, not how it is said in English. Texts are left out
when recording and never compared: every string under a ``text`` key (an event's, a nested
message's, a teaching moment's ``text`` beside its ``code`` and ``params``; an explanation's
beside its ``messages``; a card's rule in words) or a ``description`` key (a map's blurb), and
any ``key`` that has a ``key_message`` beside it. The events' texts are renderings of their codes
and params, which are compared, so a wording fix (a msgid changed in ``event_texts``, a
physics sentence reworded) never breaks a golden file; a changed code, param, state or view
datum, legal action or outcome does. A key that the recording lacks is tolerated (a view that
shows more than before does not change the game, and the texts left out are such keys); every
recorded key must be there with the same value (numbers equal to 1e-9, lists of the same length).

Compact encoding (a few kB a game): views are stored as patches against the same viewer's view
one step earlier, or against the spectator's view of the same step, or as "the same patch as
viewer j"; every dict value that appears twice (an event in the step's events and in each view)
is stored once in ``shared`` and referenced as ``{"@": index}``. ``decode`` undoes all of it.

Record with ``python -m tests.golden.record`` (see there): it writes the files of the current
rules versions that are missing and refuses to overwrite one that exists (its rules version did
not change, so neither may the game it recorded).
"""
from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from games.bots import bot_levels
from games.engines import (
    FINISH_ACTION,
    Game,
    apply_logged,
    chance,
    get_game,
    replay_steps,
)

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"
FORMAT = 1
MAX_ACTIONS = 400  # a recording that runs longer is a bug of the scenario (raise finish_at)


@dataclass(frozen=True)
class Scenario:
    """One recorded game: ``bots`` is the level of each seat; ``finish_at``: the platform's
    "time is up" after that many actions (None: the game ends by itself)."""

    game: str
    variant: str
    name: str
    bots: tuple[str, ...]
    seed: int
    options: tuple[tuple[str, Any], ...] = ()
    finish_at: int | None = None

    @property
    def players(self) -> int:
        return len(self.bots)

    def path(self, rules_version: int) -> Path:
        return GOLDEN_DIR / self.game / f"{self.variant}-{self.name}.v{rules_version}.json"


S = Scenario
# A few games per game and variant: full games where they are short, the others ended by the
# platform's "time is up" (which every game's finish rule must keep too).
SCENARIOS: tuple[Scenario, ...] = (
    S("quantum-tictactoe", "basic", "strong-random", ("strong", "random"), seed=11),
    S("quantum-tictactoe", "basic", "medium-strong", ("medium", "strong"), seed=12),
    S("quantum-tictactoe", "basic", "random-finish", ("random", "random"), seed=13, finish_at=5),
    S("qtris", "basic", "strong-random", ("strong", "random"), seed=21),
    S("qtris", "basic", "three-finish", ("random", "strong", "random"), seed=22, finish_at=9),
    S("qtris", "advanced", "random-strong-finish", ("random", "strong"), seed=23, finish_at=9),
    S("qtris", "advanced", "four-finish", ("random", "strong", "random", "strong"), seed=123,
      finish_at=6),
    S("qtris", "noise", "strong-random-finish", ("strong", "random"), seed=24, finish_at=14),
    S("qtris", "noise", "exercise-finish", ("random", "random"), seed=25,
      options=(("noise_exercise", True),), finish_at=8),
    S("qtris", "s-expansion", "strong-strong-finish", ("strong", "strong"), seed=26, finish_at=10),
    S("qtris", "s-expansion", "three-finish", ("random", "random", "strong"), seed=126,
      finish_at=6),
    S("qtris", "eve", "three-finish", ("strong", "random", "strong"), seed=27, finish_at=12),
    S("qtris", "eve", "four-finish", ("random", "strong", "random", "random"), seed=127,
      finish_at=8),
    S("quantum-poker", "classic", "strong-random", ("strong", "random"), seed=31,
      options=(("hands", 1),)),
    S("quantum-poker", "classic", "physics-three-finish", ("random", "strong", "random"), seed=32,
      options=(("physics_mode", True),), finish_at=7),
    S("quantum-poker", "declared", "random-strong", ("random", "strong"), seed=33,
      options=(("hands", 1), ("physics_mode", True))),
    S("quantum-poker", "declared", "three-finish", ("strong", "random", "strong"), seed=133,
      finish_at=6),
    S("entanglion", "easy", "partner-random-finish", ("partner", "random"), seed=41, finish_at=14),
    S("entanglion", "easy", "random-random-finish", ("random", "random"), seed=141, finish_at=8),
    S("entanglion", "hard", "partner-partner-finish", ("partner", "partner"), seed=42,
      finish_at=12),
    S("entanglion", "hard", "random-partner-finish", ("random", "partner"), seed=142, finish_at=8),
    S("quantum-ticket-to-ride", "basic", "random-strong", ("random", "strong"), seed=3),
    S("quantum-ticket-to-ride", "basic", "strong-random-finish", ("strong", "random"), seed=51,
      finish_at=10),
    S("quantum-ticket-to-ride", "intermediate", "three-finish", ("random", "strong", "random"),
      seed=52, finish_at=10),
    S("quantum-ticket-to-ride", "intermediate", "random-strong-finish", ("random", "strong"),
      seed=152, finish_at=6),
    S("quantum-ticket-to-ride", "advanced", "three-finish", ("strong", "random", "strong"), seed=53,
      finish_at=10),
    S("quantum-ticket-to-ride", "mixed", "random-strong-finish", ("random", "strong"), seed=54,
      finish_at=10),
)


# --- what is compared ----------------------------------------------------------------------

PROSE_KEYS = frozenset({"text", "description"})  # a string under these keys is words for a reader


def without_texts(value: Any) -> Any:
    """``value`` (a view, events, an outcome) with its English words left out (see the module
    docstring), as plain JSON data (tuples as lists)."""
    if isinstance(value, dict):
        return {k: without_texts(v) for k, v in value.items()
                if not (k in PROSE_KEYS and isinstance(v, str)) and f"{k}_message" not in value}
    if isinstance(value, list | tuple):
        return [without_texts(v) for v in value]
    return value


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical(value).encode()).hexdigest()[:12]


def mismatch(recorded: Any, current: Any, path: str = "") -> str | None:
    """Where ``current`` differs from ``recorded`` (None: it does not): every recorded key is
    there with the same value, a key the recording lacks is tolerated (so are the texts a
    recording leaves out), lists match in length, numbers to 1e-9."""
    if isinstance(recorded, dict):
        if not isinstance(current, dict):
            return f"{path or '.'}: recorded an object, now {type(current).__name__}"
        for key, value in recorded.items():
            if key not in current:
                return f"{path}/{key}: recorded, now missing"
            now = current[key]
            if value == now:  # (the common case, at C speed)
                continue
            found = mismatch(value, now, f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(recorded, list):
        if not isinstance(current, list | tuple):
            return f"{path or '.'}: recorded a list, now {type(current).__name__}"
        if len(recorded) != len(current):
            return f"{path or '.'}: recorded {len(recorded)} items, now {len(current)}"
        for i, (a, b) in enumerate(zip(recorded, current, strict=True)):
            if a == b:
                continue
            found = mismatch(a, b, f"{path}/{i}")
            if found:
                return found
        return None
    numbers = (int, float)
    if (isinstance(recorded, numbers) and isinstance(current, numbers)
            and not isinstance(recorded, bool) and not isinstance(current, bool)):
        if math.isclose(recorded, current, rel_tol=1e-9, abs_tol=1e-12):
            return None
    elif recorded == current and type(recorded) is type(current):
        return None
    return f"{path or '.'}: recorded {_short(recorded)}, now {_short(current)}"


def _short(value: Any) -> str:
    text = canonical(value)
    return text if len(text) <= 160 else text[:157] + "..."


# --- one step of a game, as recorded and as replayed ---------------------------------------

def observe(game: Game, players: int, state: dict, events: list[dict] | None, *,
            texts: bool = False) -> dict:
    """What the engine says at one step: the seats awaited, their legal actions' digests, the
    step's events (None at the set-up), every viewer's view (spectator first), without texts
    (``texts``: as the engine gives them, which ``mismatch`` compares the same way)."""
    plain = (lambda value: value) if texts else without_texts
    to_act = list(game.to_act(state))
    step: dict[str, Any] = {
        "to_act": to_act,
        "legal": [digest(game.legal_actions(state, seat)) for seat in to_act],
        "views": [plain(game.view(state, seat)) for seat in [None, *range(players)]],
    }
    if events is not None:
        step["events"] = plain(events)
    return step


def play(scenario: Scenario) -> tuple[list[list], list[dict], dict]:
    """The scenario's game played by its bots: (actions as logged, steps observed, outcome)."""
    game = get_game(scenario.game)
    levels = bot_levels(scenario.game)
    bots = [levels[level] for level in scenario.bots]
    state = game.setup(players=scenario.players, variant=scenario.variant, seed=scenario.seed,
                       options=dict(scenario.options))
    steps = [observe(game, scenario.players, state, None)]
    actions: list[list] = []
    while game.outcome(state) is None:
        n = len(actions)
        if n >= MAX_ACTIONS:
            raise RuntimeError(f"{scenario}: no outcome after {n} actions")
        if scenario.finish_at is not None and n >= scenario.finish_at:
            seat, action = 0, dict(FINISH_ACTION)
        else:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            action = bots[seat].choose(game.view(state, seat), legal,
                                       chance(scenario.seed, n, "bot"))
        action = json.loads(json.dumps(action))  # as the log stores it
        state, events = apply_logged(game, state, seat, action)
        actions.append([seat, action])
        steps.append(observe(game, scenario.players, state, events))
    return actions, steps, without_texts(game.outcome(state))


def replayed(golden: dict) -> Iterator[tuple[dict, dict | None]]:
    """The golden game replayed by the current engine under its recorded rules version: per step,
    what the engine says now (``observe``, texts left in), and at the end the outcome (else None)."""
    game = get_game(golden["game"])
    steps = replay_steps(game, golden["players"], golden["variant"], golden["options"],
                         golden["seed"], [(seat, action) for seat, action in golden["actions"]],
                         rules_version=golden["rules_version"])
    engine = get_game(golden["game"], golden["rules_version"])
    last = len(golden["actions"])
    for n, (state, events) in enumerate(steps):
        yield (observe(engine, golden["players"], state, events if n else None, texts=True),
               engine.outcome(state) if n == last else None)


# --- the compact encoding --------------------------------------------------------------------

def diff(old: Any, new: Any, path: list, ops: list) -> None:
    """Append to ``ops`` the patch that turns ``old`` into ``new`` (see ``patch``)."""
    if old == new and type(old) is type(new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append(["-", [*path, key]])
        for key, value in new.items():
            if key in old:
                diff(old[key], value, [*path, key], ops)
            else:
                ops.append(["=", [*path, key], value])
        return
    if isinstance(old, list) and isinstance(new, list) and old and new:
        sub = _list_diff(old, new, path)
        if len(canonical(sub)) < len(canonical(new)):
            ops.extend(sub)
            return
    ops.append(["=", path, new])


def _list_diff(old: list, new: list, path: list) -> list:
    """A list's patch: drop items from the front (a window of recent events moving on), patch
    the items in common, append or cut the rest."""
    def overlap(k: int) -> int:
        return sum(1 for a, b in zip(old[k:], new, strict=False) if a == b)

    shift = max(range(len(old)), key=lambda k: (overlap(k), -k))
    ops: list = []
    if shift and overlap(shift) > overlap(0):
        ops.append(["<", path, shift])
        old = old[shift:]
    common = min(len(old), len(new))
    for i in range(common):
        diff(old[i], new[i], [*path, i], ops)
    if len(new) > common:
        ops.append(["+", path, new[common:]])
    elif len(old) > common:
        ops.append(["#", path, common])
    return ops


def patch(value: Any, ops: list) -> Any:
    """``value`` with the patch ``ops`` applied, in place where it can be (the result is
    returned): ``["=", path, v]`` sets, ``["-", path]`` deletes a key, ``["<", path, k]`` drops k
    items from the front of a list, ``["+", path, items]`` appends, ``["#", path, n]`` keeps the
    first n. Values are copied in (a patch may be applied to several views)."""
    for op in ops:
        kind, path = op[0], op[1]
        if kind == "=" and not path:
            value = _copy(op[2])
            continue
        parent = value
        for key in path[:-1] if kind in "=-" else path:
            parent = parent[key]
        if kind == "=":
            parent[path[-1]] = _copy(op[2])
        elif kind == "-":
            del parent[path[-1]]
        elif kind == "<":
            del parent[:op[2]]
        elif kind == "+":
            parent.extend(_copy(op[2]))
        elif kind == "#":
            del parent[op[2]:]
        else:
            raise ValueError(f"unknown patch operation {kind!r}")
    return value


def _copy(value: Any) -> Any:
    return orjson.loads(orjson.dumps(value)) if isinstance(value, dict | list) else value


def encode_views(steps: list[dict]) -> list[dict]:
    """The steps with their views as patches (module docstring)."""
    out = []
    previous: list[Any] = [None] * len(steps[0]["views"])
    for step in steps:
        views = step["views"]
        encoded: list[Any] = []
        for i, view in enumerate(views):
            own: list = []
            diff(previous[i], view, [], own)
            same = next((j for j in range(i) if encoded[j] == own), None)
            if same is not None:
                encoded.append(same)
                continue
            if i:
                beside: list = []
                diff(views[0], view, [], beside)
                if len(canonical(beside)) < len(canonical(own)):
                    encoded.append({"s": beside})
                    continue
            encoded.append(own)
        out.append({**step, "views": encoded})
        previous = views
    return out


def decoded_views(steps: list[dict]) -> Iterator[list]:
    """Every step's views (spectator first), rebuilt from their patches. The lists and views
    yielded are changed in place by the next step: compare them before asking for the next."""
    previous: list[Any] = [None] * len(steps[0]["views"])
    for step in steps:
        views: list[Any] = []
        for i, encoded in enumerate(step["views"]):
            if isinstance(encoded, int):  # the same patch as an earlier viewer's own
                views.append(patch(previous[i], step["views"][encoded]))
            elif isinstance(encoded, dict):  # a patch of the spectator's view of this step
                views.append(patch(_copy(views[0]), encoded["s"]))
            else:
                views.append(patch(previous[i], encoded))
        yield views
        previous = views


SHARED_MIN = 40  # characters of JSON: smaller values are not worth a reference


def share(steps: list[dict]) -> tuple[list, list[dict]]:
    """Every dict or list that appears twice or more in ``steps`` (or in a shared value) stored
    once, in ``shared``, and referenced as ``{"@": index}``: (shared, steps)."""
    counts: Counter[str] = Counter()

    def count(value: Any) -> None:
        if isinstance(value, dict | list):
            if isinstance(value, dict) and set(value) == {"@"}:
                raise ValueError("a recorded value looks like a shared reference")
            text = canonical(value)
            if len(text) >= SHARED_MIN:
                counts[text] += 1
            for item in value.values() if isinstance(value, dict) else value:
                count(item)

    count(steps)
    index: dict[str, int] = {}
    shared: list = []

    def replace(value: Any, top: bool = False) -> Any:
        if not isinstance(value, dict | list):
            return value
        text = canonical(value)
        if not top and counts[text] >= 2:
            if text not in index:
                entry = replace(value, top=True)  # its own parts shared too
                index[text] = len(shared)
                shared.append(entry)
            return {"@": index[text]}
        if isinstance(value, dict):
            return {k: replace(v) for k, v in value.items()}
        return [replace(v) for v in value]

    replaced = [replace(step) for step in steps]
    return shared, replaced


def unshare(shared: list, value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"@"}:
            return unshare(shared, shared[value["@"]])
        return {k: unshare(shared, v) for k, v in value.items()}
    if isinstance(value, list):
        return [unshare(shared, v) for v in value]
    return value


# --- files -------------------------------------------------------------------------------------

def record(scenario: Scenario) -> dict:
    """The golden document of ``scenario`` under the current rules."""
    game = get_game(scenario.game)
    actions, steps, outcome = play(scenario)
    shared, encoded = share(encode_views(steps))
    return {
        "format": FORMAT, "game": scenario.game, "variant": scenario.variant,
        "rules_version": game.rules_version, "players": scenario.players,
        "options": dict(scenario.options), "seed": scenario.seed, "bots": list(scenario.bots),
        "finish_at": scenario.finish_at, "actions": actions, "outcome": outcome,
        "shared": shared, "steps": encoded,
    }


def dumps(document: dict) -> str:
    """Compact JSON, one action, shared value and step a line (readable diffs)."""
    head = {k: v for k, v in document.items() if k not in ("actions", "shared", "steps")}
    lines = [canonical(head)[:-1] + ","]
    for key in ("actions", "shared", "steps"):
        items = document[key]
        lines.append(f'"{key}":[')
        lines.extend(canonical(item) + ("," if i < len(items) - 1 else "")
                     for i, item in enumerate(items))
        lines.append("]," if key != "steps" else "]}")
    return "\n".join(lines) + "\n"


def load(path: Path) -> dict:
    """A golden file with its shared values put back (its views still patches: see
    ``decoded_views``)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if document.get("format") != FORMAT:
        raise ValueError(f"{path}: unknown golden format {document.get('format')!r}")
    return {**document, "steps": unshare(document["shared"], document["steps"])}


def golden_files() -> list[Path]:
    return sorted(GOLDEN_DIR.glob("*/*.v*.json"))


def compare(golden: dict) -> str | None:
    """The first difference between the golden game and its replay by the current engine under
    the recorded rules version (None: none)."""
    recorded = golden["steps"]
    views = decoded_views(recorded)
    n = -1
    for n, (now, outcome) in enumerate(replayed(golden)):
        if n >= len(recorded):
            return f"step {n}: the replay has more steps than the recording"
        was = recorded[n]
        for key in ("to_act", "legal", "events"):
            if key in was:
                found = mismatch(was[key], now.get(key))
                if found:
                    return f"step {n} ({_action(golden, n)}): {key}{found}"
        for viewer, view in enumerate(next(views)):
            found = mismatch(view, now["views"][viewer] if viewer < len(now["views"]) else None)
            if found:
                who = "the spectator" if viewer == 0 else f"seat {viewer - 1}"
                return f"step {n} ({_action(golden, n)}): view of {who}{found}"
        if outcome is not None:
            found = mismatch(golden["outcome"], outcome)
            if found:
                return f"outcome{found}"
    if n + 1 != len(recorded):
        return f"the replay has {n + 1} steps, the recording {len(recorded)}"
    return None


def _action(golden: dict, n: int) -> str:
    if n == 0:
        return "set-up"
    seat, action = golden["actions"][n - 1]
    return f"after seat {seat}'s {canonical(action)[:80]}"
