"""What the teacher sees of a table of a game with the ``ticket_maps`` extension (Quantum
Ticket-to-Ride): the claimed routes (public), who is
closest to completing a mission (secret: from the engine's teacher-only analysis, so only the
dashboard and the report, both teacher pages, show it) and the missions completed by a run."""
from __future__ import annotations

import threading
from collections import OrderedDict

from django.utils.translation import gettext as _

from classrooms.ticket_maps import takes_maps
from games.engines import State, get_game
from games.models import Match

_CACHE_SIZE = 500
_lock = threading.Lock()
# (match id, seed, log length) → the engine's analysis: the planner's search costs tens of
# milliseconds a table, and the dashboard is rebuilt on every move of every table
_analyses: OrderedDict[tuple[int, int, int], dict] = OrderedDict()


def _analysis(game_slug: str, key: tuple[int, int, int], state: State) -> dict:
    with _lock:
        if key in _analyses:
            _analyses.move_to_end(key)
            return _analyses[key]
    result = get_game(game_slug).analysis(state)
    with _lock:
        _analyses[key] = result
        while len(_analyses) > _CACHE_SIZE:
            _analyses.popitem(last=False)
    return result


def _ket(name: str) -> str:
    return "|" + name.replace("Phi", "Φ").replace("Psi", "Ψ").replace("-", "−") + "⟩"


def mission_words(m: dict) -> str:
    return _("%(start)s %(initial)s → %(target)s %(goal)s") % {
        "start": m["start"], "initial": _ket(m["initial_state"]), "target": m["target"], "goal": _ket(m["target_state"])}


def shows_progress(game: str, status: str) -> bool:
    """Whether a table has a progress summary: a table of a game with the ``ticket_maps``
    extension (Ticket-to-Ride) that has started."""
    return status != Match.Status.WAITING and takes_maps(game)


def table_progress(state: State, names: dict[int, str], key: tuple[int, int, int],
                   game_slug: str) -> dict:
    """The teacher's summary of one table (see ``shows_progress``), from its engine state alone
    (no query); ``key`` (match id, seed, log length) keys the engine's analysis."""
    routes = state["map"]["routes"]
    claimed = [{"route": r, "a": routes[r]["a"], "b": routes[r]["b"], "gate": routes[r]["gate"],
                "length": routes[r]["length"], "owner": owner, "owner_name": names.get(owner, "")}
               for r, owner in enumerate(state["owners"]) if owner is not None]
    analysis = _analysis(game_slug, key, state)
    players = [{"seat": p["seat"], "name": names.get(p["seat"], ""), "mission": mission_words(p["mission"]),
                "cards_needed": p["cards_needed"], "connected": p["connected"], "possible": p["possible"],
                "claimed_length": p["claimed_length"]} for p in analysis["players"]]
    return {"claimed": claimed, "players": players, "closest": analysis["closest"] or [],
            "completed": completed_missions(state, names)}


def completed_missions(state: dict, names: dict[int, str]) -> list[dict]:
    """Every run that completed its mission, with its circuit (the gates in order)."""
    out = []
    for run in state.get("runs", []):
        if not run.get("match"):
            continue
        out.append({"seat": run["seat"], "name": names.get(run["seat"], ""),
                    "mission": mission_words(run["mission"]), "cities": list(run["cities"]),
                    "gates": list(run["gates"]), "ket": run["ket"], "fidelity": run["fidelity"],
                    "circuit": circuit_text(run)})
    return out


def circuit_text(run: dict) -> str:
    """The run's circuit in one line, the gates in the order they act (arrows, as everywhere:
    X → H is X first, then H): |0⟩, the preparation in brackets, the path's gates, the measured
    basis, e.g. ``|0⟩ → [X → H] → H → Z → H → |1⟩?``."""
    prep = {"0": [], "1": ["X"], "+": ["H"], "-": ["X", "H"]}[run["mission"]["initial_state"]]
    steps = ([f"[{' → '.join(prep)}]"] if prep else []) + [
        "CX(q0,q1)" if g == "CNOT" else g for g in run["gates"]]
    return " → ".join(["|0⟩", *steps, f"{_ket(run['mission']['target_state'])}?"])
