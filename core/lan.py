"""This machine on the local network: its address there (``lan_address``), whether a host is
a loopback one only this computer reaches (``is_loopback``), and serving as that address
(``admit_lan_address``, for ``manage.py serve --lan``)."""
from __future__ import annotations

import ipaddress
import socket

from django.conf import settings

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
