"""Conduct in the chat: who may not speak now, the automatic sanctions for swearing and
flooding, and each new sanction told to its player.

The chat runs on the tables' and the lobby's time, so nothing here awaits the database per
line. :class:`ChatGuard` keeps in memory every mute and ban in force (loaded at start,
reloaded after each moderation action through :meth:`ChatGuard.reload`, and every
``refresh_s`` for what the console does from another process); a silence expires by the
server's (injectable) clock. A line the profanity filter masks is counted against its speaker:
the ``limit``-th such line within ``window_s`` is the policy's ``swearing`` offence; likewise
the ``flood_limit``-th line refused as too fast within ``flood_window_s`` is its ``flooding``
offence. Each is applied in the background by :func:`.sanctions.apply_policy` as the console, its
reason and evidence saying it was automatic (docs/CONDUCT.md, "The chat"). Each reload also
finds the sanctions made since the last one, and the mutes and bans lifted since (unmute, unban),
and hands each to :attr:`ChatGuard.listeners` (the lobby: a ban closes the player's sockets, a
mute, warning or lift is told, :mod:`~tienlen.server.lobby.notices`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..clock import Clock, system_clock
from ..errors import Refused
from ..limits import Window
from ..protocol import SanctionMessage, SanctionTold
from ..store.models import Sanction
from . import sanctions

__all__ = ["AUTOMATIC", "AUTOMATIC_FLOOD", "ChatGuard", "Notice", "Silence"]

log = logging.getLogger("tienlen.server")

AUTOMATIC = "automatic (chat filter)"
"""How an automatic sanction's reason begins, in the audit log and what the player is told."""
AUTOMATIC_FLOOD = "automatic (flood control)"
"""How the reason of an automatic sanction for flooding begins."""


@dataclass(frozen=True, slots=True)
class Silence:
    """A mute or ban in force: the code the chat refuses with and what the player is told."""

    code: str
    ends_at: datetime | None
    message: str
    told: SanctionTold | None = None

    def holds(self, now: datetime) -> bool:
        return self.ends_at is None or self.ends_at > now


NoticeKind = Literal["warn", "mute", "ban", "unmute", "unban"]


@dataclass(frozen=True, slots=True)
class Notice:
    """A sanction new to this server, for its player's open sockets."""

    user_id: int
    kind: NoticeKind
    """``warn``, ``mute`` or ``ban``; ``unmute`` or ``unban``: one lifted."""
    ends_at: datetime | None
    message: str
    """:func:`.sanctions.describe` (or :func:`.sanctions.describe_lift`): the kind, until when and
    why."""
    told: SanctionTold
    """The same as data (:func:`.sanctions.told`; for a lift, the lift's reason, no end, no
    offence)."""

    def to_message(self) -> SanctionMessage:
        """The ``sanction`` message of both protocols (docs/PROTOCOL.md)."""
        return {"type": "sanction", **self.told, "kind": self.kind, "message": self.message}


def _strongest(rows: Iterable[Sanction], now: datetime) -> dict[int, Silence]:
    """Per user, the silence that says most: a ban over a mute, the longest of each."""
    found: dict[int, Silence] = {}
    for row in rows:
        if not sanctions.in_force(row, now):
            continue
        silence = Silence("banned" if row.kind == "ban" else "muted", row.ends_at, "")
        old = found.get(row.user_id)
        if old is None or _rank(silence) > _rank(old):
            found[row.user_id] = Silence(
                silence.code, row.ends_at, sanctions.describe(row), sanctions.told(row)
            )
    return found


def _lifted(row: Sanction) -> Notice:
    """The notice of a mute or ban lifted (unmute, unban)."""
    told = SanctionTold(
        kind="ban" if row.kind == "ban" else "mute",
        until=None,
        reason=row.lift_reason or "",
        offence=None,
        offence_en=None,
        offence_vi=None,
    )
    lift: NoticeKind = "unban" if row.kind == "ban" else "unmute"
    return Notice(row.user_id, lift, None, sanctions.describe_lift(row), told)


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
        flood_limit: int = 10,
        flood_window_s: float = 600.0,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.limit = limit
        self.window_s = window_s
        self.refresh_s = refresh_s
        self.flood_limit = flood_limit
        self.flood_window_s = flood_window_s
        self.listeners: list[Callable[[Notice], None]] = []
        """Told of each sanction made since the last reload (in force, or a warning)."""
        self._silenced: dict[int, Silence] = {}
        self.swearing = Window(limit, window_s)
        """Lines masked for swearing, per user."""
        self.flooding = Window(flood_limit, flood_window_s)
        """Lines refused as too fast, per user."""
        self._known: int | None = None
        self._in_force: set[int] = set()
        """The ids of the mutes and bans in force at the last reload: one gone and lifted
        since is told as lifted."""
        self._reloading = asyncio.Lock()
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
        """Read again every mute and ban in force, and tell the listeners of each lifted and
        each made since: the one function moderation calls after it changes a sanction."""
        if self.sessions is None:
            return
        async with self._reloading:
            now = self.clock()
            async with self.sessions() as db:
                rows = list(
                    await db.scalars(
                        select(Sanction).where(
                            Sanction.kind.in_(("mute", "ban")),
                            Sanction.lifted_at.is_(None),
                            or_(Sanction.ends_at.is_(None), Sanction.ends_at > now),
                        )
                    )
                )
                self._silenced = _strongest(rows, now)
                in_force = {row.id for row in rows if sanctions.in_force(row, now)}
                gone, self._in_force = self._in_force - in_force, in_force
                if self._known is None:  # at start: the sanctions so far are nobody's news
                    self._known = await db.scalar(select(func.max(Sanction.id))) or 0
                    return
                lifted = await self._lifted(db, gone, rows, now)
                new = list(
                    await db.scalars(
                        select(Sanction).where(Sanction.id > self._known).order_by(Sanction.id)
                    )
                )
            for notice in lifted:
                self._tell(notice)
            for row in new:
                self._known = max(self._known, row.id)
                if (row.kind == "warn" and row.lifted_at is None) or sanctions.in_force(row, now):
                    told = sanctions.told(row)
                    kind: NoticeKind = "warn" if row.kind == "warn" else told["kind"]
                    notice = Notice(row.user_id, kind, row.ends_at, sanctions.describe(row), told)
                    self._tell(notice)

    @staticmethod
    async def _lifted(
        db: AsyncSession, gone: set[int], standing: list[Sanction], now: datetime
    ) -> list[Notice]:
        """A notice per player and kind for the mutes and bans in force at the last reload and
        lifted since (not those that ran out), unless one of that kind still holds."""
        if not gone:
            return []
        rows = await db.scalars(
            select(Sanction)
            .where(Sanction.id.in_(gone), Sanction.lifted_at.is_not(None))
            .order_by(Sanction.id)
        )
        holds = {(row.user_id, row.kind) for row in standing if sanctions.in_force(row, now)}
        told: dict[tuple[int, str], Notice] = {}
        for row in rows:
            key = (row.user_id, row.kind)
            if key not in holds and key not in told:
                told[key] = _lifted(row)
        return list(told.values())

    def _tell(self, notice: Notice) -> None:
        for listener in list(self.listeners):
            try:
                listener(notice)
            except Exception:  # one listener's bug must not keep the others from hearing
                log.exception("chat guard: a listener failed on a sanction of %s", notice.user_id)

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
        if self.sessions is None or not user.isdigit():
            return
        ids = self.swearing.tally(user, self.clock().timestamp(), line_id)
        if ids is None:
            return
        minutes = f"{self.window_s / 60:g}"
        reason = f"{AUTOMATIC}: {len(ids)} lines masked for swearing within {minutes} minutes"
        evidence = {"automatic": True, "messages": ids, "channel": channel}
        self._apply(int(user), "swearing", reason, evidence)

    def flooded(self, user: str, channel: str) -> None:
        """Count a line refused as too fast; the ``flood_limit``-th within the window applies
        the ``flooding`` offence (in the background)."""
        if self.sessions is None or not user.isdigit():
            return
        now = self.clock().timestamp()
        refused = self.flooding.tally(user, now, round(now))
        if refused is None:
            return
        minutes = f"{self.flood_window_s / 60:g}"
        reason = (
            f"{AUTOMATIC_FLOOD}: {len(refused)} chat lines refused as too fast "
            f"within {minutes} minutes"
        )
        evidence = {"automatic": True, "refused": len(refused), "at": refused, "channel": channel}
        self._apply(int(user), "flooding", reason, evidence)

    def _apply(self, user_id: int, offence: str, reason: str, evidence: dict[str, Any]) -> None:
        task = asyncio.create_task(self._sanction(user_id, offence, reason, evidence))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _sanction(
        self, user_id: int, offence: str, reason: str, evidence: dict[str, Any]
    ) -> None:
        assert self.sessions is not None
        try:
            async with self.sessions() as db, db.begin():
                await sanctions.apply_policy(
                    db,
                    sanctions.Actor.console(),
                    user_id,
                    offence,
                    reason,
                    self.clock(),
                    evidence=evidence,
                )
            await self.reload()
        except Exception:
            log.exception("chat guard: the %s of user %s could not be sanctioned", offence, user_id)

    async def settled(self) -> None:
        """Wait for the automatic sanctions under way (tests; closing)."""
        while self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    def silence_of(self, user_id: int) -> Silence | None:
        """The silence known for ``user_id`` (tests, the lobby)."""
        return self._silenced.get(user_id)
