"""Conduct in the chat: who may not speak now, and the automatic sanction for swearing.

The chat runs on the tables' and the lobby's time, so nothing here awaits the database per
line. :class:`ChatGuard` keeps in memory every mute and ban in force (loaded at start,
reloaded after each moderation action through :meth:`ChatGuard.reload`, and every
``refresh_s`` for what the console does from another process); a silence expires by the
server's (injectable) clock. A line the profanity filter masks is counted against its speaker:
the ``limit``-th such line within ``window_s`` is the policy's ``swearing`` offence, applied
in the background by :func:`.conduct.apply_policy` as the console, its reason and evidence
saying it was automatic (docs/CONDUCT.md, "The chat").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from . import conduct
from .clock import Clock, system_clock
from .protocol import SanctionTold
from .seating import Refused
from .store.models import Sanction

__all__ = ["AUTOMATIC", "ChatGuard", "Silence"]

log = logging.getLogger("tienlen.server")

AUTOMATIC = "automatic (chat filter)"
"""How an automatic sanction's reason begins, in the audit log and what the player is told."""


@dataclass(frozen=True, slots=True)
class Silence:
    """A mute or ban in force: the code the chat refuses with and what the player is told."""

    code: str
    ends_at: datetime | None
    message: str
    told: SanctionTold | None = None

    def holds(self, now: datetime) -> bool:
        return self.ends_at is None or self.ends_at > now


def _strongest(rows: Iterable[Sanction], now: datetime) -> dict[int, Silence]:
    """Per user, the silence that says most: a ban over a mute, the longest of each."""
    found: dict[int, Silence] = {}
    for row in rows:
        if not conduct.in_force(row, now):
            continue
        silence = Silence("banned" if row.kind == "ban" else "muted", row.ends_at, "")
        old = found.get(row.user_id)
        if old is None or _rank(silence) > _rank(old):
            found[row.user_id] = Silence(
                silence.code, row.ends_at, conduct.describe(row), conduct.told(row)
            )
    return found


def _rank(silence: Silence) -> tuple[bool, bool, float]:
    until = silence.ends_at.timestamp() if silence.ends_at is not None else 0.0
    return (silence.code == "banned", silence.ends_at is None, until)


class ChatGuard:
    """The chat's view of conduct (see the module docstring)."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession] | None = None,
        *,
        clock: Clock = system_clock,
        limit: int = 3,
        window_s: float = 600.0,
        refresh_s: float = 60.0,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.limit = limit
        self.window_s = window_s
        self.refresh_s = refresh_s
        self._silenced: dict[int, Silence] = {}
        self._swore: dict[str, deque[tuple[float, int]]] = {}
        self._pending: set[asyncio.Task[None]] = set()
        self._refresher: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Load the silences in force and keep them fresh (only with a database)."""
        if self.sessions is None:
            return
        await self.reload()
        self._refresher = asyncio.create_task(self._refresh(), name="chat guard refresh")

    async def close(self) -> None:
        if self._refresher is not None:
            self._refresher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refresher
        await self.settled()

    async def reload(self) -> None:
        """Read again every mute and ban in force: the one function moderation calls after
        it changes a sanction."""
        if self.sessions is None:
            return
        now = self.clock()
        async with self.sessions() as db:
            rows = await db.scalars(
                select(Sanction).where(
                    Sanction.kind.in_(("mute", "ban")),
                    Sanction.lifted_at.is_(None),
                    or_(Sanction.ends_at.is_(None), Sanction.ends_at > now),
                )
            )
            self._silenced = _strongest(rows, now)

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(self.refresh_s)
            try:
                await self.reload()
            except Exception:  # the database is down: keep what is known
                log.exception("chat guard: the silences could not be read again")

    def refuse(self, user: str) -> None:
        """``muted`` or ``banned`` (saying why and until when) if ``user`` may not chat now."""
        if not user.isdigit():
            return
        silence = self._silenced.get(int(user))
        if silence is None:
            return
        if not silence.holds(self.clock()):
            del self._silenced[int(user)]
            return
        raise Refused(silence.code, silence.message, silence.told)

    def swore(self, user: str, line_id: int, channel: str) -> None:
        """Count a line the filter masked; the ``limit``-th within the window applies the
        ``swearing`` offence (in the background)."""
        if self.limit <= 0 or self.sessions is None or not user.isdigit():
            return
        now = self.clock().timestamp()
        lines = self._swore.setdefault(user, deque())
        while lines and lines[0][0] <= now - self.window_s:
            lines.popleft()
        lines.append((now, line_id))
        if len(lines) < self.limit:
            return
        ids = [line for _, line in lines]
        lines.clear()
        task = asyncio.create_task(self._sanction(int(user), ids, channel))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _sanction(self, user_id: int, ids: list[int], channel: str) -> None:
        assert self.sessions is not None
        minutes = f"{self.window_s / 60:g}"
        reason = f"{AUTOMATIC}: {len(ids)} lines masked for swearing within {minutes} minutes"
        evidence: dict[str, Any] = {"automatic": True, "messages": ids, "channel": channel}
        try:
            async with self.sessions() as db, db.begin():
                await conduct.apply_policy(
                    db,
                    conduct.Actor.console(),
                    user_id,
                    "swearing",
                    reason,
                    self.clock(),
                    evidence=evidence,
                )
            await self.reload()
        except Exception:
            log.exception("chat guard: the swearing of user %s could not be sanctioned", user_id)

    async def settled(self) -> None:
        """Wait for the automatic sanctions under way (tests; closing)."""
        while self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    def silence_of(self, user_id: int) -> Silence | None:
        """The silence known for ``user_id`` (tests, the lobby)."""
        return self._silenced.get(user_id)
