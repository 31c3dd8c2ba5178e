"""A Ticket-to-Ride run goes through the simulator pipeline (tasks in-process): its circuit is
measured in the target's basis, Aer's success rate agrees with the exact fidelity (a run that
misses, fidelity 1/2, and the winning H·Z·H run, fidelity 1), and the statistics page shows
the success rate beside the exact answer."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.engines import get_game
from games.models import Match
from games.selectors import current_state
from games.services import SeatHolder, create_match, start_match, submit_action
from simulator import services
from simulator.models import Run
from tests.support.ticket_to_ride import quick_seed, scripted_action, small_map
from tests.test_simulator_fixtures import class_table, eager, teacher_access  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]
GAME = "quantum-ticket-to-ride"

# A: |0⟩ must reach B as |1⟩. A–B is one H: running it gives |+⟩, fidelity 1/2 (a miss);
# the mission is solvable the long way round (X then I).
HALF_MAP = {
    "name": "Half way", "description": "",
    "cities": [{"name": "Aa", "x": 100, "y": 100}, {"name": "Bb", "x": 300, "y": 100},
               {"name": "Cc", "x": 200, "y": 300}],
    "routes": [{"a": "Aa", "b": "Bb", "gate": "H", "length": 1},
               {"a": "Aa", "b": "Cc", "gate": "X", "length": 1},
               {"a": "Cc", "b": "Bb", "gate": "I", "length": 1}],
    "missions": [{"id": "HALF-1", "start": "Aa", "target": "Bb", "initial_state": "0", "target_state": "1",
                  "qubits": 1, "level": "basic"},
                 {"id": "HALF-2", "start": "Aa", "target": "Bb", "initial_state": "0", "target_state": "1",
                  "qubits": 1, "level": "basic"}],
}



@pytest.fixture(autouse=True)
def fresh_state_cache():
    """Tests reuse match ids (rolled back) with chosen seeds: the in-process state cache, keyed by
    (match id, seed), must not hand one test's state to the next."""
    from games import state_cache

    state_cache._states.clear()
    yield
    state_cache._states.clear()

@pytest.fixture
def teacher(db):
    return User.objects.create_user("ms-curie", password="radium-1898-Polonium")


@pytest.fixture
def teacher_client(teacher):
    c = Client()
    c.force_login(teacher)
    return c


def new_match(teacher, options, seed):
    match = create_match(GAME, [SeatHolder("Ada"), SeatHolder("Bo")], options=options, seed=seed, teacher=teacher)
    class_table(teacher, match)
    start_match(match.pk)
    match.refresh_from_db()
    return match


def act(match, action):
    match.refresh_from_db()
    seat = get_game(GAME).to_act(current_state(match))[0]
    submit_action(match.pk, seat, match.seq, action)
    match.refresh_from_db()


def ask(match, backend, django_capture_on_commit_callbacks, **kw):
    with django_capture_on_commit_callbacks(execute=True):
        run, _ = services.request_run(services.RunRequest(match.pk, backend, **kw), teacher_access(match))
    run.refresh_from_db()
    assert run.status == Run.Status.DONE, run.error
    return run


def half_seed() -> int:
    """A deal in which the first player holds an H card."""
    game = get_game(GAME)
    for seed in range(500):
        state = game.setup(players=2, seed=seed, options={"map": HALF_MAP})
        if "H" in state["hands"][state["turn"]]:
            return seed
    raise AssertionError("no seed")


def test_a_missed_run_succeeds_on_aer_as_often_as_its_fidelity_says(teacher, teacher_client,
                                                                     django_capture_on_commit_callbacks):
    match = new_match(teacher, {"map": HALF_MAP}, half_seed())
    act(match, {"claim": 0})
    act(match, {"run": ["Aa", "Bb"]})
    state = current_state(match)
    assert state["runs"][-1]["fidelity"] == pytest.approx(0.5) and not state["runs"][-1]["match"]
    exact = ask(match, "exact", django_capture_on_commit_callbacks)
    aer = ask(match, "aer", django_capture_on_commit_callbacks, shots=4000, seed=11)
    assert exact.scores["sides"] == ["success", "failure"]
    assert exact.scores["win"]["success"] == pytest.approx(0.5)
    # 4000 shots of a fair coin: 5 standard deviations are 4%
    assert abs(aer.scores["win"]["success"] - 0.5) < 0.04
    assert sum(aer.counts.values()) == 4000 and set(aer.counts) <= {"0", "1"}
    page = teacher_client.get(f"/matches/{match.pk}/stats/").content.decode()
    assert "exact fidelity with the target 0.500, so 50.0% of shots should find it" in page
    rate = 100 * aer.scores["win"]["success"]
    assert f"Aer (aer): {rate:.1f}% of 4000 shots found the target state." in page


def test_the_winning_run_finds_its_target_on_every_ideal_shot_and_the_page_says_so(
        teacher, teacher_client, django_capture_on_commit_callbacks):
    match = new_match(teacher, {"map": small_map()}, quick_seed())
    game = get_game(GAME)
    while match.status == Match.Status.PLAYING:
        state = current_state(match)
        act(match, scripted_action(state, game.to_act(state)[0]))
    assert match.outcome["reason"] == "mission"
    circuit = game.circuit(current_state(match))
    assert circuit.metadata["cities"] == ["Berlin", "Munich", "Vienna", "Rome"]
    aer = ask(match, "aer", django_capture_on_commit_callbacks, shots=1000)
    assert aer.scores["win"]["success"] == 1.0 and aer.counts == {"1": 1000}
    noisy = ask(match, "aer-noisy", django_capture_on_commit_callbacks, shots=1000, device="fake_manila")
    assert 0.8 < noisy.scores["win"]["success"] <= 1.0  # noise costs a little, never the answer
    page = teacher_client.get(f"/matches/{match.pk}/stats/").content.decode()
    assert "Berlin → Munich → Vienna → Rome: exact fidelity with the target 1.000, so 100.0% of shots" in page
    assert "Aer (aer): 100.0% of 1000 shots found the target state." in page
    assert "noisy (fake_manila)" in page
    odds = teacher_client.get(f"/api/matches/{match.pk}/odds/").json()
    assert odds["sides"] == ["success", "failure"] and odds["exact"]["win"]["success"] == pytest.approx(1.0)
    circuit_page = teacher_client.get(f"/matches/{match.pk}/circuit/")
    assert circuit_page.status_code == 200 and "<svg" in circuit_page.content.decode()
    # the class session's statistics count the table: the claimed lengths are the scores
    session = match.table.session
    stats = teacher_client.get(f"/teacher/sessions/{session.pk}/statistics/")
    assert stats.status_code == 200
    api = teacher_client.get(f"/api/sessions/{session.pk}/statistics/")
    assert api.status_code == 200
    rows = api.json()["tables"]
    assert [p["score"] for p in rows[0]["players"]] == match.outcome["scores"]


def test_before_any_run_the_page_says_so(teacher, teacher_client):
    match = new_match(teacher, {"map": small_map()}, quick_seed())
    response = teacher_client.get(f"/matches/{match.pk}/stats/")
    assert response.status_code == 200 and "No run yet" in response.content.decode()
