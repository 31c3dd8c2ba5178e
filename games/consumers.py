"""The live match socket: ``/ws/matches/<id>/``.

Client → server: ``{"type": "act", "seq": n, "action": {...}}`` (n = number of actions the
client has seen), ``{"type": "sync"}`` (resend my view), ``{"type": "ping"}``, and, for games whose engine
declares ``Abilities.preview``, ``{"type": "preview", "action": {...}}``: what the action would
do, without applying it (engines resolve no chance in a preview, so nothing future leaks).
Server → client: ``{"type": "state", ...}`` (see ``games.selectors.match_payload``); to a page
that asked for patches (``/ws/matches/<id>/?patches=1``), every state after the first as
``{"type": "patch", "n": k, "seq": s, "ops": [...]}`` when that is shorter: what changed since the
state before (``core.jsonpatch``; ``n`` numbers the states of the socket, a page that misses one
sends ``sync`` and gets its whole view again);
``{"type": "error", "code": ..., "message": ..., "seq": n}``, ``{"type": "pong"}``,
``{"type": "preview", "action": ..., "ok": bool, "result" | "code" + "message"}``,
``{"type": "signal", "phrase": "<id>"}``: a quick signal (a predefined phrase, see
``games.partner_signals``) to the partner(s) at the match and its teacher, who receive
``{"type": "signal", "seat": s, "phrase": id, "text": ...}``; the sender gets
``{"type": "signal_sent", "phrase": id}`` or an error (nothing sent);
every refusal is a ``games.errors.AppError`` (the same codes and words as the REST API),
the first state after connecting also holds ``"history"``: every event so far that this seat may
see, rebuilt from the stored log (for a page reloaded or opened late); and, to a student whose seat the teacher handed to a
bot, ``{"type": "error", "code": "removed", ...}`` before the socket closes (code 4403).

Pace (``games.pace``): a state may hold ``"clock"`` (time left, see ``pace.clock_payload``).
Each socket runs a timer to the earliest time left and then asks ``services.enforce_time`` with
the ``seq`` it saw (exactly once under the row lock, whichever socket is first); a socket
connecting to a match whose time has passed enforces it first.
"""
from __future__ import annotations

import asyncio
import json
import logging

import orjson
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext as _

from core import limits
from core.jsonpatch import StateStream
from core.language import ReaderLanguageMixin, socket_language
from core.layers import CLOSE_UNAVAILABLE, DirectDispatchMixin, LayerOutageMixin
from core.socket_limits import SocketLimitsMixin
from games import pace, partner_signals, rows, services, state_cache
from games.access import MatchAccess, match_access
from games.broadcast import match_changed_message, match_group
from games.errors import AppError, database_unavailable
from games.models import Match
from games.selectors import event_history, match_payload, seat_payload
from games.snapshot import Snapshot

MAX_MESSAGE_BYTES = 8192


def encode(content: dict) -> str:
    """A message for the browser, as JSON text: orjson (several times faster than ``json`` on
    the views sent after every move), the standard module for what orjson refuses."""
    try:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(content)


def in_db_pool(func):
    """Run ``func`` on a pool of database threads (each with its own connection), not the one
    thread Channels uses by default: actions on different matches then wait on PostgreSQL side
    by side. Each action is one transaction with the match row locked, so order is kept."""
    return database_sync_to_async(func, thread_sensitive=False)


log = logging.getLogger(__name__)


ENFORCE_MARGIN_S = 0.05  # after the time left, so the server's clock agrees it has passed


class MatchConsumer(ReaderLanguageMixin, SocketLimitsMixin, LayerOutageMixin, DirectDispatchMixin,
                    AsyncWebsocketConsumer):
    language_found_on_connect = True  # (by ``_opened``)
    access: MatchAccess | None = None  # None until the socket is accepted (and after a refusal)
    group: str | None = None
    last_seq = -1
    clock_timer: asyncio.Task | None = None

    async def connect(self) -> None:
        # a page that holds its view and applies patches asks for them (``?patches=1``); any
        # other client is sent every state whole
        self.states = StateStream(b"patches=1" in self.scope.get("query_string", b"").split(b"&"), encode)
        try:
            match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        except (KeyError, ValueError):
            await self.close(code=4404)
            return
        # the group is joined before the state is read: a move committed meanwhile then reaches
        # this socket through the group (its message waits until ``connect`` returns, and one the
        # state already holds is dropped by its seq), instead of falling between the read and the
        # join, which left a page a move behind until the next one
        self.group = match_group(match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.language, self.access, payload, enforced = await in_db_pool(_opened)(match_id, self.scope)
        with translation.override(self.language):
            await self.accept_opened(match_id, payload, enforced)

    async def accept_opened(self, match_id: int, payload: dict | None, enforced: services.Applied | None) -> None:
        if self.access is None or payload is None:
            self.access = None
            await self.close(code=4403)
            return
        if not await self.open_within_limits():  # (accepts the socket)
            self.access = None
            return
        self.last_seq = payload["seq"]
        await self.send_json(payload)
        if enforced is not None:  # the time had passed: the others see what it did
            await self.channel_layer.group_send(self.group, match_changed_message(
                enforced.match_id, enforced.snapshot, enforced.events, sender=self.channel_name))

    async def disconnect(self, code: int) -> None:
        if self.clock_timer is not None:
            self.clock_timer.cancel()
        await self.release_socket()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.socket_active()
        message, problem = parse_message(text_data, bytes_data)
        if problem:
            await self.send_error(AppError("bad_message", problem))
            return
        try:
            await self.dispatch_message(message)
        except (OperationalError, InterfaceError):
            log.warning("match socket message failed: the database is unreachable: %r", message)
            await self.send_error(database_unavailable(), message.get("seq") if message.get("type") == "act" else None)
        except Exception:  # an unexpected fault must not take the socket down; nothing was applied
            log.exception("match socket message failed: %r", message)
            await self.send_error(AppError("internal", _(
                "Something went wrong on the server; nothing was applied. Try again.")))

    async def dispatch_message(self, message: dict) -> None:
        kind = message["type"]
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "sync":
            self.states.restart()  # (a page that missed a patch asks for its whole view)
            await self.send_state()
        elif kind == "act":
            await self.act(message)
        elif kind == "preview":
            await self.preview(message.get("action"))
        elif kind == "signal":
            await self.signal(message)

    async def signal(self, message: dict) -> None:
        try:
            sent = await in_db_pool(_check_signal)(self.access, message)
        except AppError as exc:
            await self.send_error(exc)
            return
        await self.channel_layer.group_send(self.group, {
            "type": "match.signal", "seat": sent.seat, "phrase": sent.phrase, "sender": self.channel_name})
        await self.send_json({"type": "signal_sent", "phrase": sent.phrase, "text": partner_signals.phrase_text(sent.phrase)})

    async def match_signal(self, event: dict) -> None:
        """A partner's quick signal: for the other seats' players and the teacher, not the sender's seat."""
        if self.access is None or event.get("sender") == self.channel_name or event.get("seat") in self.access.seats:
            return
        if not self.access.seats and not self.access.is_teacher:
            return
        await self.send_json(partner_signals.Signal(event["seat"], event["phrase"]).message())

    async def preview(self, action: object) -> None:
        try:
            if not isinstance(action, dict) or not self.access.seats:
                raise AppError("bad_message", _("A preview needs \"action\": a JSON object, from a player."))
            result = await in_db_pool(services.preview_action)(
                self.access.match_id, self.access.seats[0], action)
        except AppError as exc:
            await self.send_json({"type": "preview", "action": action, "ok": False, **exc.as_dict()})
            return
        await self.send_json({"type": "preview", "action": action, "ok": True, "result": result})

    async def act(self, message: dict) -> None:
        seq, action = message.get("seq"), message.get("action")
        if type(seq) is not int or seq < 0:
            await self.send_error(AppError("bad_message", _(
                "An action needs \"seq\": the number of moves you have seen.")))
            return
        if not isinstance(action, dict):
            await self.send_error(AppError("bad_message", _("An action needs \"action\": a JSON object.")), seq)
            return
        seat = self.access.acting_seat(message.get("seat"))
        try:  # the service checks the seat is this browser's, in the same transaction
            applied = await in_db_pool(services.submit_action)(
                self.access.match_id, seat, seq, action, participant_ids=self.access.participant_ids)
        except AppError as exc:
            await self.send_error(exc, seq)
            return
        except Match.DoesNotExist:
            await self.send_error(AppError("gone", _("This match no longer exists.")), seq)
            return
        except (OperationalError, InterfaceError):  # PostgreSQL down or restarting: nothing committed
            log.warning("match %s: the database is unreachable, move %s refused", self.access.match_id, seq)
            await self.send_error(database_unavailable(), seq)
            return
        # answer this browser at once, then everyone else through the group: the move is committed,
        # so the others hear of it whatever happens to this answer, and this browser is told so
        try:
            await self.send_snapshot(applied.snapshot, applied.events)
        except Exception:
            log.exception("match %s: move %s was stored but its answer failed", self.access.match_id, seq)
            await self.send_error(AppError("internal", _(
                "Your move was saved, but the board could not be redrawn: it is being reloaded.")), seq)
            try:
                self.states.restart()
                await self.send_state()
            except Exception:  # (the page asks again when it reconnects; the others still hear below)
                log.exception("match %s: and the reload after it failed", self.access.match_id)
        await self.broadcast(match_changed_message(applied.match_id, applied.snapshot, applied.events,
                                                   sender=self.channel_name))

    async def broadcast(self, message: dict) -> None:
        """To the match's group. With the channel layer (Redis) unreachable the others miss it: this
        socket closes (``CLOSE_UNAVAILABLE``) so its page reconnects, re-joins the group and reads the state afresh;
        the others' sockets close the same way when their receive loop loses Redis."""
        try:
            await self.channel_layer.group_send(self.group, message)
        except Exception:
            log.warning("match %s: broadcast failed (channel layer unreachable)", self.access.match_id,
                        exc_info=True)
            await self.close(code=CLOSE_UNAVAILABLE)

    async def match_changed(self, event: dict) -> None:
        if self.access is None or event.get("sender") == self.channel_name:
            return
        if event.get("snapshot"):
            snap = Snapshot.from_message(event["snapshot"])
            await self.send_snapshot(snap, event.get("events"))
        else:
            await self.send_state(event.get("events"))

    async def match_seat_lost(self, event: dict) -> None:
        """The teacher removed a student: their sockets stop receiving the seat's view at once."""
        if self.access is not None and self.access.seats and event.get("participant") in self.access.participant_ids:
            await self.send_error(AppError("removed", _("Your teacher removed you from this session.")))
            await self.close(code=4403)

    async def send_snapshot(self, snap: Snapshot, events: list | None) -> None:
        """This seat's view of the match after a change, built without the database."""
        if snap.seq < self.last_seq:
            return  # an older change overtaken by one this browser has already seen
        self.last_seq = snap.seq
        state_cache.put(snap.match, snap.seed, snap.seq, snap.state)  # this process acts on it next
        await self.send_json(seat_payload(snap, self.access.view_seat, is_teacher=self.access.is_teacher,
                                          events=events))

    async def send_state(self, events: list | None = None) -> None:
        access = self.access
        payload = await in_db_pool(_payload)(access, events)
        if payload is None:
            await self.send_error(AppError("gone", _("This match no longer exists.")))
            await self.close(code=4404)
            return
        self.last_seq = max(self.last_seq, payload["seq"])
        await self.send_json(payload)

    async def send_error(self, error: AppError, seq: int | None = None) -> None:
        """The one way this socket refuses: the error's code and words, and the ``seq`` answered."""
        await self.send_json(error.as_message(seq=seq))

    async def send_json(self, content: dict) -> None:
        if content.get("type") == "state":
            await self.send(text_data=self.states.text(content))
            self.watch_clock(content)
        else:
            await self.send(text_data=encode(content))

    def watch_clock(self, payload: dict) -> None:
        """A timer to the earliest time left in ``payload`` (none while paused or without a
        clock); a newer payload replaces it."""
        if self.clock_timer is not None:
            self.clock_timer.cancel()
            self.clock_timer = None
        clock = payload.get("clock")
        if not clock or clock.get("paused") or payload.get("outcome") is not None:
            return
        times = [t for t in (clock.get("move_left_ms"), clock.get("finish_left_ms")) if t is not None]
        if times:
            self.clock_timer = asyncio.ensure_future(
                self.enforce_after(min(times) / 1000 + ENFORCE_MARGIN_S, payload["seq"]))

    async def enforce_after(self, delay: float, seq: int) -> None:
        await asyncio.sleep(delay)
        self.clock_timer = None  # from here on, a new payload does not cancel this enforcement
        try:
            applied = await in_db_pool(services.enforce_time)(self.access.match_id, seq)
        except Exception:  # a fault must not take the socket down; another socket may try
            log.exception("enforcing the time of match %s failed", self.access.match_id)
            return
        if applied is not None:  # every socket of the match, this one included, is told
            await self.channel_layer.group_send(self.group, match_changed_message(
                applied.match_id, applied.snapshot, applied.events))


def _opened(match_id: int, scope) -> tuple:
    """The socket's language (``socket_language``), then what ``_open`` gives, in one trip."""
    language = socket_language(scope)
    return (language, *_open(match_id, scope.get("user"), scope.get("session"), language))


def _open(match_id: int, user, session, language: str | None = None
          ) -> tuple[MatchAccess | None, dict | None, services.Applied | None]:
    """Who this socket is and its first payload (with the event log so far, in the reader's
    ``language``), in one trip to the database thread; a time that has passed is enforced
    first (the ``Applied`` it gave, else None)."""
    match = rows.match_with_seats(match_id)
    access = match_access(match_id, user, session, match) if match else None
    if access is None:
        return None, None, None
    enforced = None
    if pace.due(match):
        enforced = services.enforce_time(match_id, match.seq)
        if enforced is not None:
            match = rows.match_with_seats(match_id)
    with translation.override(language or translation.get_language()):
        payload = match_payload(match, access.view_seat, is_teacher=access.is_teacher)
        payload["history"] = event_history(match, access.view_seat)
    return access, payload, enforced


def _check_signal(access: MatchAccess, message: dict) -> partner_signals.Signal:
    match = Match.objects.filter(pk=access.match_id).values("game", "status").first()
    if match is None:
        raise AppError("gone", _("This match no longer exists."))
    return partner_signals.check_signal(match["game"], access.seats, message, match_id=access.match_id,
                                        playing=match["status"] == Match.Status.PLAYING)


def _payload(access: MatchAccess, events: list | None) -> dict | None:
    match = Match.objects.filter(pk=access.match_id).first()
    if match is None:
        return None
    return match_payload(match, access.view_seat, is_teacher=access.is_teacher, events=events)


def parse_message(text_data: str | None, bytes_data: bytes | None) -> tuple[dict, str | None]:
    """Decode a client message; on failure say what is wrong in words."""
    if text_data is None:
        return {}, _("Send text messages holding JSON.")
    if len(text_data) > MAX_MESSAGE_BYTES:
        return {}, _("That message is too long.")
    try:
        message = limits.loads(text_data, max_bytes=MAX_MESSAGE_BYTES, what="That message")
    except (limits.JSONTooBig, limits.NotFinite) as exc:
        return {}, str(exc)
    except ValueError:
        return {}, _("That message is not valid JSON.")
    if not isinstance(message, dict):
        return {}, _("A message must be a JSON object.")
    if message.get("type") not in {"act", "sync", "ping", "preview", "signal"}:
        return {}, _("Unknown message type: use \"act\", \"sync\", \"preview\", \"signal\" or \"ping\".")
    return message, None
