"""Homework pages. Teacher (login, own classes only): assign, see an assignment's completion per
member, delete it. Student (a class card, no login): open homework with the card (typed, or from
a link ``/homework/#card=…``, whose fragment the page's script posts: a code never travels in an
address; the browser remembers it), see their assignments, start or continue a game. Thin views
over ``classrooms.homework``."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from classrooms import homework
from classrooms.models import Assignment, Classroom
from classrooms.progress_views import result_word
from classrooms.views import SLOW_DOWN, browser_id, card_in_fragment, client_address
from core import throttle
from core.pages import post_only
from games.errors import AppError

POLL_SECONDS = 5  # the teacher's assignment page fetches itself again this often (while visible)


def _own_assignment(request: HttpRequest, class_id: int, assignment_id: int) -> Assignment:
    return get_object_or_404(Assignment.objects.select_related("classroom", "session"), pk=assignment_id,
                             classroom_id=class_id, classroom__teacher=request.user)


def _class_homework(request: HttpRequest, class_id: int, **_kwargs) -> str:
    return reverse("classrooms:classroom", args=[class_id]) + "#homework"


def _homework(request: HttpRequest, *args, **kwargs) -> str:
    return reverse("classrooms:homework")


@login_required
@post_only(_class_homework)
def assignment_new(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = get_object_or_404(Classroom, pk=class_id, teacher=request.user)
    try:
        assignment = homework.create_assignment(
            classroom, request.POST.get("source", ""), due_at=request.POST.get("due_at", ""),
            bot_level=request.POST.get("bot_level", ""), games_required=request.POST.get("games_required"),
            title=request.POST.get("title", ""))
    except AppError as exc:
        messages.error(request, exc.message)
        return redirect(reverse("classrooms:classroom", args=[classroom.pk]) + "#homework")
    messages.success(request, _("Homework assigned: %(title)s.") % {"title": assignment.title})
    return redirect("classrooms:assignment", classroom.pk, assignment.pk)


@login_required
def assignment_detail(request: HttpRequest, class_id: int, assignment_id: int) -> HttpResponse:
    assignment = _own_assignment(request, class_id, assignment_id)
    rows = homework.class_report(assignment)
    for row in rows:
        for game in row["games"]:
            game["result_word"] = result_word(game)
    return render(request, "classrooms/assignment.html", {
        "assignment": assignment, "classroom": assignment.classroom, "rows": rows,
        "done": sum(r["state"] == homework.DONE for r in rows), "poll_seconds": POLL_SECONDS,
    })


@login_required
@post_only(lambda request, class_id, assignment_id: reverse("classrooms:assignment", args=[class_id, assignment_id]))
def assignment_delete(request: HttpRequest, class_id: int, assignment_id: int) -> HttpResponse:
    assignment = _own_assignment(request, class_id, assignment_id)
    homework.delete_assignment(assignment)
    messages.success(request, _("The homework and every game played for it were deleted."))
    return redirect(reverse("classrooms:classroom", args=[class_id]) + "#homework")


def student_home(request: HttpRequest) -> HttpResponse:
    if request.method != "POST" and request.GET.get("card"):  # an old link: the code to the fragment
        return card_in_fragment(reverse("classrooms:homework"), request.GET["card"])
    error, status = "", 200
    typed = request.POST.get("card") if request.method == "POST" else None
    if typed is not None:
        address, browser = client_address(request), browser_id(request)
        if throttle.too_many_wrong_codes(address, browser):  # a guessed card is a wrong code
            error, status = str(SLOW_DOWN), 429
        else:
            try:
                homework.open_with_card(typed, request.session)
            except AppError as exc:
                throttle.record_wrong_code(address, browser)
                error, status = exc.message, exc.status
            else:
                request.session.cycle_key()  # no session fixation
                return redirect("classrooms:homework")
    member = homework.browser_member(request.session)
    items = homework.member_homework(member) if member is not None else []
    for item in items:
        for game in item["games"]:
            game["result_word"] = result_word(game)
    return render(request, "classrooms/homework.html", {"member": member, "items": items, "error": error},
                  status=status)


@post_only(_homework)
def student_forget(request: HttpRequest) -> HttpResponse:
    request.session.pop(homework.BROWSER_CARD_KEY, None)
    return redirect("classrooms:homework")


@post_only(_homework)  # (a reload of the game's start: the homework page, whose button continues it)
def student_play(request: HttpRequest, assignment_id: int) -> HttpResponse:
    member = homework.browser_member(request.session)
    if member is None:
        messages.error(request, _("Open your homework with your class card first."))
        return redirect("classrooms:homework")
    assignment = get_object_or_404(Assignment.objects.select_related("session"), pk=assignment_id,
                                   classroom_id=member.classroom_id)
    try:
        table = homework.start_game(assignment, member, request.session)
    except AppError as exc:
        messages.error(request, exc.message)
        return redirect("classrooms:homework")
    return redirect("games:play", table.match_id)
