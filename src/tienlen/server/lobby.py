"""The lobby: rooms, the live tables open in them, and each table's WebSocket.

Tables live in memory, in the :class:`Lobby` the app owns (``app.state.lobby``), and in the
database: each table's deals and actions are journaled as they happen (:mod:`.journal`), so
that a restart opens them again and resumes their games (:mod:`.restore`). Each is a
:class:`LiveTable` whose finished games are settled into the ledger in one database
transaction, with the players' ĐKN and games and the game's record. Its bots are house bots
with ledger accounts (:mod:`.house_bots`). A table no person has sat at or been connected to
for ``TIENLEN_EMPTY_TABLE_SECONDS`` is closed for good.

A table's WebSocket is let in as every socket is (:mod:`.sockets`: origin, session, frame
size, its own bounded send queue) and, for a private table, with its invite. A client that
falls too far behind is closed and resumes with ``hello`` and ``last_n`` (docs/PROTOCOL.md).
Each table's changes go to the lobby's live list (:class:`~.lobby_socket.LobbyFeed`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, WebSocket
from sqlalchemy import select

from ..engine.record import GameRecord
from ..engine.rules import PRESETS, RuleSet
from ..money.rooms import ROOMS, Room, can_invite, max_bet, vip_points_earned
from ..money.settlement import Settlement
from . import auth, collusion, ledger, notices
from .app import Server, server_of
from .errors import ApiError, responses
from .house_bots import HouseBots, stake_for
from .journal import TableJournal, Writer
from .lobby_socket import LobbyFeed
from .protocol import Lack, NewTable, RoomInfo, TableList, TableSummary
from .seat_rules import Funds, chips_needed, next_top_up
from .seating import TableConfig
from .sightings import Networks, Presence, device_of
from .sockets import CLOSE_POLICY, SendQueue, admit, close_queue, offer, pump
from .store import games as stored
from .store.models import TableRow, User
from .table_protocol import BotLevel
from .tables import LiveTable
from .timers import TableClock

__all__ = ["TURN_SECONDS", "Lobby", "LobbyTable", "router", "ws_router"]

log = logging.getLogger("tienlen.server")

TURN_SECONDS = (10, 15, 20)
"""Seed 000's turn timers."""
DKN_WIN, DKN_FINISHED, DKN_LEFT = 3, 1, -1
"""ĐKN for winning a game, finishing it otherwise, and leaving it (never below 0)."""
SWEEP_SECONDS = 1.0
"""How often the lobby looks for empty tables to close."""

router = APIRouter(prefix="/api", tags=["lobby"])
ws_router = APIRouter()


@dataclass
class LobbyTable:
    """A live table and what the lobby knows of it."""

    id: str
    room: Room
    preset: str
    bet: int
    turn_seconds: int
    private: bool
    invite: str | None
    live: LiveTable
    journal: TableJournal | None = None
    queues: dict[str, SendQueue] = field(default_factory=dict)
    """Each connected user's send queue; None in it closes the socket."""
    listed: TableSummary | None = None
    """What the lobby's live list last showed of it."""
    empty_since: datetime | None = None
    """Since when no person has sat at or been connected to the table (None: someone is)."""

    @property
    def owner(self) -> int:
        """The owner's user id: it passes on when the owner leaves (the table decides)."""
        return int(self.live.owner)

    def summary(self, viewer: int | None) -> TableSummary:
        return TableSummary(
            id=self.id,
            room=self.room.key,
            preset=self.preset,
            bet=self.bet,
            fee_bp=self.room.fee_bp,
            seats_taken=sum(o is not None for o in self.live.seats),
            seats=len(self.live.seats),
            turn_seconds=self.turn_seconds,
            phase=self.live.phase,
            private=self.private,
            owner=self.owner,
            invite=self.invite if viewer == self.owner else None,
        )

    def send(self, user: str, message: dict[str, Any]) -> None:
        """The table's ``send``: queue for the user's socket, never block; a socket that
        cannot keep up is closed (the client resumes)."""
        queue = self.queues.get(user)
        if queue is not None and not offer(queue, message):
            self.queues.pop(user, None)


class Lobby:
    """The live tables of one server."""

    def __init__(
        self, server: Server, config: TableConfig | None = None, clock: TableClock | None = None
    ) -> None:
        self.server = server
        self.config = config or TableConfig()
        self.clock = clock
        """The tables' clock (the system's when None)."""
        self.tables: dict[str, LobbyTable] = {}
        self.feed = LobbyFeed(server, self.tables.values, self.config.rate_limit)
        """Who watches the lobby: the live list of tables and the lobby's chat."""
        self.claims: dict[str, str] = {}
        """The table that last read each person's balance to deal them in (see
        :meth:`balance_of`)."""
        self._reading: dict[str, int] = {}
        self._settling: set[str] = set()
        self.writer = Writer(server.sessions, server.clock)
        """Writes every table's journal, in order (:mod:`.journal`)."""
        self.bots = HouseBots(server, self._seated_bots)
        self.scans: set[asyncio.Task[None]] = set()
        """The chip-dumping scans after settled games (:mod:`.collusion`)."""
        self.presence = Presence(Networks.of(server.settings))
        """Where each person connected from: two of one address or device may not sit at
        one table (:mod:`.sightings`)."""
        self._sweeper: asyncio.Task[None] | None = None
        self.sweep_seconds = SWEEP_SECONDS
        """How often the sweeper runs :meth:`sweep`; a test sets it long and sweeps itself."""
        server.chat.guard.listeners.append(lambda notice: notices.deliver(self, notice))

    def _seated_bots(self) -> list[str]:
        return [
            o.user
            for table in self.tables.values()
            for o in table.live.seats
            if o is not None and o.level is not None
        ]

    def open(self, owner: int, room: Room, preset: str, bet: int, turn: int, seats: int,
             private: bool, *, table_id: str | None = None, invite: str | None = None,
             start: bool = True, first_wait: float = 0.0) -> LobbyTable:  # fmt: skip
        """Open a new table (stored), or with ``table_id`` one stored before a restart; its
        task is started unless ``start`` is False; its first deal waits ``first_wait``."""
        new = table_id is None
        if table_id is None:
            table_id = "t" + secrets.token_hex(6)
            invite = secrets.token_urlsafe(8) if private else None
        journal = TableJournal(self.writer, table_id, bet, room.fee_bp)
        config = dataclasses.replace(self.config, seats=seats, turn_s=turn, bots=True,
                                     first_deal_wait_s=first_wait)  # fmt: skip
        holder: list[LobbyTable] = []

        def send(user: str, message: dict[str, Any]) -> None:
            holder[0].send(user, message)

        live = LiveTable(
            table_id,
            RuleSet.preset(preset),
            owner=str(owner),
            send=send,
            bet=bet,
            fee_bp=room.fee_bp,
            config=config,
            on_game_over=lambda record, result: self.settle(table, record, result),
            balance_of=lambda user: self.balance_of(table_id, user),
            funds_of=self.funds_of,
            bot_user=self.bots.take,
            journal=journal,
            chat=self.server.chat.channel(f"table:{table_id}"),
            on_table=lambda _info: self.feed.table_changed(table),
            clock=self.clock,
            executor=self.server.bot_pool,
        )
        live.seats.guard = self.presence.guard
        table = LobbyTable(table_id, room, preset, bet, turn, private, invite, live, journal)
        if new:
            row = TableRow(id=table_id, room=room.key, preset=preset, bet=bet, turn_seconds=turn,
                           seats=seats, private=private, invite=invite, owner_id=owner,
                           opened_at=self.server.clock())  # fmt: skip
            journal.on_open(row)
        holder.append(table)
        self.tables[table_id] = table
        self.feed.table_changed(table)
        if start:
            live.start()
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="lobby sweeper")
        return table

    async def open_with_bots(
        self,
        owner: int,
        room: Room,
        preset: str,
        bet: int,
        turn: int,
        seats: int,
        bots: Sequence[tuple[int, BotLevel]],
    ) -> LobbyTable:
        """Open a public table with house bots seated and ready at ``bots`` (seat, level); its
        first deal waits ``play_now_wait_s``, visibly (``next_game``), even once full."""
        wait = self.config.play_now_wait_s
        table = self.open(owner, room, preset, bet, turn, seats, False, start=False,
                          first_wait=wait)  # fmt: skip
        try:
            for seat, level in bots:
                await table.live.place_bot(seat, level)
        except BaseException:
            await self.close_table(table)
            raise
        table.live.start()
        return table

    def busy_at(self, table_id: str, user: str | None = None) -> bool:
        """Whether a table's claims (on ``user``) hold: it is reading balances to deal, a game
        is being seeded there or settled, or (``user``) is playing it."""
        table = self.tables.get(table_id)
        if table is None:
            return False
        live = table.live
        playing = live.phase == "playing" and (
            user is None or (live.lineup is not None and user in live.lineup.users)
        )
        return (
            self._reading.get(table_id, 0) > 0
            or live.phase == "seeding"
            or playing
            or table_id in self._settling
        )

    async def balance_of(self, table_id: str, user: str) -> int:
        """A person's chips before a deal at ``table_id``, or 0 (they sit out) while they are
        in a game at another table: each game is dealt with a player's whole balance. The
        claim is taken with nothing awaited after the read, and a table deals right after its
        last read, so two tables dealing at once cannot both take a player."""
        self._reading[table_id] = self._reading.get(table_id, 0) + 1
        try:
            table = self.tables[table_id]
            seated = table.live.seats.occupant(user)
            if seated is not None and seated.level is not None:  # a house bot: staked if short
                stake = stake_for(table.live.rules, table.live.config.seats, table.bet)
                return await self.bots.balance(user, stake)
            async with self.server.sessions() as db:
                chips = await ledger.balance_of(db, int(user))
        finally:
            self._reading[table_id] -= 1
        holder = self.claims.get(user)
        if holder is not None and holder != table_id and self.busy_at(holder, user):
            return 0
        if chips > 0:
            self.claims[user] = table_id
        return chips

    async def funds_of(self, user: str) -> Funds | None:
        """A person's chips and next daily top-up, as they are (None for a house bot)."""
        async with self.server.sessions() as db:
            row = await db.get(User, int(user))
            if row is None or row.is_bot:
                return None
            chips = await ledger.balance_of(db, row.id)
        now, settings = self.server.clock(), self.server.settings
        return Funds(chips, next_top_up(row.last_topup_on, chips, now, settings))

    async def settle(self, table: LobbyTable, record: GameRecord, result: Settlement) -> None:
        """Write a finished game: chips (ledger first: it locks the accounts), then each
        player's ĐKN and games, in one transaction."""
        self._settling.add(table.id)
        try:
            await self.writer.flush()  # its deal and actions are stored before its record
            await self._settle(table, record, result)
            scan = collusion.after_game(self.server, [int(u) for u in record.extra["users"]])
            self.scans.add(task := asyncio.create_task(scan, name="dumping scan"))
            task.add_done_callback(self.scans.discard)
        except Exception:
            game_id = f"{table.id}:{record.extra['game']}"
            log.exception("game %s could not be settled: voided, no chip moved", game_id)
            async with self.server.sessions() as db, db.begin():
                await stored.void_game(db, game_id, "its settlement failed", self.server.clock())
        finally:
            self._settling.discard(table.id)

    async def _settle(self, table: LobbyTable, record: GameRecord, result: Settlement) -> None:
        game = table.live.game
        assert game is not None
        users = [int(u) for u in record.extra["users"]]
        game_id = f"{table.id}:{record.extra['game']}"
        deltas = dict(zip(users, result.deltas, strict=True))
        now = self.server.clock()
        async with self.server.sessions() as db, db.begin():
            await ledger.settle_game(db, game_id, deltas, result.fee, now)
            winner = None if result.void else game.winner
            await stored.finish_game(db, game_id, record.to_dict(), result.deltas, winner, now)
            rows = await db.execute(
                select(User).where(User.id.in_(users)).order_by(User.id).with_for_update()
            )
            by_id = {user.id: user for user in rows.scalars()}
            for seat, user_id in enumerate(users):
                user = by_id[user_id]
                if user.is_bot:
                    continue  # bots earn no ĐKN and are never ranked
                user.games_played += 1
                left = bool(game.left >> seat & 1)
                if left or result.void:  # seed 000: all left, "toàn bộ sẽ bị trừ ĐKN"
                    user.dkn = max(0, user.dkn + DKN_LEFT)
                elif seat == game.winner and not result.void:
                    user.dkn += DKN_WIN
                    user.games_won += 1
                else:
                    user.dkn += DKN_FINISHED
                finished = not left and not result.void
                user.vip_points += vip_points_earned(result.fees[seat], finished=finished)

    def deserted(self, table: LobbyTable) -> bool:
        """No person sits at the table or is connected to it, and no game is on there (a game
        among bots alone never starts)."""
        live = table.live
        return not (
            table.queues
            or any(o is not None and o.level is None for o in live.seats)
            or any(member.connected for member in live.recipients.members.values())
            or self.busy_at(table.id)
        )

    def prune(self) -> None:
        """Forget what can no longer matter: where people connected from (the seating rule
        asks only about people at a table) and the balance claims no table holds."""
        here: set[str] = set()
        for table in self.tables.values():
            here.update(table.queues, table.live.recipients.members)
            here.update(o.user for o in table.live.seats if o is not None)
        self.presence.keep(here)
        for user, table_id in list(self.claims.items()):
            if not self.busy_at(table_id, user):
                del self.claims[user]

    async def sweep(self) -> None:
        """Close for good each table deserted for ``empty_table_seconds`` (server clock), and
        forget what can no longer matter (:meth:`prune`)."""
        self.prune()
        now = self.server.clock()
        wait = timedelta(seconds=self.server.settings.empty_table_seconds)
        for table in list(self.tables.values()):
            if not self.deserted(table):
                table.empty_since = None
            elif table.empty_since is None:
                table.empty_since = now
            elif now - table.empty_since >= wait:
                await self.close_table(table)

    async def _sweep_forever(self) -> None:
        while self.tables:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # pragma: no cover - a bug must not stop the sweeping
                log.exception("sweeping the lobby failed")

    async def close_table(self, table: LobbyTable, for_good: bool = True) -> None:
        """Remove a table from the lobby and stop it; its bots are free again. Closed for
        good, it is not opened again after a restart."""
        self.tables.pop(table.id, None)
        self._reading.pop(table.id, None)
        await table.live.close()
        for queue in table.queues.values():
            close_queue(queue)
        if for_good and table.journal is not None:
            table.journal.on_close()
        self.feed.table_closed(table)
        self.server.chat.forget(f"table:{table.id}")

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in list(self.scans):
            task.cancel()
        for table in list(self.tables.values()):
            await self.close_table(table, for_good=False)
        self.feed.close()
        await self.writer.close()


def lobby_of(request: Request | WebSocket) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


async def _user(server: Server, token: str | None) -> User | None:
    async with server.sessions() as db:
        return await auth.user_for_token(db, token, server.clock())


def min_chips(room: Room) -> int:
    """The chips a person needs to play in ``room``: its entry balance, and enough to be dealt
    in at its smallest bet (seat_rules.py)."""
    return max(room.min_balance, chips_needed(room.min_bet))


def _lacks(room: Room, chips: int, vip_points: int) -> tuple[Lack, int] | None:
    """What keeps a player from playing in ``room`` (chips or VIP points) and how many they
    hold: the entry conditions first, then the chips to be dealt in at its smallest bet."""
    if chips < room.min_balance:
        return "chips", chips
    if vip_points < room.min_vip_points:
        return "vip_points", vip_points
    if chips < min_chips(room):
        return "chips", chips
    return None


def _why_not(room: Room, chips: int, vip_points: int) -> str | None:
    lack = _lacks(room, chips, vip_points)
    if lack is None:
        return None
    if lack[0] == "chips":
        return f"{room.name_en} needs {min_chips(room)} chips; you hold {chips}"
    return f"{room.name_en} needs {room.min_vip_points} VIP points; you have {vip_points}"


@router.get("/rooms", response_model=list[RoomInfo], responses=responses())
async def rooms(request: Request) -> list[RoomInfo]:
    """The rooms, with the logged-in player's right to enter each."""
    server = server_of(request)
    user = await _user(server, request.cookies.get(server.settings.cookie_name))
    chips = 0
    if user is not None:
        async with server.sessions() as db:
            chips = await ledger.balance_of(db, user.id)
    out = []
    for room in ROOMS.values():
        why = None if user is None else _why_not(room, chips, user.vip_points)
        lack = None if user is None else _lacks(room, chips, user.vip_points)
        out.append(
            RoomInfo(
                key=room.key,
                name_en=room.name_en,
                name_vi=room.name_vi,
                min_bet=room.min_bet,
                max_bet=room.max_bet,
                fee_bp=room.fee_bp,
                min_balance=room.min_balance,
                min_chips=min_chips(room),
                min_vip_points=room.min_vip_points,
                may_enter=None if user is None else why is None,
                why_not=why,
                lacks=None if lack is None else lack[0],
                held=None if lack is None else lack[1],
            )
        )
    return out


@router.get("/tables", response_model=TableList, responses=responses("bad_request", "no_such_room"))
async def tables(
    request: Request,
    room: Annotated[str | None, Query(max_length=20)] = None,
    invite: Annotated[str | None, Query(max_length=64)] = None,
) -> TableList:
    """Live tables (of one room); a private one only for its owner or with its invite."""
    server = server_of(request)
    if room is not None and room not in ROOMS:
        raise ApiError("no_such_room", f"room must be one of {', '.join(ROOMS)}, not {room!r}")
    user = await _user(server, request.cookies.get(server.settings.cookie_name))
    viewer = None if user is None else user.id
    listed = [
        t.summary(viewer)
        for t in lobby_of(request).tables.values()
        if (room is None or t.room.key == room)
        and (not t.private or viewer == t.owner or (invite is not None and invite == t.invite))
    ]
    return TableList(tables=listed)


@router.post(
    "/tables",
    status_code=201,
    response_model=TableSummary,
    responses=responses(
        "bad_request",
        "not_logged_in",
        "no_such_room",
        "no_such_preset",
        "bad_bet",
        "bad_turn_seconds",
        "bad_seats",
        "room_closed",
        "bet_over_balance",
        "cannot_invite",
    ),
)
async def create_table(request: Request, body: NewTable) -> TableSummary:
    """Open a table; the owner sits down at it through its WebSocket."""
    server = server_of(request)
    room = ROOMS.get(body.room)
    if room is None:
        raise ApiError("no_such_room", f"room must be one of {', '.join(ROOMS)}, not {body.room!r}")
    if body.preset not in PRESETS:
        known = ", ".join(PRESETS)
        raise ApiError("no_such_preset", f"preset must be one of {known}, not {body.preset!r}")
    if not room.allows_bet(body.bet):
        raise ApiError(
            "bad_bet",
            f"bets in {room.name_en} are {room.min_bet} to {room.max_bet}, not {body.bet}",
        )
    if body.turn_seconds not in TURN_SECONDS:
        raise ApiError(
            "bad_turn_seconds", f"the turn timer is 10, 15 or 20 s, not {body.turn_seconds}"
        )
    if not 2 <= body.seats <= 4:
        raise ApiError("bad_seats", f"a table has 2 to 4 seats, not {body.seats}")
    user = await _user(server, request.cookies.get(server.settings.cookie_name))
    if user is None:
        raise ApiError("not_logged_in", "log in, register or play as a guest first")
    async with server.sessions() as db:
        chips = await ledger.balance_of(db, user.id)
    why = _why_not(room, chips, user.vip_points)
    if why is not None:
        raise ApiError("room_closed", why)
    if body.bet > max_bet(chips):
        raise ApiError(
            "bet_over_balance",
            f"you hold {chips} chips: your tables may bet at most {max_bet(chips)}",
        )
    if body.private and not can_invite(chips, body.bet):
        raise ApiError(
            "cannot_invite",
            f"a private table at {body.bet} needs {15 * body.bet} chips; you hold {chips}",
        )
    lobby = lobby_of(request)
    table = lobby.open(
        user.id, room, body.preset, body.bet, body.turn_seconds, body.seats, body.private
    )
    await lobby.writer.flush()  # stored before it is announced: a restart opens it again
    return table.summary(user.id)


@ws_router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """A player's or spectator's connection to a table (docs/PROTOCOL.md)."""
    server: Server = websocket.app.state.server
    lobby = lobby_of(websocket)
    user = await admit(websocket, server)
    if user is None:
        return
    table = lobby.tables.get(table_id)
    if table is None:
        await websocket.close(CLOSE_POLICY, "no such table")
        return
    if (
        table.private
        and user.id != table.owner
        and (websocket.query_params.get("invite") != table.invite)
    ):
        await websocket.close(CLOSE_POLICY, "a private table: ask for the invite")
        return
    async with server.sessions() as db:
        chips = await ledger.balance_of(db, user.id)
    if not table.room.admits(chips, user.vip_points):  # watching needs no chips to play
        await websocket.close(CLOSE_POLICY, "you may not enter this room")
        return
    await websocket.accept()
    name = str(user.id)
    queue: SendQueue = asyncio.Queue(server.settings.ws_queue)
    old = table.queues.get(name)
    if old is not None:
        close_queue(old)
    table.queues[name] = queue
    address = websocket.client.host if websocket.client is not None else None
    lobby.presence.arrive(name, address, device_of(websocket.cookies))
    number = table.live.connect(name, user.nickname)
    try:
        await pump(
            websocket,
            queue,
            server.settings.ws_max_bytes,
            lambda frame: table.live.receive(name, frame),
        )
    finally:
        table.live.disconnect(name, number)
        if table.queues.get(name) is queue:
            del table.queues[name]
