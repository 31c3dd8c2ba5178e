"""Teacher pages for class cards (login required, own classes only): turn cards on or off, add
nicknames, re-issue a card, delete a member with all their data, print the cards. Thin views
over ``classrooms.cards``."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from classrooms import cards
from classrooms.join_link import join_link
from classrooms.models import ClassMember, Classroom
from classrooms.qr import qr_svg
from games.errors import AppError


def _own_classroom(request: HttpRequest, class_id: int) -> Classroom:
    return get_object_or_404(Classroom, pk=class_id, teacher=request.user)


def _own_member(request: HttpRequest, class_id: int, member_id: int) -> ClassMember:
    return get_object_or_404(ClassMember, pk=member_id, classroom_id=class_id, classroom__teacher=request.user)


def _back(classroom: Classroom) -> HttpResponse:
    return redirect(reverse("classrooms:classroom", args=[classroom.pk]) + "#cards")


@login_required
@require_POST
def cards_enable(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = _own_classroom(request, class_id)
    cards.set_cards_enabled(classroom, request.POST.get("enabled") == "1")
    messages.success(request, _("Class cards are on.") if classroom.cards_enabled else _("Class cards are off."))
    return _back(classroom)


@login_required
@require_POST
def members_add(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = _own_classroom(request, class_id)
    try:
        made = cards.add_members(classroom, request.POST.get("nicknames", ""))
    except AppError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Added to the class: %(names)s. Print their cards.")
                         % {"names": ", ".join(m.nickname for m in made)})
    return _back(classroom)


@login_required
@require_POST
def member_reissue(request: HttpRequest, class_id: int, member_id: int) -> HttpResponse:
    member = _own_member(request, class_id, member_id)
    cards.reissue(member)
    messages.success(request, _("%(name)s has a new card; the old one no longer works.") % {"name": member.nickname})
    return _back(member.classroom)


@login_required
@require_POST
def member_delete(request: HttpRequest, class_id: int, member_id: int) -> HttpResponse:
    member = _own_member(request, class_id, member_id)
    classroom = member.classroom
    cards.delete_member(member)
    messages.success(request, _("The member and all their data were deleted."))
    return _back(classroom)


@login_required
def cards_print(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = _own_classroom(request, class_id)
    base = join_link(request, "").url.split("?")[0]
    # the code in the link's fragment, which the browser keeps to itself (no access log has it):
    # the join page's script puts it in the form (static/js/card-link.js)
    rows = [{"member": m, "qr": qr_svg(f"{base}#card={m.card_code}")} for m in classroom.members.all()]
    return render(request, "classrooms/cards.html", {"classroom": classroom, "cards": rows, "join_url": base,
                                                    "homework_url": request.build_absolute_uri(reverse("classrooms:homework"))})
