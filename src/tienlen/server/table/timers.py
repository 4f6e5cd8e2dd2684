"""The clock a live table keeps time by: the system's, or one that moves only when told (tests).

A table never reads the time or sleeps by itself: it asks its :class:`TableClock`, so tests drive
turn timers, chop offers and grace periods with a :class:`ManualClock` instead of waiting.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Any, Protocol


class Cancellable(Protocol):
    def cancel(self) -> Any: ...


class TableClock(Protocol):
    """Seconds since 1970, and ways to wait for a moment."""

    def now(self) -> float: ...

    async def sleep_until(self, when: float) -> None: ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Cancellable:
        """Call ``callback`` (on the running loop) at ``when``, unless cancelled first."""
        ...


class SystemTableClock:
    """The real time."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        delay = when - time.time()
        if delay > 0:
            await asyncio.sleep(delay)

    def call_at(self, when: float, callback: Callable[[], None]) -> Cancellable:
        # A timer handle of the loop, not a task: a table sets one for every turn.
        return asyncio.get_running_loop().call_later(max(0.0, when - time.time()), callback)


class ManualClock:
    """A clock that stands still until :meth:`set` or :meth:`advance` moves it.

    Sleepers wake, in order, when the time reaches their moment; a test moves the clock and then
    lets the table handle what woke (``await table.idle()``).
    """

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._order), future))
        await future

    def call_at(self, when: float, callback: Callable[[], None]) -> Cancellable:
        async def ring() -> None:
            await self.sleep_until(when)
            callback()

        return asyncio.create_task(ring())

    def next_wakeup(self) -> float | None:
        """The earliest moment someone still sleeps until, if anyone does."""
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)
        return self._sleepers[0][0] if self._sleepers else None

    def set(self, when: float) -> None:
        """Move the clock to ``when`` (never back) and wake every sleeper due by then."""
        self._now = max(self._now, when)
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)

    def advance(self, seconds: float) -> None:
        self.set(self._now + seconds)


class Alarms:
    """A table's named alarms. Each posts ``(key, when)`` through ``post`` when its moment
    comes; setting a key again replaces its alarm, so an alarm that went off is acted on only
    if :meth:`due` says it is still the one set."""

    def __init__(self, clock: TableClock, post: Callable[[tuple[Any, ...], float], None]) -> None:
        self._clock = clock
        self._post = post
        self._set: dict[tuple[Any, ...], tuple[float, Cancellable]] = {}

    def __contains__(self, key: tuple[Any, ...]) -> bool:
        return key in self._set

    def set(self, key: tuple[Any, ...], when: float) -> None:
        self.cancel(key)
        self._set[key] = (when, self._clock.call_at(when, lambda: self._post(key, when)))

    def when(self, key: tuple[Any, ...]) -> float | None:
        """When the alarm set for ``key`` goes off (None: none is set)."""
        entry = self._set.get(key)
        return None if entry is None else entry[0]

    def cancel(self, key: tuple[Any, ...]) -> None:
        entry = self._set.pop(key, None)
        if entry is not None:
            entry[1].cancel()

    def cancel_kinds(self, *kinds: str) -> None:
        """Cancel every alarm whose key starts with one of ``kinds``."""
        for key in [k for k in self._set if k[0] in kinds]:
            self.cancel(key)

    def cancel_all(self) -> None:
        for key in list(self._set):
            self.cancel(key)

    def due(self, key: tuple[Any, ...], when: float) -> bool:
        """Whether the alarm that went off is the one set for ``key`` (then it is cleared)."""
        entry = self._set.get(key)
        if entry is None or entry[0] != when:
            return False
        del self._set[key]
        return True
