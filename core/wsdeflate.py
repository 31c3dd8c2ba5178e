"""Live messages compressed on the wire: WebSocket permessage-deflate (RFC 7692) in daphne.

A move's message is JSON that repeats itself (keys, cards, squares, the same words in every
event), so deflate makes it three to five times smaller: the messages of a class of thirty
share the school's Wi-Fi. Every browser offers the extension, and so does the ``websockets``
library; daphne accepts no offer unless told how, which ``install_in_daphne`` does for every
daphne that serves this app (``config.asgi`` calls it, as it installs the body limit).

How the server compresses (what a socket keeps between two messages is what costs memory: a
thousand sockets hold a thousand of each):

- **no context carried from one message to the next** (``server_no_context_takeover``, which a
  server may choose alone): each message is compressed on its own, and its compressor is let go
  when the message is sent (``Deflate``), so a socket between two messages holds none;
- **a 16 kB window and a small hash table** (``WINDOW_BITS``, ``MEM_LEVEL``): about 80 kB while
  a message is being compressed. A move's message is at most a few kB, but the one that ends a
  round (a poker hand's showdown, with the next hand dealt) is up to 16 kB of JSON whose
  repeats lie farther apart than a smaller window sees;
- the browser is asked the same (``client_no_context_takeover`` and, where it offers to take
  one, a ``client_max_window_bits`` of ``CLIENT_WINDOW_BITS``: what a browser sends is small),
  so the server keeps no window of what it received either.

A compressed message is inflated only up to daphne's limit of a message (1 MiB): a small
message that would inflate past it closes the socket, as a message that size would.

The other server (``manage.py serve --server uvicorn``) negotiates permessage-deflate itself."""
from __future__ import annotations

import zlib

WINDOW_BITS = 14
MEM_LEVEL = 5
CLIENT_WINDOW_BITS = 12


def deflated(data: bytes) -> bytes:
    """One message's payload on the wire as this server sends it: deflated alone, with
    ``WINDOW_BITS`` and ``MEM_LEVEL`` at zlib's default level (autobahn's), without the four bytes
    that permessage-deflate leaves off (what the bench counts, what the tests compare)."""
    deflate = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -WINDOW_BITS, MEM_LEVEL)
    return (deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH))[:-4]


def accept(offers: list):
    """The answer to a browser's permessage-deflate offers (autobahn's
    ``perMessageCompressionAccept``): the first offer, accepted as above; None (no compression)
    when none is permessage-deflate."""
    from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept

    for offer in offers:
        if not isinstance(offer, PerMessageDeflateOffer):
            continue
        asked = offer.request_max_window_bits  # the most the browser takes from the server (0: any)
        return PerMessageDeflateOfferAccept(
            offer,
            request_no_context_takeover=bool(offer.accept_no_context_takeover),
            request_max_window_bits=CLIENT_WINDOW_BITS if offer.accept_max_window_bits else 0,
            no_context_takeover=True,
            window_bits=min(WINDOW_BITS, asked) if asked else WINDOW_BITS,
            mem_level=MEM_LEVEL,
        )
    return None


def install_in_daphne() -> None:
    """Make daphne's WebSocket factory accept permessage-deflate (idempotent)."""
    try:
        from daphne import server
    except ImportError:  # another ASGI server: it negotiates compression itself
        return
    if getattr(server.WebSocketFactory, "deflates", False):
        return

    class DeflatingWebSocketFactory(server.WebSocketFactory):
        deflates = True

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.setProtocolOptions(perMessageCompressionAccept=accept)

    server.WebSocketFactory = DeflatingWebSocketFactory
    from autobahn.websocket.compress import PERMESSAGE_COMPRESSION_EXTENSION, PerMessageDeflateMixin

    extension = PERMESSAGE_COMPRESSION_EXTENSION[PerMessageDeflateMixin.EXTENSION_NAME]
    PERMESSAGE_COMPRESSION_EXTENSION[PerMessageDeflateMixin.EXTENSION_NAME] = {**extension, "PMCE": deflate_class()}


def deflate_class():
    """autobahn's permessage-deflate, but a compressor (decompressor) that carries no context to
    the next message is let go at the end of its message instead of kept until the next one."""
    from autobahn.websocket.compress import PerMessageDeflate

    class Deflate(PerMessageDeflate):
        def end_compress_message(self):
            data = super().end_compress_message()
            if self.server_no_context_takeover if self._is_server else self.client_no_context_takeover:
                self._compressor = None
            return data

        def end_decompress_message(self):
            super().end_decompress_message()
            if self.client_no_context_takeover if self._is_server else self.server_no_context_takeover:
                self._decompressor = None

    return Deflate
