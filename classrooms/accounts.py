"""Teacher accounts: sign-up (closed, open or by invitation), a throttled login, and password
reset only where mail can be sent.

Sign-up never tells whether a username exists: every account gets the chosen name plus a
random suffix (``ms-curie-k3p9``), shown once after sign-up, so a taken name and a free one
look the same from outside. Login and sign-up are throttled per address and per username."""
from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView, LogoutView
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from classrooms import login_throttle
from classrooms.codes import ALPHABET
from core import clientip, throttle

SUFFIX_LENGTH = 4
SLOW_DOWN = gettext_lazy("Too many attempts: wait a minute and try again.")


class LogoutPage(LogoutView):
    """Log out: the header's button posts here. The address opened as a page (typed, a bookmark)
    shows that button to a teacher logged in, and the login page to anyone else (Django's view
    answers a GET with a blank 405; a GET never logs out, so no other site can log one out)."""

    http_method_names = ["get", "post", "options"]

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect("login")
        return render(request, "registration/logout_confirm.html")


def account_flags(request: HttpRequest) -> dict:
    """Template flags: whether to offer sign-up and password reset."""
    return {"signup_offered": settings.TEACHER_SIGNUP != "closed",
            "password_reset_offered": settings.PASSWORD_RESET_ENABLED}


def login_name(chosen: str) -> str:
    suffix = "".join(secrets.choice(ALPHABET.lower()) for _ in range(SUFFIX_LENGTH))
    return f"{chosen[:140]}-{suffix}"


class TeacherSignupForm(UserCreationForm):
    email = forms.EmailField(required=False, label=gettext_lazy("Email"))
    invite = forms.CharField(required=False, max_length=200, label=gettext_lazy("Invitation code"),
                             widget=forms.PasswordInput(render_value=True))

    class Meta:
        model = User
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = _("Your login name will be this name plus four random characters; "
                                              "it is shown once you have signed up.")
        self.fields["email"].help_text = (_("Optional, for resetting your password.") if settings.PASSWORD_RESET_ENABLED
                                          else _("Optional."))
        if settings.TEACHER_SIGNUP != "invite":
            del self.fields["invite"]

    def clean_username(self):
        return self.cleaned_data.get("username")  # uniqueness is the suffix's job: never said

    def validate_unique(self):
        pass  # (as above: "that username exists" would reveal it)

    def clean_invite(self):
        given = self.cleaned_data.get("invite") or ""
        expected = settings.TEACHER_INVITE_CODE
        if not expected or not hmac.compare_digest(given.encode(), expected.encode()):
            raise forms.ValidationError(_("That invitation code is not valid."))
        return given

    def save(self, commit: bool = True) -> User:
        chosen = self.cleaned_data["username"]
        for _attempt in range(10):
            user = super().save(commit=False)
            user.username = login_name(chosen)
            try:
                with transaction.atomic():
                    user.save()
                return user
            except IntegrityError:
                user.pk = None
                continue
        raise forms.ValidationError(_("Could not create the account; try again."))


def signup(request: HttpRequest) -> HttpResponse:
    if settings.TEACHER_SIGNUP == "closed":
        return render(request, "registration/signup_closed.html", status=403)
    form = TeacherSignupForm(request.POST or None)
    status, slow_down = 200, ""
    if request.method == "POST":
        address = clientip.client_address(request.META)
        username = str(request.POST.get("username", ""))[:150]
        if throttle.too_many_logins(address, username, kind="signup"):
            form, status, slow_down = TeacherSignupForm(), 429, SLOW_DOWN
        else:
            throttle.record_login(address, username, kind="signup")
            if form.is_valid():
                user = form.save()
                login(request, user)
                messages.success(request, _("Your login name is %(name)s: note it, you need it to log in.")
                                 % {"name": user.username})
                return redirect("classrooms:teacher-home")
    return render(request, "registration/signup.html", {"form": form, "slow_down": slow_down}, status=status)


class ThrottledLoginView(LoginView):
    """Django's login (the admin's too: ``admin_login``), with failed attempts counted so that
    guessing gets nowhere and wrong passwords sent by someone else never lock a teacher out
    (``classrooms.login_throttle``): past a limit a stranger is told "wait" whatever the
    password; an address or a browser that logged in as this user before still gets in with the
    correct password."""

    def post(self, request, *args, **kwargs):
        address = clientip.client_address(request.META)
        username = str(request.POST.get("username", ""))[:150]
        known_address = login_throttle.is_known_address(username, address)
        blocked = login_throttle.blocked(address, username, known_address=known_address)
        if blocked and not (login_throttle.is_known_browser(request, username)
                            or (known_address and not login_throttle.past_ceiling(address, username))):
            return self.slow_down(request)  # a stranger past a limit: the password is not checked
        response = super().post(request, *args, **kwargs)
        if response.status_code == 302:
            login_throttle.remember_success(request, response, username, address)
            return response
        login_throttle.record_failure(address, username)
        return self.slow_down(request) if blocked else response

    def slow_down(self, request):
        return self.render_to_response(
            self.get_context_data(form=AuthenticationForm(request), slow_down=SLOW_DOWN), status=429)


def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin's login is the app's (throttled) login: one form for both, then back to the
    admin page asked for. Nothing posted here is ever checked."""
    target = request.GET.get("next") or reverse("admin:index")
    return redirect(f"{reverse('login')}?{urlencode({'next': target})}")
