"""What the statistics pages and the API show: runs, one match against its odds, a class
session's results next to the exact expectations."""
from __future__ import annotations

from collections import Counter
from typing import Any

from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext, pgettext_lazy

from classrooms.models import ClassSession
from core.csvcells import csv_text
from games.engines import abilities_of
from games.event_text import localize_view
from games.models import Match
from games.names import bot_level_name
from games.selectors import state_at
from games.snapshot import seat_name
from simulator import backends
from simulator.models import Backend, Run
from simulator.positions import Position, load_position
from simulator.scoring import NotScorable, has_circuit, score_table, side_words


def run_payload(run: Run) -> dict[str, Any]:
    """A run as the API and the progress poller see it (never a credential)."""
    return {
        "id": run.pk, "match": run.match_id, "action_number": run.action_number,
        "backend": run.backend, "device": run.device, "shots": run.shots, "seed": run.seed,
        "status": run.status, "shots_done": run.shots_done,
        "progress": 1.0 if run.status == Run.Status.DONE else
        (run.shots_done / run.shots if run.shots else 0.0),
        "error": run.error, "job_id": run.job_id or None,
        "counts": run.counts, "probabilities": run.probabilities, "scores": run.scores,
        "transpiled_depth": run.transpiled_depth,
        "transpiled_two_qubit_gates": run.transpiled_two_qubit_gates,
        "attempts": run.attempts,
        "queued_at": run.queued_at.isoformat() if run.queued_at else None,
        "started_at": run.started_at.isoformat() if run.started_at else None,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "simulation_seconds": run.simulation_seconds,
        "url": reverse("api-simulator-run", args=[run.pk]),
    }


def runs_of(match: Match, action_number: int | None = None, *, public: bool = False) -> list[Run]:
    """The match's runs (of one position); ``public``: those of the players' circuits only."""
    runs = Run.objects.filter(match=match)
    if public:
        runs = runs.filter(public_circuit=True)
    if action_number is not None:
        runs = runs.filter(action_number=action_number)
    return list(runs.order_by("-queued_at", "-id")[:50])


def latest_done(match: Match, action_number: int, backend: str, public: bool = False) -> Run | None:
    """The latest finished run of this position's circuit (the players' circuit with ``public``)."""
    runs = Run.objects.filter(match=match, action_number=action_number, backend=backend,
                              status=Run.Status.DONE)
    if public:
        runs = runs.filter(public_circuit=True)
    return runs.order_by("-finished_at", "-id").first()


def exact_table(position: Position) -> dict[str, Any]:
    probs = position.scorer.exact()
    if probs is None:
        probs = backends.exact_probabilities(position.circuit).probabilities or {}
    table = score_table(position.scorer, probs)
    actual = position.scorer.actual()
    table["actual"] = list(actual) if actual is not None else None
    return table


def _verdict(sides: list[str], exact: dict, noisy: dict | None, device: str) -> list[str]:
    lines = []
    actual = exact.get("actual")
    pct = lambda p: f"{p:.0%}"  # noqa: E731
    name = lambda side: capfirst(side_words(side))  # noqa: E731  ("white", "seat 2" in the reader's words)
    if actual is not None:
        best = max(actual)
        leaders = [i for i, v in enumerate(actual) if v == best]
        if len(leaders) > 1:
            lines.append(gettext("A draw. The odds of a draw were %(p)s.") % {"p": pct(exact["win"]["tie"])})
        else:
            side = sides[leaders[0]]
            p = exact["win"][side]
            text = (gettext("%(side)s won with a %(p)s chance of winning — lucky!") if p < 0.5 else
                    gettext("%(side)s won with a %(p)s chance of winning — the favourite won."))
            lines.append(text % {"side": name(side), "p": pct(p)})
        for i, side in enumerate(sides):
            luck = actual[i] - exact["expected"][i]
            values = {"side": name(side), "score": actual[i], "expected": f"{exact['expected'][i]:.2f}",
                      "luck": f"{abs(luck):.2f}"}
            if luck > 0:
                lines.append(gettext("%(side)s scored %(score)s, expected %(expected)s: %(luck)s above the odds.") % values)
            elif luck < 0:
                lines.append(gettext("%(side)s scored %(score)s, expected %(expected)s: %(luck)s below the odds.") % values)
            else:
                lines.append(gettext("%(side)s scored exactly the expected %(score)s.") % values)
    if noisy:
        for side in sides:
            lines.append(gettext("Noise on %(device)s moves %(side)s's chance of winning from %(before)s to %(after)s.")
                         % {"device": device, "side": side_words(side), "before": pct(exact["win"][side]),
                            "after": pct(noisy["win"][side])})
    return lines


def match_odds(match: Match, *, public: bool = False) -> dict[str, Any]:
    """This game vs the odds: the final (or current) position's exact score distribution,
    the actual score, and the latest Aer and noisy runs of the same position (``public``: of
    the players' circuit, see ``Abilities.private_circuit``)."""
    position = load_position(match, public=public)
    exact = exact_table(position)
    aer = latest_done(match, position.action_number, Backend.AER, public)
    noisy = latest_done(match, position.action_number, Backend.AER_NOISY, public)
    hardware = latest_done(match, position.action_number, Backend.IBM, public)
    sides = exact["sides"]
    state = position.state
    board = position.scorer.final_board()
    return {
        "match": match.pk, "game": match.game, "status": match.status,
        "action_number": position.action_number, "finished": match.status == Match.Status.FINISHED,
        "final_board": board, "colors": state.get("colors") if isinstance(state, dict) else None,
        "sides": sides, "actual": exact["actual"], "exact": exact,
        "aer": run_payload(aer) if aer else None,
        "noisy": run_payload(noisy) if noisy else None,
        "ibm": run_payload(hardware) if hardware else None,
        "verdict": position.scorer.verdict(exact, {"Aer": aer, "noisy": noisy, "IBM": hardware}) + (
            _verdict(sides, exact, noisy.scores if noisy else None, noisy.device if noisy else "")
            if position.scorer.ranks_sides else []),
    }


def board_at(match: Match, action_number: int) -> dict[str, Any]:
    """What the game's own board drawing needs to show the position: the public (spectator)
    view, which never holds a secret, the seats and, at the end, the outcome."""
    from games.snapshot import seats_summary

    state = state_at(match, action_number)
    game = match.engine
    return {"view": localize_view(match.game, game.view(state, None)), "seats": seats_summary(match.seats.order_by("index")),
            "outcome": game.outcome(state) if action_number == match.seq else None,
            "final": match.status == Match.Status.FINISHED and action_number == match.seq}


# ------------------------------------------------------------------ class session report

def _table_row(table) -> dict[str, Any] | None:
    match = table.match
    if match.status != Match.Status.FINISHED or not match.outcome:
        return None
    seats = list(match.seats.all())
    outcome = match.outcome
    scores = outcome.get("scores", [])
    # a co-operative game lost by everyone (Entanglion: caught, or time up) is no draw
    lost_together = not outcome.get("winners") and outcome.get("result") in ("lost", "time_up")
    row: dict[str, Any] = {"table": table.number, "match": match.pk, "game": match.game,
                           "lost_together": lost_together,
                           "has_circuit": has_circuit(match.game, match.options),
                           "players": [], "first_side": None, "winning_sides": outcome.get("winning_sides")}
    expected: list[float] | None = None
    p_win: list[float] | None = None
    colors = outcome.get("colors")
    game = match.engine
    abilities = abilities_of(game)
    state = state_at(match, match.seq) if abilities.teams else None  # seats that play for a side
    odds = abilities.side_odds_of(game, state)  # each side's exact odds (QTris's colours)
    if odds is not None:
        expected, p_win, row["first_side"] = odds["expected"], odds["p_win"], odds["first"]
    for seat in seats:
        side = abilities.team_of(game, state, seat.index)
        score = scores[side] if side < len(scores) else None
        row["players"].append({
            "seat": seat.index, "name": seat_name(seat), "participant": seat.participant_id,
            "bot": seat.bot or None, "side": colors[side] if colors and side < len(colors) else f"seat {seat.index + 1}",
            "started": row["first_side"] == side if row["first_side"] is not None else None,
            "score": score,
            "expected": expected[side] if expected and side < len(expected) else None,
            "p_win": p_win[side] if p_win and side < len(p_win) else None,
            "won": seat.index in outcome.get("winners", []),
            "tie": bool(outcome.get("tie")) or (not outcome.get("winners") and not lost_together)})
    return row


def finished_table_count(session: ClassSession) -> int:
    return session.tables.filter(match__status=Match.Status.FINISHED).count()


def _rate(counter: Counter, total: int) -> dict[str, float]:
    return {k: (v / total if total else 0.0) for k, v in counter.items()}


def session_statistics(session: ClassSession) -> dict[str, Any]:
    """Scores over all finished tables, win rates by side and by who started, mean expected
    vs mean actual score, and per-student results."""
    tables = [r for t in session.tables.select_related("match").prefetch_related("match__seats")
              if (r := _table_row(t)) is not None]
    distribution: Counter = Counter()
    by_side: Counter = Counter()
    by_start: Counter = Counter()
    side_scores: dict[str, list[tuple[float, float | None]]] = {}
    students: dict[str, dict[str, Any]] = {}
    for row in tables:
        sides_seen: dict[str, dict] = {}
        for p in row["players"]:
            sides_seen.setdefault(p["side"], p)
        if "white" in sides_seen and "black" in sides_seen:   # QTris's colours
            distribution[f"W{sides_seen['white']['score']} B{sides_seen['black']['score']}"] += 1
        else:
            distribution[" – ".join(str(p["score"]) for p in sides_seen.values())] += 1
        winners = {p["side"] for p in row["players"] if p["won"]}
        by_side["lost together" if row["lost_together"] else "tie" if not winners
                else "/".join(sorted(winners))] += 1
        if row["first_side"] is not None:
            started_won = any(p["won"] and p["started"] for p in row["players"])
            second_won = any(p["won"] and not p["started"] for p in row["players"])
            by_start["draw" if not winners else "first player" if started_won else
                     "second player" if second_won else "draw"] += 1
        for side, p in sides_seen.items():
            side_scores.setdefault(side, []).append((p["score"] or 0, p["expected"]))
        for p in row["players"]:
            if p["bot"]:
                continue
            s = students.setdefault(p["name"], {"name": p["name"], "games": 0, "wins": 0, "draws": 0,
                                                "score": 0, "expected": 0.0, "has_expected": True})
            s["games"] += 1
            s["wins"] += int(p["won"])
            s["draws"] += int(not winners and not row["lost_together"])
            s["score"] += p["score"] or 0
            if p["expected"] is None:
                s["has_expected"] = False
            else:
                s["expected"] += p["expected"]
    n = len(tables)
    means = {}
    for side, pairs in side_scores.items():
        exp = [e for _a, e in pairs if e is not None]
        means[side] = {"games": len(pairs), "mean_actual": sum(a for a, _ in pairs) / len(pairs),
                       "mean_expected": sum(exp) / len(exp) if exp else None}
    per_student = []
    for s in sorted(students.values(), key=lambda s: (-s["wins"], -s["score"], s["name"])):
        luck = s["score"] - s["expected"] if s["has_expected"] else None
        per_student.append({"name": s["name"], "games": s["games"], "wins": s["wins"],
                            "draws": s["draws"], "score": s["score"],
                            "expected": round(s["expected"], 3) if s["has_expected"] else None,
                            "luck": round(luck, 3) if luck is not None else None})
    return {"session": session.pk, "game": session.game, "variant": session.variant,
            "finished_tables": n, "tables": tables,
            "score_distribution": dict(sorted(distribution.items())),
            "win_rate_by_side": _rate(by_side, n), "win_rate_by_start": _rate(by_start, sum(by_start.values())),
            "mean_scores": means, "students": per_student}


CSV_COLUMNS = ["table", "match", "player", "bot", "side", "started", "score", "expected_score",
               "win_probability", "won", "draw"]


# the columns' names in the reader's language (in English, the keys above); the sides and bot
# levels are words of the reader's language too (the API keeps their neutral keys)
CSV_WORDS = {
    "table": pgettext_lazy("CSV column", "table"), "match": pgettext_lazy("CSV column", "match"),
    "player": pgettext_lazy("CSV column", "player"), "bot": pgettext_lazy("CSV column", "bot"),
    "side": pgettext_lazy("CSV column", "side"), "started": pgettext_lazy("CSV column", "started"),
    "score": pgettext_lazy("CSV column", "score"), "expected_score": pgettext_lazy("CSV column", "expected_score"),
    "win_probability": pgettext_lazy("CSV column", "win_probability"), "won": pgettext_lazy("CSV column", "won"),
    "draw": pgettext_lazy("CSV column", "draw"),
}


def session_csv(stats: dict[str, Any]) -> str:
    """The statistics' rows as a spreadsheet of the reader's language reads them (a BOM, and
    ";" with decimal commas in Spanish and Polish: ``core.csvcells.write_csv``)."""
    rows = [[row["table"], row["match"], p["name"], bot_level_name(p["bot"]) if p["bot"] else "", side_words(p["side"]),
             "" if p["started"] is None else int(p["started"]), p["score"],
             "" if p["expected"] is None else f"{p['expected']:.4f}",
             "" if p["p_win"] is None else f"{p['p_win']:.4f}",
             int(p["won"]), int(p["tie"])]
            for row in stats["tables"] for p in row["players"]]
    return csv_text([str(CSV_WORDS[k]) for k in CSV_COLUMNS], rows, get_language())


def circuit_of(match: Match, action_number: int | None = None, *, public: bool = False) -> Position:
    """The position's circuit (the players' with ``public``; raises NotScorable when there is none)."""
    return load_position(match, action_number, public=public)


__all__ = ["NotScorable", "circuit_of", "match_odds", "run_payload", "runs_of",
           "session_csv", "session_statistics"]
