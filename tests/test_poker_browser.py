"""QuantumPoker in real browsers: two students (their own browser contexts) and a strong bot
play a whole hand by clicking community cards and target qubits; at every step each student's
page shows its own hidden values and never the other student's (compared with the DB state);
the pot is awarded and the result, with the physics-mode teaching point, is shown. The teacher's
page has the analysis panel, the students' pages only the odds from what the table knows."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engines import get_game
from games.models import Match
from games.selectors import current_state
from tests.support.browser import log_in_teacher, shot, student_joins
from tests.support.clients import Teacher
from tests.support.engines import knows, recall_oracle
from tests.support.phone import assert_phone_friendly, phone_page_of
from tests.support.tables import TEACHER, open_table

pytestmark = [pytest.mark.browser, pytest.mark.server]
REMEMBERED: list[str] = []   # cards a student was shown as "you remember" during the run
KIND_PREFERENCE = ["SWAP", "CX", "H", "Y", "Z", "X"]  # exercise the two-click and cross-seat plays first

DOM_CARDS = """() => ({
  seq: document.querySelector('#board').dataset.seq ?? null,
  cards: [...document.querySelectorAll('.qp-qubit')].map(e => ({
    seat: Number(e.dataset.seat), slot: Number(e.dataset.slot), id: e.dataset.id,
    value: e.dataset.value ?? null, state: e.dataset.state, face: e.querySelector('.qp-face').textContent,
    onlyYou: !!e.querySelector('.qp-only-you'), remembered: !!e.querySelector('.qp-remembered'), attrs: [...e.attributes].map(a => a.name + '=' + a.value).join(' ')})),
})"""


def dom_and_state(page, timeout_ms: int = 8000):
    """The page's cards and the DB state at the same seq (the page may lag a moment)."""
    waited = 0
    while True:
        dom = page.evaluate(DOM_CARDS)
        match = Match.objects.get()
        if dom["seq"] is not None and int(dom["seq"]) == match.seq:
            state = current_state(match)
            if Match.objects.get().seq == match.seq:
                return dom, state
        if waited > timeout_ms:
            raise AssertionError(f"the page stayed at seq {dom['seq']}, the DB is at {match.seq}")
        page.wait_for_timeout(100)
        waited += 100


def check_secrets(page, seat: int, other_student: int) -> int:
    """Own hidden values are shown (marked "only you see this"); the other student's hidden
    values appear nowhere in the page. Returns how many hidden cards of the other were checked."""
    dom, state = dom_and_state(page)
    hand = state["hand"]
    by_id = {c["id"]: c for c in dom["cards"]}
    html = page.content()
    checked = 0
    oracle = recall_oracle(state) if hand["phase"] == "play" else {}
    for owner, cards in enumerate(hand["qubits"]):
        for slot, q in enumerate(cards):
            shown = by_id[q["id"]]
            assert (shown["seat"], shown["slot"]) == (owner, slot)
            if q["superposed"]:
                assert shown["value"] is None and shown["state"] == "superposed"
                assert shown["face"] in ("", "0+1")
            elif q["shown"]:
                assert shown["value"] == str(q["value"]) and shown["state"] == "shown"
            elif owner == seat:
                assert shown["value"] == str(q["value"]), "a student must see their own hidden value"
                assert shown["onlyYou"] and shown["face"] == str(q["value"])
            elif oracle and knows(oracle, q["id"], seat):
                # perfect recall: a card this student saw (held, then swapped away) and followed
                assert shown["value"] == str(q["value"]) and shown["face"] == str(q["value"])
                assert shown["remembered"] and not shown["onlyYou"]
                REMEMBERED.append(q["id"])
            else:
                assert shown["value"] is None and shown["state"] == "hidden"
                assert shown["face"] == "?"
                assert "data-value" not in shown["attrs"] and not shown["onlyYou"]
                # the card's id never sits next to a value anywhere in the page
                assert f'data-id="{q["id"]}" data-state="hidden" data-value' not in html
                if owner == other_student:
                    checked += 1
    return checked


def play_turn(page, picture: str | None) -> bool:
    """If it is this page's turn: click a community card, then the target qubit(s)."""
    if not page.locator("#turn.mine").count():
        return False
    playable = page.locator(".qp-pauli.playable")
    expect(playable.first).to_be_visible()
    kinds = [playable.nth(i).get_attribute("data-kind") for i in range(playable.count())]
    kind = min(kinds, key=KIND_PREFERENCE.index)
    card = page.locator(f".qp-pauli.playable[data-kind='{kind}']").first
    before = page.locator("#board").get_attribute("data-seq")
    card.click()
    expect(page.locator(".qp-pauli.picked")).to_have_count(1)
    targets = page.locator(".qp-qubit.target")
    expect(targets.first).to_be_visible()
    assert page.locator(".qp-qubit.dim").count() > 0  # what cannot be targeted is greyed
    me = int(page.locator(".qp-seat.me").get_attribute("data-seat"))
    target_seats = {int(targets.nth(i).get_attribute("data-seat")) for i in range(targets.count())}
    if kind in ("X", "Y", "Z", "H") or kind == "SWAP":
        assert target_seats == {me}                # own qubit first (SWAP: own, then other's)
    else:
        assert me not in target_seats               # CX: another player's qubit
    if picture:
        shot(page, picture)
    targets.first.click()
    if kind == "SWAP":
        targets = page.locator(".qp-qubit.target")
        expect(targets.first).to_be_visible()
        assert me not in {int(targets.nth(i).get_attribute("data-seat")) for i in range(targets.count())}
        targets.last.click()
    page.wait_for_function(f"() => document.querySelector('#board').dataset.seq !== '{before}'", timeout=8000)
    return True


def two_students_and_a_bot(chromium, server, options: dict, bot_level: str):
    """Ada and Bo (browsers of their own) and a bot at a started QuantumPoker table."""
    t = Teacher(server)
    t.login(*TEACHER)
    session = t.open_session("quantum-poker", variant="classic", options=options, bot_level=bot_level)
    ada = student_joins(chromium, server, session["join_code"], "Ada", viewport=(1366, 900))
    bo = student_joins(chromium, server, session["join_code"], "Bo", viewport=(1366, 900))
    assert t.api("POST", f"/api/sessions/{session['id']}/auto-pair/").status_code == 200
    assert t.api("POST", f"/api/sessions/{session['id']}/start-all/").status_code == 200
    for page in (ada, bo):
        expect(page.locator(".qp-table")).to_be_visible(timeout=10_000)
    return ada, bo


def test_three_players_play_a_hand_and_nobody_sees_anothers_hidden_cards(chromium, server, teacher):
    ada, bo = two_students_and_a_bot(chromium, server, {"table_size": 3, "hands": 1}, "strong")
    for page in (ada, bo):
        expect(page.locator(".qp-seat")).to_have_count(3)
    match = Match.objects.get()
    assert match.game == "quantum-poker"
    seats = {p: int(p.locator(".qp-seat.me").get_attribute("data-seat")) for p in (ada, bo)}
    assert sorted(seats.values()) != [] and len(set(seats.values())) == 2
    bot_seat = ({0, 1, 2} - set(seats.values())).pop()
    assert match.seats.get(index=bot_seat).bot == "strong"
    expect(ada.locator(f".qp-seat[data-seat='{bot_seat}'] .qp-bot")).to_be_visible()

    # the teacher watches with the analysis panel
    watcher = log_in_teacher(chromium, server, viewport=(1366, 900))
    watcher.goto(server.url + f"/matches/{match.pk}/")
    expect(watcher.locator(".qp-analysis")).to_be_visible(timeout=10_000)
    expect(watcher.locator(".qp-analysis tr[data-seat]")).to_have_count(3)

    other = {ada: seats[bo], bo: seats[ada]}
    checked = plays = 0
    shot_pick = "poker-pick.png"
    public_odds_seen = False
    for _ in range(40):
        if all(p.locator("#result:not(.hidden)").count() for p in (ada, bo)):
            break
        for page in (ada, bo):
            if page.locator("#result:not(.hidden)").count():
                continue
            checked += check_secrets(page, seats[page], other[page])
            assert page.locator(".qp-analysis").count() == 0  # students never get the exact odds
            if page.locator(".qp-public-odds").count():      # only the public ones (during a hand)
                assert "Cards P(1)" not in page.locator(".qp-public-odds").inner_text()
                public_odds_seen = True
            if play_turn(page, shot_pick):
                plays += 1
                if plays == 1:
                    shot(page, "poker-table.png")
                    shot(watcher, "poker-teacher.png")
                shot_pick = None
        ada.wait_for_timeout(150)
    assert plays >= 2 and checked >= 4
    assert public_odds_seen, "the students' pages showed the odds from public knowledge"

    for page in (ada, bo):
        expect(page.locator("#result")).to_be_visible(timeout=10_000)
    match = Match.objects.get()
    state = current_state(match)
    assert match.status == Match.Status.FINISHED and state["finished"]
    result = state["results"][-1]
    names = {s.index: s.name for s in match.seats.all()}
    for page in (ada, bo):
        check_secrets(page, seats[page], other[page])  # everything is revealed now
        expect(page.locator(".qp-pot-text")).to_contain_text(f"Pot of {result['pot']} awarded")
        verdict = page.locator(".qp-winner")
        for w in result["winners"]:
            expect(verdict).to_contain_text(names[w])
        expect(verdict).to_contain_text(str(result["pot"]))
        # the rulebook payout: the chips on the others' 1-qubits are what the winner collects
        expect(verdict).to_contain_text(f"collects the {result['collected']} chips")
        for s, score in enumerate(result["scores"]):
            expect(page.locator(f".qp-seat[data-seat='{s}'] .qp-score-tag")).to_contain_text(f"{score} point")
        expect(page.locator(".qp-teach")).to_be_visible()
        expect(page.locator("#result h2")).to_contain_text("win")
        # the final chips on the table are the DB's
        for s in range(3):
            expect(page.locator(f".qp-seat[data-seat='{s}'] .qp-chips")).to_have_text(re.compile(rf"^\s*{state['chips'][s]}\s*$"))
    print(f"cards shown as 'you remember': {len(set(REMEMBERED))}")
    dealt = {q["id"]: q["initial"] for cards in state["history"][-1]["qubits"] for q in cards}
    assert len(dealt) == 12
    shot(ada, "poker-showdown.png", full_page=True)
    expect(watcher.locator(".qp-showdown")).to_be_visible(timeout=10_000)
    shot(watcher, "poker-teacher-end.png", full_page=True)

    # the replay renders the same table from the engine's frames
    ada.click("text=Open the replay")
    expect(ada.locator(".qp-table")).to_be_visible()
    expect(ada.locator(".qp-seat")).to_have_count(3)
    expect(ada.locator(".qp-pauli.playable")).to_have_count(0)
    ada.click("#next")
    shot(ada, "poker-replay.png")


IN_VIEW = """(sel) => [...document.querySelectorAll(sel)].every((n) => {
  const r = n.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
})"""


def test_poker_on_a_phone_hand_and_actions_first_and_the_coin_names_the_student(chromium, server, teacher):
    """A 375 × 667 touch phone at a five-seat table with ten community cards: the student's own
    hand and the community cards (their actions) are on the first screen, the other seats below;
    the page passes the phone check. Then a two-seat hand ending in a showdown coin flip: the
    coin is a small banner that covers none of the student's cards and names the student."""
    names = ("Ada", "Bo", "Cy", "Di", "Ed")
    table = open_table(server, game="quantum-poker", names=names, variant="classic",
                       options={"table_size": 5, "hands": 1, "community_cards": 10})
    seat, actor = next((s, st) for s, st in table.students.items()
                       if st.api("GET", f"/api/matches/{table.match_id}/").json()["legal"])
    page = phone_page_of(chromium, server, actor, f"/matches/{table.match_id}/")
    expect(page.locator(".qp-seat")).to_have_count(5)
    expect(page.locator(".qp-pauli.playable")).not_to_have_count(0)
    assert page.evaluate(IN_VIEW, ".qp-seat.me .qp-qubit, .qp-pauli"), "hand or community cards below the fold"
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
    expect(page.locator(".qp-seat.me .qp-seat-note")).to_have_text("Dashed cards: only you see their values.")
    assert_phone_friendly(page, "poker, five seats, my turn")
    shot(page, "phone-poker-five.png")
    # a whole play by touch, from the first screen: an own-qubit card, then my glowing qubit
    own = page.locator(".qp-pauli.playable:is([data-kind=X], [data-kind=Y], [data-kind=Z], [data-kind=H])").first
    if own.count():
        own.tap()
        assert page.evaluate(IN_VIEW, ".qp-qubit.target")
        seq = page.locator("#board").get_attribute("data-seq")
        page.locator(".qp-qubit.target").first.tap()
        expect(page.locator("#board")).not_to_have_attribute("data-seq", seq)

    # two seats, two community cards, the first an H: a laid-down qubit is measured by a coin
    game = get_game("quantum-poker")
    duo = open_table(server, game="quantum-poker", variant="classic",
                     options={"table_size": 2, "hands": 1, "community_cards": 2})
    match = Match.objects.get(pk=duo.match_id)
    seed = next(s for s in range(1, 5000) if game.setup(players=2, variant="classic", seed=s, options=match.options)
                ["hand"]["community"][0]["kind"] == "H")
    Match.objects.filter(pk=match.pk).update(seed=seed)
    first = next(s for s, st in duo.students.items() if st.api("GET", f"/api/matches/{duo.match_id}/").json()["legal"])
    phone = phone_page_of(chromium, server, duo.students[first], f"/matches/{duo.match_id}/")
    expect(phone.locator(".qp-pauli[data-kind=H].playable")).to_have_count(1)
    phone.locator(".qp-pauli[data-kind=H]").tap()
    phone.locator(".qp-seat.me .qp-qubit.target").first.tap()
    expect(phone.locator(".qp-seat.me .qp-qubit.superposed")).to_have_count(1)
    second = duo.students[1 - first]
    legal = second.api("GET", f"/api/matches/{duo.match_id}/").json()["legal"]
    seq = Match.objects.get(pk=duo.match_id).seq
    assert second.api("POST", f"/api/matches/{duo.match_id}/actions/", {"seq": seq, "action": legal[0]}).status_code == 200
    coin = phone.locator(".qp-coin-wrap")
    expect(coin).to_be_visible()
    name = Match.objects.get(pk=duo.match_id).seats.get(index=first).name
    expect(coin).to_contain_text(name)
    expect(coin).not_to_contain_text("Player")
    overlap = phone.evaluate("""() => [...document.querySelectorAll(".qp-coin-wrap, .qp-toast")].flatMap((over) => {
      const c = over.getBoundingClientRect();
      return [...document.querySelectorAll(".qp-seat.me .qp-qubit")].filter((n) => {
        const r = n.getBoundingClientRect();
        return r.left < c.right && c.left < r.right && r.top < c.bottom && c.top < r.bottom;
      }).map(() => over.className);
    })""")
    assert not overlap, f"the coin or a note covers the student's cards: {overlap}"
    shot(phone, "phone-poker-coin.png")
    expect(phone.locator(".qp-showdown")).to_be_visible(timeout=5000)


SEATS_AND_CARDS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) => !(a.right <= b.left || a.left >= b.right || a.bottom <= b.top || a.top >= b.bottom);
  const table = box(document.querySelector('.qp-table'));
  const seats = [...document.querySelectorAll('.qp-seat')].map(box);
  const cards = [...document.querySelectorAll('.qp-pauli')].map(box);
  return {
    past_the_edge: seats.filter((s) => s.left < table.left - 4 || s.right > table.right + 4).length,
    over_a_card: seats.filter((s) => cards.some((c) => meet(s, c))).length,
    over_a_seat: seats.filter((s, i) => seats.some((o, j) => i !== j && meet(s, o))).length,
    cards: cards.length,
  };
}"""


@pytest.mark.parametrize("players", [3, 4, 5])
def test_on_a_1024_px_laptop_every_seat_is_on_the_table_and_no_seat_covers_a_community_card(chromium, server, teacher,
                                                                                               players):
    """Beside the side panel the table is some 640 px wide at 1024 × 768 (a school laptop, a
    projector): its seats shrink with it instead of reaching past its edge or over the cards."""
    t = Teacher(server)
    t.login(*TEACHER)
    session = t.open_session("quantum-poker", variant="classic", options={"table_size": players, "hands": 1},
                             bot_level="random")
    page = student_joins(chromium, server, session["join_code"], "Ada", viewport=(1024, 768))
    assert t.api("POST", f"/api/sessions/{session['id']}/auto-pair/").status_code == 200
    assert t.api("POST", f"/api/sessions/{session['id']}/start-all/").status_code == 200
    expect(page.locator(".qp-seat")).to_have_count(players, timeout=10_000)
    found = page.evaluate(SEATS_AND_CARDS)
    assert found["cards"] > 0
    assert (found["past_the_edge"], found["over_a_card"], found["over_a_seat"]) == (0, 0, 0), found
