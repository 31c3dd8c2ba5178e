"""Set up a class session with a table through the real server, as a teacher and students would."""
from __future__ import annotations

from dataclasses import dataclass

from tests.support.clients import Student, Teacher

TEACHER = ("ms-curie", "radium-1898-Polonium")


@dataclass
class Table:
    teacher: Teacher
    session: dict
    match_id: int
    students: dict[int, Student]  # seat → student


def open_table(server, game: str = "quantum-tictactoe", names=("Ada", "Bo"), seed: int | None = None,
               **session_extra) -> Table:
    """A started table; ``seed`` (set on the match before it starts) picks a deterministic deal."""
    teacher = Teacher(server)
    teacher.login(*TEACHER)
    session = teacher.open_session(game, **session_extra)
    joined = []
    for name in names:
        student = Student(server)
        assert student.join(session["join_code"], name).status_code == 302
        joined.append(student)
    paired = teacher.api("POST", f"/api/sessions/{session['id']}/auto-pair/")
    assert paired.status_code == 200
    if seed is not None:
        from games.models import Match

        Match.objects.filter(pk=paired.json()["tables"][0]["match"]).update(seed=seed)
    dashboard = teacher.api("POST", f"/api/sessions/{session['id']}/start-all/").json()
    match_id = dashboard["tables"][0]["match"]
    students = {}
    for student in joined:
        seat = student.api("GET", f"/api/matches/{match_id}/").json()["seat"]
        students[seat] = student
    return Table(teacher, session, match_id, students)
