"""The rules of a turn: options and actions checked, a community card played on a qubit card
(what each gate does, with its text), whose turn is next."""
from __future__ import annotations

from typing import Any

from ..base import (
    Event,
    IllegalAction,
    State,
    chance,
    event,
    gettext_noop,
    is_int,
    message,
)
from .cards import DEFAULT_OPTIONS, OPTION_RANGES, QUBITS_PER_PLAYER
from .physics import _basis_value, _between_hs, _gate, _value_before_superposition
from .showdown import _showdown
from .texts import EVENT_TEXTS, _coin, _player, _qubit_of

# --------------------------------------------------------------------------- options/actions

def _parse_options(options: Any) -> dict:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise IllegalAction("bad_option", gettext_noop("Options must be a JSON object."))
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise IllegalAction("bad_option", gettext_noop("Unknown option(s): %(options)s. Known: %(known)s."),
                            {"options": ", ".join(sorted(map(str, unknown))), "known": ", ".join(DEFAULT_OPTIONS)})
    opts = dict(DEFAULT_OPTIONS)
    for key, value in options.items():
        if key in ("physics_mode", "whole_pot"):
            if not isinstance(value, bool):
                raise IllegalAction("bad_option", gettext_noop("%(key)s must be true or false."), {"key": key})
        else:
            lo, hi = OPTION_RANGES[key]
            if not is_int(value) or not lo <= value <= hi:
                raise IllegalAction("bad_option", gettext_noop("%(key)s must be a whole number from %(lo)s to %(hi)s."),
                                    {"key": key, "lo": lo, "hi": hi})
        opts[key] = value
    return opts


def _bad(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def _parse_action(state: State, seat: int, action: Any) -> dict:
    hand = state["hand"]
    if not isinstance(action, dict):
        raise _bad("malformed", 'An action is an object such as {"card": 0, "target": '
                                '{"seat": 1, "qubit": 2}} or {"declare": true}.')
    keys = set(action)
    if keys == {"declare"}:
        if action["declare"] is not True:
            raise _bad("malformed", 'To declare measurement send {"declare": true}.')
        if state["variant"] != "declared":
            raise _bad("not_declared_mode", "Declaring measurement is only in declared mode.")
        if hand["declared_by"] is not None:
            raise _bad("already_declared", "Measurement has already been declared.")
        return {"declare": True}
    if keys not in ({"card", "target"}, {"card", "own", "target"}):
        raise _bad("malformed", 'An action has "card" and "target" (and "own" for SWAP), '
                                'or is {"declare": true}.')
    card = action["card"]
    if not is_int(card):
        raise _bad("malformed", '"card" must be the index of a community card.')
    if not 0 <= card < len(hand["community"]):
        raise _bad("no_such_card", f"There is no community card {card}.")
    if hand["community"][card]["taken_by"] is not None:
        raise _bad("card_taken", "That community card has already been taken.")
    target = action["target"]
    if not isinstance(target, dict) or set(target) != {"seat", "qubit"}:
        raise _bad("malformed", '"target" must be {"seat": s, "qubit": q}.')
    tseat, tq = target["seat"], target["qubit"]
    if not is_int(tseat) or not is_int(tq):
        raise _bad("malformed", "Target seat and qubit must be whole numbers.")
    if not 0 <= tseat < state["players"] or not hand["in_hand"][tseat]:
        raise _bad("bad_target", "That seat has no qubit cards in this hand.")
    if not 0 <= tq < QUBITS_PER_PLAYER:
        raise _bad("bad_target", "Qubits are numbered 0 to 3.")
    kind = hand["community"][card]["kind"]
    move = {"declare": False, "card": card, "kind": kind, "seat": tseat, "qubit": tq}
    if kind == "SWAP":
        if "own" not in action:
            raise _bad("malformed", 'SWAP needs "own": the index of your qubit to exchange.')
        own = action["own"]
        if not is_int(own):
            raise _bad("malformed", '"own" must be a whole number.')
        if not 0 <= own < QUBITS_PER_PLAYER:
            raise _bad("bad_target", "Qubits are numbered 0 to 3.")
        if tseat == seat:
            raise _bad("swap_same_player", "SWAP exchanges your qubit with another player's.")
        move["own"] = own
    elif "own" in action:
        raise _bad("malformed", f'Only SWAP takes "own"; this card is {kind}.')
    elif kind == "CX":
        if tseat == seat:
            raise _bad("cx_own_qubit", "CX applies X to another player's qubit, never your own.")
    elif tseat != seat:
        raise _bad("own_qubit_only", f"{kind} is applied to one of your own qubits.")
    return move


def _can_declare(state: State) -> bool:
    hand = state["hand"]
    return (not state["finished"] and state["variant"] == "declared"
            and hand["phase"] == "play" and hand["declared_by"] is None
            and hand["turn"] is not None)





def _advance(state: State, seat: int, declared_now: bool, n: int, events: list[Event]) -> None:
    hand = state["hand"]
    cards_left = any(c["taken_by"] is None for c in hand["community"])
    if hand["declared_by"] is not None:
        if not declared_now and hand["last_turns"] and hand["last_turns"][0] == seat:
            hand["last_turns"].pop(0)
        if not hand["last_turns"] or not cards_left:
            _showdown(state, n, events)
            return
        nxt = hand["last_turns"][0]
        events.append(event(EVENT_TEXTS, "turn", "last_turn", {"player": _player(nxt)}, seat=nxt))
    else:
        if not cards_left:
            _showdown(state, n, events)
            return
        order = hand["order"]
        nxt = order[(order.index(seat) + 1) % len(order)]
        events.append(event(EVENT_TEXTS, "turn", "turn", {"player": _player(nxt)}, seat=nxt))
    hand["turn"] = nxt


def _play(state: State, seat: int, move: dict, n: int, events: list[Event]) -> None:
    hand = state["hand"]
    physics = state["options"]["physics_mode"]
    card = hand["community"][move["card"]]
    card["taken_by"] = seat
    card["order"] = sum(1 for p in hand["plays"] if "card" in p)
    kind = move["kind"]
    tseat, tq = move["seat"], move["qubit"]
    play = {"seat": seat, "card": move["card"], "id": card["id"], "kind": kind,
            "target": {"seat": tseat, "qubit": tq}}
    if kind == "SWAP":
        play["own"] = move["own"]
    hand["plays"].append(play)
    base = {"type": "play", "seat": seat, "card": move["card"], "card_id": card["id"],
            "kind": kind, "target": {"seat": tseat, "qubit": tq}}
    if kind == "SWAP":
        own = move["own"]
        mine, theirs = hand["qubits"][seat][own], hand["qubits"][tseat][tq]
        hand["qubits"][seat][own], hand["qubits"][tseat][tq] = theirs, mine
        _holder_looks(mine, tseat)
        _holder_looks(theirs, seat)
        events.append(event(EVENT_TEXTS, "play", "swap",
                            {"player": _player(seat), "own": own + 1,
                             "target": message("players_qubit", player=_player(tseat), qubit=tq + 1)},
                            **base, own=own, no_effect=False, effect="swap"))
        return
    q = hand["qubits"][tseat][tq]
    where = _qubit_of(seat, tseat, tq)
    gate = "X" if kind == "CX" else kind
    effect, no_effect, private, code = _apply_card(state, tseat, q, gate, n, events)
    q["gates"].append(gate)
    if physics:
        q["superposed"] = _basis_value(q["amps"]) is None
        q["value"] = _basis_value(q["amps"])
    if q["shown"] and not q["superposed"]:
        q["public_known"] = True
    _holder_looks(q, tseat)
    if kind == "CX":
        effect = message("cx_is_x", effect=effect)
    events.append(event(EVENT_TEXTS, "play", "play",
                        {"player": _player(seat), "gate": kind, "target": where, "effect": effect},
                        **base, no_effect=no_effect, effect=code))
    events.extend(private)


def _knows(q: dict, holder: int, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) can know card ``q`` (held by ``holder``) from what
    it saw: it is shown, or the whole table could follow it, or ``seat`` holds it or once
    looked at it and followed it through the public plays (perfect recall)."""
    if q["shown"] or q["public_known"]:
        return True
    if seat is None:
        return False
    # the holder looks at a card with a definite value (then it is in ``known_by`` too)
    return seat in q["known_by"] or (seat == holder and not q["superposed"])


def _holder_looks(q: dict, holder: int) -> None:
    """Perfect recall: the holder of a card with a definite value looks at it and knows it
    (``known_by`` lists every seat that can know the card's value from what it saw)."""
    if not q["superposed"] and holder not in q["known_by"]:
        q["known_by"] = sorted([*q["known_by"], holder])


def _apply_card(state: State, owner: int, q: dict, gate: str, n: int,
                events: list[Event]) -> tuple[dict, bool, list[Event], str]:
    """Apply the gate of one card to qubit card ``q``.

    Returns (text as an event message, no_effect, extra events, effect code). Texts never
    name a hidden value.
    """
    physics = state["options"]["physics_mode"]
    private: list[Event] = []
    was_superposed = q["superposed"]
    if gate == "X":
        if physics:
            q["amps"] = _gate(q["amps"], "X")
            if was_superposed:
                return message("x_superposed_physics"), True, private, "x_superposed"
            return message("x_flip_physics"), False, private, "x_flip"
        if was_superposed:
            return message("x_superposed"), True, private, "x_superposed"
        q["value"] ^= 1
        return message("x_flip"), False, private, "x_flip"
    if gate == "Y":
        q["shown"] = not q["shown"]
        if physics:
            vis = message("now_shown" if q["shown"] else "now_hidden")
            q["amps"] = _gate(q["amps"], "Y")
            mnemonic = message("mnemonic_show" if q["shown"] else "mnemonic_hide")
            if was_superposed:
                return (message("y_superposed_physics", vis=vis, mnemonic=mnemonic), False, private,
                        "y_superposed")
            return (message("y_flip_physics", vis=vis, mnemonic=mnemonic), False, private,
                    "y_flip")
        vis = message("now_shown_i" if q["shown"] else "now_hidden_i")
        if was_superposed:
            return message("y_superposed", vis=vis), False, private, "y_superposed"
        q["value"] ^= 1
        return message("y_flip", vis=vis), False, private, "y_flip"
    if gate == "Z":
        state_note: dict | str = ""
        if physics:
            q["amps"] = _gate(q["amps"], "Z")
            state_note = message("z_note_superposed" if was_superposed else "z_note_basis")
        if q["bet"] == 2:
            q["bet"] = 1
            state["pot"] -= 1
            state["chips"][owner] += 1
            return (message("z_halve", owner=_player(owner), note=state_note), False, private,
                    "z_halve")
        if state["chips"][owner] >= 1:
            q["bet"] = 2
            state["chips"][owner] -= 1
            state["pot"] += 1
            return message("z_double", note=state_note), False, private, "z_double"
        return (message("z_no_chip", owner=_player(owner), note=state_note), not physics, private,
                "z_no_chip")
    # H
    if physics:
        if was_superposed:
            before, between = _value_before_superposition(q)
            q["amps"] = _gate(q["amps"], "H")
            flips, why = _between_hs(between)
            v = _basis_value(q["amps"])
            face = f" ({v})" if q["shown"] else message("face_down_paren")
            text = message("h_flip_physics" if flips else "h_restore_physics", why=why, face=face)
            return text, False, private, "h_flip" if flips else "h_restore"
        q["amps"] = _gate(q["amps"], "H")
        return message("h_superpose_physics"), False, private, "h_superpose"
    if not was_superposed:
        q["superposed"] = True
        q["value"] = None
        q["public_known"] = False
        q["known_by"] = []
        text = message("h_superpose_face_up" if q["shown"] else "h_superpose_face_down")
        return text, False, private, "h_superpose"
    rng = chance(state["seed"], n, "coin")
    heads = rng.random() < 0.5
    q["value"] = 1 if heads else 0
    q["superposed"] = False
    q["known_by"] = [owner]
    outcome = _coin(heads, q["value"])
    if q["shown"]:
        q["public_known"] = True
        private.append(event(EVENT_TEXTS, "coin", "coin", {"outcome": outcome},
                             seat=owner, value=q["value"]))
        return message("h_coin_shown", outcome=outcome), False, private, "h_coin"
    q["public_known"] = False
    private.append(event(EVENT_TEXTS, "coin", "your_coin", {"outcome": outcome},
                         seat=owner, value=q["value"], visible_to=[owner]))
    return message("h_coin_hidden"), False, private, "h_coin"
