"""The teaching side: odds of the current hand (public and exact) and what physics mode would
have given for a simplified hand."""
from __future__ import annotations

import math

from ..base import (
    IllegalAction,
    State,
    gettext_noop,
    message,
    render_text,
)
from .physics import _between_hs, _p1, _run_gates, ket
from .texts import EVENT_TEXTS

# --------------------------------------------------------------------------- analysis helpers

def _round(x: float) -> float:
    return round(x, 10)


def _p1_exact(q: dict, physics: bool) -> float:
    if physics:
        return _round(_p1(q["amps"]))
    return 0.5 if q["superposed"] else float(q["value"])


def _p1_public(q: dict, physics: bool) -> float:
    """P(value 1 at showdown) from what the whole table knows."""
    if physics:
        if q["public_known"]:
            return _round(_p1(q["amps"]))
        return _round(sum(_p1(_run_gates(v, q["gates"])) for v in (0, 1)) / 2)
    if q["superposed"]:
        return 0.5
    if q["shown"] or q["public_known"]:
        return float(q["value"])
    return 0.5


def _score_dist(cards: list[tuple[float, int]]) -> dict[int, float]:
    dist = {0: 1.0}
    for p, w in cards:
        nxt: dict[int, float] = {}
        for score, pr in dist.items():
            if p < 1:
                nxt[score] = nxt.get(score, 0.0) + pr * (1 - p)
            if p > 0:
                nxt[score + w] = nxt.get(score + w, 0.0) + pr * p
        dist = nxt
    return dist


def _win_odds(dists: list[dict[int, float] | None]) -> tuple[list, list]:
    """Per seat: P(sole highest score) and P(tied for the highest score)."""
    def below(d: dict[int, float], x: int, strict: bool) -> float:
        return sum(p for sc, p in d.items() if (sc < x if strict else sc <= x))

    p_win: list[float | None] = []
    p_split: list[float | None] = []
    for s, d in enumerate(dists):
        if d is None:
            p_win.append(None)
            p_split.append(None)
            continue
        others = [o for i, o in enumerate(dists) if i != s and o is not None]
        win = tie = 0.0
        for x, px in d.items():
            lt = math.prod(below(o, x, True) for o in others)
            le = math.prod(below(o, x, False) for o in others)
            win += px * lt
            tie += px * (le - lt)
        p_win.append(_round(win))
        p_split.append(_round(tie))
    return p_win, p_split


def physics_counterfactual(state: State, hand_number: int | None = None) -> dict:
    """What physics mode would have given for the same dealt cards and the same card plays.

    Uses the last finished hand (or ``hand_number``), else the current hand. Teacher-only /
    after the hand: it uses the dealt (initial) values. Per seat: expected score in physics
    mode with the same bets, and the score the hand actually had (or its expectation);
    per qubit card: gates, physics P(1) and ket, the simplified value, and a note where the
    two modes differ (the H that "erased" a value in the simplified game did not really).
    """
    hand = None
    if hand_number is not None:
        hand = next((h for h in state["history"] if h["number"] == hand_number), None)
        if hand is None and state["hand"]["number"] == hand_number:
            hand = state["hand"]
        if hand is None:
            raise IllegalAction("bad_hand", gettext_noop("No hand %(hand)s."), {"hand": hand_number})
    elif state["history"]:
        hand = state["history"][-1]
    else:
        hand = state["hand"]
    physics = state["options"]["physics_mode"]
    seats: list[dict[str, object] | None] = []
    for s in range(state["players"]):
        if not hand["in_hand"][s]:
            seats.append(None)
            continue
        cards = []
        exp_phys = exp_game = 0.0
        for slot, q in enumerate(hand["qubits"][s]):
            amps = _run_gates(q["initial"], q["gates"])
            p1 = _round(_p1(amps))
            game_p1 = _p1_exact(q, physics) if hand["phase"] == "play" else float(q["value"])
            exp_phys += p1 * q["bet"]
            exp_game += game_p1 * q["bet"]
            note = "" if physics else _physics_note(q["gates"], p1)
            note_message = None if physics else _physics_note_message(q["gates"], p1)
            cards.append({"id": q["id"], "slot": slot, "initial": q["initial"],
                          "gates": list(q["gates"]), "physics_p1": p1, "physics_ket": ket(amps),
                          "physics_amps": amps, "game_value": q["value"],
                          "game_superposed": q["superposed"], "bet": q["bet"], "note": note,
                          "note_message": note_message})
        seats.append({"seat": s, "physics_expected": _round(exp_phys),
                      "game_score" if hand["phase"] == "over" else "game_expected":
                          _round(exp_game),
                      "cards": cards})
    return {"hand": hand["number"], "mode": "physics" if physics else "simplified",
            "seats": seats}


def _physics_note(gates: list[str], p1: float) -> str:
    """What physics mode would have said about a card with these gates (simplified hands).

    Each H of the simplified game "erases" the value; in physics mode H is the real Hadamard:
    two H with nothing between restore the value (H·H = I), but a Z (or Y) between them flips
    it (H·Z·H = X, H·Y·H = −Y). The note names the pairs of H as they happened, so it never
    says "the second H undoes the first" when a Z or Y came between.
    """
    hs = [i for i, g in enumerate(gates) if g == "H"]
    if not hs:
        return ""
    note = _physics_note_message(gates, p1)
    return render_text(EVENT_TEXTS, note["code"], note["params"]) if note else ""


def _physics_note_message(gates: list[str], p1: float) -> dict | None:
    """``_physics_note`` as a translatable message (None: no H, no note)."""
    hs = [i for i, g in enumerate(gates) if g == "H"]
    if not hs:
        return None
    laws = [_between_hs(gates[a + 1:b])[1] for a, b in zip(hs[0::2], hs[1::2], strict=False)]
    if len(hs) % 2 == 1:
        laws.append(message("last_h_superposition"))
    story = laws[0]
    for law in laws[1:]:
        story = message("then", a=story, b=law)
    if p1 in (0.0, 1.0):
        code = "note_erased" if len(hs) >= 2 else "note_definite"
        return message(code, story=story, value=int(p1))
    return message("note_chance", story=story)


def _teaching_summary(state: State, hand_number: int) -> dict:
    """For a hand that has just ended in simplified mode: what physics mode would have given
    for the same dealt cards and plays (``physics_counterfactual``), as shown to the whole
    table in ``view(...)["last_hand"]["physics"]``.

    It is computed once, at the showdown, and stored with the finished hand: it uses the dealt
    values, which are secret during the hand but decide nothing after it (the next hand is
    dealt from a fresh shuffle), and every card of the hand is revealed at the showdown anyway.
    The gates applied to a card follow from the public plays. Nothing of the next hand is in it.
    """
    cf = physics_counterfactual(state, hand_number)
    seats: list[dict | None] = []
    for row in cf["seats"]:
        if row is None:
            seats.append(None)
            continue
        seats.append({
            "seat": row["seat"], "physics_expected": row["physics_expected"],
            "score": row.get("game_score"),
            "cards": [{"id": c["id"], "slot": c["slot"], "dealt": c["initial"],
                       "applied": list(c["gates"]), "physics_p1": c["physics_p1"],
                       "physics_ket": c["physics_ket"], "value": c["game_value"],
                       "bet": c["bet"], "note": c["note"], "note_message": c.get("note_message")}
                      for c in row["cards"]],
        })
    return {"hand": cf["hand"], "seats": seats,
            "differs": any(c["note"] and "50/50" not in c["note"]
                           for row in seats if row for c in row["cards"])}
