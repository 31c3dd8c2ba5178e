"""The teacher's progress pages (owning teacher only): a class's members over weeks and one
member's games, each with a small plot and a CSV of every game row. Thin: the facts come from
``classrooms.progress``, the plots from ``classrooms.progress_plots`` (drawn per request in the
reader's language)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import get_language, gettext, pgettext, pgettext_lazy

from classrooms import progress, progress_plots
from classrooms.models import ClassMember, Classroom
from core.csvcells import csv_text
from games.names import game_name, variant_name

CSV_HEADER = ["date", "week", "member", "session", "game", "variant", "table", "opponents", "result", "points",
              "luck", "exercise", "solved", "replay"]
# the columns' names in the reader's language (in English, the keys above)
CSV_WORDS = {
    "date": pgettext_lazy("CSV column", "date"), "week": pgettext_lazy("CSV column", "week"),
    "member": pgettext_lazy("CSV column", "member"), "session": pgettext_lazy("CSV column", "session"),
    "game": pgettext_lazy("CSV column", "game"), "variant": pgettext_lazy("CSV column", "variant"),
    "table": pgettext_lazy("CSV column", "table"), "opponents": pgettext_lazy("CSV column", "opponents"),
    "result": pgettext_lazy("CSV column", "result"), "points": pgettext_lazy("CSV column", "points"),
    "luck": pgettext_lazy("CSV column", "luck"), "exercise": pgettext_lazy("CSV column", "exercise"),
    "solved": pgettext_lazy("CSV column", "solved"), "replay": pgettext_lazy("CSV column", "replay"),
}


def result_word(row: dict) -> str:
    """The row's result in the reader's language (the CSV keeps the plain English key)."""
    if row["result"] == "won":
        return pgettext("a game's result", "won")
    if row["result"] == "drawn":
        return pgettext("a game's result", "drawn")
    return pgettext("a game's result", "lost")


def _csv(request: HttpRequest, rows: list[dict], names: dict, filename: str) -> HttpResponse:
    """Every game row: headers and words in the reader's language, separated and with the decimal
    mark a spreadsheet of that language expects (``core.csvcells.write_csv``)."""
    body = [[timezone.localtime(r["date"]).isoformat(timespec="minutes"), r["week"].isoformat(),
             names.get(r["member"], r["name"]), r["session"], game_name(r["game"]), variant_name(r["game"], r["variant"]), r["table"],
             "; ".join(r["opponents"]), result_word(r), r["points"], "" if r["luck"] is None else r["luck"],
             r["exercise_name"], gettext("yes") if r["solved"] else "", request.build_absolute_uri(r["replay_url"])]
            for r in rows]
    response = HttpResponse(csv_text([str(CSV_WORDS[k]) for k in CSV_HEADER], body, get_language()),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _with_words(rows: list[dict]) -> list[dict]:
    return [{**r, "result_word": result_word(r)} for r in rows]


@login_required
def class_progress(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = get_object_or_404(Classroom, pk=class_id, teacher=request.user)
    members = list(ClassMember.objects.filter(classroom=classroom))
    data = progress.class_progress(classroom, members)
    if request.GET.get("format") == "csv":
        names = {m.pk: m.nickname for m in members}
        return _csv(request, data["games"], names, f"class-{classroom.pk}-progress.csv")
    plot = progress_plots.class_weeks(data["weeks"]) if data["weeks"] else ""
    return render(request, "classrooms/progress.html",
                  {"classroom": classroom, "progress": data, "plot": plot})


@login_required
def member_progress(request: HttpRequest, class_id: int, member_id: int) -> HttpResponse:
    member = get_object_or_404(ClassMember.objects.select_related("classroom"), pk=member_id,
                               classroom_id=class_id, classroom__teacher=request.user)
    data = progress.member_progress(member)
    if request.GET.get("format") == "csv":
        return _csv(request, data["games"], {member.pk: member.nickname},
                    f"class-{class_id}-member-{member.pk}-progress.csv")
    plot = progress_plots.member_over_time(data["games"]) if data["games"] else ""
    games = _with_words(data["games"])
    games.reverse()  # newest first on the page
    return render(request, "classrooms/member_progress.html",
                  {"classroom": member.classroom, "member": member, "progress": data, "games": games,
                   "plot": plot})
