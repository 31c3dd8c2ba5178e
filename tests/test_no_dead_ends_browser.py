"""No dead ends: a teacher and a student click through every link and button-link on every page
they can reach, for every game, in real browsers; none leads to a 404, a 5xx, or a page of
another game (a "Circuit" for quantum tic-tac-toe). Missing pages are the app's own page."""
from __future__ import annotations

import re
from urllib.parse import parse_qsl, urldefrag, urlencode, urlparse

import pytest
from playwright.sync_api import expect

from classrooms import services
from classrooms.models import Classroom, Participant
from games.services import SeatHolder, create_match, start_match
from simulator.models import QuantumPolicy
from tests.support.browser import log_in_teacher, wait_for_boot

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.long]

# (game, variant, options): every game, and poker both with and without its circuit
GAMES = [("qtris", "basic", {}), ("quantum-tictactoe", "basic", {}),
         ("quantum-poker", "classic", {"physics_mode": True}), ("quantum-poker", "classic", {}),
         ("entanglion", "easy", {}), ("quantum-ticket-to-ride", "basic", {})]
NOT_CRAWLED = ("/admin/", "/api/", "/accounts/logout/", "/static/")
DOWNLOADS = ("format=csv", "format=evidence-", ".qasm")


def finished_match_of(session, teacher, participant: Participant, game: str, variant: str, options: dict):
    """A match of ``game`` played to its end at a table of ``session``; seat 1 is the student."""
    from classrooms.models import Table

    match = create_match(game, [SeatHolder("Bot", bot="random"), SeatHolder("Bo", bot="random")],
                         seed=11, teacher=teacher, variant=variant, options=options)
    start_match(match.pk)
    seat = match.seats.get(index=1)
    seat.participant_id, seat.bot, seat.name = participant.pk, "", participant.display_name
    seat.save()
    Table.objects.create(session=session, number=1, match=match)
    match.refresh_from_db()
    assert match.status == match.Status.FINISHED
    return match


def same_page(link: str) -> str:
    """``link`` without its fragment and with its query's parameters in one order: the debrief's
    toggles link ``?names=1&moment=1`` and ``?moment=1&names=1``, one page, visited once."""
    parsed = urlparse(urldefrag(link)[0])
    return parsed._replace(query=urlencode(sorted(parse_qsl(parsed.query, keep_blank_values=True)))).geturl()


def crawl(page, base: str, start: list[str], limit: int = 150) -> tuple[dict[str, int], list[str]]:
    """Visit every same-site link reachable from ``start``; returns {url: status} and the dead ends."""
    statuses: dict[str, int] = {}
    dead: list[str] = []
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    queue = [(base + path, "start") for path in start]
    while queue and len(statuses) < limit:
        url, came_from = queue.pop(0)
        if url in statuses:
            continue
        if any(d in url for d in DOWNLOADS):
            statuses[url] = page.context.request.get(url).status
        else:
            response = page.goto(url)
            wait_for_boot(page)  # links a page script draws (dashboard, lobby)
            if re.search(r"/matches/\d+/$", url):  # every match here is finished: its result panel,
                page.wait_for_selector("#result:not(.hidden)", timeout=10_000)  # drawn from the socket
            statuses[url] = response.status if response else 0
            body = page.content()
            assert "Traceback" not in body and "Using the URLconf" not in body, url
            if statuses[url] < 400:
                links = page.eval_on_selector_all(
                    "a[href]", "els => els.map(e => e.href)")
                for link in links:
                    link = same_page(link)
                    parsed = urlparse(link)
                    if parsed.netloc != urlparse(base).netloc or not parsed.path.startswith("/"):
                        continue
                    if any(parsed.path.startswith(p) for p in NOT_CRAWLED):
                        if parsed.path.startswith("/api/docs/") and link not in statuses:
                            statuses[link] = page.context.request.get(link).status
                        continue
                    queue.append((link, url))
        if statuses[url] >= 400:
            dead.append(f"{url} → {statuses[url]} (linked from {came_from})")
    assert len(statuses) < limit, "the crawl did not end: a link loop?"
    assert not errors, "script errors:\n" + "\n".join(errors)
    return statuses, dead


def test_no_link_or_button_of_any_game_leads_to_a_dead_end(chromium, server, teacher):
    classroom = Classroom.objects.create(teacher=teacher, name="Physics 9A")
    student = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    matches = {}
    for game, variant, options in GAMES:
        session = services.open_session(classroom, game, variant=variant, options=options)
        student.goto(server.url + f"/join/?code={session.join_code}")
        student.fill("input[name=name]", "Zoë")
        student.click("button[type=submit]")
        expect(student.locator("#lobby-status")).to_be_visible()
        participant = Participant.objects.get(session=session)
        matches[(game, bool(options))] = finished_match_of(session, teacher, participant, game, variant, options)

    teacher_page = log_in_teacher(chromium, server)

    seen, dead = crawl(teacher_page, server.url, ["/teacher/", "/"])
    assert not dead, "\n".join(dead)
    for (game, physics), match in matches.items():
        has_circuit = game in ("qtris", "entanglion", "quantum-ticket-to-ride") or (game == "quantum-poker" and physics)
        for page in (f"/matches/{match.pk}/replay/", f"/matches/{match.pk}/"):
            assert server.url + page in seen, (game, page)
        assert (server.url + f"/matches/{match.pk}/stats/" in seen) == has_circuit, game
        assert (server.url + f"/matches/{match.pk}/circuit/" in seen) == has_circuit, game
    teacher_page.goto(server.url + f"/matches/{matches['quantum-tictactoe', False].pk}/replay/")
    expect(teacher_page.locator("#replay")).to_be_visible()
    expect(teacher_page.get_by_role("link", name="Circuit")).to_have_count(0)

    # The student: the class hides statistics from students, then allows them.
    lobbies = [f"/lobby/{m.table.session_id}/" for m in matches.values()]
    seen, dead = crawl(student, server.url, lobbies)
    assert not dead, "\n".join(dead)
    assert not any("/stats/" in url or "/circuit/" in url for url in seen), sorted(seen)
    for match in matches.values():
        assert server.url + f"/matches/{match.pk}/replay/" in seen
    QuantumPolicy.objects.create(classroom=classroom, students_may_run=True)
    seen, dead = crawl(student, server.url, lobbies)
    assert not dead, "\n".join(dead)
    assert server.url + f"/matches/{matches['qtris', False].pk}/stats/" in seen
    assert server.url + f"/matches/{matches['quantum-poker', True].pk}/circuit/" in seen
    assert server.url + f"/matches/{matches['quantum-tictactoe', False].pk}/stats/" not in seen

    # An address that is not there, and another class's page, are the app's own page.
    for page in (student, teacher_page):
        response = page.goto(server.url + "/matches/987654/replay/")
        assert response.status == 404
        expect(page.locator("h1")).to_have_text("This page is not here")
    response = student.goto(server.url + "/teacher/")
    assert response.status < 400 and "/accounts/login/" in student.url
