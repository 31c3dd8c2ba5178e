"""The address students type or scan to join: one a phone on the same network can open.

In order: the configured public address (``PUBLIC_URL``, e.g. behind a proxy or a tunnel); the
address the teacher's browser used, unless it is a loopback one; this machine's address on the
local network when the server listens there (``manage.py serve --lan``, ``make run``); else the
loopback address, with a warning that a phone cannot open it."""
from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port
from django.urls import reverse
from django.utils.translation import gettext as _

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's IPv4 address on its local network (the interface of its default route),
    or None when it has none. Connecting a UDP socket sends no packet."""
    candidates = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            candidates.append(probe.getsockname()[0])
        except OSError:
            pass
    try:
        candidates.append(socket.gethostbyname(socket.gethostname()))
    except OSError:
        pass
    return next((a for a in candidates if a and not is_loopback(a) and a != "0.0.0.0"), None)


def admit_lan_address(address: str) -> None:
    """Serve on the local network as ``address``: the host is allowed and join links use it.
    Called by ``manage.py serve --lan`` before the ASGI application is loaded."""
    settings.LAN_ADDRESS = address
    if address not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS.append(address)


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
