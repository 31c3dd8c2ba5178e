"""Runs through the service and the API, tasks in-process: results stored once, idempotent
requests, cancelling, the IBM path against a fake device, clear errors for an unreachable
service or a refused token, permissions, the OpenAPI schema, the pages."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from simulator import ibm, services
from simulator.models import Run
from tests.test_simulator_fixtures import (  # noqa: F401 (fixture)
    class_table,
    eager,
    finished_qtris,
    seat_people,
    teacher_access,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]


@pytest.fixture
def teacher(db):
    return User.objects.create_user("ms-curie", password="radium-1898-Polonium")


@pytest.fixture
def match(teacher):
    m = finished_qtris(teacher)
    class_table(teacher, m)
    return m


@pytest.fixture
def teacher_client(teacher):
    c = Client()
    c.force_login(teacher)
    return c


def ask(match, backend, django_capture_on_commit_callbacks, **kw):
    with django_capture_on_commit_callbacks(execute=True):
        run, created = services.request_run(services.RunRequest(match.pk, backend, **kw),
                                            teacher_access(match))
    run.refresh_from_db()
    return run, created


def test_exact_aer_and_noisy_runs_are_stored_with_scores(match, django_capture_on_commit_callbacks):
    exact, _ = ask(match, "exact", django_capture_on_commit_callbacks)
    aer, _ = ask(match, "aer", django_capture_on_commit_callbacks, shots=3000)
    noisy, _ = ask(match, "aer-noisy", django_capture_on_commit_callbacks, shots=1000,
                   device="fake_brisbane")
    for run in (exact, aer, noisy):
        assert run.status == Run.Status.DONE, run.error
        assert run.completions == 1
        assert run.circuit_qasm.startswith("OPENQASM 3")
        assert run.scores["sides"] == ["white", "black"]
        assert run.scores["actual"] == [match.outcome["lines"]["white"], match.outcome["lines"]["black"]]
        assert run.finished_at >= run.started_at >= run.queued_at
    assert sum(exact.probabilities.values()) == pytest.approx(1.0)
    assert exact.counts is None and exact.shots == 0
    assert sum(aer.counts.values()) == 3000 and aer.shots_done == 3000
    assert all(len(k) == 9 for k in aer.counts)
    for i in range(2):
        assert abs(aer.scores["expected"][i] - exact.scores["expected"][i]) < 0.15
    assert noisy.transpiled_two_qubit_gates is not None and noisy.transpiled_depth > 0
    assert noisy.device == "fake_brisbane" and noisy.simulation_seconds > 0


def test_the_same_request_twice_stores_one_run_and_one_result(match, django_capture_on_commit_callbacks):
    first, created = ask(match, "aer", django_capture_on_commit_callbacks, shots=700, seed=42)
    second, created_again = ask(match, "aer", django_capture_on_commit_callbacks, shots=700, seed=42)
    assert created and not created_again
    assert first.pk == second.pk
    assert Run.objects.filter(match=match).count() == 1
    assert second.completions == 1 and second.attempts == 1
    # a repeated delivery of the task does nothing
    from simulator.tasks import execute_run

    assert execute_run.apply(args=(first.pk,)).get() == "skipped"
    first.refresh_from_db()
    assert first.completions == 1
    # without a seed the default is derived from the position: still one run
    a, _ = ask(match, "aer", django_capture_on_commit_callbacks, shots=500)
    b, _ = ask(match, "aer", django_capture_on_commit_callbacks, shots=500)
    assert a.pk == b.pk


def test_cancel_stops_a_queued_run_and_the_task_respects_it(match, django_capture_on_commit_callbacks):
    # queued but not yet executed: the on-commit enqueue is not run
    with django_capture_on_commit_callbacks(execute=False):
        run, _ = services.request_run(services.RunRequest(match.pk, "aer", shots=900),
                                      teacher_access(match))
    assert services.cancel_run(run) is True
    from simulator.tasks import execute_run

    assert execute_run.apply(args=(run.pk,)).get() == "skipped"
    run.refresh_from_db()
    assert run.status == Run.Status.CANCELLED and run.counts is None
    assert services.cancel_run(run) is False


def test_cancel_while_running_stops_between_chunks(match, monkeypatch):
    from simulator import backends

    with monkeypatch.context() as m:
        m.setattr(services, "enqueue", lambda run_id: None)
        run, _ = services.request_run(services.RunRequest(match.pk, "aer", shots=5000),
                                      teacher_access(match))
    original = services._progress

    def cancelling(run_id):
        report = original(run_id)

        def progress(done):
            Run.objects.filter(pk=run_id).update(status=Run.Status.CANCELLED)
            return report(done)
        return progress

    monkeypatch.setattr(services, "_progress", cancelling)
    assert len(backends.chunks(5000)) > 1
    assert services.execute(run.pk) == "cancelled"
    run.refresh_from_db()
    assert run.status == Run.Status.CANCELLED and run.completions == 0


def save_token(match, token="fake-token-0123456789", device="fake_brisbane"):
    from simulator.credentials import save_token as save

    return save(match.table.session.classroom, token, default_device=device)


def test_ibm_path_end_to_end_against_a_fake_device(match, django_capture_on_commit_callbacks):
    from qiskit_ibm_runtime.fake_provider import FakeGuadalupeV2

    seen = []

    def factory(account):
        seen.append(account)
        return ibm.LocalService(account, backends={"ibm_test": FakeGuadalupeV2()})

    save_token(match, device="ibm_test")
    previous = ibm.set_service_factory(factory)
    try:
        run, _ = ask(match, "ibm", django_capture_on_commit_callbacks, shots=600)
    finally:
        ibm.set_service_factory(previous)
    assert run.status == Run.Status.DONE, run.error
    assert run.job_id and run.device == "ibm_test"
    assert sum(run.counts.values()) == 600 and all(len(k) == 9 for k in run.counts)
    assert run.transpiled_two_qubit_gates is not None and run.transpiled_depth > 0
    assert seen and seen[0].token == "fake-token-0123456789"  # decrypted for the service only


def test_unreachable_service_with_a_bogus_token_is_a_clear_stored_error(
        match, settings, django_capture_on_commit_callbacks):
    settings.SIMULATOR_HARDWARE_RETRIES = 0
    save_token(match, token="bogus", device="ibm_brisbane")
    previous = ibm.set_service_factory(None)  # the real QiskitRuntimeService; no network here
    try:
        run, _ = ask(match, "ibm", django_capture_on_commit_callbacks, shots=100)
    finally:
        ibm.set_service_factory(previous)
    assert run.status == Run.Status.FAILED
    assert "IBM Quantum could not be reached" in run.error or "refused" in run.error
    assert "bogus" not in run.error


def test_a_refused_token_is_a_clear_stored_error(match, django_capture_on_commit_callbacks):
    from qiskit_ibm_runtime.exceptions import IBMNotAuthorizedError

    def refusing(account):
        raise IBMNotAuthorizedError("401 Client Error: Unauthorized")

    save_token(match)
    previous = ibm.set_service_factory(refusing)
    try:
        run, _ = ask(match, "ibm", django_capture_on_commit_callbacks, shots=100)
    finally:
        ibm.set_service_factory(previous)
    assert run.status == Run.Status.FAILED
    assert run.error.startswith("IBM Quantum refused the class's API token")


def test_network_errors_are_retried_then_stored(match, settings, django_capture_on_commit_callbacks):
    import requests

    settings.SIMULATOR_HARDWARE_RETRIES = 2
    calls = []

    def offline(account):
        calls.append(1)
        raise requests.ConnectionError("connection refused")

    save_token(match)
    previous = ibm.set_service_factory(offline)
    try:
        run, _ = ask(match, "ibm", django_capture_on_commit_callbacks, shots=100)
    finally:
        ibm.set_service_factory(previous)
    assert len(calls) == 3
    assert run.status == Run.Status.FAILED and "gave up after 3 attempts" in run.error


def test_token_is_encrypted_and_never_shown(match, teacher_client):
    classroom = match.table.session.classroom
    url = f"/api/classes/{classroom.pk}/ibm-token/"
    response = teacher_client.put(url, {"token": "secret-token-abcd"}, content_type="application/json")
    assert response.status_code == 200 and response.json()["hint"] == "…abcd"
    from simulator.credentials import decrypt
    from simulator.models import IBMCredential

    stored = IBMCredential.objects.get(classroom=classroom)
    assert "secret-token" not in stored.token_encrypted
    assert decrypt(stored.token_encrypted) == "secret-token-abcd"
    assert "secret-token" not in teacher_client.get(url).content.decode()
    page = teacher_client.get(f"/teacher/classes/{classroom.pk}/quantum/").content.decode()
    assert "secret-token" not in page and "…abcd" in page
    assert teacher_client.put(url, {"token": ""}, content_type="application/json").status_code == 400


def test_api_runs_bad_input_is_400_with_a_message(match, teacher_client, django_capture_on_commit_callbacks):
    cases = [
        {"match": match.pk, "backend": "quantum-magic"},
        {"match": match.pk, "backend": "aer", "shots": 0},
        {"match": match.pk, "backend": "aer", "shots": "many"},
        {"match": match.pk, "backend": "aer", "action_number": match.seq + 5},
        {"match": match.pk, "backend": "aer-noisy", "device": "fake_nowhere"},
        {"match": match.pk, "backend": "ibm"},  # no token saved
    ]
    for body in cases:
        response = teacher_client.post("/api/runs/", body, content_type="application/json")
        assert response.status_code == 400, (body, response.content)
        assert response.json(), body
    assert teacher_client.get("/api/runs/?match=abc").status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        response = teacher_client.post("/api/runs/", {"match": match.pk, "backend": "aer", "shots": 500},
                                       content_type="application/json")
    assert response.status_code == 201
    run = response.json()
    assert teacher_client.get(run["url"]).json()["status"] == "done"
    again = teacher_client.post("/api/runs/", {"match": match.pk, "backend": "aer", "shots": 500},
                                content_type="application/json")
    assert again.status_code == 200 and again.json()["id"] == run["id"]
    cancel = teacher_client.post(f"{run['url']}cancel/")
    assert cancel.status_code == 400 and "already ended" in cancel.json()["message"]
    listed = teacher_client.get(f"/api/runs/?match={match.pk}").json()
    assert listed["count"] == 1 and [r["id"] for r in listed["results"]] == [run["id"]]


def test_permissions(match, teacher, django_capture_on_commit_callbacks):
    stranger = User.objects.create_user("stranger", password="x-very-secret-1")
    other = Client()
    other.force_login(stranger)
    anonymous = Client()
    for client in (other, anonymous):
        assert client.get(f"/matches/{match.pk}/stats/").status_code in (302, 404)
        assert client.get(f"/api/matches/{match.pk}/odds/").status_code in (403, 404)
        r = client.post("/api/runs/", {"match": match.pk, "backend": "aer"}, content_type="application/json")
        assert r.status_code in (403, 404)
    session = match.table.session
    assert other.get(f"/api/sessions/{session.pk}/statistics/").status_code == 404
    assert anonymous.get(f"/api/sessions/{session.pk}/statistics/").status_code == 403
    assert other.put(f"/api/classes/{session.classroom.pk}/ibm-token/", {"token": "x"},
                     content_type="application/json").status_code == 404

    # a student of the match: refused until the class allows it, then allowed (not hardware)
    pid, _ = seat_people(match)
    student = Client()
    s = student.session
    s["participant_ids"] = [pid]
    s.save()
    student.cookies["sessionid"] = s.session_key
    assert student.get(f"/api/matches/{match.pk}/odds/").status_code == 404
    from simulator.models import QuantumPolicy

    QuantumPolicy.objects.create(classroom=session.classroom, students_may_run=True, student_max_shots=1000)
    assert student.get(f"/api/matches/{match.pk}/odds/").status_code == 200
    assert student.get(f"/matches/{match.pk}/stats/").status_code == 200
    too_many = student.post("/api/runs/", {"match": match.pk, "backend": "aer", "shots": 5000},
                            content_type="application/json")
    assert too_many.status_code == 400 and "at most 1000" in too_many.json()["message"]
    hardware = student.post("/api/runs/", {"match": match.pk, "backend": "ibm", "shots": 10},
                            content_type="application/json")
    assert hardware.status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        ok = student.post("/api/runs/", {"match": match.pk, "backend": "aer", "shots": 800},
                          content_type="application/json")
    assert ok.status_code == 201
    assert Run.objects.get(pk=ok.json()["id"]).requested_by_participant == pid
    assert student.get(f"/api/sessions/{session.pk}/statistics/").status_code == 403


def test_api_in_the_openapi_schema(teacher_client):
    schema = teacher_client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for path in ("/api/runs/", "/api/runs/{run_id}/", "/api/runs/{run_id}/cancel/",
                 "/api/matches/{match_id}/odds/", "/api/matches/{match_id}/circuit/",
                 "/api/sessions/{session_id}/statistics/", "/api/classes/{class_id}/ibm-token/",
                 "/api/quantum/devices/"):
        assert path in schema, path


def test_pages_match_vs_odds_circuit_and_qasm(match, teacher_client, django_capture_on_commit_callbacks):
    ask(match, "aer", django_capture_on_commit_callbacks, shots=1000)
    ask(match, "aer-noisy", django_capture_on_commit_callbacks, shots=500, device="fake_manila")
    page = teacher_client.get(f"/matches/{match.pk}/stats/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "This game vs the odds" in html and "<svg" in html and "Final board" in html
    odds = teacher_client.get(f"/api/matches/{match.pk}/odds/").json()
    assert odds["actual"] == [match.outcome["lines"]["white"], match.outcome["lines"]["black"]]
    assert odds["aer"]["status"] == "done" and odds["verdict"]
    assert sum(odds["exact"]["win"].values()) == pytest.approx(1.0)
    circuit = teacher_client.get(f"/matches/{match.pk}/circuit/")
    assert circuit.status_code == 200 and "<svg" in circuit.content.decode()
    qasm = teacher_client.get(f"/matches/{match.pk}/circuit.qasm?at=3")
    assert qasm.status_code == 200 and qasm.content.decode().startswith("OPENQASM 3")
    assert "attachment" in qasm["Content-Disposition"]
    api = teacher_client.get(f"/api/matches/{match.pk}/circuit/?at=2").json()
    assert api["num_qubits"] == 9 and api["action_number"] == 2
    assert teacher_client.get(f"/api/matches/{match.pk}/circuit/?at=x").status_code == 400
    assert teacher_client.get(f"/api/matches/{match.pk}/circuit/?at=999").status_code == 400


def test_session_statistics_page_csv_and_api(teacher, teacher_client):
    session = None
    matches = []
    for i, seed in enumerate((1, 2, 3)):
        m = finished_qtris(teacher, seed=seed)
        session = class_table(teacher, m, number=i + 1, session=session)
        seat_people(m, names=(f"A{i}", f"B{i}"))
        matches.append(m)
    stats = teacher_client.get(f"/api/sessions/{session.pk}/statistics/").json()
    assert stats["finished_tables"] == 3
    assert sum(stats["score_distribution"].values()) == 3
    assert sum(stats["win_rate_by_side"].values()) == pytest.approx(1.0)
    assert sum(stats["win_rate_by_start"].values()) == pytest.approx(1.0)
    assert set(stats["mean_scores"]) == {"white", "black"}
    assert len(stats["students"]) == 6
    for s in stats["students"]:
        assert s["expected"] is not None
    page = teacher_client.get(f"/teacher/sessions/{session.pk}/statistics/")
    assert page.status_code == 200 and page.content.decode().count("<svg") >= 2
    csv_text = teacher_client.get(f"/teacher/sessions/{session.pk}/statistics/?format=csv").content.decode("utf-8-sig")
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("table,match,player") and len(lines) == 1 + 6


def test_a_request_with_other_shots_or_seed_is_a_new_run_never_the_earlier_counts(
        match, django_capture_on_commit_callbacks):
    first, created = ask(match, "aer", django_capture_on_commit_callbacks, shots=700, seed=42)
    more, more_created = ask(match, "aer", django_capture_on_commit_callbacks, shots=900, seed=42)
    other, other_created = ask(match, "aer", django_capture_on_commit_callbacks, shots=700, seed=43)
    assert created and more_created and other_created
    assert len({first.pk, more.pk, other.pk}) == 3
    assert Run.objects.filter(match=match).count() == 3
    assert (more.shots, more.seed, sum(more.counts.values())) == (900, 42, 900)
    assert (other.shots, other.seed, sum(other.counts.values())) == (700, 43, 700)
    assert sum(first.counts.values()) == 700 and other.counts != first.counts
    # each one asked again is still its own run
    again, created_again = ask(match, "aer", django_capture_on_commit_callbacks, shots=900, seed=42)
    assert not created_again and again.pk == more.pk and again.counts == more.counts


def test_a_noisy_run_on_another_device_is_a_new_run_with_that_devices_noise(
        match, django_capture_on_commit_callbacks, monkeypatch):
    from simulator import backends, devices
    from simulator.positions import load_position

    used = []
    compact = devices.noisy_compact
    monkeypatch.setattr(devices, "noisy_compact",
                        lambda name, circuit: used.append(name) or compact(name, circuit))
    assert devices.DEFAULT_DEVICE != "fake_kyiv"
    kyiv, created = ask(match, "aer-noisy", django_capture_on_commit_callbacks, shots=400,
                        seed=7, device="fake_kyiv")
    assert created and kyiv.status == Run.Status.DONE, kyiv.error
    assert kyiv.device == "fake_kyiv" and used == ["fake_kyiv"]
    default, created = ask(match, "aer-noisy", django_capture_on_commit_callbacks, shots=400,
                           seed=7)
    assert created and default.pk != kyiv.pk and default.status == Run.Status.DONE
    assert default.device == devices.DEFAULT_DEVICE and used == ["fake_kyiv", devices.DEFAULT_DEVICE]
    # the stored counts are those of the device's own noise model, run independently here
    circuit = load_position(match, kyiv.action_number).circuit
    on_kyiv = backends.run_noisy(circuit, 400, 7, "fake_kyiv").counts
    on_default = backends.run_noisy(circuit, 400, 7, devices.DEFAULT_DEVICE).counts
    assert on_kyiv != on_default
    assert kyiv.counts == on_kyiv and default.counts == on_default
