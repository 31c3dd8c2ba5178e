"""Every sentence a student reads about a gate is what the gate did.

Per game, many random plays under every variant: each event (and preview, and view) that says
what a gate did to the state is checked against an independent computation of the states
before and after, in plain numpy (``physics_texts_support``: no ``quantum/``, no engine code):
the poker card's state and the H law quoted, the QTris tiles a card explanation names and the
CX case it tells, the Ticket-to-Ride run's gates (read in the order written) and its kets, the
Entanglion board move against the real gate. The hints of the boards' scripts are checked where
they state equations. Kets are read back from their text and compared with the true amplitudes.
"""
from __future__ import annotations

import functools
import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from games.engines import IllegalAction, get_game, list_games
from games.engines.base import render_text
from games.engines.entanglion.board_texts import BOARD_TEXTS as ENTANGLION_BOARD_TEXTS
from tests.engines.physics_texts_support import (
    BELL,
    GATES,
    KET,
    R2,
    cnot,
    density,
    equations,
    false_equations,
    on,
    read_ket,
    same_up_to_phase,
)

ROOT = Path(__file__).resolve().parents[2]
BOARD_SCRIPTS = ("quantum-poker.js", "qtris.js", "quantum-ticket-to-ride.js", "entanglion.js", "ttr-circuit.js")
#: a gate sequence written with "·" reads as an operator product: only in an equation
DOT_SEQUENCE = re.compile(r"(?<![\w|·%])([IXYZHS](?:·[IXYZHS])+)(?![\w|⟩·(])")


def texts_of_scripts() -> list[str]:
    out = []
    for name in BOARD_SCRIPTS:
        source = (ROOT / "static" / "games" / name).read_text(encoding="utf-8")
        out += [m[1] for m in re.finditer(r'\b(?:_|t|tr|nt)\(\s*"((?:[^"\\]|\\.)*)"', source)]
    return out


def all_texts() -> list[str]:
    out = []
    for game in list_games():
        out += list((getattr(game, "event_texts", None) or {}).values())
    out += [str(v) for v in ENTANGLION_BOARD_TEXTS.values()]
    return out + texts_of_scripts()


def dot_sequences(text: str) -> list[str]:
    """Gate sequences written with "·" that are not part of an equation (nor the one sentence
    that names the operator product)."""
    found = []
    for m in DOT_SEQUENCE.finditer(text):
        after = text[m.end():m.end() + 3]
        if after.startswith(" = ") or "operator product is " + m[1] in text:
            continue
        found.append(m[1])
    return found


def test_every_equation_a_text_or_hint_states_is_true():
    texts = all_texts()
    found = [eq for text in texts for eq in equations(text)]
    assert len(found) >= 25, found            # the hints and texts do state equations
    assert not [eq for eq, ok in found if not ok]
    assert not [(t, dot_sequences(t)) for t in texts if dot_sequences(t)]


def check_text(text: str) -> None:
    assert not false_equations(text), text
    assert not dot_sequences(text), text


# =========================================================================== QuantumPoker

POKER = get_game("quantum-poker")


def basis_value(psi: np.ndarray) -> int | None:
    for v in (0, 1):
        if same_up_to_phase(psi, KET[str(v)]):
            return v
    return None


def sign_state(psi: np.ndarray) -> str | None:
    for name in ("+", "−"):
        if same_up_to_phase(psi, KET[name]):
            return name
    return None


def law_flips(law: dict, between: list[str]) -> bool:
    """Check the law a text quotes for the cards played between two H (in time order);
    return whether they flip the value."""
    zy = [g for g in between if g in ("Z", "Y")]
    flips = len(zy) % 2 == 1
    code, params = law["code"], law["params"]
    if not between:
        assert code == "hh_identity", (law, between)
    elif flips and len(zy) == 1:
        assert code == "hh_flips", (law, between)
        assert params["law"] == {"Z": "H·Z·H = X", "Y": "H·Y·H = −Y"}[zy[0]]
        assert params["what"] == {"code": "a_gate", "params": {"gate": zy[0]}}
    else:
        assert code == ("hh_flips_many" if flips else "hh_cancel"), (law, between)
        assert params["gates"] == " → ".join(between)
    # and physics agrees: H, the cards between, H on a basis state flips it iff ``flips``
    for v in ("0", "1"):
        psi = GATES["H"] @ KET[v]
        for g in between:
            psi = GATES[g] @ psi
        psi = GATES["H"] @ psi
        assert basis_value(psi) == (1 - int(v) if flips else int(v))
    return flips


class PokerModel:
    """Each card of the hand followed by id: its true state (physics) or the simplified game's
    value (None: superposed), from the dealt value and the plays, and for physics the value
    before the last H and the cards since."""

    def __init__(self, hand: dict, physics: bool):
        self.physics = physics
        self.psi, self.value, self.before_h, self.since = {}, {}, {}, {}
        for row in hand["qubits"]:
            for q in row:
                self.psi[q["id"]] = KET[str(q["initial"])].copy()
                self.value[q["id"]] = q["initial"]


def poker_card_by_id(state: dict, card_id: str) -> dict | None:
    for hand in [state["hand"], *state["history"][-1:]]:
        for row in hand["qubits"]:
            for q in row:
                if q["id"] == card_id:
                    return q
    return None


def check_poker_play(model: PokerModel, before: dict, after: dict, e: dict, events: list[dict]) -> None:
    seat, (tseat, tq) = e["seat"], (e["target"]["seat"], e["target"]["qubit"])
    card = before["hand"]["qubits"][tseat][tq]
    cid = card["id"]
    gate = "X" if e["kind"] == "CX" else e["kind"]
    effect = e["params"]["effect"]
    if e["kind"] == "CX":
        assert effect["code"] == "cx_is_x" and tseat != seat
        effect = effect["params"]["effect"]
    code, params = effect["code"], effect["params"]
    shown_after = not card["shown"] if gate == "Y" else card["shown"]
    if gate == "Z":
        bet_code = {2: "z_halve", 1: "z_double" if before["chips"][tseat] >= 1 else "z_no_chip"}[card["bet"]]
        assert code == bet_code, (code, card, before["chips"][tseat])
    if model.physics:
        psi0 = model.psi[cid]
        psi1 = GATES[gate] @ psi0
        v0, v1 = basis_value(psi0), basis_value(psi1)
        assert v0 is not None or sign_state(psi0) is not None      # only |0⟩ |1⟩ |+⟩ |−⟩ (phases aside)
        if gate == "X":
            assert code == ("x_flip_physics" if v0 is not None else "x_superposed_physics")
            assert v1 == (None if v0 is None else 1 - v0) and (v0 is not None or same_up_to_phase(psi0, psi1))
        elif gate == "Y":
            assert code == ("y_flip_physics" if v0 is not None else "y_superposed_physics")
            if v0 is None:
                assert sign_state(psi1) != sign_state(psi0)          # |+⟩ ↔ |−⟩
            else:
                assert v1 == 1 - v0
            assert params["vis"]["code"] == ("now_shown" if shown_after else "now_hidden")
            assert params["mnemonic"]["code"] == ("mnemonic_show" if shown_after else "mnemonic_hide")
        elif gate == "Z":
            assert params["note"]["code"] == ("z_note_basis" if v0 is not None else "z_note_superposed")
            assert (v1 == v0) if v0 is not None else sign_state(psi1) != sign_state(psi0)
        else:  # H
            if v0 is not None:
                assert code == "h_superpose_physics" and sign_state(psi1) == ("+" if v0 == 0 else "−")
                model.before_h[cid], model.since[cid] = v0, []
            else:
                between = model.since[cid]
                assert code == ("h_flip_physics" if law_flips(params["why"], between) else "h_restore_physics")
                assert v1 == (1 - model.before_h[cid] if code == "h_flip_physics" else model.before_h[cid])
                assert params["face"] == (f" ({v1})" if card["shown"] else {"code": "face_down_paren", "params": {}})
        if gate != "H" and basis_value(psi1) is None:
            model.since[cid].append(gate)
        model.psi[cid] = psi1
        return
    # the simplified game (the rulebook's)
    v0 = model.value[cid]
    if gate in ("X", "Y"):
        assert code == f"{gate.lower()}_{'superposed' if v0 is None else 'flip'}"
        model.value[cid] = None if v0 is None else 1 - v0
        if gate == "Y":
            assert params["vis"]["code"] == ("now_shown_i" if shown_after else "now_hidden_i")
    elif gate == "H":
        if v0 is None:
            assert code in ("h_coin_shown", "h_coin_hidden") and (code == "h_coin_shown") == card["shown"]
            coin = next(c for c in events if c["type"] == "coin")   # the coin decides the value
            landed = poker_card_by_id(after, cid)
            assert coin["value"] == landed["value"] and coin["seat"] == tseat
            if code == "h_coin_shown":
                assert effect["params"]["outcome"]["params"]["value"] == coin["value"]
            model.value[cid] = coin["value"]
        else:
            assert code == ("h_superpose_face_up" if card["shown"] else "h_superpose_face_down")
            model.value[cid] = None


def check_poker_views(model: PokerModel, state: dict) -> None:
    if state["hand"]["phase"] != "play":
        return
    for seat in range(state["players"]):
        view = POKER.view(state, seat)
        for row, seat_view in zip(state["hand"]["qubits"], view["seats"], strict=True):
            for q, shown in zip(row, seat_view["qubits"], strict=True):
                if model.physics and shown["ket"] is not None:
                    assert np.allclose(read_ket(shown["ket"]), model.psi[q["id"]]), shown   # the phase too
                    name = shown["state"]
                    assert same_up_to_phase(model.psi[q["id"]], KET[name.strip("|⟩")]), shown
                    assert shown["superposed"] == (name in ("|+⟩", "|−⟩"))
                if shown["value"] is not None:
                    truth = basis_value(model.psi[q["id"]]) if model.physics else model.value[q["id"]]
                    assert shown["value"] == truth


def check_poker_notes(hand: dict) -> None:
    """The simplified game's teaching point: what physics mode would have given."""
    summary = hand.get("physics_summary")
    if not summary:
        return
    for row in summary["seats"]:
        for c in (row or {}).get("cards", []):
            psi = KET[str(c["dealt"])]
            for g in c["applied"]:
                psi = GATES[g] @ psi
            p1 = abs(psi[1]) ** 2
            assert c["physics_p1"] == pytest.approx(p1)
            assert np.allclose(read_ket(c["physics_ket"]), psi)
            note = c.get("note_message")
            if note is None:
                assert "H" not in c["applied"]
                continue
            hs = [i for i, g in enumerate(c["applied"]) if g == "H"]
            laws = []
            story = note["params"]["story"]
            while story["code"] == "then":
                laws.insert(0, story["params"]["b"])
                story = story["params"]["a"]
            laws.insert(0, story)
            pairs = list(zip(hs[0::2], hs[1::2], strict=False))
            assert len(laws) == len(pairs) + len(hs) % 2
            for law, (a, b) in zip(laws, pairs, strict=False):
                law_flips(law, c["applied"][a + 1:b])
            if len(hs) % 2:
                assert laws[-1]["code"] == "last_h_superposition"
            if note["code"] in ("note_erased", "note_definite"):
                assert basis_value(psi) == note["params"]["value"]
            else:
                assert note["code"] == "note_chance" and 0 < p1 < 1


def poker_action(rng: random.Random, actions: list[dict]) -> dict:
    """A random legal action, mostly on the first qubit (so that H, Z, H sequences happen)."""
    cards = [a for a in actions if "card" in a]
    if not cards or rng.random() < 0.05:
        return rng.choice(actions)
    pick = rng.choice(sorted({a["card"] for a in cards}))
    mine = [a for a in cards if a["card"] == pick]
    first = [a for a in mine if a["target"]["qubit"] == 0]
    return rng.choice(first if first and rng.random() < 0.8 else mine)


@pytest.mark.parametrize("variant", POKER.variants)
@pytest.mark.parametrize("physics", [True, False], ids=["physics", "simplified"])
def test_poker_texts_and_views_say_what_the_gates_did(variant, physics):
    codes = set()
    for seed in range(10):
        rng = random.Random(f"{variant}:{physics}:{seed}")
        state = POKER.setup(players=rng.randint(2, 3), variant=variant, seed=seed,
                            options={"physics_mode": physics, "community_cards": 10, "hands": 3})
        model = PokerModel(state["hand"], physics)
        while not state["finished"]:
            seat = POKER.to_act(state)[0]
            new, events = POKER.apply(state, seat, poker_action(rng, POKER.legal_actions(state, seat)))
            for e in events:
                check_text(e["text"])
                if e["type"] == "play" and e["code"] == "play":
                    check_poker_play(model, state, new, e, events)
                    codes.add(e["effect"])
                elif e["type"] == "measure":
                    cid = new["history"][-1]["qubits"][e["seat"]][e["qubit"]]["id"]
                    assert e["params"]["p1"] == pytest.approx(abs(model.psi[cid][1]) ** 2)
                    assert 0 < e["params"]["p1"] < 1
                elif e["type"] in ("coin", "collapse") and not physics:
                    hand = new["history"][-1] if e["type"] == "collapse" else new["hand"]
                    slot = e.get("qubit")
                    if slot is not None:
                        assert hand["qubits"][e["seat"]][slot]["value"] == e["value"]
                elif e["type"] == "hand_start":
                    if new["history"]:
                        check_poker_notes(new["history"][-1])
                    model = PokerModel(new["hand"], physics)
            if new["history"] and new["history"][-1]["number"] == state["hand"]["number"]:
                check_poker_notes(new["history"][-1])
            state = new
            check_poker_views(model, state)
    wanted = {"x_flip", "x_superposed", "y_flip", "y_superposed", "h_superpose", "z_double"}
    assert wanted <= codes, wanted - codes
    assert codes & ({"h_flip", "h_restore"} if physics else {"h_coin"})


# =========================================================================== QTris

QTRIS = get_game("qtris")
SINGLE = {"W": KET["0"], "B": KET["1"], "R": KET["+"], "L": KET["−"], "UP": KET["+i"], "DOWN": KET["−i"]}
I4 = np.eye(4, dtype=complex)
PAIR_DECORATION = {"": I4, "H": np.kron(GATES["H"], np.eye(2)), "U1": np.kron(GATES["U"], np.eye(2)),
                   "U2": np.kron(np.eye(2), GATES["U"])}
BASIS = {"color": ("0", "1"), "left-right": ("+", "−"), "up-down": ("+i", "−i")}
LABEL = {"W": "0", "B": "1", "R": "+", "L": "−", "UP": "+i", "DOWN": "−i"}


def tile_state(desc) -> np.ndarray:
    if isinstance(desc, list):
        return np.kron(tile_state(desc[0]), tile_state(desc[1]))
    deco, _, code = desc.rpartition(":")
    if code in SINGLE:
        return GATES["U"] @ SINGLE[code] if deco == "U" else SINGLE[code]
    return PAIR_DECORATION[deco] @ BELL[code]


@functools.cache
def weight(text: str) -> float:
    expr = re.sub(r"(\d)√3", r"\1*R3", text).replace("√3", "R3")
    return float(eval(expr, {"__builtins__": {}}, {"R3": np.sqrt(3)}))  # noqa: S307 (digits, + - / and √3)


def u_on(tile, q: int) -> bool:
    if isinstance(tile, list):
        return tile[q].startswith("U:")
    deco = tile.split(":")[0] if ":" in tile else ""
    return deco == "U" or (deco, q) in (("U1", 0), ("U2", 1))


def comp_of(board: list, square: int) -> dict:
    return next(c for c in board if square in c["squares"])


def comp_density(comp: dict) -> np.ndarray:
    return _comp_density(json.dumps(comp["members"]))


@functools.cache
def _comp_density(members: str) -> np.ndarray:
    return sum(weight(m["weight"]) * density(tile_state(m["tile"])) for m in json.loads(members))


def joint(board: list, squares: list[int]) -> np.ndarray:
    """The density matrix of ``squares`` (a union of components), in ascending square order."""
    comps = [c for c in board if set(c["squares"]) & set(squares)]
    order = [s for c in comps for s in c["squares"]]
    assert sorted(order) == sorted(squares), (order, squares)
    rho = np.array([[1.0 + 0j]])
    for c in comps:
        rho = np.kron(rho, comp_density(c))
    n = len(order)
    perm = [order.index(s) for s in sorted(order)]
    return rho.reshape([2] * 2 * n).transpose(perm + [p + n for p in perm]).reshape(2 ** n, 2 ** n)


def marginal_white(rho: np.ndarray, squares: list[int], square: int) -> float:
    n = len(squares)
    q = squares.index(square)
    return float(sum(rho[i, i].real for i in range(2 ** n) if not (i >> (n - 1 - q)) & 1))


def named(msg: dict) -> np.ndarray:
    """The density matrix a tile's name in a text stands for (pair: its two squares in
    ascending order)."""
    code, p = msg["code"], msg["params"]
    if code.startswith("tile_"):
        name = code[5:]
        return density(SINGLE[name] if name in SINGLE else BELL[name])
    if code == "with_square":
        return named(p["name"])
    if code == "tiles_and":
        return np.kron(named(p["a"]), named(p["b"]))
    if code == "mixture_of":
        return sum(weight(m["params"]["weight"]) * named(m["params"]["name"]) for m in p["members"])
    inner = named(p["name"])
    gate = {"u_decorated": GATES["U"] if inner.shape == (2, 2) else None,
            "h_decorated": PAIR_DECORATION["H"], "u_first": PAIR_DECORATION["U1"],
            "u_second": PAIR_DECORATION["U2"]}[code]
    return gate @ inner @ gate.conj().T


def entangled(psi: np.ndarray) -> bool:
    return np.linalg.matrix_rank(psi.reshape(2, 2), tol=1e-9) > 1


#: what each card's words say it does to each undecorated single tile (from the sentence)
CARD_WORDS = {
    "card_X": {"W": "B", "B": "W", "R": "R", "L": "L"},
    "card_X_s": {"W": "B", "B": "W", "R": "R", "L": "L", "UP": "DOWN", "DOWN": "UP"},
    "card_Y": {"W": "B", "B": "W", "R": "L", "L": "R"},
    "card_Y_s": {"W": "B", "B": "W", "R": "L", "L": "R", "UP": "UP", "DOWN": "DOWN"},
    "card_Z": {"W": "W", "B": "B", "R": "L", "L": "R"},
    "card_Z_s": {"W": "W", "B": "B", "R": "L", "L": "R", "UP": "DOWN", "DOWN": "UP"},
    "card_H": {"W": "R", "R": "W", "B": "L", "L": "B"},
    "card_H_s": {"W": "R", "R": "W", "B": "L", "L": "B", "UP": "DOWN", "DOWN": "UP"},
    "card_S": {"W": "W", "B": "B", "R": "UP", "UP": "L", "L": "DOWN", "DOWN": "R"},
}


def test_qtris_card_words_are_true_of_every_tile_where_they_are_used():
    from games.engines.qtris import tiles as tileset
    from games.engines.qtris.preview import card_message

    for words, mapping in CARD_WORDS.items():
        gate = GATES[words.split("_")[1]]
        for a, b in mapping.items():
            assert same_up_to_phase(gate @ SINGLE[a], SINGLE[b]), (words, a, b)
    for variant in QTRIS.variants:
        singles = {t for t in tileset.tile_set(variant).singles if ":" not in t}
        for card in ("X", "Y", "Z", "H", "S"):
            code = card_message(card, variant)["code"]
            assert singles <= set(CARD_WORDS[code]), (variant, code)   # no tile left unsaid
    # U's numbers: U·white 25 %, U·black 75 %, U·kitten-right 93 %, U·kitten-left 7 % white
    for tile, pct in (("W", 25), ("B", 75), ("R", 93), ("L", 7)):
        assert round(100 * abs((GATES["U"] @ SINGLE[tile])[0]) ** 2) == pct


def test_qtris_x_words_name_the_sign_and_the_kittens_x_changes():
    """X swaps a tile's white and black halves: the words say which kittens stay (right: X|+⟩ =
    |+⟩; left: X|−⟩ = −|−⟩, a sign) and, where kittens up and down exist, that those change:
    never "X leaves a kitten as it is" beside a kitten X turns."""
    x = GATES["X"]
    assert np.allclose(x @ SINGLE["R"], SINGLE["R"]) and np.allclose(x @ SINGLE["L"], -SINGLE["L"])
    assert same_up_to_phase(x @ SINGLE["UP"], SINGLE["DOWN"]) and not same_up_to_phase(x @ SINGLE["UP"], SINGLE["UP"])
    basic, s_words = QTRIS.event_texts["card_X"], QTRIS.event_texts["card_X_s"]
    assert "kitten turned right unchanged" in basic and "kitten turned left by −1" in basic
    assert "a kitten turned right or left stays as it is" in s_words
    assert "a kitten up becomes a kitten down" in s_words
    for text in (basic, s_words):        # no reason that is false of the kittens up and down
        assert "no colour yet, so" not in text


def test_qtris_cx_case_is_computed_from_the_states():
    """The engine tells CX's case from the two squares' states (a pure state, the control the
    left factor): its entanglement (Schmidt rank, here numpy's matrix rank), the control's sure
    colour, ⟨Z⊗Z⟩ of an entangled result, the sign landing on the control. Checked on every
    pair of the six kitten and colour states and on random ones, beyond the tiles the rules
    allow, against an independent computation."""
    from games.engines.qtris.preview import _cx_case

    rng = np.random.default_rng(7)
    singles = list(KET.values()) + [v / np.linalg.norm(v) for v in rng.normal(size=(6, 2)) + 1j * rng.normal(size=(6, 2))]
    seen = set()
    for c in singles:
        for t in singles:
            psi = np.kron(c, t)
            out = CNOT_CT @ psi
            p_black = abs(c[1]) ** 2
            if p_black < 1e-9:
                want = "cx_white"
            elif p_black > 1 - 1e-9:
                want = "cx_black"
            elif entangled(out):
                zz = np.real(np.vdot(out, np.diag([1, -1, -1, 1]) @ out))
                want = "cx_entangle_same" if zz > 1 - 1e-9 else "cx_entangle_opposite" if zz < -1 + 1e-9 else None
                assert want is None or basis_value(t) is not None    # "the target has a sure colour"
            elif same_up_to_phase(out, psi):
                assert same_up_to_phase(t, KET["+"])                # "a kitten turned right"
                want = "cx_target_right"
            else:
                assert same_up_to_phase(t, KET["−"])                # "a kitten turned left"
                assert same_up_to_phase(out, np.kron(GATES["Z"] @ c, t))
                want = "cx_kickback"
            assert _cx_case(psi) == want, (c, t)
            seen.add(want)
    for name, bell in BELL.items():                       # a pair: CX takes it apart
        for psi in (bell, cnot(1, 0, 2) @ cnot(0, 1, 2) @ cnot(1, 0, 2) @ bell):
            assert entangled(psi) and not entangled(CNOT_CT @ psi)
            assert _cx_case(psi) == "cx_separate", name
    assert {"cx_white", "cx_black", "cx_entangle_same", "cx_entangle_opposite", "cx_target_right",
            "cx_kickback", None} <= seen


def matrix_entry(text: str) -> complex:
    expr = text.replace("−", "-").replace("√2", "R2").replace("√3", "R3")
    expr = expr.replace("iR3", "1j*R3").replace("i/", "1j/")
    expr = re.sub(r"(\d)i\b", r"\1j", expr)
    expr = re.sub(r"(?<![\dj])i\b", "1j", expr)
    return complex(eval(expr, {"__builtins__": {}}, {"R2": R2, "R3": np.sqrt(3)}))  # noqa: S307


def cx_cases(before: list, control: int, target: int) -> tuple[list[str], int]:
    """The CX case of each tile (combination) of the squares, told from the physics alone."""
    comp_c, comp_t = comp_of(before, control), comp_of(before, target)
    if comp_c is comp_t:
        sq = comp_c["squares"]
        combos = [m["tile"] if isinstance(m["tile"], str) else (m["tile"][sq.index(control)], m["tile"][sq.index(target)])
                  for m in comp_c["members"]]
    else:
        combos = [(a["tile"], b["tile"]) for a in comp_c["members"] for b in comp_t["members"]]
    cases = []
    for combo in combos:
        if isinstance(combo, str):        # a pair: CX separates it
            order = sorted(comp_c["squares"])
            psi = tile_state(combo)
            out = cnot(order.index(control), order.index(target), 2) @ psi
            assert entangled(psi) and not entangled(out)
            case = "cx_separate"
        else:
            c, t = (tile_state(x) for x in combo)
            out = CNOT_CT @ np.kron(c, t)
            if basis_value(c) is not None:
                case = ("cx_white", "cx_black")[basis_value(c)]
            elif entangled(out):
                zz = np.real(np.vdot(out, np.diag([1, -1, -1, 1]) @ out))
                assert abs(abs(zz) - 1) < 1e-9 and basis_value(t) is not None
                case = "cx_entangle_same" if zz > 0 else "cx_entangle_opposite"
            elif same_up_to_phase(out, np.kron(c, t)):
                assert same_up_to_phase(t, KET["+"])            # "a kitten turned right"
                case = "cx_target_right"
            else:
                assert same_up_to_phase(t, KET["−"])            # "a kitten turned left"
                assert same_up_to_phase(out, np.kron(GATES["Z"] @ c, t))   # the sign on the control
                case = "cx_kickback"
        if case not in cases:
            cases.append(case)
    return cases, len(combos)


CNOT_CT = cnot(0, 1, 2)


def check_explain(before: list, after: list, variant: str, card: str, squares: list[int], x: dict) -> set:
    """Every sentence of a card play's explanation against the physics; returns its codes."""
    codes = [m["code"] for m in x["messages"]]
    check_text(x["text"])
    assert x["text"] == " ".join(render_text(QTRIS.event_texts, m["code"], m["params"]) for m in x["messages"])
    s_words = variant in ("s-expansion", "eve")
    assert codes[0] == f"card_{card}" + ("_s" if s_words and card in "XYZH" else "")
    # the physics: the squares' joint state after = the gate on the state before
    touched = sorted({s for sq in squares for c in (comp_of(before, sq), comp_of(after, sq)) for s in c["squares"]})
    while True:  # close under the components of both boards
        more = sorted({s for sq in touched for c in (comp_of(before, sq), comp_of(after, sq)) for s in c["squares"]})
        if more == touched:
            break
        touched = more
    rho0, rho1 = joint(before, touched), joint(after, touched)
    if card == "CX":
        m = cnot(touched.index(squares[0]), touched.index(squares[1]), len(touched))
        want = m @ rho0 @ m.conj().T
        cases, combos = cx_cases(before, *squares)
        told = [c for c in codes if c.startswith("cx_") and c != "cx_mixture"]
        assert told == cases, (told, cases)
        assert ("cx_mixture" in codes) == (combos > 1)
        assert codes[1] == "control_target" and [x["messages"][1]["params"][k] for k in ("control", "target")] == squares
    elif card == "I" or not squares:
        want = rho0
    else:
        comp = comp_of(before, squares[0])
        q_in = comp["squares"].index(squares[0])
        decorated = [u_on(m["tile"], q_in) for m in comp["members"]]
        framed = card in "XYZHS" and all(decorated)
        assert ("frame" in codes) == framed and ("frame_some" in codes) == (card in "XYZHS" and any(decorated) and not framed)
        gate = GATES[card]
        phys = GATES["U"] @ gate @ GATES["U"] if framed else gate
        assert np.allclose([[matrix_entry(e) for e in row] for row in x["matrix"]], phys, atol=1e-3)  # 3 digits
        want = 0
        order = [s for c in [comp] + [c for c in before if c is not comp and set(c["squares"]) & set(touched)] for s in c["squares"]]
        assert sorted(order) == touched
        for member in comp["members"]:
            g = GATES["U"] @ gate @ GATES["U"] if card in "XYZHS" and u_on(member["tile"], q_in) else gate
            psi = on(g, q_in, len(comp["squares"])) @ tile_state(member["tile"])
            want = want + weight(member["weight"]) * density(psi)
        rest = [c for c in before if c is not comp and set(c["squares"]) & set(touched)]
        for c in rest:
            want = np.kron(want, comp_density(c))
        n = len(order)
        perm = [order.index(s) for s in touched]
        want = want.reshape([2] * 2 * n).transpose(perm + [p + n for p in perm]).reshape(2 ** n, 2 ** n)
        # the card's words, where it met an undecorated single tile
        if len(comp["squares"]) == 1 and len(comp["members"]) == 1 and ":" not in comp["members"][0]["tile"] \
                and codes[0] in CARD_WORDS:
            tile_after = CARD_WORDS[codes[0]][comp["members"][0]["tile"]]
            assert np.allclose(rho1, density(SINGLE[tile_after]))
        # H on a pair: the decoration it added or took away
        if card == "H" and not any(decorated) and len(comp["squares"]) == 2:
            outs = [on(GATES["H"], q_in, 2) @ tile_state(m["tile"]) for m in comp["members"]]
            flat = all(np.allclose(np.abs(o) ** 2, 0.25) for o in outs)
            bell = all(max(abs(np.vdot(b, o)) for b in BELL.values()) > 1 - 1e-9 for o in outs)
            assert ("pair_h_add" in codes) == (flat and all(isinstance(m["tile"], str) for m in comp["members"]) and
                                              all(not np.allclose(np.abs(tile_state(m["tile"])) ** 2, 0.25) for m in comp["members"]))
            assert ("pair_h_remove" in codes) <= bell
    assert np.allclose(rho1, want), (card, squares, before, after)
    # each square's sentences: the tiles it names, "stays" / "becomes", the chance of white
    for ch in x["changes"]:
        s = ch["square"]
        for board, key in ((before, "before_message"), (after, "after_message")):
            comp = comp_of(board, s)
            assert np.allclose(named(ch[key]), joint(board, comp["squares"])), (ch[key], comp)
        cb, ca = comp_of(before, s), comp_of(after, s)
        same_state = cb["squares"] == ca["squares"] and np.allclose(joint(before, cb["squares"]), joint(after, ca["squares"]))
        same_tiles = cb["squares"] == ca["squares"] and sorted(map(json.dumps, cb["members"])) == sorted(map(json.dumps, ca["members"]))
        said = [m for m in x["messages"] if m["code"] in ("stays", "becomes", "becomes_same") and m["params"]["square"] == s]
        assert [m["code"] for m in said] == ["stays" if same_tiles else "becomes_same" if same_state else "becomes"]
        w0, w1 = (round(100 * marginal_white(rho, touched, s)) for rho in (rho0, rho1))
        chance = [m["params"] for m in x["messages"] if m["code"] == "chance_white" and m["params"]["square"] == s]
        assert chance == ([] if w0 == w1 else [{"square": s, "before": w0, "after": w1}])
    return set(codes)


def book_table(dist: list[float]) -> list[tuple[int, int] | None]:
    """The book's d100 table: cumulative percentages rounded, halves to even (12.5 → 12,
    37.5 → 38, 87.5 → 88)."""
    out, acc, prev = [], 0.0, 0
    for p in dist:
        acc += p
        x = 100 * acc
        k = int(np.floor(x))
        edge = (k if k % 2 == 0 else k + 1) if abs(x - k - 0.5) < 1e-7 else int(np.floor(x + 0.5))
        edge = min(edge, 100)
        out.append((prev + 1, edge) if edge > prev else None)
        prev = max(prev, edge)
    return out


def board_of(cells: dict, pair: str | None = None) -> list:
    """A board: ``cells`` {square: tile or list of tiles (an equal mixture)}, white elsewhere,
    and ``pair`` (a pair tile) on squares 3 and 7."""
    board = [{"squares": [3, 7], "members": [{"tile": pair, "weight": "1"}]}] if pair else []
    for s in range(1, 10):
        if pair and s in (3, 7):
            continue
        tiles = cells.get(s, "W")
        tiles = tiles if isinstance(tiles, list) else [tiles]
        board.append({"squares": [s], "members": [{"tile": t, "weight": f"1/{len(tiles)}" if len(tiles) > 1 else "1"}
                                                  for t in tiles]})
    return sorted(board, key=lambda c: c["squares"][0])


def test_qtris_every_card_on_every_tile_is_explained_truly():
    """Every card on every tile of every variant (and CX on every two tiles, pairs and
    mixtures): the explanation's sentences against the physics."""
    from games.engines.qtris import cards as qcards
    from games.engines.qtris import tiles as tileset
    from games.engines.qtris.preview import explain_play

    seen: set = set()
    # (noise has advanced's tiles and deck, Eve the S expansion's tiles and words: the random
    # games of the next test play them)
    for variant in ("basic", "advanced", "s-expansion"):
        tiles = tileset.tile_set(variant)
        plays = []
        for t in tiles.singles:
            plays += [(board_of({5: t}), card, [5]) for card in ("X", "Y", "Z", "H", "S", "U")]
        for p in tiles.pairs:
            bd = board_of({}, p)
            plays += [(bd, card, [s]) for card in ("X", "Y", "Z", "H", "S", "U") for s in (3, 7)]
            plays += [(bd, "CX", [3, 7]), (bd, "CX", [7, 3])]
        plain = [t for t in tiles.singles if ":" not in t]
        plays += [(board_of({1: a, 2: b}), "CX", sq) for a in plain for b in plain for sq in ([1, 2], [2, 1])]
        mixtures = [["W", "B"], ["R", "L"], ["W", "R"], ["B", "B", "B", "W"]]
        plays += [(board_of({1: m, 2: b}), "CX", sq) for m in mixtures for b in ("W", "B", "R", "L") for sq in ([1, 2], [2, 1])]
        plays += [(board_of({5: m}), card, [5]) for m in mixtures + [["U:W", "R"]] if variant != "basic"
                  for card in ("X", "H", "U", "S")]
        correlated = [{"squares": [1, 2], "members": [{"tile": ["W", "W"], "weight": "1/2"},
                                                      {"tile": ["B", "B"], "weight": "1/2"}]}]
        corr_board = correlated + [c for c in board_of({}) if c["squares"][0] > 2]
        plays += [(corr_board, "CX", [1, 2]), (corr_board, "CX", [2, 1]), (corr_board, "H", [1])]
        for before, card, squares in plays:
            if card not in qcards.deck_composition(variant):
                continue
            try:
                after, _ops = qcards.play(before, variant, card, squares)
            except qcards.CardError:
                continue
            seen |= check_explain(before, after, variant, card, squares,
                                  explain_play(before, after, variant, card, squares))
    assert {"cx_white", "cx_black", "cx_entangle_same", "cx_entangle_opposite", "cx_target_right",
            "cx_kickback", "cx_separate", "cx_mixture", "pair_h_add", "pair_h_remove", "frame",
            "frame_some", "card_X_s", "card_H_s", "chance_white", "stays", "becomes",
            "becomes_same"} <= seen


def qtris_action(rng: random.Random, state: dict) -> dict:
    seat = QTRIS.to_act(state)[0]
    side = seat % state["n_sides"]
    hand = state["hands"][side]
    if state["variant"] == "eve" and side == 1 and not state["eve_measure_used"] and len(hand) >= 2 \
            and state["turn"]["plays_left"] == 2 and rng.random() < 0.4:
        comp = rng.choice(state["board"])
        return {"eve_measure": {"squares": list(comp["squares"]), "basis": rng.choice(list(BASIS))},
                "discard": sorted(hand[:2])}
    for _ in range(40):
        card = rng.choice(hand)
        if card == "I":
            return {"card": "I"}
        if card == "CX":
            squares = rng.sample(range(1, 10), 2)
        else:
            squares = [rng.randint(1, 9)]
        action = {"card": card, "squares": squares}
        try:
            QTRIS.preview(state, seat, action)
            return action
        except IllegalAction:
            continue
    return rng.choice(QTRIS.legal_actions(state, seat))


def dephased(rho: np.ndarray, qubits: list[int], n: int) -> np.ndarray:
    out = rho
    for q in qubits:
        p0 = on(np.diag([1, 0]).astype(complex), q, n)
        p1 = on(np.diag([0, 1]).astype(complex), q, n)
        out = p0 @ out @ p0 + p1 @ out @ p1
    return out


@pytest.mark.parametrize("variant", QTRIS.variants)
def test_qtris_plays_measurements_and_eve_say_what_happened(variant):
    from games.engines.qtris import cards as qcards

    seen = set()
    for seed in range(3):
        rng = random.Random(f"qtris:{variant}:{seed}")
        n_sides = 3 if variant == "eve" else 2
        options = {"skip_mulligan": True} | ({} if variant == "eve" else {"first_seat": 0, "colors": ["white", "black"]})
        state = QTRIS.setup(players=n_sides, variant=variant, seed=seed, options=options)
        while QTRIS.outcome(state) is None:
            seat = QTRIS.to_act(state)[0]
            action = qtris_action(rng, state)
            new, events = QTRIS.apply(state, seat, action)
            board = state["board"]            # the board each event starts from
            for e in events:
                check_text(e["text"])
                seen.add(e["code"])
                if e["type"] == "play":
                    after, _ = qcards.play(board, variant, e["card"], e["squares"])
                    seen |= check_explain(board, after, variant, e["card"], e["squares"], e["explain"])
                    board = after
                elif e["type"] == "noise" and e["square"]:
                    comp = comp_of(board, e["square"])
                    from games.engines.qtris import board as qboard
                    from games.engines.qtris import tiles as tileset

                    measured = qboard.noise_squares(board, e["square"])
                    after = qboard.measure_unseen(board, e["square"], tileset.tile_set(variant))
                    sq = comp["squares"]
                    assert np.allclose(joint(after, sq), dephased(joint(board, sq), [sq.index(s) for s in measured], len(sq)))
                    board = after
                elif e["type"] == "eve_measure":
                    sq = e["squares"]
                    rho = joint(board, sq)
                    outcomes = [[BASIS[e["basis"]][(k >> (len(sq) - 1 - j)) & 1] for j in range(len(sq))] for k in range(2 ** len(sq))]
                    probs = []
                    for labels in outcomes:
                        v = KET[labels[0]] if len(sq) == 1 else np.kron(KET[labels[0]], KET[labels[1]])
                        probs.append(float(np.real(np.vdot(v, rho @ v))))
                    got = [LABEL[r] for r in e["result"]]
                    k = outcomes.index(got)
                    assert probs[k] > 1e-9 and e["p"] == pytest.approx(probs[k])
                    assert (e["d100"] is None) == (max(probs) > 1 - 1e-9)
                    if e["d100"] is not None:
                        lo, hi = book_table(probs)[k]
                        assert lo <= e["d100"] <= hi
                    assert [m["code"] for m in e["explain"]["messages"]] == [f"eve_{e['basis']}"]
                    board = new["board"] if new["set_number"] == state["set_number"] else None
                    if board is not None:
                        for s, label in zip(sq, got, strict=True):   # collapsed onto her basis
                            comp = comp_of(board, s)
                            assert comp["squares"] == [s] and np.allclose(comp_density(comp), density(KET[label]))
                            white = abs(KET[label][0]) ** 2
                            assert white in (0.0, 1.0) if e["basis"] == "color" else abs(white - 0.5) < 1e-9
                    seen.add(f"eve_{e['basis']}")
                elif e["type"] == "measure":
                    dist = e["probabilities"]
                    bits = [0 if c == "white" else 1 for c in e["result"]]
                    k = int("".join(map(str, bits)), 2)
                    if board is not None:
                        rho = joint(board, e["squares"])
                        assert np.allclose(np.real(np.diag(rho)), dist)
                    certain = max(dist) > 1 - 1e-9
                    assert (e["code"] == "measure_certain") == certain and dist[k] > 1e-12
                    if e["code"] == "measure_roll":
                        lo, hi = book_table(dist)[k]
                        assert lo <= e["d100"] <= hi, (e, book_table(dist))
                elif e["type"] == "set":
                    board = None
            state = new
    wanted = {"play_on", "measure_roll"} | ({"noise"} if variant == "noise" else set()) \
        | ({"eve_measure"} if variant == "eve" else set())
    assert wanted <= seen, wanted - seen


def test_qtris_d100_of_u_decorated_pairs_is_the_books():
    from games.engines.qtris import board as qboard

    for bell, table in (("phi+", [(1, 12), (13, 50), (51, 88), (89, 100)]),
                        ("psi-", [(1, 38), (39, 50), (51, 62), (63, 100)])):
        psi = PAIR_DECORATION["U1"] @ BELL[bell]
        assert book_table(list(np.abs(psi) ** 2)) == table
        comp = {"squares": [1, 2], "members": [{"tile": f"U1:{bell}", "weight": "1"}]}
        assert qboard.d100_table(qboard.exact_distribution(comp)) == table


# =========================================================================== Ticket-to-Ride

TTR = get_game("quantum-ticket-to-ride")
TTR_START = {"0": KET["0"], "1": KET["1"], "+": KET["+"], "-": KET["−"]}


def ttr_register(initial: str) -> np.ndarray:
    return np.kron(TTR_START[initial], KET["0"])


def ttr_apply(psi: np.ndarray, gate: str) -> np.ndarray:
    return (CNOT_CT if gate == "CNOT" else on(GATES[gate], 0, 2)) @ psi


def ttr_target(name: str, qubits: int) -> np.ndarray:
    if qubits == 1:
        return TTR_START[name]
    if name in BELL or name.lower() in BELL:
        return BELL[name.lower()]
    a, b = name[0], name[1]
    return np.kron(TTR_START[a], KET[b])


def q0_state(psi: np.ndarray) -> np.ndarray | None:
    m = psi.reshape(2, 2)
    u, s, _vh = np.linalg.svd(m)
    return None if s[1] > 1e-9 else u[:, 0]


def random_path(rng: random.Random, game_map: dict, start: str, target: str) -> list[str]:
    adj: dict[str, list[str]] = {}
    for r in game_map["routes"]:
        adj.setdefault(r["a"], []).append(r["b"])
        adj.setdefault(r["b"], []).append(r["a"])
    for _ in range(200):
        path = [start]
        while path[-1] != target and len(path) < 12:
            nxt = [c for c in adj[path[-1]] if c not in path]
            if not nxt:
                break
            path.append(rng.choice(nxt))
        if path[-1] == target:
            return path
    raise AssertionError("no path found")


def check_trace(mission: dict, cities: list[str], game_map: dict, trace: dict) -> np.ndarray:
    routes = {frozenset((r["a"], r["b"])): r for r in game_map["routes"]}
    psi = ttr_register(mission["initial_state"])
    for step, (a, b) in zip(trace["steps"], zip(cities, cities[1:], strict=False), strict=True):
        r = routes[frozenset((a, b))]
        for _ in range(r["length"]):
            psi = ttr_apply(psi, r["gate"])
        assert same_up_to_phase(read_ket(step["ket"]), psi), step
        q0 = q0_state(psi)
        assert (step["q0"] is None) == (q0 is None)
        if q0 is not None:
            assert same_up_to_phase(read_ket(step["q0"]), q0), step["q0"]
    return psi


@pytest.mark.parametrize("variant", TTR.variants)
def test_ticket_to_ride_runs_say_the_gates_in_the_order_they_act_and_the_state_reached(variant):
    for seed in range(12):
        rng = random.Random(f"ttr:{variant}:{seed}")
        state = TTR.setup(players=2, variant=variant, seed=seed)
        seat = state["turn"]
        mission = state["missions"][seat]
        cities = random_path(rng, state["map"], mission["start"], mission["target"])
        # every prefix of the path, as the path picker previews it
        for k in range(2, len(cities) + 1):
            prev = TTR.preview(state, seat, {"run": cities[:k]})
            check_trace(mission, cities[:k], state["map"], prev["trace"])
        routes = {frozenset((r["a"], r["b"])): i for i, r in enumerate(state["map"]["routes"])}
        state["owners"] = [None] * len(state["owners"])
        for a, b in zip(cities, cities[1:], strict=False):
            state["owners"][routes[frozenset((a, b))]] = seat
        state["step"] = "run"
        _new, events = TTR.apply(state, seat, {"run": cities})
        run = next(e for e in events if e["type"] == "run")
        check_text(run["text"])
        # the gates as the text writes them, read left to right as time order
        written = run["params"]["gates"].split(" → ")
        assert written == run["gates"] and f"{run['params']['gates']} takes" in run["text"]
        psi = ttr_register(mission["initial_state"])
        for gate in written:
            psi = ttr_apply(psi, gate)
        assert same_up_to_phase(read_ket(run["params"]["ket"]), psi)
        target = ttr_target(mission["target_state"], mission["qubits"])
        if mission["qubits"] == 1:
            q0 = q0_state(psi)
            reached = run["params"]["reached"]
            assert (q0 is None) == isinstance(reached, dict)        # "q0 entangled with q1"
            if q0 is not None:
                assert same_up_to_phase(read_ket(reached), q0)
            rho = np.einsum("ab,cb->ac", psi.reshape(2, 2), psi.reshape(2, 2).conj())
            fidelity = float(np.real(np.vdot(target, rho @ target)))
        else:
            assert same_up_to_phase(read_ket(run["params"]["reached"]), psi)
            fidelity = abs(np.vdot(target, psi)) ** 2
        assert float(run["params"]["fidelity"]) == pytest.approx(fidelity, abs=5e-3)
        assert run["match"] == (abs(1 - fidelity) < 1e-9) == (run["code"] == "mission_complete")


@pytest.mark.skipif(shutil.which("node") is None, reason="the board's ket formatter runs in node")
def test_ticket_to_ride_board_kets_are_the_registers_amplitudes():
    """The path picker's kets (ttr-circuit.js) against numpy: the phase as computed, a
    coefficient of size 1 as its sign alone (i|10⟩, −|00⟩)."""
    rng = random.Random(7)
    cases = [(rng.choice(list(TTR_START)), [rng.choice(["I", "X", "Y", "Z", "H", "CNOT"]) for _ in range(rng.randint(0, 7))])
             for _ in range(300)]
    cases += [("0", ["Y"]), ("0", ["X", "Z"]), ("1", ["Y", "H"]), ("+", ["CNOT", "Y"])]
    script = ("import { register, applyGate, ketText } from './ttr-circuit.js';\n"
              f"const cases = {json.dumps(cases)};\n"
              "console.log(JSON.stringify(cases.map(([s, gates]) => { let p = register(s); "
              "for (const g of gates) p = applyGate(p, g); return ketText(p); })));")
    out = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT / "static" / "games",
                         capture_output=True, text=True, check=True, timeout=60).stdout
    for (initial, gates), text in zip(cases, json.loads(out), strict=True):
        psi = ttr_register(initial)
        for g in gates:
            psi = ttr_apply(psi, g)
        assert not re.search(r"(^|[ (+−])1i?\|", text) and "−1|" not in text, text
        assert np.allclose(read_ket(text), psi, atol=2e-3), (initial, gates, text)


# =========================================================================== Entanglion

ENT = get_game("entanglion")
ENT_PLANET = {
    "ZERO": KET["0"], "ONE": KET["1"], "PLUS": KET["+"], "MINUS": KET["−"],
    "PHI PLUS": BELL["phi+"], "PHI MINUS": BELL["phi-"], "PSI PLUS": BELL["psi+"], "PSI MINUS": BELL["psi-"],
    "OMEGA ZERO": np.array([1, -1, 1, 1], dtype=complex) / 2, "OMEGA ONE": np.array([1, -1, -1, -1], dtype=complex) / 2,
    "OMEGA TWO": np.array([1, 1, 1, -1], dtype=complex) / 2, "OMEGA THREE": np.array([1, 1, -1, 1], dtype=complex) / 2,
}
SWAP = cnot(0, 1, 2) @ cnot(1, 0, 2) @ cnot(0, 1, 2)


def ent_state(ships: dict) -> np.ndarray:
    m, r = ENT_PLANET[ships["mercurial"]], ENT_PLANET[ships["rubicon"]]
    return m if m.size == 4 else np.kron(m, r)


def ent_gate(seat: int, card: str) -> np.ndarray:
    """Mercurial is qubit 0, Rubicon qubit 1; a CNOT's target is the player's ship."""
    if card == "SWAP":
        return SWAP
    if card == "CNOT":
        return cnot(1 - seat, seat, 2)
    return on(GATES[card], seat, 2)


def check_entanglion_move(seat: int, card: str, before: dict, after: dict, code: str, params: dict) -> str:
    real = ent_gate(seat, card) @ ent_state(before)
    if code.endswith("kickback"):
        assert after == before
        ship = "mercurial" if params["other"] == "Mercurial" else "rubicon"
        assert params["a"] == before[ship] and not same_up_to_phase(real, ent_state(before))
        assert same_up_to_phase(real, ent_state({**before, ship: params["b"]}))
    else:
        assert same_up_to_phase(real, ent_state(after)), (seat, card, before, after, code)
    return code


@pytest.mark.parametrize("variant", ENT.variants)
def test_entanglion_moves_are_the_real_gates_or_say_what_the_board_leaves_out(variant):
    seen = set()
    for seed in range(25):
        rng = random.Random(f"ent:{variant}:{seed}")
        state = ENT.setup(players=2, variant=variant, seed=seed)
        for _ in range(60):
            if state["finished"]:
                break
            seat = ENT.to_act(state)[0]
            actions = ENT.legal_actions(state, seat)
            for a in actions:
                if "play" in a or "mechanic" in a:
                    p = ENT.preview(state, seat, a)
                    check_text(p["text"])
                    seen.add(check_entanglion_move(seat, p["card"], p["before"], p["after"], p["code"], p["params"]))
                    assert (p["kickback"] is not None) == p["code"].endswith("kickback")
            plays = [a for a in actions if "play" in a]
            action = rng.choice(plays if plays and rng.random() < 0.8 else actions)
            state, events = ENT.apply(state, seat, action)
            for e in events:
                check_text(e["text"])
                if e["type"] == "play":
                    seen.add(check_entanglion_move(e["seat"], e["card"], e["before"], e["after"], e["code"], e["params"]))
    assert {"no_effect", "enter", "move_inside", "preview_stay"} <= seen


def test_entanglion_cnot_in_superious_says_a_real_cnot_would_kick_the_phase_back():
    state = ENT.setup(players=2, variant="easy", seed=3)
    seat = ENT.to_act(state)[0]
    me, other = ("mercurial", "rubicon") if seat == 0 else ("rubicon", "mercurial")
    for other_planet, moved in (("PLUS", "MINUS"), ("MINUS", "PLUS")):
        s = json.loads(json.dumps(state))
        s["ships"] = {me: "MINUS", other: other_planet}
        s["hands"][seat] = ["CNOT", "X", "H"]
        p = ENT.preview(s, seat, {"play": "CNOT"})
        assert p["code"] == "preview_stay_kickback" and p["kickback"]["b"] == moved
        _new, events = ENT.apply(s, seat, {"play": "CNOT"})
        e = next(e for e in events if e["type"] == "play")
        assert e["code"] == "no_effect_kickback" and e["params"]["b"] == moved
        assert "A real CNOT would change the state here" in e["text"] and "leaves this out" in e["text"]
        check_entanglion_move(seat, "CNOT", s["ships"], e["after"], e["code"], e["params"])
    # the player's ship on PLUS: a real CNOT does nothing either, and nothing more is said
    s = json.loads(json.dumps(state))
    s["ships"] = {me: "PLUS", other: "MINUS"}
    s["hands"][seat] = ["CNOT", "X", "H"]
    _new, events = ENT.apply(s, seat, {"play": "CNOT"})
    e = next(e for e in events if e["type"] == "play")
    assert e["code"] == "no_effect"
    check_entanglion_move(seat, "CNOT", s["ships"], e["after"], e["code"], e["params"])
