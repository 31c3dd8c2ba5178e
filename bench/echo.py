"""The echo sockets of the live-latency benchmark (``bench/live_latency.py``): the floor the
match socket is compared with. Served only when the ECHO_SOCKET setting is on
(``config/routing.py``, ``config/asgi.py``); not part of the app."""
from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer

from core.layers import DirectDispatchMixin


class EchoConsumer(DirectDispatchMixin, AsyncWebsocketConsumer):
    """A bare echo socket: the floor the live-latency benchmark compares the match socket with.
    Routed only when the ECHO_SOCKET setting is on (see config/routing.py)."""

    async def connect(self) -> None:
        await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


def raw_echo(application):
    """``/ws/echo/raw/`` answered by a plain ASGI loop (no Channels, no middleware): the ASGI
    server's own floor, for the benchmark (routed only with the ECHO_SOCKET setting)."""

    async def app(scope, receive, send):
        if scope["type"] != "websocket" or scope["path"] != "/ws/echo/raw/":
            return await application(scope, receive, send)
        while True:
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
            elif message["type"] == "websocket.receive":
                await send({"type": "websocket.send", "text": message.get("text"), "bytes": message.get("bytes")})
            else:
                return

    return app
