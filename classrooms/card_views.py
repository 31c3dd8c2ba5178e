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

from classrooms import cards
from classrooms.join_link import public_link
from classrooms.models import ClassMember, Classroom
from core.pages import post_only
from core.qr import qr_svg
from games.errors import AppError


def _own_classroom(request: HttpRequest, class_id: int) -> Classroom:
    return get_object_or_404(Classroom, pk=class_id, teacher=request.user)


def _own_member(request: HttpRequest, class_id: int, member_id: int) -> ClassMember:
    return get_object_or_404(ClassMember, pk=member_id, classroom_id=class_id, classroom__teacher=request.user)


def _back(classroom: Classroom) -> HttpResponse:
    return redirect(_cards_section(None, classroom.pk))


def _cards_section(request: HttpRequest | None, class_id: int, **_kwargs) -> str:
    return reverse("classrooms:classroom", args=[class_id]) + "#cards"


@login_required
@post_only(_cards_section)
def cards_enable(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = _own_classroom(request, class_id)
    cards.set_cards_enabled(classroom, request.POST.get("enabled") == "1")
    messages.success(request, _("Class cards are on.") if classroom.cards_enabled else _("Class cards are off."))
    return _back(classroom)


@login_required
@post_only(_cards_section)
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
@post_only(_cards_section)
def member_reissue(request: HttpRequest, class_id: int, member_id: int) -> HttpResponse:
    member = _own_member(request, class_id, member_id)
    cards.reissue(member)
    messages.success(request, _("%(name)s has a new card; the old one no longer works.") % {"name": member.nickname})
    return _back(member.classroom)


@login_required
@post_only(_cards_section)
def member_delete(request: HttpRequest, class_id: int, member_id: int) -> HttpResponse:
    member = _own_member(request, class_id, member_id)
    classroom = member.classroom
    cards.delete_member(member)
    messages.success(request, _("The member and all their data were deleted."))
    return _back(classroom)


@login_required
def cards_print(request: HttpRequest, class_id: int) -> HttpResponse:
    """The cards to print, their links and QR codes at the address students' phones reach
    (``classrooms.join_link``). Refused (409, saying why and what to do) when that address is
    one only this computer can open: a printed card cannot be fixed afterwards."""
    classroom = _own_classroom(request, class_id)
    join = public_link(request, reverse("classrooms:join"))
    if join.warning:
        return render(request, "classrooms/cards.html", {
            "classroom": classroom, "refused": True, "join_url": join.url,
            "count": classroom.members.count()}, status=409)
    base = join.url
    # the code in the link's fragment, which the browser keeps to itself (no access log has it):
    # the join page's script puts it in the form (static/js/card-link.js)
    rows = [{"member": m, "qr": qr_svg(f"{base}#card={m.card_code}")} for m in classroom.members.all()]
    return render(request, "classrooms/cards.html", {
        "classroom": classroom, "cards": rows, "join_url": base,
        "homework_url": public_link(request, reverse("classrooms:homework")).url})
