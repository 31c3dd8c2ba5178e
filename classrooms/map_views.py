"""Teacher pages for Quantum Ticket-to-Ride maps (login required, own classes only): upload a
map (file or pasted JSON) and delete one. Thin views over ``classrooms.ticket_maps``."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from classrooms import ticket_maps
from classrooms.models import Classroom, TicketMap
from core.pages import post_only


def _own_classroom(request: HttpRequest, class_id: int) -> Classroom:
    return get_object_or_404(Classroom, pk=class_id, teacher=request.user)


def _uploaded_text(request: HttpRequest) -> bytes | str:
    """The uploaded file (a file over the cap is refused by its size, unread), else the pasted text."""
    upload = request.FILES.get("map_file")
    if upload is None:
        return request.POST.get("map_json", "")
    if upload.size > ticket_maps.MAX_MAP_BYTES:
        raise ticket_maps.MapError("too_large", [ticket_maps.too_large_message(upload.size)])
    return upload.read()


@login_required
def map_upload(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = _own_classroom(request, class_id)
    problems: list[str] = []
    name = ""
    status = 200
    if request.method == "POST":
        name = request.POST.get("name", "")
        try:
            stored = ticket_maps.upload_map(classroom, name, _uploaded_text(request))
        except ticket_maps.MapError as exc:
            problems = exc.problems
            status = 400
        else:
            messages.success(request, _("Map “%(name)s” saved: choose it when you open a Ticket-to-Ride session.")
                             % {"name": stored.name})
            return redirect("classrooms:classroom", classroom.pk)
    return render(request, "classrooms/map_upload.html", {
        "classroom": classroom, "problems": problems, "name": name,
        "max_kb": ticket_maps.MAX_MAP_BYTES // 1024, "maps": classroom.ticket_maps.all(),
    }, status=status)


@login_required
@post_only(lambda request, class_id, map_id: reverse("classrooms:map-upload", args=[class_id]))
def map_delete(request: HttpRequest, class_id: int, map_id: int) -> HttpResponse:
    stored = get_object_or_404(TicketMap, pk=map_id, classroom_id=class_id, classroom__teacher=request.user)
    stored.delete()
    messages.success(request, _("Map “%(name)s” deleted.") % {"name": stored.name})
    return redirect("classrooms:map-upload", class_id)
