"""The rules of a turn: options and actions checked, a community card played on a qubit card
(what each gate does, with its text), whose turn is next."""
from __future__ import annotations

from ..base import (
    Action,
    Event,
    IllegalAction,
    State,
    chance,
    event,
    gettext_noop,
    message,
)
from .physics import _basis_value, _between_hs, _gate, _value_before_superposition
from .showdown import _showdown
from .texts import EVENT_TEXTS, _coin, _player, _qubit_of

# --------------------------------------------------------------------------- options/actions

def _check_move(state: State, seat: int, kind: str, action: Action) -> dict:
    """The rules of an action whose shape is checked (``cards.ACTIONS``): the move it makes."""
    hand = state["hand"]
    if kind == "declare":
        if state["variant"] != "declared":
            raise IllegalAction("not_declared_mode",
                                gettext_noop("Declaring measurement is only in declared mode."))
        if hand["declared_by"] is not None:
            raise IllegalAction("already_declared",
                                gettext_noop("Measurement has already been declared."))
        return {"declare": True}
    card = action["card"]
    if card >= len(hand["community"]):
        raise IllegalAction("no_such_card", gettext_noop("There is no community card %(card)s."),
                            {"card": card})
    if hand["community"][card]["taken_by"] is not None:
        raise IllegalAction("card_taken", gettext_noop("That community card has already been taken."))
    tseat, tq = action["target"]["seat"], action["target"]["qubit"]
    if tseat >= state["players"] or not hand["in_hand"][tseat]:
        raise IllegalAction("bad_target", gettext_noop("That seat has no qubit cards in this hand."))
    gate = hand["community"][card]["kind"]
    move = {"declare": False, "card": card, "kind": gate, "seat": tseat, "qubit": tq}
    if gate == "SWAP":
        if "own" not in action:
            raise IllegalAction("bad_action", gettext_noop(
                'SWAP needs "own": the index of your qubit to exchange.'))
        if tseat == seat:
            raise IllegalAction("swap_same_player",
                                gettext_noop("SWAP exchanges your qubit with another player's."))
        move["own"] = action["own"]
    elif "own" in action:
        raise IllegalAction("bad_action", gettext_noop('Only SWAP takes "own"; this card is %(kind)s.'),
                            {"kind": gate})
    elif gate == "CX":
        if tseat == seat:
            raise IllegalAction("cx_own_qubit", gettext_noop(
                "CX applies X to another player's qubit, never your own."))
    elif tseat != seat:
        raise IllegalAction("own_qubit_only",
                            gettext_noop("%(kind)s is applied to one of your own qubits."), {"kind": gate})
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
