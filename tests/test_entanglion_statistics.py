"""Entanglion on the statistics pages: its 2-qubit circuit (q0 Mercurial, q1 Rubicon) is scored
as where each ship would be found in Centarious; the odds, circuit and QASM pages and an Aer run
work for a match that entered PHI PLUS, whose Bell state gives 00 or 11 half the time each."""
from __future__ import annotations

import pytest
from django.test import Client

from classrooms import services as class_services
from games.engines.entanglion.statistics import EntanglionScorer
from simulator import services
from simulator.scoring import has_circuit, score_table
from tests.support.entanglion_tables import FIRST_GAME
from tests.test_entanglion_class import three_tables
from tests.test_simulator_fixtures import eager, teacher_access  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]


def test_the_scorer_reads_qubit_k_from_the_right_of_the_key():
    scorer = EntanglionScorer({})
    assert scorer.sides == ["mercurial", "rubicon"]
    assert scorer.score("01") == (1, 0)  # clbit 0 (Mercurial) is the rightmost character
    assert scorer.score("10") == (0, 1)
    table = score_table(scorer, {"00": 0.5, "11": 0.5})
    assert table["expected"] == [0.5, 0.5]
    assert has_circuit("entanglion", {}) and has_circuit("entanglion", None)


def test_odds_circuit_and_an_aer_run_of_a_match_in_phi_plus(classroom, django_capture_on_commit_callbacks):
    entanglion_session = class_services.open_session(classroom, "entanglion", variant="easy", options=FIRST_GAME)
    matches = three_tables(entanglion_session)
    match = matches[2]  # played the opening: both ships on PHI PLUS
    match.refresh_from_db()
    teacher = Client()
    teacher.force_login(entanglion_session.classroom.teacher)
    odds = teacher.get(f"/api/matches/{match.pk}/odds/").json()
    assert odds["exact"]["sides"] == ["mercurial", "rubicon"]
    by_label = {row["label"]: row["fraction"] for row in odds["exact"]["table"]}
    assert by_label == pytest.approx({"mercurial:0 rubicon:0": 0.5, "mercurial:1 rubicon:1": 0.5})
    assert odds["actual"] is None
    # what it means, in the game's words: entangled ships, no "who wins" between partners
    assert odds["verdict"] == [
        "Measured now, Mercurial would be found on ONE with probability 50% and Rubicon with probability 50%.",
        "Both ships on the same Centarious planet: 100%.",
        "That is not 50%, as two separate ships would give: the outcomes are correlated, the ships are entangled."]
    idle = teacher.get(f"/api/matches/{matches[3].pk}/odds/").json()  # both on ZERO: nothing entangled
    assert idle["verdict"] == [
        "Measured now, Mercurial would be found on ONE with probability 0% and Rubicon with probability 0%.",
        "Both ships on the same Centarious planet: 100%."]
    page = teacher.get(f"/matches/{match.pk}/stats/")
    assert page.status_code == 200 and "<svg" in page.content.decode()
    circuit = teacher.get(f"/api/matches/{match.pk}/circuit/").json()
    assert circuit["num_qubits"] == 2
    assert teacher.get(f"/matches/{match.pk}/circuit/").status_code == 200
    qasm = teacher.get(f"/matches/{match.pk}/circuit.qasm").content.decode()
    assert qasm.startswith("OPENQASM 3") and "cx" in qasm and "h " in qasm
    with django_capture_on_commit_callbacks(execute=True):
        run, _ = services.request_run(services.RunRequest(match.pk, "aer", shots=400, seed=3), teacher_access(match))
    run.refresh_from_db()
    assert run.status == "done" and set(run.counts) == {"00", "11"} and sum(run.counts.values()) == 400


def test_the_session_statistics_count_a_game_lost_together_as_no_draw(classroom):
    from classrooms.models import Participant, Table
    from games.services import SeatHolder, create_match, start_match
    from simulator.selectors import session_statistics

    session = class_services.open_session(classroom, "entanglion", variant="easy")
    ada = Participant.objects.create(session=session, display_name="Ada")
    results = {}
    for number, seed in ((1, 1), (2, 5)):  # partner bots: seed 1 wins, seed 5 is caught
        match = create_match("entanglion", [SeatHolder("Bot A", bot="partner"), SeatHolder("Bot B", bot="partner")],
                             variant="easy", seed=seed, teacher=classroom.teacher)
        start_match(match.pk)
        match.refresh_from_db()
        match.seats.filter(index=0).update(participant_id=ada.pk, bot="", name="Ada")
        Table.objects.create(session=session, number=number, match=match)
        results[number] = match.outcome["result"]
    assert results == {1: "won", 2: "lost"}
    stats = session_statistics(session)
    assert stats["win_rate_by_side"] == {"seat 1/seat 2": 0.5, "lost together": 0.5}
    [student] = stats["students"]
    assert (student["name"], student["games"], student["wins"], student["draws"]) == ("Ada", 2, 1, 0)
