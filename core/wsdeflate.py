"""Live messages compressed on the wire: WebSocket permessage-deflate (RFC 7692) in daphne.

A move's message is JSON that repeats itself (keys, cards, squares, the same words in every
event), so deflate makes it three to five times smaller: the messages of a class of thirty
share the school's Wi-Fi. Every browser offers the extension, and so does the ``websockets``
library; daphne accepts no offer unless told how, which ``install_in_daphne`` does for every
daphne that serves this app (``config.asgi`` calls it, as it installs the body limit).

How the server compresses (what each socket keeps between two messages is what costs memory:
a thousand sockets hold a thousand of each):

- **no context carried from one message to the next** (``server_no_context_takeover``, which a
  server may choose alone): each message is compressed on its own, so a socket keeps no window
  of what it sent before;
- **a 4 kB window and a small hash table** (``WINDOW_BITS``, ``MEM_LEVEL``): about 32 kB per
  compressor instead of zlib's default 256 kB, for messages of a few kB at most a few per cent
  larger than with the default (bench/live_latency.py reports the bytes on the wire);
- the browser is asked the same (``client_no_context_takeover`` and, where it offers to take
  one, a ``client_max_window_bits`` of ``WINDOW_BITS``), so the server keeps no window of what
  it received either.

A compressed message is inflated only up to daphne's limit of a message (1 MiB): a small
message that would inflate past it closes the socket, as a message that size would.

The other server (``manage.py serve --server uvicorn``) negotiates permessage-deflate itself."""
from __future__ import annotations

WINDOW_BITS = 12
MEM_LEVEL = 5


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
            request_max_window_bits=WINDOW_BITS if offer.accept_max_window_bits else 0,
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
