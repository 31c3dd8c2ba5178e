"""The class session socket ``/ws/sessions/<id>/``: the teacher's live dashboard (with its
commands) and each student's lobby (where they learn their table)."""
from __future__ import annotations

import asyncio
from collections.abc import Set as AbstractSet

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import transaction
from django.utils.translation import gettext

from classrooms import selectors, services, ticket_maps, understanding
from classrooms.broadcast import session_group
from classrooms.models import ClassSession, Participant
from core import limits
from core.language import ReaderLanguageMixin
from core.layers import DirectDispatchMixin, LayerOutageMixin
from core.socket_limits import SocketLimitsMixin
from games import state_cache
from games.consumers import encode
from games.errors import AppError
from games.moments import moments_of, newest_moments
from games.snapshot import Snapshot

MAX_MESSAGE_BYTES = 4096
# a session socket rebuilds its payload for changes at most this often: the dashboard once a
# second, the projector (standings and moments, read from across the room) every two seconds
COALESCE_SECONDS = 1.0
SCREEN_COALESCE_SECONDS = 2.0
# a teacher's socket reads only the moved tables again for a payload, but all of them at least
# this often (and after any change that names no match: a command, a join)
WHOLE_READ_SECONDS = 10.0
COMMANDS = {"auto_pair", "seat_table", "start_all", "remove", "readmit", "participant_cap", "lock", "unlock", "end", "show_odds", "sync",
            "pause_all", "resume_all", "finish_in", "move_clock",
            "next_round", "waiting_room", "admit", "turn_away", "remove_recent", "merge", "refuse_comeback"}


class SessionConsumer(ReaderLanguageMixin, SocketLimitsMixin, LayerOutageMixin, DirectDispatchMixin,
                      AsyncWebsocketConsumer):
    coalesce_seconds = COALESCE_SECONDS
    session_id: int | None = None
    is_teacher = False
    participant_id: int | None = None
    finish_timer: asyncio.Task | None = None
    coalesce_timer: asyncio.Task | None = None
    last_payload_at = float("-inf")  # (loop time) when the last payload began to be built
    # the teacher's tables as last sent, by match id (the dashboard's rows; the projector's
    # moments per table); the moves noted since (their snapshots); a whole payload is due
    known: dict[int, dict]
    pending: dict[int, Snapshot]
    full_due = False
    # the dashboard's: who sat where as of the last whole payload (the concept grid after a move)
    seating: understanding.Seating | None = None
    # the teacher's sockets: the tables the last payload read (``selectors.tables_after``), the
    # matches changed since, whether all must be read again, when they all were, and how many
    # payloads are being built (one begun while another is read reads everything: neither knows
    # the other's moves; a socket's reads run one after the other, in the order begun)
    tables: list | None = None
    moved: set[int]
    read_all = True
    read_at = float("-inf")
    building = 0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.known, self.pending, self.moved = {}, {}, set()

    async def connect(self) -> None:
        try:
            self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        except (KeyError, ValueError):
            await self.close(code=4404)
            return
        who = await database_sync_to_async(_identify)(self.session_id, self.scope.get("user"),
                                                      self.scope.get("session"))
        if who is None or not self.admits(*who):
            self.session_id = None
            await self.close(code=4403)
            return
        self.is_teacher, self.participant_id = who
        if not await self.open_within_limits():  # (accepts the socket)
            self.session_id = None
            return
        for group in self.session_groups():
            await self.channel_layer.group_add(group, self.channel_name)
        await self.send_payload()

    def admits(self, is_teacher: bool, participant_id: int | None) -> bool:
        """Who may open this socket: the owning teacher, or a student of the session."""
        return True

    def session_groups(self) -> list[str]:
        """The session's group, and the teacher's own (the news of every move) for the teacher."""
        mine = [session_group(self.session_id)]
        return [*mine, session_group(self.session_id, teachers=True)] if self.is_teacher else mine

    async def disconnect(self, code: int) -> None:
        if self.finish_timer is not None:
            self.finish_timer.cancel()
        if self.coalesce_timer is not None:
            self.coalesce_timer.cancel()
        await self.release_socket()
        if self.session_id is not None:
            for group in self.session_groups():
                await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.socket_active()
        if _is_ping(text_data):
            await self.send_json({"type": "pong"})
            return
        if not self.is_teacher:
            await self.send_json(AppError("read_only", gettext("Only the teacher gives commands here.")).as_message())
            return
        message = _decode(text_data)
        if message is None:
            await self.send_json(AppError("bad_message", gettext("Send a JSON object with \"type\" one of: %(types)s.")
                                          % {"types": ", ".join(sorted(COMMANDS))}).as_message())
            return
        error = await database_sync_to_async(_command)(self.session_id, message)
        if error:
            await self.send_json(error.as_message())
        elif message["type"] == "sync":
            await self.send_payload()

    async def session_changed(self, event: dict) -> None:
        if event.get("teacher_only") and not self.is_teacher:
            return
        remember_snapshot(event)
        self.note_change(event)
        await self.payload_soon()

    def note_change(self, event: dict) -> None:
        """A move at a table this socket knows, which left its match's status as it was, is
        patched in (``send_patches``); any other change (a start, an end, a command, a join, an
        unknown table) makes the whole payload due."""
        snap = event.get("snapshot")
        if self.is_teacher:  # (the tables the next payload reads again)
            if snap:
                self.moved.add(snap["match"])
            else:
                self.read_all = True
        known = self.known.get(snap["match"]) if snap else None
        if not event.get("teacher_only") or known is None or known["status"] != snap["status"]:
            self.full_due = True
            return
        pending = self.pending.get(snap["match"])
        if pending is None or pending.seq < snap["seq"]:
            self.pending[snap["match"]] = Snapshot.from_message(snap)

    async def payload_soon(self) -> None:
        """A change of the session: it is sent at once when nothing was sent in the last
        ``COALESCE_SECONDS``, else once at the end of that window (trailing edge), whatever number
        of changes came meanwhile. Every change is still shown (what is sent is read after it),
        but a class moving at 15 tables costs a dashboard about two messages a second, not 15."""
        if self.coalesce_timer is not None:
            return  # a message is already due; it will carry this change too
        wait = self.last_payload_at + self.coalesce_seconds - asyncio.get_running_loop().time()
        if wait <= 0:
            await self.send_changes()
        else:
            self.coalesce_timer = asyncio.ensure_future(self.coalesced_changes(wait))

    async def coalesced_changes(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self.coalesce_timer = None  # a change from here on schedules (or sends) a message of its own
        await self.send_changes()

    async def send_changes(self) -> None:
        """The whole payload when one is due (it supersedes the moves noted meanwhile), else the
        patches of the moves."""
        if self.full_due:
            await self.send_payload()
        elif self.pending:
            snaps = list(self.pending.values())
            self.payload_started()
            await self.send_patches(snaps)

    def payload_started(self) -> None:
        """What changed until now is in the message being built; what changes from here on is not."""
        self.last_payload_at = asyncio.get_running_loop().time()
        self.full_due, self.pending = False, {}

    def tables_to_read(self) -> tuple[list | None, set[int]]:
        """For a payload begun now: the tables to reuse (None: read them all) and the matches
        whose tables are read again."""
        now = asyncio.get_running_loop().time()
        kept, moved = self.tables, self.moved
        if self.read_all or self.building or now - self.read_at >= WHOLE_READ_SECONDS:
            kept, self.read_at = None, now
        self.moved, self.read_all = set(), False
        return kept, moved

    async def read_tables(self, build):
        """``build(session_id, kept, moved)`` in a database thread: the payload's parts, the last
        of them the tables it read (kept for the next payload), which is not returned."""
        kept, moved = self.tables_to_read()
        self.building += 1
        try:
            *parts, tables = await database_sync_to_async(build)(self.session_id, kept, moved)
        except BaseException:
            self.read_all = True
            raise
        finally:
            self.building -= 1
        self.tables = tables
        return parts

    async def send_payload(self) -> None:
        self.payload_started()
        if self.is_teacher:
            payload, self.seating = await self.read_tables(_teacher_payload)
        else:
            payload = await database_sync_to_async(_payload)(self.session_id, False, self.participant_id)
        if payload.get("type") == "dashboard":
            self.known = {row["match"]: row for row in payload["tables"]}
        await self.send_json(payload)
        if self.is_teacher:
            self.watch_finish(payload)
        if payload.get("type") == "gone" or (payload.get("removed") and not payload.get("comeback")):
            await self.close(code=4403)  # final: the page says why, and does not reconnect
        # (a removed student asking to come back keeps the socket: the teacher's answer changes the page)

    async def send_patches(self, snaps: list[Snapshot]) -> None:
        """The dashboard's rows of the tables that moved, built from their snapshots (no query;
        in a thread: a Ticket-to-Ride table's analysis takes tens of milliseconds)."""
        rows = await sync_to_async(_patched_rows, thread_sensitive=False)(self.known, snaps)
        rows = [row for row in rows if _newer(row["match"], row["moves"], self.known)]  # (a payload meanwhile?)
        if rows:
            self.known.update((row["match"], row) for row in rows)
            message = {"type": "tables", "tables": rows}
            if self.seating is not None:  # the concept grid: only the new moves are judged
                refs = [understanding.MatchRef(s.match, s.seed, s.seq, s.game, s.rules_version) for s in snaps]
                message["understanding"] = await database_sync_to_async(understanding.live_compact)(self.seating, refs)
            await self.send_json(message)

    async def send_json(self, content: dict) -> None:
        await self.send(text_data=encode(content))

    def watch_finish(self, payload: dict) -> None:
        """The dashboard ends the tables when time is up even if no student's page is open:
        at the end it reloads its payload, which enforces every overdue table first."""
        if self.finish_timer is not None:
            self.finish_timer.cancel()
            self.finish_timer = None
        pace = (payload.get("session") or {}).get("pace") or {}
        if (pace.get("finish_left_ms") or 0) > 0 and not pace.get("paused"):
            self.finish_timer = asyncio.ensure_future(self.payload_after(pace["finish_left_ms"] / 1000 + 0.3))

    async def payload_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self.finish_timer = None
        await self.send_payload()


def remember_snapshot(event: dict) -> None:
    """A move's match state, carried by the change's message: this process's rebuild reads it
    from the state cache instead of replaying the table's whole log (the move may have been made
    in another process)."""
    if event.get("snapshot"):
        snap = Snapshot.from_message(event["snapshot"])
        state_cache.put(snap.match, snap.seed, snap.seq, snap.state)


def _patched_rows(known: dict[int, dict], snaps: list[Snapshot]) -> list[dict]:
    """The rows of ``known`` after the moves of ``snaps`` (a snapshot older than its row, read by
    a whole payload built meanwhile, changes nothing)."""
    return [selectors.patched_row(known[snap.match], snap) for snap in snaps if _newer(snap.match, snap.seq, known)]


def _newer(match_id: int, seq: int, known: dict[int, dict]) -> bool:
    """Whether a row at move ``seq`` is newer than the known row of its match."""
    return match_id in known and seq > known[match_id]["moves"]


def _is_ping(text_data: str | None) -> bool:
    """The pages' keep-alive, answered without a database trip."""
    return bool(text_data) and len(text_data) < 40 and "".join(text_data.split()) == '{"type":"ping"}'


def _decode(text_data: str | None) -> dict | None:
    if text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
        return None
    try:
        message = limits.loads(text_data, max_bytes=MAX_MESSAGE_BYTES)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("type") not in COMMANDS:
        return None
    return message


def _identify(session_id: int, user, browser_session) -> tuple[bool, int | None] | None:
    session = ClassSession.objects.select_related("classroom").filter(pk=session_id).first()
    if session is None:
        return None
    if user is not None and user.is_authenticated and session.classroom.teacher_id == user.pk:
        return True, None
    pid = ((browser_session or {}).get(services.SESSION_PARTICIPANTS_KEY) or {}).get(str(session_id))
    if pid is not None and Participant.objects.filter(pk=pid, session_id=session_id).exists():
        return False, pid
    return None


def _payload(session_id: int, is_teacher: bool, participant_id: int | None) -> dict:
    session = ClassSession.objects.select_related("classroom").filter(pk=session_id).first()
    if session is None:
        return {"type": "gone", "message": gettext("This class session was deleted.")}
    if is_teacher:
        services.enforce_overdue(session)  # a table whose time passed with no page open on it
        return selectors.dashboard_payload(session)
    participant = Participant.objects.filter(pk=participant_id).first()
    return selectors.lobby_payload(session, participant)


def _teacher_payload(session_id: int, kept: list | None = None, moved: AbstractSet[int] = frozenset()
                     ) -> tuple[dict, understanding.Seating | None, list | None]:
    """The dashboard's payload, who sat where (``selectors.dashboard_payload_and_seating``) and
    the tables read (``selectors.tables_after``: ``kept`` with the ``moved`` matches' read again)."""
    session = ClassSession.objects.select_related("classroom").filter(pk=session_id).first()
    if session is None:
        return {"type": "gone", "message": gettext("This class session was deleted.")}, None, None
    if services.enforce_overdue(session):  # a table whose time passed with no page open on it
        kept = None
    tables = selectors.tables_after(session, kept, moved)
    return (*selectors.dashboard_payload_and_seating(session, tables), tables)


def _participant_id(message: dict, kind: str) -> int:
    pid = message.get("participant")
    if type(pid) is not int:
        raise AppError("bad_message", gettext("%(command)s needs \"participant\": an id.") % {"command": kind})
    return pid


def _command(session_id: int, message: dict) -> AppError | None:
    """Run one dashboard command; returns the error when it was refused."""
    kind = message["type"]
    try:
        with transaction.atomic():
            session = ClassSession.objects.select_for_update().select_related("classroom").get(pk=session_id)
            if kind == "auto_pair":
                if not services.auto_pair(session):
                    raise AppError("nobody_waiting", gettext("Every student already has a table."))
            elif kind == "seat_table":
                ids, bots = message.get("participants"), message.get("bots", 0)
                if not isinstance(ids, list) or not all(type(i) is int for i in ids) or type(bots) is not int or bots < 0:
                    raise AppError("bad_message", gettext("seat_table needs \"participants\": [ids] and \"bots\": a number."))
                chosen = list(session.participants.filter(pk__in=ids, removed=False))
                if len(chosen) != len(set(ids)):
                    raise AppError("bad_table", gettext("Some of those students are not in this session."))
                extra = {}
                if message.get("ticket_map") is not None:  # Ticket-to-Ride: this table's own map
                    if not ticket_maps.takes_maps(session.game):
                        raise AppError("bad_message", gettext("Only Quantum Ticket-to-Ride tables take a map."))
                    extra = ticket_maps.session_options(session.classroom, message["ticket_map"], session.game)
                services.seat_table(session, chosen, bots=bots, extra_options=extra)
            elif kind == "next_round":
                services.next_round(session)
            elif kind == "start_all":
                if not services.start_all(session):
                    raise AppError("nothing_to_start", gettext("No table is waiting to start."))
            elif kind in {"remove", "readmit"}:
                pid = message.get("participant")
                if type(pid) is not int:
                    raise AppError("bad_message", gettext("%(command)s needs \"participant\": an id.")
                                   % {"command": kind})
                (services.remove_participant if kind == "remove" else services.readmit)(session, pid)
            elif kind == "refuse_comeback":
                services.refuse_comeback(session, _participant_id(message, kind))
            elif kind == "waiting_room":  # {"on": true|false}
                services.set_waiting_room(session, message.get("on"))
            elif kind in {"admit", "turn_away"}:  # {"participants": [ids]} or {"participants": "all"}
                (services.admit if kind == "admit" else services.turn_away)(session, message.get("participants"))
            elif kind == "remove_recent":  # {"minutes": n}
                services.remove_recent(session, message.get("minutes"))
            elif kind == "merge":  # {"participant": id merged away, "into": id kept}
                services.merge_participants(session, message.get("participant"), message.get("into"))
            elif kind == "participant_cap":
                services.set_participant_cap(session, message.get("cap"))
            elif kind in {"lock", "unlock", "end"}:
                status = {"lock": ClassSession.Status.LOCKED, "unlock": ClassSession.Status.OPEN,
                          "end": ClassSession.Status.ENDED}[kind]
                services.set_status(session, status)
            elif kind == "pause_all":
                services.pause_all(session)
            elif kind == "resume_all":
                services.resume_all(session)
            elif kind == "finish_in":  # {"seconds": one of settings.FINISH_IN_CHOICES}
                services.finish_in(session, message.get("seconds"))
            elif kind == "move_clock":  # {"seconds": one of settings.MOVE_CLOCK_CHOICES, or null[, "table": n]}
                if "seconds" not in message:
                    raise AppError("bad_message", gettext("move_clock needs \"seconds\": a number or null."))
                services.set_move_clock(session, message["seconds"], message.get("table"))
            elif kind == "show_odds":
                if type(message.get("show")) is not bool:
                    raise AppError("bad_message", gettext("show_odds needs \"show\": true or false."))
                services.set_show_odds(session, message["show"])
    except AppError as exc:
        return exc
    return None


class ScreenConsumer(SessionConsumer):
    """The projector's socket ``/ws/sessions/<id>/screen/``: the owning teacher only, read-only.
    It is sent ``selectors.screen_payload`` (public facts only) after every change of the
    session, but after a move that leaves its match's status as it was only the newest moments
    (nothing else of the payload changes: the standings count finished tables only); every
    command is refused."""

    coalesce_seconds = SCREEN_COALESCE_SECONDS

    def admits(self, is_teacher: bool, participant_id: int | None) -> bool:
        return is_teacher

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.socket_active()
        if _is_ping(text_data):
            await self.send_json({"type": "pong"})
            return
        await self.send_json(AppError("read_only", gettext("The projector view only shows; give commands on "
                                                           "the dashboard.")).as_message())

    async def send_payload(self) -> None:
        self.payload_started()
        payload, self.known = await self.read_tables(_screen_payload)
        await self.send_json(payload)
        if payload.get("type") == "gone":
            await self.close(code=4403)

    async def send_patches(self, snaps: list[Snapshot]) -> None:
        """The newest moments after the moves of ``snaps``: only their tables' are read again."""
        moments = await database_sync_to_async(_moments_after)(self.known, snaps)
        await self.send_json({"type": "moments", "moments": moments})


def _screen_payload(session_id: int, kept: list | None = None, moved: AbstractSet[int] = frozenset()
                    ) -> tuple[dict, dict[int, dict], list | None]:
    """The projector's payload, its tables' moments by match id (see ``_moments_after``) and the
    tables read (as for ``_teacher_payload``)."""
    session = ClassSession.objects.select_related("classroom").filter(pk=session_id).first()
    if session is None:
        return {"type": "gone", "message": gettext("This class session was deleted.")}, {}, None
    tables = selectors.tables_after(session, kept, moved)
    return (*selectors.screen_payload_and_moments(session, tables), tables)


def _moments_after(known: dict[int, dict], snaps: list[Snapshot]) -> list[dict]:
    """The newest moments of the projector's tables (``known``, updated in place) after the moves
    of ``snaps``: the moved tables' moments are read again (from the cache, else one query for them all)."""
    found = moments_of((snap.match, snap.game, snap.seq) for snap in snaps)
    for snap in snaps:
        known[snap.match] = {**known[snap.match], "moments": found[snap.match]}
    return newest_moments(known.values())
