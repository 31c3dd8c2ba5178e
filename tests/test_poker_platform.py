"""QuantumPoker through the platform: over the real socket a whole 3-player hand (two students, one
strong bot) leaks no other player's hidden value to a student, students get only the public keys
of the analysis (odds from what the table knows) and the teacher all of it; and the teaching point shown after a hand (``last_hand["physics"]``) holds only
finished-hand data."""
from __future__ import annotations

import asyncio
import copy
import json
import random

import pytest

from core import jsonpatch
from games.engines import get_game
from games.engines.quantum_poker import physics_counterfactual
from games.event_text import localize_view
from games.models import Match
from games.selectors import states_of
from tests.engines.test_quantum_poker_properties import keys_of
from tests.support.clients import run_async
from tests.support.engines import knows, recall_oracle
from tests.support.engines import poker_twin as twin
from tests.support.tables import open_table

GAME = get_game("quantum-poker")
SECRET_KEYS = {"seed", "initial", "amps", "gates", "public_known", "known_by"}
PUBLIC_ANALYSIS = {"hand", "phase", "mode", "expected_public", "p_win_public"}


# ------------------------------------------------------------------ over the real socket

async def collect(ws, into: list, until_seq: int, timeout: float = 10.0, patches: list | None = None) -> dict:
    """Record every message until a state with seq >= until_seq; return that state. A patch (a
    socket opened with ``?patches=1``) goes into ``patches`` as it came and into ``into`` as the
    whole state it makes of the one before, as a page would apply it."""
    async def wait():
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") == "patch":
                if patches is not None:
                    patches.append(message)
                message = jsonpatch.apply(copy.deepcopy(HELD[id(ws)]), message["ops"])
            if message.get("type") == "state":
                HELD[id(ws)] = copy.deepcopy(message)
            into.append(message)
            if message.get("type") == "state" and message["seq"] >= until_seq:
                return message
    return await asyncio.wait_for(wait(), timeout)


HELD: dict[int, dict] = {}  # the last whole state of each socket


def pick(state: dict, legal: list, rng: random.Random) -> dict:
    """Prefer plays that make private information: a second H (a coin flipped out of sight), H,
    then anything."""
    hand_seat = state["view"]["seat"]
    qubits = state["view"]["seats"][hand_seat]["qubits"]
    kinds = {c["index"]: c["kind"] for c in state["view"]["community"]}
    second_h = [a for a in legal if "card" in a and kinds[a["card"]] == "H"
                and qubits[a["target"]["qubit"]]["superposed"]]
    first_h = [a for a in legal if "card" in a and kinds[a["card"]] == "H"]
    return rng.choice(second_h or first_h or legal)


@pytest.mark.server
@pytest.mark.parametrize("seed,patched", [(1, False), (2, True)], ids=["whole-states", "patches"])
def test_no_student_message_in_a_whole_hand_holds_anothers_hidden_value(server, teacher, seed, patched):
    """Whole states, or patches of the state before (what a page is sent): the same checks of
    every state as the seat holds it, and no patch holds what its seat may not know."""
    table = open_table(server, game="quantum-poker", names=("Ada", "Bo"), variant="classic",
                       options={"table_size": 3, "hands": 1, "community_cards": 8}, bot_level="strong")
    path = f"/ws/matches/{table.match_id}/" + ("?patches=1" if patched else "")
    rng = random.Random(seed)
    patches: dict[object, list] = {seat: [] for seat in table.students}
    got: dict[object, list] = {seat: [] for seat in table.students}
    got["teacher"] = []
    got["screen"] = []

    async def projector(ws):
        async for text in ws:
            got["screen"].append(json.loads(text))

    async def scenario():
        sockets = {seat: await s.socket(path) for seat, s in table.students.items()}
        watcher = await table.teacher.socket(path)
        screen = await table.teacher.socket(f"/ws/sessions/{table.session['id']}/screen/")
        screening = asyncio.create_task(projector(screen))
        latest = {seat: await collect(ws, got[seat], 0, patches=patches[seat]) for seat, ws in sockets.items()}
        await collect(watcher, got["teacher"], 0)
        for _ in range(30):
            seat = next(iter(latest.values()))["to_act"]
            if next(iter(latest.values()))["outcome"] or not seat:
                break
            seat = seat[0]
            assert seat in sockets, "the bot plays inside the students' submissions"
            mine = latest[seat]
            await sockets[seat].send(json.dumps({"type": "act", "seq": mine["seq"],
                                                 "action": pick(mine, mine["legal"], rng)}))
            latest[seat] = await collect(sockets[seat], got[seat], mine["seq"] + 1, patches=patches[seat])
            target = latest[seat]["seq"]
            for other, ws in sockets.items():
                if other != seat:
                    latest[other] = await collect(ws, got[other], target, patches=patches[other])
            await collect(watcher, got["teacher"], target)
        await asyncio.sleep(0.5)   # the projector's last payload
        for ws in [*sockets.values(), watcher, screen]:
            await ws.close()
        await screening
        return latest

    latest = run_async(scenario())
    assert all(m["outcome"] is not None for m in latest.values())
    match = Match.objects.get(pk=table.match_id)
    assert match.status == Match.Status.FINISHED
    states = states_of(match)
    assert states[-1]["finished"]
    bot_seat = ({0, 1, 2} - set(table.students)).pop()
    assert match.actions.filter(seat=bot_seat, by_bot=True).exists()

    private_of_others = {seat: {json.dumps(e, sort_keys=True) for st in states for e in st["events"]
                                if "visible_to" in e and seat not in e["visible_to"]}
                         for seat in table.students}
    hidden_checked = 0
    for seat in table.students:
        states_seen = [m for m in got[seat] if m["type"] == "state"]
        assert len(states_seen) >= 3
        for message in got[seat]:
            assert message["type"] in ("state", "pong"), message
            if message["type"] == "state":   # only the odds from public knowledge
                public = {k: v for k, v in GAME.analysis(states[message["seq"]]).items()
                          if k in PUBLIC_ANALYSIS}
                assert message["analysis"] == public and "expected_public" in public
            secret = keys_of(message) & SECRET_KEYS
            assert not secret, f"seat {seat} was sent {secret} (match seed {match.seed}): {message}"
            for e in message.get("events", []):
                assert "visible_to" not in e or seat in e["visible_to"]
        for message in states_seen:
            state = states[message["seq"]]
            assert message["seat"] == seat and message["view"]["seat"] == seat
            # the engine's view, as a reader is given it (texts rendered, their messages left out)
            assert message["view"] == localize_view(GAME.slug, GAME.view(state, seat))
            # the same message whatever the others' hidden values, the dealt values, the seed
            assert localize_view(GAME.slug, GAME.view(twin(state, seat), seat)) == message["view"]
            hand = state["hand"]
            oracle = recall_oracle(state) if hand["phase"] == "play" else {}
            for owner, cards in enumerate(hand["qubits"]):
                for slot, q in enumerate(cards):
                    seen = message["view"]["seats"][owner]["qubits"][slot]
                    assert seen["id"] == q["id"]
                    if oracle and owner != seat and knows(oracle, q["id"], seat):
                        # perfect recall: a value this seat saw and followed
                        assert q["superposed"] or seen["value"] == q["value"]
                    elif owner != seat and not q["shown"]:
                        assert seen["value"] is None and not seen["known"]
                        hidden_checked += 1
                    elif not q["superposed"]:
                        assert seen["value"] == q["value"]
            lh = message["view"]["last_hand"]
            if lh is not None:   # the teaching point: the finished hand only, never the current
                assert lh["hand"] == state["history"][-1]["number"]
                assert hand["phase"] == "over" or hand["number"] > lh["hand"]
            # no private event of another seat (a coin flipped out of sight), from any action
            for e in message["events"]:
                assert json.dumps(e, sort_keys=True) not in private_of_others[seat]
    assert hidden_checked >= 20
    if patched:  # the patches themselves: shorter than the states, nothing of another seat's
        assert sum(len(p) for p in patches.values()) >= 4
        for seat in table.students:
            for patch in patches[seat]:
                assert not keys_of(patch) & SECRET_KEYS
                flat = json.dumps(patch, ensure_ascii=False)
                assert not any(json.dumps(e, ensure_ascii=False) in flat for e in private_of_others[seat])
                assert not any(e["text"] in flat for st in states for e in st["events"]
                               if "visible_to" in e and seat not in e["visible_to"])

    # the projector (the whole class sees it): public facts only, the whole hand long — no
    # secret key, no private event's text, and a moment only once the hand is shown down
    assert got["screen"] and all(m["type"] == "screen" for m in got["screen"])
    private_texts = {e["text"] for st in states for e in st["events"] if "visible_to" in e}
    showdown_seqs = {a.seq for a in match.actions.all() if any(e["type"] == "showdown" for e in a.events)}
    for message in got["screen"]:
        assert not keys_of(message) & (SECRET_KEYS | {"view", "analysis", "legal", "events"})
        flat = json.dumps(message, ensure_ascii=False)
        assert not any(text in flat for text in private_texts)
        for m in message["moments"]:
            assert int(m["id"].split("-")[1]) in showdown_seqs

    teacher_states = [m for m in got["teacher"] if m["type"] == "state"]
    assert len(teacher_states) >= 2
    for message in teacher_states:
        assert message["seat"] is None and message["legal"] == []
        assert set(message["analysis"]["teacher_only"]) >= {"p_win", "expected_exact"}
        assert message["view"] == localize_view(GAME.slug, GAME.view(states[message["seq"]], None))
    final = latest[next(iter(latest))]
    result = final["view"]["last_hand"]
    assert result["winners"] and result["pot"] > 0
    assert sum(result["payouts"]) == result["pot"]
    assert final["outcome"]["scores"] == states[-1]["chips"]


# ------------------------------------------------------------------ the teaching point (engine)

def _rigged(community: list[str], values: dict[int, list[int]], **options) -> dict:
    state = GAME.setup(players=2, seed=7, options={"community_cards": len(community), **options})
    hand = state["hand"]
    hand["community"] = [{"id": f"t{i}", "kind": k, "taken_by": None, "order": None}
                         for i, k in enumerate(community)]
    for seat, vals in values.items():
        for q, v in zip(hand["qubits"][seat], vals, strict=True):
            q["value"] = q["initial"] = v
            if "amps" in q:
                q["amps"] = [[1.0, 0.0], [0.0, 0.0]] if v == 0 else [[0.0, 0.0], [1.0, 0.0]]
    return state


def _play(state, card, seat, qubit):
    return GAME.apply(state, GAME.to_act(state)[0], {"card": card, "target": {"seat": seat, "qubit": qubit}})[0]


def test_teaching_point_after_a_simplified_hand_shows_the_h_that_did_not_erase():
    s = _rigged(["H", "X", "H"], {1: [1, 0, 0, 0], 0: [0, 0, 0, 0]}, hands=2)
    during = GAME.view(s, 0)
    assert during["last_hand"] is None
    s = _play(s, 0, 1, 0)   # seat 1 (dealer's left) lays its dealt 1 down
    s = _play(s, 1, 0, 0)
    s = _play(s, 2, 1, 0)   # a second H: a coin in this game, certainly 1 in physics
    assert s["hand"]["number"] == 2 and s["history"][-1]["phase"] == "over"
    for seat in (None, 0, 1):
        lh = GAME.view(s, seat)["last_hand"]
        ph = lh["physics"]
        assert ph["hand"] == 1 and ph["differs"]
        card = ph["seats"][1]["cards"][0]
        assert card["dealt"] == 1 and card["applied"] == ["H", "H"] and card["physics_p1"] == 1.0
        assert card["physics_ket"] == "|1⟩" and "did not really" in card["note"]
        assert card["value"] == lh["cards"][1][0]["value"]
        assert ph["seats"][1]["score"] == lh["scores"][1]
        assert ph["seats"][1]["physics_expected"] == 1.0
    # the summary is the engine's counterfactual for that finished hand, fixed at the showdown
    # (its noted cards: the three others, never touched by an H, end the same in both modes)
    cf = physics_counterfactual(s, 1)
    noted = [c for c in cf["seats"][1]["cards"] if c["note"]]
    shown = GAME.view(s, None)["last_hand"]["physics"]
    assert [c["id"] for c in noted] == [c["id"] for c in shown["seats"][1]["cards"]] == [cf["seats"][1]["cards"][0]["id"]]
    assert [c["physics_p1"] for c in noted] == [c["physics_p1"] for c in shown["seats"][1]["cards"]]
    assert shown["seats"][0]["cards"] == [] and len(cf["seats"][0]["cards"]) == 4
    # a match recorded under rules version 1 is still shown every card, as it was then
    assert [c["physics_p1"] for c in GAME.with_rules(1).view(s, None)["last_hand"]["physics"]["seats"][1]["cards"]] \
        == [c["physics_p1"] for c in cf["seats"][1]["cards"]]
    # none of the next hand: changing its secrets changes nothing in the view of another seat
    assert GAME.view(twin(s, 0), 0) == GAME.view(s, 0)


def test_no_teaching_summary_in_physics_mode_or_before_a_hand_ends():
    s = _rigged(["H", "H"], {1: [1, 0, 0, 0]}, physics_mode=True, hands=1)
    s = _play(s, 0, 1, 0)
    assert GAME.view(s, 1)["last_hand"] is None
    s = _play(s, 1, 0, 0)
    assert s["finished"] and GAME.view(s, 0)["last_hand"]["physics"] is None


def test_teaching_summary_never_reflects_the_hand_in_play():
    """Over seeded random multi-hand matches: at every step every seat's view is the same for
    a twin state differing in what that seat may not know, and the summary is always of the last
    finished hand."""
    for seed in range(12):
        rng = random.Random(seed)
        players = rng.randint(2, 5)
        state = GAME.setup(players=players, variant=rng.choice(GAME.variants), seed=seed,
                           options={"hands": 3, "community_cards": rng.randint(2, 8)})
        while not state["finished"]:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            state, _ = GAME.apply(state, seat, rng.choice(legal))
            for viewer in [None, *range(players)]:
                v = GAME.view(state, viewer)
                assert GAME.view(twin(state, viewer), viewer) == v
                assert not keys_of(v) & SECRET_KEYS
                if state["history"]:
                    assert v["last_hand"]["physics"]["hand"] == state["history"][-1]["number"]
                    assert v["last_hand"]["physics"]["hand"] < v["hand"] or v["phase"] == "over"
