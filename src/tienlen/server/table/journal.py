"""The journal: each table's deals and actions written to the database as they happen, so
that a game can be rebuilt after a crash (docs/SERVER.md, "Restarts").

A table never waits for the database for an action: its :class:`TableJournal` only queues
the write, and one :class:`Writer` per server takes the queue in order and writes whatever
has piled up in one transaction — the actions of all its tables in one multi-row insert (at
hundreds of tables, an ORM object and unit-of-work flush per action was a fifth of the server's
CPU: docs/BENCHMARKS.md, "Server load"). Order is kept across all tables, so what is stored of
a game after a crash is always a *prefix* of what happened: a write the database refuses stops
its game's later writes too, instead of leaving a gap. While the database cannot be reached the
writer tries again, and again (:mod:`~tienlen.server.store.retry`), holding up to ``MAX_QUEUE``
writes: a short PostgreSQL outage delays the journal and breaks no game. Settlement waits for
the queue first (:meth:`Writer.flush`), so a game's deal and actions are stored before its
record.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

from sqlalchemy import Table, insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ...engine.actions import Action
from ...engine.codec import action_to_dict
from ...engine.game import Game
from ..clock import Clock
from ..store.models import GameAction, GamePlayer, GameRow, TableRow
from ..store.retry import PATIENT, Backoff, retrying
from .seating import Lineup

__all__ = ["Journal", "TableJournal", "Writer"]

logger = logging.getLogger(__name__)

Work = Callable[[AsyncSession], Awaitable[None]]
LINGER_S = 0.1
"""How long the writer lets writes pile up after the first before it writes them (unless a
:meth:`Writer.flush` hurries it): a transaction's own cost, not each row's, was most of the
journal's CPU. A crash loses at most this much more of the games in progress."""
MAX_QUEUE = 200_000
"""Writes the writer holds while the database is away (``TIENLEN_JOURNAL_MAX_QUEUE``): about
three minutes of 500 busy tables. Past it a write is dropped, and its game's later ones."""
CLOSE_WAIT_S = 10.0
"""How long a stopping server keeps trying to write what is queued while the database is
away; then it gives up (a restart resumes each game from what was stored: a prefix)."""


class Journal(Protocol):
    """What a live table tells its journal (:class:`.live.LiveTable`'s one hook)."""

    def on_deal(self, game_no: int, lineup: Lineup, game: Game) -> None:
        """Game number ``game_no`` was just dealt to ``lineup`` (no action applied yet)."""

    def on_action(self, game_no: int, index: int, action: Action) -> None:
        """``action`` is the game's command number ``index`` (from 0), just applied."""


@dataclass(frozen=True, slots=True)
class _Write:
    work: Work | None
    game: str | None
    """The game this write belongs to: once one of its writes is lost, the rest are not
    written (what is stored stays a prefix)."""
    action: dict[str, Any] | None = None
    """A ``game_actions`` row (instead of ``work``): consecutive ones are inserted together."""


async def _apply(db: AsyncSession, writes: list[_Write]) -> None:
    """Do ``writes`` in order in ``db``'s transaction, each run of actions as one insert."""
    rows: list[dict[str, Any]] = []
    for write in writes:
        if write.action is not None:
            rows.append(write.action)
            continue
        if rows:
            await _insert_actions(db, rows)
            rows = []
        assert write.work is not None
        await write.work(db)
    if rows:
        await _insert_actions(db, rows)


async def _insert_actions(db: AsyncSession, rows: list[dict[str, Any]]) -> None:
    await db.flush()  # what the works before added (the games the actions belong to)
    await db.execute(insert(cast(Table, GameAction.__table__)), rows)


class Writer:
    """The server's one ordered, batching writer (see the module docstring)."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Clock,
        *,
        max_queue: int = MAX_QUEUE,
        backoff: Backoff = PATIENT,
        committed: Callable[[float, int], None] | None = None,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.max_queue = max_queue
        self.backoff = backoff
        """The pauses between tries of a batch the database could not take (it was away)."""
        self.committed = committed
        """Told of each commit: its seconds (tries included) and writes (the metrics)."""
        self._queue: asyncio.Queue[_Write | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._hurry = asyncio.Event()
        self._flushing = 0
        self._give_up_at: float | None = None
        self.broken: set[str] = set()
        """Games whose writes stopped after one was lost."""
        self.dropped = 0
        """Writes dropped because the queue was full (the database away too long)."""

    def put(self, work: Work, game: str | None = None) -> None:
        """Queue one write (it never blocks); the writer starts with the first."""
        self._put(_Write(work, game))

    def put_action(self, game: str, row: dict[str, Any]) -> None:
        """Queue one ``game_actions`` row (its columns' values) of game ``game``."""
        self._put(_Write(None, game, row))

    def _put(self, write: _Write) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="journal writer")
        if self._queue.qsize() >= self.max_queue:
            self.dropped += 1
            if write.game is not None and write.game not in self.broken:
                logger.error("journal: %d writes queued; game %s is no longer stored",
                             self.max_queue, write.game)  # fmt: skip
                self.broken.add(write.game)
            elif write.game is None:
                logger.error("journal: %d writes queued; a table's write is dropped",
                             self.max_queue)  # fmt: skip
            return
        self._queue.put_nowait(write)

    async def flush(self) -> None:
        """Wait until everything queued so far is written (or given up)."""
        if self._task is not None:
            self._flushing += 1
            self._hurry.set()
            try:
                await self._queue.join()
            finally:
                self._flushing -= 1
                if not self._flushing:
                    self._hurry.clear()

    async def close(self) -> None:
        """Write what is queued, then stop (trying for at most ``CLOSE_WAIT_S`` while the
        database is away)."""
        if self._task is not None:
            self._give_up_at = time.monotonic() + CLOSE_WAIT_S
            self._queue.put_nowait(None)
            self._hurry.set()
            await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            first = await self._queue.get()
            if first is not None and not self._hurry.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._hurry.wait(), LINGER_S)
            if not self._flushing:
                self._hurry.clear()
            batch = [first]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            writes = [w for w in batch if w is not None]
            try:
                if writes:
                    await self._write(writes)
            except Exception:  # a bug must not stop the journal
                logger.exception("journal: writing %d items failed", len(writes))
            finally:
                for _ in batch:
                    self._queue.task_done()
            if len(writes) < len(batch):
                return

    async def _write(self, writes: list[_Write]) -> None:
        """Write ``writes`` in one transaction, trying again while the database is away; a
        batch the database refuses (an error in its data) is written one by one, so that only
        what cannot be written is lost, with the rest of its game."""
        writes = [w for w in writes if w.game not in self.broken]
        try:
            await self._durably(writes)
            return
        except Exception as exc:
            logger.warning("journal: a batch of %d failed: %s", len(writes), exc)
        for write in writes:
            if write.game in self.broken:
                continue
            try:
                await self._durably([write])
            except Exception:
                logger.exception("journal: a write of game %s is lost", write.game)
                if write.game is not None:
                    self.broken.add(write.game)

    @property
    def queued(self) -> int:
        """Writes waiting to be written."""
        return self._queue.qsize()

    async def _durably(self, writes: list[_Write]) -> None:
        async def write() -> None:
            async with self.sessions() as db, db.begin():
                await _apply(db, writes)

        started = time.monotonic()
        await retrying(write, "journal", self.backoff, self._giving_up)
        if self.committed is not None:
            self.committed(time.monotonic() - started, len(writes))

    def _giving_up(self) -> bool:
        return self._give_up_at is not None and time.monotonic() > self._give_up_at


class TableJournal:
    """One table's journal: queues its rows, deals and actions on the server's writer."""

    def __init__(self, writer: Writer, table_id: str, bet: int, fee_bp: int) -> None:
        self.writer = writer
        self.table_id = table_id
        self.bet = bet
        self.fee_bp = fee_bp

    def game_id(self, game_no: int) -> str:
        """The ledger's id of the table's game number ``game_no``."""
        return f"{self.table_id}:{game_no}"

    def on_open(self, row: TableRow) -> None:
        """The table was opened: store it (it is opened again after a restart)."""

        async def work(db: AsyncSession) -> None:
            db.add(row)
            await db.flush()  # before its games (foreign keys)

        self.writer.put(work)

    def on_close(self) -> None:
        """The table was closed for good: it is not opened again."""
        table_id, now = self.table_id, self.writer.clock()

        async def work(db: AsyncSession) -> None:
            table = await db.get(TableRow, table_id)
            if table is not None:
                table.closed_at = now

        self.writer.put(work)

    def on_deal(self, game_no: int, lineup: Lineup, game: Game) -> None:
        game_id, now = self.game_id(game_no), self.writer.clock()
        record = lineup.record(game, self.bet, self.fee_bp, table=self.table_id, game=game_no)
        start = record.to_dict()
        del start["actions"]
        row = GameRow(
            id=game_id,
            table_id=self.table_id,
            number=game_no,
            start=start,
            status="playing",
            dealt_at=now,
        )
        balances: list[int | None] = [None] * len(lineup.users)
        if lineup.balances is not None:
            balances = list(lineup.balances)
        players = [
            GamePlayer(
                game_id=game_id,
                seat=k,
                table_seat=lineup.seats[k],
                user_id=int(user) if user.isdigit() else None,
                name=lineup.names[k],
                bot=lineup.levels[k] if lineup.levels else None,
                balance=None if lineup.bots[k] else balances[k],
            )
            for k, user in enumerate(lineup.users)
        ]

        async def work(db: AsyncSession) -> None:
            db.add(row)
            await db.flush()  # the game before its players (foreign keys)
            db.add_all(players)

        self.writer.put(work, game_id)

    def on_action(self, game_no: int, index: int, action: Action) -> None:
        game_id = self.game_id(game_no)
        row = {"game_id": game_id, "number": index, "action": action_to_dict(action)}
        row["at"] = self.writer.clock()
        self.writer.put_action(game_id, row)
