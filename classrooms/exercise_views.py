"""Teacher pages of exercise mode (login required, own classes only). Thin views over
``classrooms.exercises``."""
from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext

from classrooms import exercises
from classrooms.models import Classroom, Exercise
from core import limits
from core.pages import post_only
from games.bots import bot_levels
from games.errors import AppError
from games.names import variant_choices


def _own_classroom(request: HttpRequest, class_id: int) -> Classroom:
    return get_object_or_404(Classroom, pk=class_id, teacher=request.user)


def _own_exercise(request: HttpRequest, class_id: int, exercise_id: int) -> Exercise:
    return get_object_or_404(Exercise.objects.select_related("classroom"), pk=exercise_id,
                             classroom_id=class_id, classroom__teacher=request.user)


def _first_variant(game) -> str:
    """The editor's first variant: the one the engine names (``exercise_variant``), else its first."""
    return game.exercise_variant or game.variants[0]


def _editor(request: HttpRequest, classroom: Classroom, *, name: str = "", variant: str = "",
            options_text: str = "", error: str = "", status: int = 200) -> HttpResponse:
    game = exercises.exercise_game()
    return render(request, "classrooms/exercise_editor.html", {
        "classroom": classroom, "name": name, "variant": variant or _first_variant(game),
        "options_text": options_text, "game_slug": game.slug,
        "error": error, "variants": variant_choices(game.slug),
        "examples_json": exercises.examples_for_reader(),
    }, status=status)


@login_required
def exercise_new(request: HttpRequest, class_id: int) -> HttpResponse:
    """The editor (GET; ``?from=<exercise id>`` loads a saved one), and saving it (POST)."""
    classroom = _own_classroom(request, class_id)
    if request.method == "POST":
        name = request.POST.get("name", "")
        game = exercises.exercise_game()
        variant = request.POST.get("variant") or _first_variant(game)
        text = request.POST.get("options", "")
        try:
            exercise = exercises.create_exercise(classroom, name, game.slug, variant, text)
        except AppError as exc:
            return _editor(request, classroom, name=name, variant=variant, options_text=text,
                           error=exc.message, status=400)
        messages.success(request, gettext("Exercise “%(name)s” saved.") % {"name": exercise.display_name})
        return redirect("classrooms:classroom", classroom.pk)
    source = request.GET.get("from")
    if source and source.isdigit():
        ex = _own_exercise(request, classroom.pk, int(source))
        return _editor(request, classroom, name=gettext("%(name)s (copy)") % {"name": ex.display_name}, variant=ex.variant,
                       options_text=json.dumps(ex.options, indent=1, ensure_ascii=False))
    return _editor(request, classroom)


def _class_page(request: HttpRequest, class_id: int, **_kwargs) -> str:
    return reverse("classrooms:classroom", args=[class_id])


@login_required
@post_only(lambda request, class_id: reverse("classrooms:exercise-new", args=[class_id]))
def exercise_validate(request: HttpRequest, class_id: int) -> JsonResponse:
    """The editor's "Validate" button: ``{"variant", "options"}`` → ``{"ok": true, "payload"}``
    (the starting board as the students will see it) or ``{"ok": false, "code", "message"}``."""
    _own_classroom(request, class_id)
    try:
        body = limits.loads(request.body or b"{}", what=gettext("The request"))
    except RequestDataTooBig:
        return JsonResponse({"ok": False, "code": "too_large", "message": gettext("The request is too large.")}, status=400)
    except limits.JSONTooBig as exc:
        return JsonResponse({"ok": False, "code": "too_large", "message": str(exc)}, status=400)
    except ValueError:
        return JsonResponse({"ok": False, "code": "bad_json", "message": gettext("The request is not JSON.")}, status=400)
    if not isinstance(body, dict):
        return JsonResponse({"ok": False, "code": "bad_json", "message": gettext("Send a JSON object.")}, status=400)
    try:
        game = exercises.exercise_game()
        payload = exercises.preview_payload(game.slug, body.get("variant") or _first_variant(game),
                                            body.get("options"))
    except AppError as exc:
        return JsonResponse({"ok": False, "code": exc.code, "message": exc.message})
    return JsonResponse({"ok": True, "payload": payload})


@login_required
@post_only(_class_page)
def exercise_open(request: HttpRequest, class_id: int, exercise_id: int) -> HttpResponse:
    """Open a class session from the exercise: every table starts from its position."""
    exercise = _own_exercise(request, class_id, exercise_id)
    levels = bot_levels(exercise.game)
    level = request.POST.get("bot_level") or ("strong" if "strong" in levels else next(iter(levels), "strong"))
    show_odds = request.POST.get("show_odds", "on") in ("on", "true", "1")
    try:
        session = exercises.open_session_from(exercise, bot_level=level, show_odds=show_odds)
    except AppError as exc:
        messages.error(request, gettext("Could not open a session from “%(name)s”: %(error)s")
                       % {"name": exercise.name, "error": exc.message})
        return redirect("classrooms:classroom", class_id)
    return redirect("classrooms:dashboard", session.pk)


@login_required
@post_only(_class_page)
def exercise_delete(request: HttpRequest, class_id: int, exercise_id: int) -> HttpResponse:
    exercise = _own_exercise(request, class_id, exercise_id)
    exercise.delete()
    messages.success(request, gettext("Exercise “%(name)s” deleted.") % {"name": exercise.display_name})
    return redirect("classrooms:classroom", class_id)
