"""Statistics pages: a match against its odds, its circuit, a class session's statistics,
and a class's quantum settings (IBM token, students' access). Thin: selectors do the work."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _

from classrooms.models import Classroom, ClassSession
from games.engines import board_path
from simulator import credentials, devices, plots, selectors, services
from simulator.access import StatsAccess, policy_of, stats_access
from simulator.models import Backend, QuantumPolicy, Run
from simulator.positions import qasm3_of
from simulator.scoring import NotScorable, score_label, score_words


def _access(request: HttpRequest, match_id: int) -> StatsAccess:
    access = stats_access(match_id, request.user, request.session)
    if access is None:
        raise Http404(_("No statistics here for you."))
    return access


def _no_circuit(request: HttpRequest, access: StatsAccess, exc: NotScorable) -> HttpResponse:
    show_replay = access.is_teacher or access.match.status == access.match.Status.FINISHED
    return render(request, "simulator/no_circuit.html",
                  {"match": access.match, "reason": str(exc), "show_replay": show_replay}, status=400)


def _at(request: HttpRequest) -> int | None:
    raw = request.GET.get("at", "")
    return int(raw) if raw.isdigit() else None


def _results(access: StatsAccess) -> dict:
    """The part of "vs the odds" that a finished run changes: verdict, score table, histogram."""
    odds = selectors.match_odds(access.match, public=access.public_circuit)
    # the legend's words are the page's own (the "Shown:" line of _match_results.html)
    series = {_("exact odds"): odds["exact"]}
    if odds["aer"]:
        series[_("Aer, %(shots)s shots") % {"shots": odds["aer"]["shots"]}] = odds["aer"]["scores"]
    if odds["noisy"]:
        series[_("%(device)s, %(shots)s shots") % {"device": odds["noisy"]["device"],
                                                    "shots": odds["noisy"]["shots"]}] = odds["noisy"]["scores"]
    if odds["ibm"]:
        series[_("%(device)s (hardware)") % {"device": odds["ibm"]["device"]}] = odds["ibm"]["scores"]
    actual_label = score_label(odds["sides"], odds["actual"]) if odds["actual"] is not None else None
    return {
        "match": access.match, "odds": odds, "is_teacher": access.is_teacher,
        "actual_label": score_words(actual_label) if actual_label is not None else None,
        "histogram": plots.score_histogram(series, _("Scores: exact odds and shots"), actual_label),
        "results_key": ",".join(str(odds[k]["id"]) if odds[k] else "-" for k in ("aer", "noisy", "ibm")),
        "side_rows": [{"side": side, "actual": odds["actual"][i] if odds["actual"] else None,
                       "expected": odds["exact"]["expected"][i], "p_win": odds["exact"]["win"][side]}
                      for i, side in enumerate(odds["sides"])],
    }


def match_stats(request: HttpRequest, match_id: int) -> HttpResponse:
    access = _access(request, match_id)
    try:
        results = _results(access)
    except NotScorable as exc:
        return _no_circuit(request, access, exc)
    if request.GET.get("part") == "results":  # the page fetches this when a run has finished
        return render(request, "simulator/_match_results.html", results)
    odds = results["odds"]
    return render(request, "simulator/match_stats.html", results | {
        "devices": devices.device_choices(), "default_device": devices.DEFAULT_DEVICE,
        "backends": Backend.choices, "noisy_backend": Backend.AER_NOISY,
        "runs": selectors.runs_of(access.match, odds["action_number"], public=access.public_circuit),
        "max_shots": access.max_shots or 100_000,
        "board": selectors.board_at(access.match, odds["action_number"]),
        "board_url": static(board_path(access.match.game)),
        "strings": {"cancel": _("Cancel"), "device": _("device"),
                    "statuses": {str(value): str(label) for value, label in Run.Status.choices},
                    "backends": {str(value): str(label) for value, label in Backend.choices},
                    "refresh_failed": _("The chart could not be updated; reload the page to see the new run.")},
    })


def match_circuit(request: HttpRequest, match_id: int) -> HttpResponse:
    access = _access(request, match_id)
    try:
        position = selectors.circuit_of(access.match, _at(request), public=access.public_circuit)
    except NotScorable as exc:
        return _no_circuit(request, access, exc)
    return render(request, "simulator/circuit.html", {
        "match": access.match, "position": position, "drawing": plots.circuit_drawing(position.circuit),
        "text": plots.circuit_text(position.circuit), "qasm": qasm3_of(position.circuit),
        "depth": position.circuit.depth(), "ops": dict(position.circuit.count_ops()),
        "is_teacher": access.is_teacher,
    })


def match_circuit_qasm(request: HttpRequest, match_id: int) -> HttpResponse:
    access = _access(request, match_id)
    try:
        position = selectors.circuit_of(access.match, _at(request), public=access.public_circuit)
    except NotScorable as exc:
        return HttpResponse(str(exc), status=400, content_type="text/plain; charset=utf-8")
    response = HttpResponse(qasm3_of(position.circuit), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="match-{match_id}-move-{position.action_number}.qasm"')
    return response


@login_required
def session_stats(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_object_or_404(ClassSession.objects.select_related("classroom"), pk=session_id,
                                classroom__teacher=request.user)
    if request.GET.get("part") == "finished":  # the page asks every few seconds: cheap
        return JsonResponse({"finished": selectors.finished_table_count(session)})
    stats = selectors.session_statistics(session)
    if request.GET.get("format") == "csv":
        response = HttpResponse(selectors.session_csv(stats), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="session-{session_id}-statistics.csv"'
        return response
    charts = {}
    if stats["finished_tables"]:
        charts["scores"] = plots.bar_chart({score_words(k): v for k, v in stats["score_distribution"].items()},
                                           _("Final scores over all tables"),
                                           _("tables"))
        points = [(p["expected"], p["score"], p["side"]) for t in stats["tables"] for p in t["players"]
                  if p["expected"] is not None and p["score"] is not None]
        if points:
            charts["luck"] = plots.expected_vs_actual(points, _("Expected vs actual score"))
    return render(request, "simulator/session_stats.html",
                  {"session": session, "stats": stats, "charts": charts})


@login_required
def class_quantum(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = get_object_or_404(Classroom, pk=class_id, teacher=request.user)
    if request.method == "POST":
        what = request.POST.get("what")
        if what == "token":
            try:
                credentials.save_token(classroom, request.POST.get("token", ""),
                                       instance=request.POST.get("instance", ""),
                                       channel=request.POST.get("channel") or "ibm_quantum_platform",
                                       default_device=request.POST.get("default_device", ""))
                messages.success(request, _("The IBM Quantum token is saved (encrypted). It will not be shown again."))
            except credentials.CredentialError as exc:
                messages.error(request, str(exc))
        elif what == "forget":
            credentials.delete_token(classroom)
            messages.success(request, _("The IBM Quantum token is deleted."))
        elif what == "policy":
            policy = QuantumPolicy.objects.filter(classroom=classroom).first() or QuantumPolicy(classroom=classroom)
            policy.students_may_run = request.POST.get("students_may_run") == "on"
            raw = request.POST.get("student_max_shots", "")
            if raw.isdigit() and 1 <= int(raw) <= services.STUDENT_MAX_SHOTS_LIMIT:
                policy.student_max_shots = int(raw)
            policy.save()
            messages.success(request, _("Saved."))
        return redirect("simulator:class-quantum", classroom.pk)
    return render(request, "simulator/class_quantum.html", {
        "classroom": classroom, "credential": credentials.credential_status(classroom),
        "policy": policy_of(classroom)})
