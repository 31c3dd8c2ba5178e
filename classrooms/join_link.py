"""The address students type or scan to join: one a phone on the same network can open.

In order: the configured public address (``PUBLIC_URL``, e.g. behind a proxy or a tunnel); the
address the teacher's browser used, unless it is a loopback one; this machine's address on the
local network when the server listens there (``manage.py serve --lan``, ``make run``); else the
loopback address, with a warning that a phone cannot open it."""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port
from django.urls import reverse
from django.utils.translation import gettext as _

from core.lan import admit_lan_address, is_loopback, lan_address  # noqa: F401  (the join link's)


@dataclass(frozen=True)
class JoinLink:
    url: str
    warning: str  # empty when a phone on the network can open ``url``


def join_link(request: HttpRequest, code: str) -> JoinLink:
    return public_link(request, reverse("classrooms:join") + f"?code={code}")


def public_link(request: HttpRequest, path: str) -> JoinLink:
    """``path`` of this app at the address students reach (see ``join_link``)."""
    public = (getattr(settings, "PUBLIC_URL", "") or "").rstrip("/")
    if public:
        return JoinLink(public + path, "")
    hostname, port = split_domain_port(request.get_host())
    if not is_loopback(hostname):
        return JoinLink(request.build_absolute_uri(path), "")
    lan = getattr(settings, "LAN_ADDRESS", "")
    if lan:
        port = port or request.get_port()
        return JoinLink(f"{request.scheme}://{lan}:{port}{path}", "")
    return JoinLink(request.build_absolute_uri(path), _(
        "This address only works on this computer: students' phones cannot open it. Start the app "
        "with `make run` (it serves the local network) or set PUBLIC_URL to the address students can reach."))
