"""The real client address behind the documented TLS proxy.

``X-Forwarded-For`` is believed only when the connection comes from an address listed in
``TRUSTED_PROXIES`` (addresses or networks, e.g. ``127.0.0.1,10.0.0.0/8``): the chain is read
from the right, skipping trusted proxies, and the first untrusted hop is the client. Anyone
else's ``X-Forwarded-For`` is ignored, so it cannot be used to dodge the throttles."""
from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings


@lru_cache(maxsize=8)
def _networks(spec: tuple[str, ...]) -> tuple:
    nets = []
    for item in spec:
        try:
            nets.append(ipaddress.ip_network(item.strip(), strict=False))
        except ValueError:
            continue
    return tuple(nets)


def is_trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in net for net in _networks(tuple(settings.TRUSTED_PROXIES)))


def client_address(meta: dict) -> str:
    remote = (meta.get("REMOTE_ADDR") or "").strip() or "unknown"
    if not is_trusted(remote):
        return remote
    hops = [h.strip() for h in (meta.get("HTTP_X_FORWARDED_FOR") or "").split(",") if h.strip()]
    for hop in reversed(hops):
        if not is_trusted(hop):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return remote  # a garbled header from behind our own proxy: fall back
    return hops[0] if hops else remote
