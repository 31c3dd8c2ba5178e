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


def open_table(server, game: str = "quantum-tictactoe", names=("Ada", "Bo"), **session_extra) -> Table:
    teacher = Teacher(server)
    teacher.login(*TEACHER)
    session = teacher.open_session(game, **session_extra)
    joined = []
    for name in names:
        student = Student(server)
        assert student.join(session["join_code"], name).status_code == 302
        joined.append(student)
    assert teacher.api("POST", f"/api/sessions/{session['id']}/auto-pair/").status_code == 200
    dashboard = teacher.api("POST", f"/api/sessions/{session['id']}/start-all/").json()
    match_id = dashboard["tables"][0]["match"]
    students = {}
    for student in joined:
        seat = student.api("GET", f"/api/matches/{match_id}/").json()["seat"]
        students[seat] = student
    return Table(teacher, session, match_id, students)
