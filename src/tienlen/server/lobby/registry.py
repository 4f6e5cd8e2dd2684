"""The lobby's registry: the live tables open now, each a :class:`LobbyTable` around its
:class:`~tienlen.server.table.live.LiveTable`, held by the :class:`Lobby` the app owns
(``app.state.lobby``).

Tables live in memory here and in the database: each table's deals and actions are journaled
as they happen (:mod:`~tienlen.server.table.journal`), so that a restart opens them again and
resumes their games (:mod:`.restore`). A finished game is settled into the ledger by
:mod:`.settlement`; its bots are house bots with ledger accounts (:mod:`.house_bots`). A table
no person has sat at or been connected to for ``TIENLEN_EMPTY_TABLE_SECONDS`` is closed for
good. Each table's changes go to the lobby's live list (:class:`~.feed.LobbyFeed`); the REST
routes and the table's socket are in :mod:`tienlen.server.api`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from fastapi import Request, WebSocket

from ...engine.record import GameRecord
from ...engine.rules import RuleSet
from ...money.rooms import Room
from ...money.settlement import Settlement
from ..conduct import collusion
from ..conduct.sightings import Networks, Presence
from ..deps import Server
from ..errors import ApiError
from ..protocol import TableSummary
from ..sockets import SendQueue, close_queue, offer
from ..store import games as stored
from ..store import ledger
from ..store.models import TableRow, User
from ..store.retry import PATIENT, retrying
from ..table.journal import TableJournal, Writer
from ..table.live import LiveTable
from ..table.protocol import BotLevel
from ..table.seat_rules import Funds, next_top_up
from ..table.seating import TableConfig
from ..table.timers import TableClock
from . import notices
from .feed import LobbyFeed
from .house_bots import HouseBots, stake_for
from .settlement import settle_durably

__all__ = ["Lobby", "LobbyTable", "lobby_of"]

log = logging.getLogger("tienlen.server")

SWEEP_SECONDS = 1.0
"""How often the lobby looks for empty tables to close."""
DRAIN_POLL_SECONDS = 0.1
"""How often a drain looks whether the games in progress are over."""


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


def send_to(queues: dict[str, SendQueue], user: str, message: Mapping[str, Any]) -> None:
    """A table's ``send``: queue for the user's socket (``queues``, the table's), never
    block; a socket that cannot keep up is closed (the client resumes)."""
    queue = queues.get(user)
    if queue is not None and not offer(queue, message):
        queues.pop(user, None)


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
        self.backoff = PATIENT
        """The pauses between tries of a settlement while the database is away."""
        self.writer = Writer(
            server.sessions,
            server.clock,
            max_queue=server.settings.journal_max_queue,
            backoff=self.backoff,
            committed=server.metrics.journal_committed,
        )
        """Writes every table's journal, in order (:mod:`~tienlen.server.table.journal`)."""
        self.bots = HouseBots(server, self._seated_bots)
        self.scans: set[asyncio.Task[None]] = set()
        """The chip-dumping scans after settled games (:mod:`~tienlen.server.conduct.collusion`)."""
        self.presence = Presence(Networks.of(server.settings))
        """Where each person connected from: two of one address or device may not sit at
        one table (:mod:`~tienlen.server.conduct.sightings`)."""
        self.draining = False
        """The server is stopping (:meth:`drain`): no table is opened, no game dealt."""
        self._sweeper: asyncio.Task[None] | None = None
        self.sweep_seconds = SWEEP_SECONDS
        """How often the sweeper runs :meth:`sweep`; a test sets it long and sweeps itself."""
        server.chat.guard.listeners.append(
            lambda notice: notices.deliver(self.tables.values(), self.feed, notice)
        )

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
        if new and self.draining:
            raise ApiError("draining", "the server is stopping: open a table in a moment")
        if table_id is None:
            table_id = "t" + secrets.token_hex(6)
            invite = secrets.token_urlsafe(8) if private else None
        journal = TableJournal(self.writer, table_id, bet, room.fee_bp)
        config = dataclasses.replace(self.config, seats=seats, turn_s=turn, bots=True,
                                     first_deal_wait_s=first_wait)  # fmt: skip
        queues: dict[str, SendQueue] = {}
        live = LiveTable(
            table_id,
            RuleSet.preset(preset),
            owner=str(owner),
            send=functools.partial(send_to, queues),
            bet=bet,
            fee_bp=room.fee_bp,
            config=config,
            balance_of=functools.partial(self.balance_of, table_id),
            funds_of=self.funds_of,
            bot_user=self.bots.take,
            journal=journal,
            chat=self.server.chat.channel(f"table:{table_id}"),
            clock=self.clock,
            executor=self.server.bot_pool,
        )
        live.seats.guard = self.presence.guard
        table = LobbyTable(table_id, room, preset, bet, turn, private, invite, live, journal,
                           queues)  # fmt: skip
        live.on_game_over = functools.partial(self.settle, table)
        live.on_table = lambda _info: self.feed.table_changed(table)
        if new:
            row = TableRow(id=table_id, room=room.key, preset=preset, bet=bet, turn_seconds=turn,
                           seats=seats, private=private, invite=invite, owner_id=owner,
                           opened_at=self.server.clock())  # fmt: skip
            journal.on_open(row)
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
        player's ĐKN and games, in one transaction — tried again for as long as the database
        cannot be reached (the players' claims are held meanwhile: nobody is dealt in
        elsewhere with chips not yet settled). Only a refusal (the ledger's, or a bug) voids
        the game, with no chip moved."""
        self._settling.add(table.id)
        game_id = f"{table.id}:{record.extra['game']}"
        started, result_kind = time.monotonic(), "finished"
        try:
            await self.writer.flush()  # its deal and actions are stored before its record
            game = table.live.game
            assert game is not None
            await settle_durably(self.server, table.id, game, record, result, self.backoff)
            scan = collusion.after_game(self.server, [int(u) for u in record.extra["users"]])
            self.scans.add(task := asyncio.create_task(scan, name="dumping scan"))
            task.add_done_callback(self.scans.discard)
        except Exception:
            log.exception("game %s could not be settled: voided, no chip moved", game_id,
                          extra={"table": table.id, "game": game_id})  # fmt: skip
            result_kind = "void"
            await retrying(lambda: self._void(game_id), f"voiding game {game_id}", self.backoff)
        finally:
            self._settling.discard(table.id)
            self.server.metrics.settled(result_kind, time.monotonic() - started)

    def gauges(self) -> dict[str, float]:
        """What the metrics read at each scrape (:class:`~tienlen.server.observe.Watched`)."""
        tables = list(self.tables.values())
        return {
            "tables": len(tables),
            "players_seated": sum(
                o is not None and o.level is None for t in tables for o in t.live.seats
            ),
            "table_sockets": sum(len(t.queues) for t in tables),
            "lobby_sockets": len(self.feed.watchers),
            "journal_queue": self.writer.queued,
            "journal_broken_games": len(self.writer.broken),
            "journal_dropped": self.writer.dropped,
        }

    async def _void(self, game_id: str) -> None:
        async with self.server.sessions() as db, db.begin():
            await stored.void_game(db, game_id, "its settlement failed", self.server.clock())

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

    def in_progress(self) -> list[str]:
        """The tables with a game being dealt, played or settled."""
        return [t.id for t in self.tables.values() if self.busy_at(t.id)]

    async def drain(self, seconds: float, stop: Callable[[], bool] = lambda: False) -> list[str]:
        """Stop for a restart without cutting a game short: open no table and deal no game
        from now on, let the games in progress finish (and be settled) for up to ``seconds``
        (or until ``stop()``), then write the journal out. Returns the tables whose game is
        still on: it resumes from the journal when a server opens them again."""
        self.draining = True
        for table in self.tables.values():
            table.live.draining = True
        deadline = time.monotonic() + seconds
        while (left := self.in_progress()) and time.monotonic() < deadline and not stop():
            await asyncio.sleep(DRAIN_POLL_SECONDS)
        await self.writer.flush()
        log.info("drained: %d tables with a game still on", len(left),
                 extra={"tables": left})  # fmt: skip
        return left

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
