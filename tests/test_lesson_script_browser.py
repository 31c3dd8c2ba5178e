"""One scripted lesson per game, the way a teacher runs one, in real browsers against a real
server (PostgreSQL, Redis, a Celery worker, Chromium):

* the teacher (a 1366×768 laptop) logs in, creates a class, turns class cards on, adds a
  nickname, reads the printed card and opens a session of the game from the class page: a 15 s
  clock per move (and, for some games, Spanish as the students' language);
* six students on phones (375×667 and 320×568, touch, no hover) join from the join page, one of
  them with the class card; every second one's phone asks for less motion (``prefers-reduced-motion``:
  the pages' animations and transitions off, their results shown at once);
* round 1 ("Start round 1" on the dashboard): the students play a few moves each by tapping
  their boards; one student lets the 15 s run out (the random bot moves for them, said in the
  log); the teacher pauses every table (the boards refuse a tap) and resumes; "Finish in" ends
  every table by its game's rule;
* round 2 ("Next round"): the new tables keep playing (move after move, past the first round's
  deadline); the teacher removes a student mid-game (a bot plays on), the student asks to come
  back from the join page and the teacher lets them back in; "Finish in" ends round 2;
* the teacher ends the session; every student opens each of their replays; for a game with a
  circuit the teacher runs its statistics on Aer through the Celery worker.

The lesson fails on any console error or uncaught exception of any page; on anything a student
must tap that is under 24 px or under another element (the tap lands at the element's centre,
where a thumb would); on any page of a student that scrolls sideways or fails
``tests.support.phone``'s checks; on any English text of the app's catalogs on a student's page
of a lesson held in Spanish (``tests.test_i18n_browser.english_on``); and on any table that ended
without its log saying why (the game's own end, or the "Finish in" rule). Problems are collected
through the whole lesson and listed together at its end; a step that cannot go on fails at once.

The game drives only the pages: students tap, the teacher clicks; the database is read to check
(and to know which student's page to look at), never written. The server runs with a short
"Finish in" choice (``FINISH_IN_CHOICES``) so that the lesson stays short; the clock per move is
the real 15 s. Each game is a test of its own (parametrized), with its own time and findings.
"""
from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field

import pytest
from django.utils import translation
from playwright.sync_api import expect

from classrooms.models import ClassSession, Participant
from games.engines import FINISH_ACTION, get_game
from games.event_text import localize
from games.models import Action, Match
from games.selectors import current_state
from games.snapshot import localized_seats, seats_summary
from tests.support.browser import log_in
from tests.support.phone import PHONE, SMALL_PHONE, phone_context, phone_problems
from tests.support.server import LiveServer
from tests.test_i18n_browser import english_on

# under pytest-xdist the lessons run one after the other on one worker (seven browser pages and a
# server apiece): two at once put fourteen pages on two cores (the suite alone took 6:52 and 743
# CPU-seconds with two queues of lessons, 6:22 and 681 with one; from a fresh clone 6:29 and 6:38,
# within a run's spread), and one queue still ends well before the rest of the suite (its five
# lessons about 270 s of a 380 s run)
pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.long, pytest.mark.xdist_group("lessons")]

FINISH_SECONDS = 4   # the test server's shortest "Finish in" choice
CLOCK_SECONDS = 15   # the clock per move, as a teacher would choose it
LAPTOP = {"width": 1366, "height": 768}
SHOTS = "/tmp/qc-shots"


@dataclass(frozen=True)
class Lesson:
    game: str
    variant: str
    options: dict
    language: str  # the session's "Students' language" ("" = each browser's)
    circuit: bool  # the game has a circuit: statistics on Aer


LESSONS = [
    Lesson("quantum-tictactoe", "basic", {}, "", False),
    Lesson("qtris", "basic", {}, "es", True),
    Lesson("quantum-poker", "classic", {"physics_mode": True}, "es", True),
    Lesson("entanglion", "easy", {}, "", True),
    Lesson("quantum-ticket-to-ride", "basic", {}, "es", True),
]

# the card holder first; then students who join by name
NAMES = ["Ana María", "Bruno", "Chen", "Dara", "Emil", "Fatou"]
SIZES = [PHONE, SMALL_PHONE, PHONE, SMALL_PHONE, PHONE, PHONE]
LESS_MOTION = [False, True, False, True, False, True]  # (the system setting of each student's phone)

# What a student taps to make a move, first match first: the loop taps the first visible and
# enabled element of the first selector that has one, until the page sends a move (a pick, a
# card, a preview: each is a tap; a move of several taps takes several turns of the loop).
MOVE_STEPS = {
    "quantum-tictactoe": ["button[data-collapse]", "g.cell.choice", "g.cell.playable:not(.picked)"],
    # (a tapped QTris play brings its preview, with a Play button, into view: the student taps Play
    # there, as the page asks; tapping the square again raced that scroll under a loaded server)
    "qtris": ["[data-testid=confirm-play]", "[data-action=roll]", "[data-action=color-white]",
              "[data-action=mulligan]", "g.sq.target",
              "[data-action=discard]", ".qcard:not(.picked)", "[data-action=pass]"],
    "quantum-poker": [".qp-qubit.target", ".qp-pauli.playable:not(.picked)", "[data-declare]"],
    "entanglion": ["button.ent-card", "button.ent-act"],
    "quantum-ticket-to-ride": ["[data-claim]", "[data-draw]", ".ttr-route.claimable", "[data-pass]"],
}
# the elements that reach past the right edge of the screen (the innermost first), for a finding
# (measured against the phone's width: a mobile browser widens its layout viewport to the content)
PAST_THE_EDGE = """(width) => [...document.querySelectorAll('body *')]
  .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right > width + 0.5; })
  .reverse().slice(0, 4)
  .map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${String(e.className.baseVal ?? e.className).trim().replace(/ +/g, '.')}`
    + ` (${Math.round(e.getBoundingClientRect().right)} px) "${(e.textContent || '').trim().slice(0, 30)}"`)"""
# the browser's console line for a socket whose opening the server did not answer in time
SOCKET_REFUSED = re.compile(r"WebSocket connection to '[^']+' failed: Error during WebSocket handshake: "
                            r"(net::ERR_CONNECTION_RESET|Unexpected response code: 403)")
# the events that end a game (its own rule, or "Finish in": the time_up event before them)
END_TYPES = {"game_over", "score", "match_end", "game_end"}

# Every page counts the moves it sends and the newest state its match socket received: the
# script knows when a tap made a move and when the page has the answer, without guessing.
TRACE_SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.__acts = 0; window.__seq = -1; window.__socketErrors = []; window.__heard = 0;
  class Traced extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => { window.__heard += 1; });
      if (String(args[0]).includes("/ws/matches/")) this.addEventListener("message", (e) => {
        try {
          const m = JSON.parse(e.data);
          if ((m.type === "state" || m.type === "patch") && typeof m.seq === "number") window.__seq = Math.max(window.__seq, m.seq);
          if (m.type === "error") window.__socketErrors.push(`${m.code}: ${m.message}`);
        } catch (err) { /* not JSON */ }
      });
    }
    send(data) {
      try { if (JSON.parse(data).type === "act") window.__acts += 1; } catch (err) { /* not JSON */ }
      return super.send(data);
    }
  }
  window.WebSocket = Traced;
})();"""

DESCRIBE = """const describe = (n) => {
  if (!n || !n.tagName) return "nothing";
  const bits = [n.tagName.toLowerCase()];
  if (n.id) bits.push("#" + n.id);
  const cls = n.getAttribute("class");
  if (cls) bits.push("." + cls.trim().split(/\\s+/).slice(0, 3).join("."));
  for (const a of ["data-square", "data-card", "data-route", "data-action", "data-kind", "data-seat"]) {
    if (n.hasAttribute(a)) { bits.push(`[${a}="${n.getAttribute(a).slice(0, 30)}"]`); break; }
  }
  const text = (n.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 30);
  return bits.join("") + (text ? ` "${text}"` : "");
};"""

# An element a thumb is about to tap: scrolled into view as a thumb scrolls; its size, its centre
# and what a tap at that centre lands on.
PROBE = """(el) => {
  DESCRIBE
  el.scrollIntoView({ block: "center", inline: "center" });
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  const mine = !!hit && (hit === el || el.contains(hit) || (el.labels && [...el.labels].some((l) => l.contains(hit))));
  return { x, y, width: r.width, height: r.height, mine, what: describe(el), by: describe(hit) };
}""".replace("DESCRIBE", DESCRIBE)

# The first visible, enabled element of the first selector that has one (null: none), probed.
FIND_TARGET = """([selectors, enabledOnly]) => {
  DESCRIBE
  const usable = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })
    && el.getBoundingClientRect().width * el.getBoundingClientRect().height > 4
    && (!enabledOnly || (!el.disabled && el.getAttribute("aria-disabled") !== "true" && !el.closest("[aria-disabled=true], [inert]")));
  for (const sel of selectors) {
    const el = [...document.querySelectorAll(sel)].find(usable);
    if (!el) continue;
    el.scrollIntoView({ block: "center", inline: "center" });
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const mine = !!hit && (hit === el || el.contains(hit));
    return { selector: sel, x, y, width: r.width, height: r.height, mine, what: describe(el), by: describe(hit) };
  }
  return null;
}""".replace("DESCRIBE", DESCRIBE)


@pytest.fixture(scope="module")
def lesson_server(stack_processes):
    """A server whose teachers may finish in a few seconds (the clock per move stays 15 s), with
    an address on the classroom's network, on the run's Celery worker (``stack_processes``) for
    the statistics."""
    _, worker = stack_processes
    env = {"MOVE_CLOCK_CHOICES": f"{CLOCK_SECONDS},30,60", "FINISH_IN_CHOICES": f"{FINISH_SECONDS},60",
           # the address the printed cards and the board show (a loopback one would be refused);
           # the browsers of the test still open the server at 127.0.0.1
           "LAN_ADDRESS": "192.0.2.10"}
    if worker:
        env["SIMULATOR_QUEUE"] = worker.queue
    server = LiveServer(extra_env=env)
    server.start()
    yield server
    server.stop()


@dataclass
class Student:
    name: str
    page: object
    size: dict
    card: bool = False

    @property
    def match_id(self) -> int | None:
        found = re.search(r"/matches/(\d+)/$", self.page.url)
        return int(found[1]) if found else None


@dataclass
class Findings:
    """What went wrong, collected through the lesson and listed at its end: the same problem on
    several pages or steps (or on several squares of a board: the same words but for a number) is
    listed once, with where it was seen."""
    seen: dict[str, list[str]] = field(default_factory=dict)
    first: dict[str, str] = field(default_factory=dict)

    def add(self, where: str, problem: str) -> None:
        key = re.sub(r"\d+", "#", problem)
        self.first.setdefault(key, problem)
        self.seen.setdefault(key, []).append(where)

    def report(self) -> str:
        lines = []
        for key, where in self.seen.items():
            places = list(dict.fromkeys(where))
            more = f" and {len(places) - 3} more" if len(places) > 3 else ""
            lines.append(f"- {self.first[key]}\n    at {'; '.join(places[:3])}{more}")
        return "\n".join(lines)


class LessonRun:
    """The lesson's browsers and what they saw."""

    def __init__(self, lesson: Lesson, server, chromium):
        self.lesson = lesson
        self.server = server
        self.chromium = chromium
        self.findings = Findings()
        self.socket_retries: list[str] = []  # where a socket's opening failed and the page tried again
        self.students: list[Student] = []
        self.session_id: int | None = None
        self.join_code = ""
        # each stage, when it began and the machine's CPU time then (the run time per stage)
        self.stages: list[tuple[str, float, float]] = []
        self.stage = "setup"
        self.teacher = self.context(LAPTOP, phone=False).new_page()
        self.teacher.on("dialog", lambda dialog: dialog.accept())  # confirm() of remove / end

    @property
    def stage(self) -> str:
        return self.stages[-1][0]

    @stage.setter
    def stage(self, name: str) -> None:
        self.stages.append((name, time.monotonic(), machine_cpu_seconds()))

    def stage_times(self) -> str:
        """Each stage's wall time and the machine's CPU time meanwhile (every process's: Chromium's
        renderers, the server, PostgreSQL; what a lesson costs the machine)."""
        ends = [(t, cpu) for _, t, cpu in self.stages[1:]] + [(time.monotonic(), machine_cpu_seconds())]
        return ", ".join(f"{name} {end - began:.0f} s ({cpu_end - cpu:.0f} s CPU)"
                         for (name, began, cpu), (end, cpu_end) in zip(self.stages, ends, strict=True))

    # -- browsers --------------------------------------------------------------------------

    def context(self, size, phone: bool = True, less_motion: bool = False):
        motion = {"reduced_motion": "reduce"} if less_motion else {}
        context = phone_context(self.chromium, size, **motion) if phone else self.chromium.new_context(viewport=dict(size))
        context.add_init_script(TRACE_SOCKETS)
        who = "a phone" if phone else "the teacher"

        def console(message):
            if message.type == "error":
                url = message.page.url if message.page else ""
                if SOCKET_REFUSED.match(message.text):
                    # the browser's own line when a socket's opening fails (a server too busy to
                    # answer in time: the suite beside the lesson); the page reconnects by itself,
                    # and the lesson's next steps need it live
                    self.socket_retries.append(f"{self.stage} ({who}, {url.replace(self.server.url, '')})")
                    return
                self.findings.add(f"{self.stage} ({who}, {url.replace(self.server.url, '')})",
                                  f"console error: {message.text}")

        def page_error(error):
            url = error.page.url if error.page else ""
            self.findings.add(f"{self.stage} ({who}, {url.replace(self.server.url, '')})",
                              f"uncaught exception: {error.error}")

        context.on("console", console)
        context.on("weberror", page_error)
        return context

    def check_page(self, student: Student, what: str) -> None:
        """The student's page as it is now: usable by touch on their phone and, in a Spanish
        lesson, without an English string of the app."""
        page = student.page
        where = f"{self.stage}: {what} ({student.name}, {student.size['width']} px)"
        found = phone_problems(page)
        for over in found["sideways"]:
            self.findings.add(where, f"page {over} px wider than the phone ({page.url.replace(self.server.url, '')}; "
                                     f"past the right edge: {page.evaluate(PAST_THE_EDGE, student.size['width'])})")
        for p in found["small"]:
            self.findings.add(where, f"target under 24 px: {p['element']} ({p['width']}×{p['height']})")
        for p in found["covered"]:
            self.findings.add(where, f"target covered: {p['element']}, a tap lands on {p['by']}")
        for p in found["tiny"]:
            self.findings.add(where, f"text under 12 px: {p['element']} ({p['px']} px)")
        if self.lesson.language == "es":
            for text in english_on(page, "es"):
                self.findings.add(where, f"English under es: {text}")

    def tap(self, student: Student, locator, what: str) -> None:
        """A thumb taps ``locator`` at its centre: it must be at least 24 px square and on top."""
        locator.first.wait_for(state="visible", timeout=10_000)
        probe = locator.first.evaluate(PROBE)
        self.judge_tap(student, probe, what)
        student.page.touchscreen.tap(probe["x"], probe["y"])

    def open_link(self, student: Student, locator, url: str, what: str) -> None:
        """A thumb taps a link and the page goes there. A page that has just loaded may draw the
        link again when its socket first speaks, under the finger (the tap is lost, as on a
        phone): the thumb taps once more."""
        for attempt in (1, 2):
            self.tap(student, locator, what)
            try:
                student.page.wait_for_url(url, timeout=5000 if attempt == 1 else 15_000)
                return
            except Exception:
                if attempt == 2:
                    raise AssertionError(f"a tap on {what} ({student.name}) did not open it") from None

    def judge_tap(self, student: Student, probe: dict, what: str) -> None:
        where = f"{self.stage}: {what} ({student.name}, {student.size['width']} px)"
        if probe["width"] < 23.5 or probe["height"] < 23.5:
            self.findings.add(where, f"a target to tap under 24 px: {probe['what']} "
                                     f"({probe['width']:.1f}×{probe['height']:.1f})")
        if not probe["mine"]:
            self.findings.add(where, f"a target to tap is covered: {probe['what']}, the tap lands on {probe['by']}")

    # -- the teacher's side ----------------------------------------------------------------

    def open_session(self) -> str:
        """The teacher's class (cards on, one nickname), the printed card's code, and the session
        opened from the class page; returns the card's code."""
        page, lesson = self.teacher, self.lesson
        log_in(page, self.server.url)
        page.fill("input[name=name]", "Physics 9A")
        page.get_by_role("button", name="Create class").click()
        expect(page.locator("h1")).to_have_text("Physics 9A")
        page.get_by_role("button", name="Use class cards").click()
        page.get_by_label("Nicknames, one a line").fill(NAMES[0])
        page.get_by_role("button", name="Add to the class").click()
        expect(page.locator("#members")).to_contain_text(NAMES[0])
        page.get_by_test_id("print-cards").click()
        card = page.locator(".class-card").filter(has_text=NAMES[0]).locator(".class-card-code").inner_text().strip()
        page.go_back()
        page.select_option("#id_game", lesson.game)
        page.select_option("#id_variant", lesson.variant)
        page.select_option("#id_move_seconds", str(CLOCK_SECONDS))
        page.select_option("#id_language", lesson.language)
        if lesson.options:
            page.locator("#open-session details summary").click()
            page.fill("#id_options", json.dumps(lesson.options))
        page.get_by_role("button", name="Open session").click()
        try:
            page.wait_for_url(re.compile(r"/teacher/sessions/\d+/(#.*)?$"), timeout=15_000)
        except Exception:
            raise AssertionError(f"the session did not open: {page.url} "
                                 f"{page.locator('.errorlist, .error').all_inner_texts()}") from None
        self.session_id = int(re.search(r"/teacher/sessions/(\d+)/", page.url)[1])
        self.join_code = page.get_by_test_id("join-code").inner_text().strip()
        expect(page.locator("#move-clock")).to_have_value(str(CLOCK_SECONDS))
        return card

    def roster(self, name: str):
        return self.teacher.locator("li.student", has=self.teacher.locator(".name", has_text=re.compile(f"^{re.escape(name)}")))

    # -- the students' side ----------------------------------------------------------------

    def join(self, name: str, size: dict, card: str = "", less_motion: bool = False) -> Student:
        page = self.context(size, less_motion=less_motion).new_page()
        student = Student(name, page, size, card=bool(card))
        page.goto(self.server.url + "/join/")
        page.fill("input[name=code]", self.join_code.lower())
        if card:
            self.tap(student, page.locator("details.card-join summary"), "open “I have a class card”")
            page.fill("input[name=card]", card)
        else:
            page.fill("input[name=name]", name)
        self.tap(student, page.locator("#join-form button[type=submit]"), "Join")
        page.wait_for_url("**/lobby/**")
        expect(page.locator("h1")).to_contain_text(name)
        assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches") is less_motion
        self.students.append(student)
        return student

    def in_sync(self, student: Student, timeout_ms: int = 10_000) -> None:
        """The student's page has the newest state of its match."""
        seq = Match.objects.get(pk=student.match_id).seq
        student.page.wait_for_function(f"() => window.__seq >= {seq}", timeout=timeout_ms)

    def at_table(self, student: Student, previous: int | None = None) -> int:
        """Wait until the student's page is on a match (another than ``previous``) and live."""
        page = student.page
        page.wait_for_url(re.compile(r"/matches/\d+/$"), timeout=15_000)
        if previous is not None:
            page.wait_for_function(f"() => !location.pathname.includes('/matches/{previous}/')", timeout=15_000)
        page.wait_for_function("() => window.__seq >= 0", timeout=15_000)
        return student.match_id

    def my_turn(self, student: Student) -> bool:
        return student.page.locator("#turn.mine").count() > 0

    def seats_of(self, student: Student, match_id: int) -> list[int]:
        """The seats ``student`` holds at the match (one, or none once a bot took it)."""
        ids = Participant.objects.filter(session_id=self.session_id, display_name=student.name).values_list("pk")
        return list(Match.objects.get(pk=match_id).seats.filter(participant_id__in=ids).values_list("index", flat=True))

    def move(self, student: Student, what: str = "a move", taps: int = 8) -> bool:
        """The student makes one move by tapping their board (as many taps as the move takes);
        True once the server has it and the page has the answer."""
        page = student.page
        match_id = student.match_id
        before = Match.objects.get(pk=match_id).seq
        sent = page.evaluate("() => window.__acts")
        # a student looks at the board as it is: the page has the newest move before the first tap
        # (a tap on a board a move behind is refused as stale, rightly; under load the news of
        # the other player's move can take a moment)
        try:
            page.wait_for_function(f"() => window.__seq >= {before}", timeout=10_000)
        except Exception:
            raise AssertionError(f"{self.stage}: {student.name}'s page never received move {before}") from None
        for _ in range(taps):
            target = page.evaluate(FIND_TARGET, [MOVE_STEPS[self.lesson.game], True])
            if target is None:
                return False
            self.judge_tap(student, target, f"{what}: {target['selector']}")
            page.touchscreen.tap(target["x"], target["y"])
            if page.evaluate("() => window.__acts") > sent:
                self.wait_seq(match_id, before + 1, f"{student.name}'s move")
                try:
                    page.wait_for_function(f"() => window.__seq > {before} || window.__socketErrors.length", timeout=10_000)
                except Exception:
                    raise AssertionError(f"{self.stage}: {student.name}'s page never received the answer to its move") from None
                errors = page.evaluate("() => window.__socketErrors.splice(0)")
                # two seats acting at the same moment, or the clock moving for the student just as
                # they tapped: the tap is refused as stale, rightly (the page says so and shows the
                # new board); a refusal with no other move in between is a defect
                between = Action.objects.filter(match_id=match_id, seq=before).first()
                raced = between is not None and (between.timed_out or
                                                 between.seat not in self.seats_of(student, match_id))
                for error in errors:
                    if not (error.startswith("stale:") and raced):
                        self.findings.add(f"{self.stage}: {what} ({student.name})", f"a move refused: {error}")
                return True
        raise AssertionError(f"{self.stage}: {student.name} tapped {taps} times without making a move; "
                             f"the last target: {target}")

    def wait_seq(self, match_id: int, seq: int, what: str, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while Match.objects.get(pk=match_id).seq < seq:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.stage}: {what} never reached the server")
            time.sleep(0.05)

    def tables(self, round_number: int) -> list[Match]:
        return list(Match.objects.filter(table__session_id=self.session_id, table__round__number=round_number).order_by("pk"))

    def all_ended_saying_why(self, tables: list[Match], round_name: str) -> None:
        """Every table of the round ends by the teacher's "Finish in", and its log says why."""
        self.wait_for(lambda: all(m.status != Match.Status.PLAYING for m in
                                  Match.objects.filter(pk__in=[m.pk for m in tables])),
                      f"{round_name} did not end by the teacher's time", timeout=FINISH_SECONDS + 20)
        for match in tables:
            self.said_why_it_ended(match)

    def wait_for(self, condition, what: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.stage}: {what}")
            self.teacher.wait_for_timeout(100)

    # -- checks ----------------------------------------------------------------------------

    def said_why_it_ended(self, match: Match) -> None:
        """The table's last action says why the game ended (its own end, or the "Finish in"
        rule), and every page open on it shows that in its log."""
        match.refresh_from_db()
        last = match.actions.order_by("-seq").first()
        public = [e for e in (last.events if last else []) if isinstance(e, dict) and "visible_to" not in e]
        ends = [e for e in public if e.get("type") in END_TYPES]
        by_time = last is not None and last.action == FINISH_ACTION
        if match.status != Match.Status.FINISHED or not ends:
            self.findings.add(self.stage, f"table {match.label or match.pk} ended without saying why: status "
                                          f"{match.status}, last action {last.action if last else None}, events "
                                          f"{[e.get('type') for e in public]}")
            return
        why = [e for e in public if e.get("type") in END_TYPES or (by_time and e is public[0])]
        lang = self.lesson.language or "en"
        with translation.override(lang):
            texts = [e["text"] for e in localize(match.game, why) if e.get("text")]
            player = translation.gettext("Player %(number)s") % {"number": "\x00"}
        with translation.override(lang):  # each seat named as the pages name it ("Bot (was Bruno)")
            seats = {s["index"]: s["name"] for s in localized_seats(seats_summary(match.seats.all()))}
        before, after = (re.escape(p) for p in player.split("\x00"))
        named = [re.sub(rf"(?<!\w){before}(\d+){after}(?!\w)", lambda m: seats.get(int(m[1]) - 1, m[0]), t)
                 for t in texts]
        for student in self.students:
            if student.match_id != match.pk:
                continue
            page = student.page
            expect(page.locator("#result")).to_be_visible(timeout=15_000)
            log = page.locator("#log").inner_text()
            for text in named:
                if text not in log:
                    self.findings.add(f"{self.stage} ({student.name})",
                                      f"the log of {match.label} does not say why the game ended: {text!r} missing "
                                      f"(its newest lines: {log[:240]!r})")

    def timed_out_said(self, match: Match, student: Student) -> None:
        forced = match.actions.filter(timed_out=True).order_by("seq").first()
        assert forced is not None and forced.by_bot, f"{self.stage}: no move forced by the clock at {match.label}"
        with translation.override(self.lesson.language or "en"):
            text = localize(match.game, [e for e in forced.events if e.get("type") == "timeout"])[0]["text"]
        # (the log's newest line first: another seat sharing the clock may have run out after)
        expect(student.page.locator("#log .log-line.timeout", has_text=text).first).to_be_visible(timeout=10_000)


def machine_cpu_seconds() -> float:
    """The CPU time the machine's processes have used since it started (Linux; else 0)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(n) for n in f.readline().split()[1:8]]
    except OSError:
        return 0.0
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")  # (not idle, not waiting on disk)


def settled(page) -> None:
    """A page that has just loaded has heard from its socket (and drawn what it said)."""
    try:
        page.wait_for_function("() => window.__heard > 0", timeout=5000)
    except Exception:
        pass  # a page whose socket says nothing (the session is over): drawn from its initial data


def js_text(page, msgid: str) -> str:
    """A sentence of the pages' scripts as the page says it (the JavaScript catalog it loaded)."""
    return page.evaluate("(m) => window.django ? window.django.gettext(m) : m", msgid)


def students_of(run: LessonRun, match: Match) -> list[Student]:
    return [s for s in run.students if s.match_id == match.pk]


def play_until(run: LessonRun, done, idle: set[str] = frozenset(), timeout: float = 60, what: str = "",
               moves_each: int | None = None) -> None:
    """The students whose turn it is tap their moves (``idle`` ones do not; none more than
    ``moves_each`` moves) until ``done()``."""
    deadline = time.monotonic() + timeout
    made: dict[str, int] = {}
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"{run.stage}: {what} did not happen in {timeout:.0f} s")
        moved = False
        for student in run.students:
            if student.name in idle or student.match_id is None:
                continue
            if moves_each is not None and made.get(student.name, 0) >= moves_each:
                continue
            match = Match.objects.get(pk=student.match_id)
            if match.status != Match.Status.PLAYING or not run.my_turn(student):
                continue
            try:
                run.in_sync(student, timeout_ms=3000)
            except Exception:
                continue
            if run.my_turn(student) and run.move(student):
                moved = True
                made[student.name] = made.get(student.name, 0) + 1
            if done():
                return
        if not moved:
            run.teacher.wait_for_timeout(150)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.game)
@pytest.mark.timeout(900)
def test_a_whole_lesson_on_phones(lesson, lesson_server, chromium, teacher):
    started = time.monotonic()
    run = LessonRun(lesson, lesson_server, chromium)
    try:
        run_the_lesson(run)
    except Exception as exc:  # the step that could not go on, and what the lesson found before it
        os.makedirs(SHOTS, exist_ok=True)
        for i, student in enumerate(run.students):
            student.page.screenshot(path=f"{SHOTS}/lesson-{lesson.game}-{i}.png")
        run.teacher.screenshot(path=f"{SHOTS}/lesson-{lesson.game}-teacher.png")
        found = run.findings.report()
        raise AssertionError(f"{run.stage}: {exc}" + (f"\nand before that:\n{found}" if found else "")) from exc
    elapsed = time.monotonic() - started
    print(f"\nlesson of {lesson.game}: {elapsed:.0f} s ({run.stage_times()}); sockets opened again: "
          f"{len(run.socket_retries)} {run.socket_retries[:5]}")
    assert not run.findings.seen, f"the lesson of {lesson.game} ({elapsed:.0f} s) found:\n{run.findings.report()}"


def run_the_lesson(run: LessonRun) -> None:
    lesson, lesson_server, dashboard = run.lesson, run.server, run.teacher

    # -- the teacher opens the session; six phones join, one with the class card --------------
    card = run.open_session()
    run.stage = "joining"
    for i, (name, size, less_motion) in enumerate(zip(NAMES, SIZES, LESS_MOTION, strict=True)):
        student = run.join(name, size, card=card if i == 0 else "", less_motion=less_motion)
        run.check_page(student, "lobby")
    expect(dashboard.locator("li.student")).to_have_count(len(NAMES))
    expect(run.roster(NAMES[0]).locator(".pill.card")).to_be_visible()
    holder = Participant.objects.get(session_id=run.session_id, display_name=NAMES[0])
    assert holder.member is not None and holder.member.nickname == NAMES[0]

    # -- round 1: a 15 s clock, one student lets it run out ------------------------------------
    run.stage = "round 1"
    dashboard.locator("#next-round").click()
    for student in run.students:
        run.at_table(student)
    first = run.tables(1)
    assert len(first) >= 3 and all(m.status == Match.Status.PLAYING for m in first), first
    for student in run.students:
        run.check_page(student, "board")
    # the student to act first at the first table does nothing: the clock runs out for them
    table = first[0]
    seat = get_game(table.game).to_act(current_state(table))[0]
    idle_name = table.seats.get(index=seat).name
    idle = next(s for s in run.students if s.name == idle_name)
    timed_out = lambda: Action.objects.filter(match=table, timed_out=True).exists()  # noqa: E731
    # (the others play a few moves meanwhile, then wait with their pages open: moves past those
    # cost the machine and show nothing new; round 2 plays on past the first round's deadline)
    play_until(run, timed_out, idle={idle_name}, timeout=CLOCK_SECONDS + 20, what="the clock running out",
               moves_each=3)
    for student in students_of(run, table):
        run.timed_out_said(table, student)

    # pause: every page says so, a tap on the board makes no move; resume
    run.stage = "paused"
    dashboard.locator("#pause-btn").click()
    paused_text = js_text(run.students[0].page, "Paused by your teacher")
    for student in run.students:
        if Match.objects.get(pk=student.match_id).status == Match.Status.PLAYING:
            expect(student.page.locator("#pace-paused")).to_contain_text(paused_text)
    expect(dashboard.locator("#pause-btn")).to_have_attribute("aria-pressed", "true")
    assert all(m.paused for m in Match.objects.filter(pk__in=[m.pk for m in first], status=Match.Status.PLAYING))
    tried = 0
    for student in run.students:
        target = student.page.evaluate(FIND_TARGET, [MOVE_STEPS[lesson.game], False])
        match = Match.objects.get(pk=student.match_id)
        if target is None or match.status != Match.Status.PLAYING:
            continue
        seq, acts = match.seq, student.page.evaluate("() => window.__acts")
        student.page.touchscreen.tap(target["x"], target["y"])
        student.page.wait_for_timeout(300)
        assert Match.objects.get(pk=match.pk).seq == seq, f"a move was made at {match.label} while paused"
        if student.page.evaluate("() => window.__acts") > acts:
            run.findings.add(f"paused ({student.name})", "a tap on the paused board sent a move")
        tried += 1
    assert tried, "no board to tap while paused"
    for student in run.students:
        run.check_page(student, "paused board")
    dashboard.locator("#pause-btn").click()
    expect(dashboard.locator("#pause-btn")).to_have_attribute("aria-pressed", "false")
    for student in run.students:
        expect(student.page.locator("#pace-paused")).to_be_hidden()

    # "Finish in": every page counts down with its game's rule; every table ends by it
    run.stage = "finish in (round 1)"
    dashboard.select_option("#finish-in", str(FINISH_SECONDS))
    dashboard.locator("#finish-btn").click()
    with translation.override(lesson.language or "en"):
        rule = translation.gettext(get_game(lesson.game).finish_rule)
    for student in run.students:
        if Match.objects.get(pk=student.match_id).status == Match.Status.PLAYING:
            expect(student.page.locator("#pace-rule")).to_have_text(rule)
    run.all_ended_saying_why(first, "round 1")
    for student in run.students:
        run.check_page(student, "result of round 1")
    expect(dashboard.locator("#round-status")).to_contain_text("Every table has finished")

    # -- round 2: the new tables play on, move after move ----------------------------------------
    run.stage = "round 2"
    dashboard.locator("#next-round").click()
    for student in run.students:
        old = student.match_id
        notice = student.page.locator(f"#session-notice a[href*='/matches/']:not([href*='/matches/{old}/'])")
        notice.first.wait_for(state="visible", timeout=15_000)
        run.open_link(student, notice, "**" + notice.first.get_attribute("href"), "“Go to my table”")
        run.at_table(student, previous=old)
    second = run.tables(2)
    assert len(second) >= 3
    assert not {m.pk for m in second} & {m.pk for m in first}
    for student in run.students:
        run.check_page(student, "board of round 2")
        expect(student.page.locator("#pace-finish")).to_be_hidden()
    moved_twice = lambda: all(m.seq >= 2 or m.status != Match.Status.PLAYING  # noqa: E731
                              for m in Match.objects.filter(pk__in=[m.pk for m in second]))
    play_until(run, moved_twice, timeout=60, what="two moves at every table of round 2")
    for match in Match.objects.filter(pk__in=[m.pk for m in second]):
        last = match.actions.order_by("-seq").first()
        assert match.status == Match.Status.PLAYING or (last and last.action != FINISH_ACTION), \
            f"{match.label} of round 2 was ended by the first round's time"
        assert match.ends_at is None, f"{match.label} of round 2 carries a finish time"

    # a student is removed mid-game: a bot plays on at the seat; they ask to come back; readmitted
    run.stage = "removed"
    removed = next(s for s in run.students if not s.card and s is not idle
                   and Match.objects.get(pk=s.match_id).status == Match.Status.PLAYING)
    run.roster(removed.name).locator("button", has_text="remove").click()
    removed_text = js_text(removed.page, "Your teacher removed you from this session.")
    expect(removed.page.locator("#session-notice")).to_contain_text(removed_text)
    gone = Participant.objects.get(session_id=run.session_id, display_name=removed.name)
    seat = Match.objects.get(pk=removed.match_id).seats.get(former_participant_id=gone.pk)
    assert seat.bot and seat.participant_id is None
    run.check_page(removed, "removed notice")
    old_match = removed.match_id
    removed.page.goto(lesson_server.url + "/join/")
    removed.page.fill("input[name=code]", run.join_code.lower())
    removed.page.fill("input[name=name]", removed.name)
    run.tap(removed, removed.page.locator("#join-form button[type=submit]"), "Join (again)")
    removed.page.wait_for_url("**/lobby/**")
    with translation.override(lesson.language or "en"):
        asking = translation.gettext("Your teacher removed you from this session. We asked them to let you back in: "
                                     "this page changes as soon as they do.")
    expect(removed.page.locator("#lobby-status")).to_have_text(asking)
    expect(run.roster(removed.name)).to_have_attribute("data-comeback", re.compile("same|new"))
    run.check_page(removed, "asking to come back")
    run.roster(removed.name).locator("button", has_text="let back in").click()
    expect(run.roster(removed.name)).not_to_have_attribute("data-state", "removed")
    participant = Participant.objects.get(session_id=run.session_id, display_name=removed.name)
    assert not participant.removed
    expect(removed.page.locator("#lobby-status")).not_to_have_text(asking)
    run.check_page(removed, "let back in")

    # "Finish in" again: round 2 ends by its rule
    run.stage = "finish in (round 2)"
    play_until(run, lambda: True)
    dashboard.select_option("#finish-in", str(FINISH_SECONDS))
    dashboard.locator("#finish-btn").click()
    run.all_ended_saying_why(second, "round 2")
    for student in run.students:
        if student is not removed:
            run.check_page(student, "result of round 2")

    # -- the session ends; every student opens each of their replays ----------------------------
    run.stage = "session ended"
    dashboard.locator("#end-btn").click()
    expect(dashboard.locator("#session-status")).to_have_text("ended")
    assert ClassSession.objects.get(pk=run.session_id).status == ClassSession.Status.ENDED
    ended = js_text(run.students[0].page, "The class session has ended. Thanks for playing!")
    for student in run.students:
        page = student.page
        if student.match_id:
            expect(page.locator("#session-notice")).to_contain_text(ended)
            run.check_page(student, "game page after the end")
            run.open_link(student, page.locator("#session-notice a[href*='/lobby/']"), "**/lobby/**", "“Your replays”")
        expect(page.locator("#lobby-status")).to_have_text(ended)
        run.check_page(student, "lobby after the end")
        links = page.locator("a.replay-link")
        expect(links.first).to_be_visible()
        mine = Participant.objects.get(session_id=run.session_id, display_name=student.name)
        played = Match.objects.filter(table__session_id=run.session_id, seats__participant_id=mine.pk).distinct().count()
        count = links.count()
        assert count >= played >= 1, f"{student.name}: {count} replays listed, played {played}"
        for i in range(count):
            run.stage = f"replay {i + 1} of {student.name}"
            settled(page)
            run.open_link(student, page.locator("a.replay-link").nth(i), "**/replay/", "a replay")
            expect(page.locator("#step")).to_contain_text("/")
            run.tap(student, page.locator("#last"), "the replay's last step")
            expect(page.locator("#step-text")).not_to_be_empty()
            run.check_page(student, "replay")
            page.go_back()
            page.wait_for_url("**/lobby/**")
    assert old_match  # the removed student's game of round 2 was theirs until the removal

    # -- statistics on Aer, for a game with a circuit ------------------------------------------
    if lesson.circuit:
        run.stage = "statistics on Aer"
        card_1 = dashboard.locator(".table-card").filter(has=dashboard.locator(".pill.round", has_text="round 2")).first
        with dashboard.context.expect_page() as opened:
            card_1.get_by_role("link", name="Replay").click()
        replay = opened.value
        replay.get_by_role("link", name="This game vs the odds").click()
        replay.wait_for_url("**/stats/")
        replay.select_option("select[name=backend]", "aer")
        replay.fill("input[name=shots]", "1000")
        replay.locator("#run-form button[type=submit]").click()
        expect(replay.locator("#runs tbody tr[data-status=done]")).to_have_count(1, timeout=60_000)
