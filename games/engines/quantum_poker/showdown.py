"""The showdown: every qubit card measured, the hand scored and the pot paid; the next hand or
the end of the match."""
from __future__ import annotations

import quantum

from ..base import (
    Event,
    State,
    chance,
    clone,
    event,
    message,
)
from .analysis import _round, _teaching_summary
from .cards import ANTE, _start_hand
from .physics import _basis_amps, _p1
from .texts import EVENT_TEXTS, _coin, _player


def _showdown(state: State, n: int, events: list[Event], last: bool = False) -> None:
    hand = state["hand"]
    physics = state["options"]["physics_mode"]
    players = state["players"]
    rng = chance(state["seed"], n, "showdown")
    events.append(event(EVENT_TEXTS, "showdown", "showdown", hand=hand["number"]))
    scores: list[int | None] = [None] * players
    for s in hand["order"]:
        for slot, q in enumerate(hand["qubits"][s]):
            if physics:
                p1 = _p1(q["amps"])
                if 0.0 < p1 < 1.0:
                    value = (1, 0)[quantum.sample([p1, 1 - p1], rng.random())]  # 1 listed first
                    events.append(event(EVENT_TEXTS, "measure", "measure",
                                        {"target": message("players_qubit", player=_player(s),
                                                           qubit=slot + 1),
                                         "p1": p1, "value": value},
                                        seat=s, qubit=slot, value=value, p1=_round(p1)))
                else:
                    value = int(p1)
                q["amps"] = _basis_amps(value)
            elif q["superposed"]:
                heads = rng.random() < 0.5
                value = 1 if heads else 0
                events.append(event(EVENT_TEXTS, "collapse", "showdown_coin",
                                    {"player": _player(s), "qubit": slot + 1,
                                     "outcome": _coin(heads, value)},
                                    seat=s, qubit=slot, value=value))
            else:
                value = q["value"]
            q["value"] = value
            q["superposed"] = False
            q["shown"] = True
            q["public_known"] = True
        score = sum(q["bet"] for q in hand["qubits"][s] if q["value"] == 1)
        scores[s] = score
        values = " ".join(str(q["value"]) for q in hand["qubits"][s])
        events.append(event(EVENT_TEXTS, "score", "score",
                            {"player": _player(s), "values": values, "score": score},
                            seat=s, score=score))
    best = max(sc for sc in scores if sc is not None)
    dealer = hand["dealer"]
    clockwise = [(dealer + k) % players for k in range(1, players + 1)]
    winners = [s for s in clockwise if scores[s] == best]
    pot = state["pot"]
    payouts = [0] * players
    if state["options"]["whole_pot"]:
        collected = pot           # table option: the winners share the whole pot
    else:
        # the rulebook: the winner takes back their own chips and collects the chips on the
        # other players' qubits that measured 1; the chips on their 0-qubits go back
        collected = 0
        for s in hand["order"]:
            for q in hand["qubits"][s]:
                if s in winners:
                    payouts[s] += q["bet"]
                elif q["value"] == 1:
                    collected += q["bet"]
                else:
                    payouts[s] += q["bet"]
    share, remainder = divmod(collected, len(winners))
    for i, s in enumerate(winners):
        payouts[s] += share + (remainder if i == 0 else 0)
    for s in range(players):
        state["chips"][s] += payouts[s]
    assert sum(payouts) == pot
    state["pot"] = 0
    pts = message("one_point" if best == 1 else "points", n=best)
    names = [_player(s) for s in winners]
    parts = ", ".join(str(payouts[s]) for s in winners)
    if state["options"]["whole_pot"]:
        if len(winners) == 1:
            code, params = "wins_pot", {"names": names, "pot": pot, "points": pts}
        else:
            code, params = "split_pot", {"names": names, "points": pts, "pot": pot, "parts": parts}
    else:
        back = sum(q["bet"] for q in hand["qubits"][winners[0]])
        returned = [payouts[s] for s in range(players) if s not in winners]
        rest = message("zeros_back", returned=sum(returned)) if sum(returned) else ""
        if len(winners) == 1:
            code, params = "wins_ones", {"names": names, "points": pts, "back": back,
                                         "collected": collected, "rest": rest}
        else:
            code, params = "share_ones", {"names": names, "points": pts, "collected": collected,
                                          "parts": parts, "rest": rest}
    winners_sorted = sorted(winners)
    events.append(event(EVENT_TEXTS, "pot", code, params,
                        rule="whole_pot" if state["options"]["whole_pot"] else "collect_ones",
                        winners=winners_sorted, pot=pot, collected=collected, payouts=payouts))
    result = {
        "hand": hand["number"], "dealer": dealer, "scores": scores, "winners": winners_sorted,
        "pot": pot, "collected": collected, "payouts": payouts,
        "declared_by": hand["declared_by"],
        "values": [[q["value"] for q in hand["qubits"][s]] if hand["in_hand"][s] else None
                   for s in range(players)],
        "bets": [[q["bet"] for q in hand["qubits"][s]] if hand["in_hand"][s] else None
                 for s in range(players)],
    }
    hand["phase"] = "over"
    hand["turn"] = None
    hand["last_turns"] = []
    hand["result"] = result
    if not physics:
        # the teaching point, fixed now that every card is revealed (see ``_teaching_summary``)
        hand["physics_summary"] = _teaching_summary(state, hand["number"])
    state["results"].append(result)
    state["history"].append(clone(hand))
    can_ante = [s for s in range(players) if state["chips"][s] >= ANTE]
    if last or len(state["results"]) >= state["options"]["hands"] or len(can_ante) < 2:
        state["finished"] = True
        chips = state["chips"]
        top = max(chips)
        leaders = [_player(s) for s in range(players) if chips[s] == top]
        why = message("time_up_reason" if last else
                      "all_hands_played" if len(state["results"]) >= state["options"]["hands"]
                      else "cannot_ante")
        events.append(event(EVENT_TEXTS, "match_end", "match_end",
                            {"why": why, "leaders": leaders, "top": top}, chips=list(chips)))
        return
    state["dealer"] = next(s for s in clockwise if state["chips"][s] >= ANTE)
    _start_hand(state, n, events)
