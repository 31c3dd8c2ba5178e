"""Teacher pages (login required, own classes only) and the student join flow. Thin views."""
from __future__ import annotations

from urllib.parse import quote, urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext, gettext_lazy, pgettext, pgettext_lazy

from classrooms import cards, codes, homework, selectors, services, ticket_maps, understanding
from classrooms.forms import ClassroomForm, JoinForm, OpenSessionForm
from classrooms.join_link import join_link, public_link
from classrooms.models import Classroom, ClassSession
from classrooms.standings import session_standings
from core import clientip, throttle
from core.csvcells import csv_text
from core.pages import post_only
from core.qr import qr_svg
from games.bots import LEVEL_NAMES, bot_levels
from games.engines import abilities_of, list_games
from games.errors import AppError
from games.models import Match
from games.names import bot_level_name, game_name, variant_choices


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": list_games()})


@login_required
def teacher_home(request: HttpRequest) -> HttpResponse:
    form = ClassroomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        classroom = Classroom.objects.create(teacher=request.user, name=form.cleaned_data["name"])
        return redirect("classrooms:classroom", classroom.pk)
    classes = request.user.classrooms.all()
    return render(request, "classrooms/teacher_home.html", {"form": form, "classes": classes})


def _own_classroom(request: HttpRequest, class_id: int) -> Classroom:
    return get_object_or_404(Classroom, pk=class_id, teacher=request.user)


def _own_session(request: HttpRequest, session_id: int) -> ClassSession:
    return get_object_or_404(ClassSession.objects.select_related("classroom"), pk=session_id,
                             classroom__teacher=request.user)


@login_required
def classroom_detail(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = _own_classroom(request, class_id)
    form = OpenSessionForm(request.POST or None, ticket_maps=classroom.ticket_maps.all())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        options = dict(data["options"])
        if data.get("table_size"):
            options["table_size"] = data["table_size"]
        try:
            if ticket_maps.takes_maps(data["game"]):
                options |= ticket_maps.session_options(classroom, data.get("ticket_map"), data["game"])
            session = services.open_session(classroom, data["game"], variant=data["variant"], options=options,
                                            bot_level=data["bot_level"], show_odds=data["show_odds"],
                                            max_participants=data.get("max_participants"),
                                            language=data.get("language") or "",
                                            move_seconds=data.get("move_seconds"),
                                            waiting_room=data.get("waiting_room", False))
        except AppError as exc:  # a map that is not the class's among them
            form.add_error(None, exc.message)
        else:
            return redirect("classrooms:dashboard", session.pk)
    games = [{"slug": g.slug, "name": game_name(g.slug), "variants": list(g.variants),
              "variant_names": dict(variant_choices(g.slug)), "min": g.min_players,
              "bot_names": {level: bot_level_name(level) for level in ["none", *bot_levels(g.slug)]},
              "max": g.max_players, "bots": list(bot_levels(g.slug)),
              "extension": abilities_of(g).session_extension} for g in list_games()]
    return render(request, "classrooms/classroom.html", {
        "classroom": classroom, "form": form, "sessions": classroom.sessions.all(), "games_json": games,
        "homework_sources": homework.sources(classroom), "assignments": classroom.assignments.all(),
        "bot_level_choices": [(level, bot_level_name(level)) for level in LEVEL_NAMES if level != "none"],
        "homework_max_games": homework.MAX_GAMES,
    })


@login_required
def dashboard(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    if session.format == ClassSession.Format.HOMEWORK:  # no join code to show: its assignment's page
        return redirect("classrooms:assignment", session.classroom_id, session.assignment.pk)
    link = join_link(request, session.join_code)
    return render(request, "classrooms/dashboard.html", {
        "session": session, "join_url": link.url, "join_warning": link.warning,
        "qr": qr_svg(link.url) if session.is_live else "",
        "initial": selectors.dashboard_payload(session),
        "participant_cap_max": settings.PARTICIPANT_CAP_MAX,
        "ticket_maps": session.classroom.ticket_maps.all() if ticket_maps.takes_maps(session.game) else [],
    })


@login_required
def screen(request: HttpRequest, session_id: int) -> HttpResponse:
    """The projector view: large type, read-only, public facts only (``selectors.screen_payload``)."""
    session = _own_session(request, session_id)
    if session.format == ClassSession.Format.HOMEWORK:  # no join code to show: its assignment's page
        return redirect("classrooms:assignment", session.classroom_id, session.assignment.pk)
    link = join_link(request, session.join_code)
    return render(request, "classrooms/screen.html", {
        "session": session, "join_url": link.url,
        "rules_url": public_link(request, reverse("games:rules", args=[session.game])).url,
        "qr": qr_svg(link.url) if session.is_live else "",
        "initial": selectors.screen_payload(session),
    })


@login_required
def report(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    tables = selectors.ranked_tables(selectors.tables_summary(session))
    if request.GET.get("format") == "csv":
        return _results_export(session, tables)
    if request.GET.get("format") in ("evidence-csv", "evidence-json"):
        return _evidence_export(request, session, request.GET["format"])
    missions = None
    if ticket_maps.takes_maps(session.game):  # every mission completed by a run, with its circuit
        missions = [{"table": t["number"], **m,
                     "circuit_url": reverse("simulator:circuit", args=[t["match"]]) if t["status"] == "finished" else ""}
                    for t in tables if t["ticket"] for m in t["ticket"]["completed"]]
    return render(request, "classrooms/report.html", {"session": session, "tables": tables,
                                                      "missions_completed": missions,
                                                      "standings": session_standings(session),
                                                      "understanding": understanding.session_understanding(session)})


# the results CSV's columns in the reader's language (in English, the keys)
RESULTS_HEADER = ["table", "seat", "name", "bot", "status", "score", "winner", "place", "summary"]
RESULTS_WORDS = {
    "table": pgettext_lazy("CSV column", "table"), "seat": pgettext_lazy("CSV column", "seat"),
    "name": pgettext_lazy("CSV column", "name"), "bot": pgettext_lazy("CSV column", "bot"),
    "status": pgettext_lazy("CSV column", "status"), "score": pgettext_lazy("CSV column", "score"),
    "winner": pgettext_lazy("CSV column", "winner"), "place": pgettext_lazy("CSV column", "place"),
    "summary": pgettext_lazy("CSV column", "summary"),
}


def _results_export(session: ClassSession, tables: list[dict]) -> HttpResponse:
    """Every seat of every table: a UTF-8 BOM, the headers and words (status, bot level, winner)
    in the reader's language, for es / pl ";" and the decimal comma (``core.csvcells.write_csv``)."""
    body = []
    for t in tables:
        scores = (t["outcome"] or {}).get("scores") or []
        winners = (t["outcome"] or {}).get("winners") or []
        status = Match.Status(t["status"]).label if t["status"] in Match.Status.values else t["status"]
        for s in t["seats"]:
            body.append([t["number"], s["index"], s["name"], bot_level_name(s["bot"]) if s["bot"] else "", str(status),
                         scores[s["index"]] if s["index"] < len(scores) else "",
                         gettext("yes") if s["index"] in winners else gettext("no"), t.get("place", ""),
                         (t["summary"] or {}).get("text", "")])
    response = HttpResponse(csv_text([str(RESULTS_WORDS[k]) for k in RESULTS_HEADER], body, get_language()),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="session-{session.pk}-results.csv"'
    return response


def kind_word(kind: str) -> str:
    """A kind of concept evidence in the reader's language."""
    return pgettext("concept evidence", "shows") if kind == understanding.SHOWS else pgettext(
        "concept evidence", "misconception")


def _evidence_export(request: HttpRequest, session: ClassSession, fmt: str) -> HttpResponse:
    """The session's concept evidence, every move: a CSV (a UTF-8 BOM, headers and words in the
    reader's language, for es / pl ";" and the decimal comma: ``core.csvcells.write_csv``) or
    JSON (plain keys, the texts translated)."""
    rows = understanding.export_rows(understanding.session_understanding(session))
    for r in rows:
        r["replay"] = request.build_absolute_uri(r["replay"])
    if fmt == "evidence-json":
        response = JsonResponse({"session": session.pk, "game": session.game,
                                 "note": gettext("Evidence is an observation of some moves, not a grade."),
                                 "evidence": rows}, json_dumps_params={"ensure_ascii": False})
        response["Content-Disposition"] = f'attachment; filename="session-{session.pk}-evidence.json"'
        return response
    header = [gettext("Student"), gettext("Table"), gettext("Move"), gettext("Concept"), gettext("Evidence"),
              gettext("What the move shows"), gettext("Replay")]
    names = {c["key"]: c["name"] for c in understanding.concepts()}
    body = [[r["student"], r["table"], r["move"], names[r["concept"]], kind_word(r["kind"]), r["text"], r["replay"]]
            for r in rows]
    response = HttpResponse(csv_text(header, body, get_language()), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="session-{session.pk}-evidence.csv"'
    return response


@login_required
def report_print(request: HttpRequest, session_id: int) -> HttpResponse:
    """The lesson's report on one A4 page: the concept grid, who may need help, the class's
    most common misconception (print CSS; no disclosures, no scripts)."""
    session = _own_session(request, session_id)
    return render(request, "classrooms/report_print.html", {
        "session": session, "understanding": understanding.session_understanding(session),
        "standings": session_standings(session)})


@login_required
def debrief(request: HttpRequest, session_id: int) -> HttpResponse:
    """The projector's debrief: the lesson's most instructive moments, no student named unless
    the teacher chooses (``?names=1``); ``?moment=n`` replays the n-th one on the big screen,
    step by step from the state before the move to the state after it."""
    session = _own_session(request, session_id)
    names = request.GET.get("names") == "1"
    moments = understanding.debrief(session)
    chosen = next((m for m in moments if str(m["n"]) == request.GET.get("moment")), None)
    frames, seats = [], []
    if chosen is not None:
        frames, seats = understanding.debrief_frames(chosen, names=names)
    return render(request, "classrooms/debrief.html", {
        "session": session, "moments": moments, "names": names, "chosen": chosen, "frames": frames,
        "seats": seats})


@login_required
@post_only(lambda request, session_id: reverse("classrooms:dashboard", args=[session_id]))
def delete_session(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    classroom_id = session.classroom_id
    services.delete_session(session)
    messages.success(request, gettext("The session and all its students' data were deleted."))
    return redirect("classrooms:classroom", classroom_id)


@login_required
@post_only(lambda request, class_id: reverse("classrooms:classroom", args=[class_id]))
def delete_classroom(request: HttpRequest, class_id: int) -> HttpResponse:
    services.delete_classroom(_own_classroom(request, class_id))
    messages.success(request, gettext_lazy("The class and all its sessions, games and students' data were deleted."))
    return redirect("classrooms:teacher-home")


def client_address(request: HttpRequest) -> str:
    return clientip.client_address(request.META)


def browser_id(request: HttpRequest) -> str:
    """This browser, for the throttles: its CSRF secret (every browser posting the join form has
    one; one is made now, and sent back as the cookie, if not), so students behind one school
    address are counted apart."""
    get_token(request)
    return str(request.META.get("CSRF_COOKIE") or "")[:64]


SLOW_DOWN = gettext_lazy("Slow down: too many tries. Wait a minute, check the code on the board and try again.")


def card_in_fragment(path: str, card: str, **query: str) -> HttpResponse:
    """A class card's code is never read from an address (access logs keep those): a link that
    still has it in its query (a card printed before) goes to the same page with the code in the
    fragment, which the page's script reads (``static/js/card-link.js``) and posts."""
    query = {k: v for k, v in query.items() if v}
    return redirect(path + (f"?{urlencode(query)}" if query else "") + "#card=" + quote(card.strip()[:20], safe=""))


def join(request: HttpRequest) -> HttpResponse:
    if request.method != "POST" and request.GET.get("card"):
        return card_in_fragment(reverse("classrooms:join"), request.GET["card"], code=request.GET.get("code", ""))
    form = JoinForm(request.POST or None, initial={"code": request.GET.get("code", "")})
    status = 200
    if request.method == "POST" and form.is_valid():
        address, browser = client_address(request), browser_id(request)
        code = codes.normalise(form.cleaned_data["code"])
        session = services.find_joinable(code)
        # A correct join code is never throttled: wrong codes from one address (a prankster in
        # the school's network) cannot lock the class out. Wrong codes are counted per browser,
        # per address and per code; over a limit a wrong code is answered "slow down" instead of
        # "no such session". A card typed with the right code is checked unless this browser
        # itself guessed too many (the card counts as a wrong code when it is wrong).
        if session is None and (throttle.too_many_wrong_codes(address, browser)
                                or throttle.too_many_attempts_on(code)):
            form.add_error(None, SLOW_DOWN)
            status = 429
        elif session is not None and form.cleaned_data.get("card") and throttle.too_many_wrong_cards(address, browser):
            form.add_error(None, SLOW_DOWN)
            status = 429
        elif session is None:
            throttle.record_wrong_code(address, browser)
            throttle.record_attempt_on(code)
            form.add_error("code", gettext("No open class session has that code. Check the board."))
            status = 404
        else:
            def may_add() -> bool:
                if throttle.too_many_new_participants(address, browser):
                    return False
                throttle.record_new_participant(address, browser)
                return True

            try:
                if form.cleaned_data.get("card"):
                    cards.join_with_card(session, form.cleaned_data["card"], request.session, may_add=may_add)
                else:
                    services.join(session, form.cleaned_data["name"], request.session, may_add=may_add)
            except AppError as exc:
                if exc.code == "bad_card":  # a guessed card counts as a wrong code for the throttle
                    throttle.record_wrong_code(address, browser)
                form.add_error(None, exc.message)
                status = exc.status
            else:
                request.session.cycle_key()  # a new session key on joining: no session fixation
                return redirect("classrooms:lobby", session.pk)
    elif request.method == "POST":
        status = 400  # the form says what to fix
    elif request.method == "GET" and request.GET.get("code"):
        session = services.find_joinable(request.GET["code"])
        if session is not None and services.returning_participant(session, request.session):
            return redirect("classrooms:lobby", session.pk)
    return render(request, "classrooms/join.html", {"form": form}, status=status)


def lobby(request: HttpRequest, session_id: int) -> HttpResponse:
    session = ClassSession.objects.filter(pk=session_id).first()
    participant = services.returning_participant(session, request.session, removed=True) if session else None
    if participant is None:
        raise Http404(gettext("You have not joined this session: use the join code."))
    initial = selectors.lobby_payload(session, participant)
    if participant.removed and not initial.get("comeback"):
        return render(request, "removed.html", {"message": initial["message"]}, status=403)
    if session.format == ClassSession.Format.HOMEWORK:  # self-paced: the student's homework page
        return redirect("classrooms:homework")
    if participant.removed:
        # asking to come back: a lobby that waits for the teacher's answer and follows it live (a
        # page that works, so not an error status: a phone would log "Failed to load resource")
        return render(request, "classrooms/lobby.html", {
            "session": session, "participant": participant, "initial": initial})
    if initial.get("match") and initial.get("match_status") == "playing":
        return redirect(initial["play_url"])
    return render(request, "classrooms/lobby.html", {
        "session": session, "participant": participant, "initial": initial,
    })
