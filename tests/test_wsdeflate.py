"""Live messages compressed on the wire (core/wsdeflate.py): what the server answers to the
permessage-deflate offers browsers make, and a real server's frames read off a raw socket."""
from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import zlib

import pytest
from autobahn.websocket.compress import PerMessageDeflate, PerMessageDeflateOffer

from core import wsdeflate
from tests.support.clients import class_at_one_table


def offer(header: str) -> PerMessageDeflateOffer:
    """A client's permessage-deflate offer, as autobahn parses its Sec-WebSocket-Extensions."""
    params: dict[str, list] = {}
    for part in header.split(";")[1:]:
        key, _, value = part.strip().partition("=")
        params.setdefault(key, []).append(value or True)
    return PerMessageDeflateOffer.parse(params)


def answer(header: str) -> str:
    """The server's Sec-WebSocket-Extensions answer to it."""
    return wsdeflate.accept([offer(header)]).get_extension_string()


@pytest.mark.parametrize("header, expected", [
    # Chromium's offer (and the websockets library's): the browser keeps no window of what it sends
    ("permessage-deflate; client_max_window_bits",
     "permessage-deflate; client_no_context_takeover; client_max_window_bits=12"),
    # Firefox's and Safari's: no window size offered, so none is asked
    ("permessage-deflate", "permessage-deflate; client_no_context_takeover"),
    # a client that asks the server for a smaller window and no context gets both
    ("permessage-deflate; server_max_window_bits=10; server_no_context_takeover; client_max_window_bits",
     "permessage-deflate; server_no_context_takeover; server_max_window_bits=10; client_no_context_takeover; "
     "client_max_window_bits=12"),
])
def test_every_browsers_offer_is_accepted_with_no_context_kept(header, expected):
    assert answer(header) == expected


def test_the_server_compresses_with_its_small_window_and_no_context_whatever_the_client_allows():
    for header, window in [("permessage-deflate", wsdeflate.WINDOW_BITS),
                           ("permessage-deflate; server_max_window_bits=10", 10)]:
        deflate = PerMessageDeflate.create_from_offer_accept(True, wsdeflate.accept([offer(header)]))
        assert (deflate.server_no_context_takeover, deflate.server_max_window_bits, deflate.mem_level) \
            == (True, window, wsdeflate.MEM_LEVEL)


def test_a_socket_holds_no_compressor_between_two_messages():
    """Each message is deflated and inflated with a zlib object of its own, let go at its end:
    between two messages a socket keeps neither (80 kB of compressor per socket otherwise)."""
    deflate = wsdeflate.deflate_class().create_from_offer_accept(
        True, wsdeflate.accept([offer("permessage-deflate; client_max_window_bits")]))
    for text in (b'{"type": "state", "seq": 1}' * 40, b'{"type": "patch", "seq": 2}'):
        deflate.start_compress_message()
        sent = deflate.compress_message_data(text) + deflate.end_compress_message()
        assert deflate._compressor is None
        assert zlib.decompressobj(-zlib.MAX_WBITS).decompress(sent + b"\x00\x00\xff\xff") == text
        browser = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -wsdeflate.CLIENT_WINDOW_BITS)
        deflate.start_decompress_message()
        received = deflate.decompress_message_data((browser.compress(text) + browser.flush(zlib.Z_SYNC_FLUSH))[:-4])
        deflate.end_decompress_message()
        assert received == text and deflate._decompressor is None


def test_an_offer_of_another_compression_alone_is_declined():
    assert wsdeflate.accept([object()]) is None  # (snappy, bzip2: autobahn's other offers)
    assert wsdeflate.accept([]) is None


def read_exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        assert chunk, "the server closed the connection"
        data += chunk
    return data


def read_frame(sock: socket.socket) -> tuple[int, bool, bytes]:
    """One frame from the server (unmasked): its opcode, its RSV1 bit (compressed) and payload."""
    first, second = read_exactly(sock, 2)
    length = second & 0x7F
    if length == 126:
        length = int.from_bytes(read_exactly(sock, 2), "big")
    elif length == 127:
        length = int.from_bytes(read_exactly(sock, 8), "big")
    return first & 0x0F, bool(first & 0x40), read_exactly(sock, length)


@pytest.mark.server
def test_a_match_sockets_state_arrives_deflated_and_inflates_to_the_same_state(server, teacher):
    _, _, match_id, seat_of = class_at_one_table(server, "qtris")
    student = seat_of[0]
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((f"GET /ws/matches/{match_id}/ HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                      f"Origin: {server.url}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                      f"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
                      f"Cookie: {student.cookie_header()}\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += read_exactly(sock, 1)
        assert head.startswith(b"HTTP/1.1 101"), head
        assert b"permessage-deflate; client_no_context_takeover; client_max_window_bits=12" in head, head
        opcode, compressed, payload = read_frame(sock)
    assert opcode == 1 and compressed  # a text message, deflated
    text = zlib.decompressobj(-zlib.MAX_WBITS).decompress(payload + b"\x00\x00\xff\xff").decode()
    state = json.loads(text)
    assert state["type"] == "state" and state["match"] == match_id and state["seat"] == 0
    # the page's own copy of the same state, asked over HTTP, is what the socket said
    assert state["view"] == student.api("GET", f"/api/matches/{match_id}/").json()["view"]
    assert len(payload) * 3 < len(text.encode()), (len(payload), len(text.encode()))
    # each message alone: a second server's deflate with the same settings gives the same bytes
    assert wsdeflate.deflated(text.encode()) == payload


@pytest.mark.server
def test_a_small_message_that_would_inflate_past_a_messages_limit_closes_the_socket_and_nothing_else(server, teacher):
    import websockets

    from tests.support.clients import receive, run_async

    _, _, match_id, seat_of = class_at_one_table(server)
    path = f"/ws/matches/{match_id}/"

    async def scenario():
        bomb = " " * (8 * 1024 * 1024)  # 8 MiB of spaces: some 8 kB deflated
        async with await seat_of[0].socket(path) as ws, await seat_of[1].socket(path) as other:
            assert "permessage-deflate" in ws.response.headers["Sec-WebSocket-Extensions"]
            await receive(ws)
            await receive(other)
            # under the limit of a message (1 MiB inflated): the consumer's clear refusal, the socket open
            await ws.send(" " * (512 * 1024))
            refused = await receive(ws, "error")
            await ws.send(bomb)
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            # the other seat's socket is served as before
            await other.send(json.dumps({"type": "ping"}))
            return refused, await receive(other, "pong")

    refused, pong = run_async(scenario())
    assert refused["message"] == "That message is too long." and pong["type"] == "pong"
