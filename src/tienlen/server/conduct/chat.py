"""Chat: each person's chat rate limit, the recent lines of each channel, and the writer that
stores every line without making anyone wait for the database.

A channel is ``lobby`` (the lobby's general chat, seed 000's "kênh chat chung") or
``table:<id>``. What a line may hold (1–200 characters once trimmed, no control characters)
is the protocols' to check (:class:`~..table.protocol.Chat`); the hub checks how often a person
speaks, across all channels together (``chat_too_fast``), keeps the last lines of each
channel for whoever arrives, and queues every line for a background task that writes them in
batches (:class:`~..store.models.ChatMessage`). A table's task calls :meth:`ChatChannel.say`
and goes on at once: the database is never awaited on the table's time.

Each line gets its id when said (the stored row's id, counted on from the largest stored at
start: one server per database), so a report can name it. Its :class:`.chat_guard.ChatGuard`
refuses a muted or banned speaker (``muted``, ``banned``) and counts the lines refused as too
fast towards the automatic sanction for flooding, and the profanity filter
(:mod:`.chat_filter`) masks what is sent and shown; the line as typed is stored beside it
(``original``) for the moderators, and the guard counts it towards the automatic sanction.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import ConfigDict, with_config
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

from ..clock import Clock, system_clock
from ..errors import Refused
from ..limits import Window
from ..store.models import ChatMessage
from . import chat_filter
from .chat_guard import ChatGuard

__all__ = ["LOBBY", "ChatBody", "ChatChannel", "ChatHub", "ChatLine", "SaidLine"]

log = logging.getLogger("tienlen.server")

LOBBY = "lobby"
"""The lobby's channel; a table's is ``table:<id>``."""
QUEUE_LINES = 10_000
"""Lines waiting to be stored before new ones are dropped (and logged): the database is down."""
BATCH = 200


@with_config(ConfigDict(extra="forbid"))
class ChatLine(TypedDict):
    """A line of chat."""

    id: int
    """The line's id (what ``POST /api/reports`` names as ``message_id``)."""
    user: str
    name: str
    seat: int | None
    """The speaker's table seat, when seated (always null in the lobby)."""
    text: str
    """As shown: the profanity filter's mask (``*``) over swear words."""
    at: float
    """When it was said, in seconds since 1970 (server clock)."""


class ChatBody(ChatLine):
    type: Literal["chat"]


@dataclass(frozen=True, slots=True)
class SaidLine:
    """A line as the hub keeps it."""

    id: int
    channel: str
    user: str
    name: str
    seat: int | None
    text: str
    """What is shown: masked by the profanity filter."""
    at: datetime
    original: str | None = None
    """The line as typed, when the filter masked it (stored for the moderators, never sent)."""

    def to_dict(self) -> ChatLine:
        """The line as ``chat`` messages carry it (``at``: seconds since 1970)."""
        return {
            "id": self.id,
            "user": self.user,
            "name": self.name,
            "seat": self.seat,
            "text": self.text,
            "at": self.at.timestamp(),
        }


class ChatHub:
    """The chat of one server (or of one table on its own, with nothing stored)."""

    def __init__(
        self,
        *,
        clock: Clock = system_clock,
        limit: int = 5,
        window_s: float = 10.0,
        history: int = 50,
        sessions: async_sessionmaker[AsyncSession] | None = None,
        guard: ChatGuard | None = None,
    ) -> None:
        self.clock = clock
        self.guard = guard or ChatGuard(clock=clock)
        self._last_id = 0
        self.history = history
        self._window = Window(limit, window_s)
        self._recent: dict[str, deque[SaidLine]] = {}
        self._sessions = sessions
        self._queue: asyncio.Queue[SaidLine | None] = asyncio.Queue(QUEUE_LINES)
        self._writer: asyncio.Task[None] | None = None

    def channel(self, name: str) -> ChatChannel:
        return ChatChannel(self, name)

    async def start(self, *preload: str) -> None:
        """Load the recent lines of ``preload`` channels from the database, then start the
        writer (only with a database)."""
        if self._sessions is None:
            return
        async with self._sessions() as db:
            self._last_id = await db.scalar(select(func.max(ChatMessage.id))) or 0
            for channel in preload:
                rows = await db.scalars(
                    select(ChatMessage)
                    .where(ChatMessage.channel == channel)
                    .order_by(ChatMessage.id.desc())
                    .limit(self.history)
                )
                lines = [
                    SaidLine(
                        r.id, channel, str(r.user_id), r.nickname, r.seat, r.text, r.created_at
                    )
                    for r in rows
                ]
                self._lines(channel).extendleft(lines)
        self._writer = asyncio.create_task(self._write(), name="chat writer")

    def say(self, channel: str, user: str, name: str, text: str, seat: int | None) -> SaidLine:
        """A line from ``user`` (text already checked), masked where it swears: kept and
        queued for storing; or ``muted``, ``banned``, ``chat_too_fast`` (counted as flooding)."""
        self.guard.refuse(user)
        now = self.clock()
        wait = self._window.hit(user, now.timestamp())
        if wait > 0:
            self.guard.flooded(user, channel)
            raise Refused(
                "chat_too_fast",
                f"at most {self._window.limit} chat lines in {self._window.seconds:g} s: "
                f"wait {wait:.1f} s",
            )
        found = chat_filter.check(text)
        self._last_id += 1
        shown, original = (found.masked, text) if found.profane else (text, None)
        line = SaidLine(self._last_id, channel, user, name, seat, shown, now, original)
        if found.profane:
            self.guard.swore(user, line.id, channel)
        self._lines(channel).append(line)
        if self._sessions is not None and user.isdigit():
            try:
                self._queue.put_nowait(line)
            except asyncio.QueueFull:
                log.warning("chat: the database is behind; a line in %s was not stored", channel)
        return line

    def recent(self, channel: str) -> list[ChatLine]:
        lines = self._recent.get(channel)
        return [] if lines is None else [line.to_dict() for line in lines]

    def forget(self, channel: str) -> None:
        """Drop a closed table's recent lines (they stay stored)."""
        self._recent.pop(channel, None)

    def _lines(self, channel: str) -> deque[SaidLine]:
        lines = self._recent.get(channel)
        if lines is None:
            lines = self._recent[channel] = deque(maxlen=self.history)
        return lines

    async def stored(self) -> None:
        """Wait until every line said so far is written (tests; closing)."""
        if self._writer is not None:
            await self._queue.join()

    async def close(self) -> None:
        """Write what is queued, then stop the writer."""
        if self._writer is None:
            return
        await self._queue.put(None)
        with contextlib.suppress(Exception):
            await self._writer
        self._writer = None

    async def _write(self) -> None:
        assert self._sessions is not None
        while True:
            batch = [await self._queue.get()]
            while len(batch) < BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            lines = [line for line in batch if line is not None]
            try:
                if lines:
                    async with self._sessions() as db, db.begin():
                        db.add_all(
                            ChatMessage(
                                id=line.id,
                                channel=line.channel,
                                user_id=int(line.user),
                                nickname=line.name,
                                seat=line.seat,
                                text=line.text,
                                original=line.original,
                                created_at=line.at,
                            )
                            for line in lines
                        )
            except Exception:
                log.exception("chat: %d lines could not be stored", len(lines))
            finally:
                for _ in batch:
                    self._queue.task_done()
            if len(lines) < len(batch):
                return


@dataclass(frozen=True, slots=True)
class ChatChannel:
    """One channel of a hub: what a table (or the lobby socket) holds."""

    hub: ChatHub
    name: str

    def say(self, user: str, name: str, text: str, seat: int | None = None) -> ChatBody:
        """The ``chat`` message for a new line (see :meth:`ChatHub.say`)."""
        return {"type": "chat", **self.hub.say(self.name, user, name, text, seat).to_dict()}

    def recent(self) -> list[ChatLine]:
        return self.hub.recent(self.name)
