"""Rate limits: a connection's token bucket, sliding windows per key, and log-in lockouts.

All of them live in memory and take the time as seconds (the caller's clock), so tests move
time by hand. A limit of 0 turns a window or a lockout off (tests and benchmarks raise or
disable them through the settings, docs/SERVER.md). A key that can no longer matter — its
last event a whole window ago — is dropped: each write looks over the keys at most once a
window (:meth:`Window.prune`, :meth:`Lockout.prune`), so a map holds only the keys of about the
last two windows whatever the traffic.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from .settings import Settings

__all__ = ["AccountGuards", "Lockout", "RateLimit", "Window"]

MAX_KEYS = 100_000
"""Keys a window or lockout remembers before it forgets the stale ones at once, between its
regular prunes (bounds memory against someone sending from many addresses or trying many
nicknames within one window)."""


@dataclass
class RateLimit:
    """How many messages a connection may send: a token bucket, and a flood verdict.

    ``allow(now)`` takes a token (``rate`` a second, up to ``burst`` saved); a message refused
    gets an ``error`` (``rate_limited``) and changes nothing. A client that keeps sending past
    its refusals — more than ``flood_strikes`` of them, forgiven one a second — is
    :attr:`flooding`, and the connection is closed.
    """

    rate: float = 10.0
    burst: float = 20.0
    flood_strikes: float = 20.0
    _tokens: float = field(default=-1.0, repr=False)
    _strikes: float = field(default=0.0, repr=False)
    _last: float | None = field(default=None, repr=False)

    def allow(self, now: float) -> bool:
        if self._last is None:
            self._tokens = self.burst
        else:
            elapsed = max(0.0, now - self._last)
            self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
            self._strikes = max(0.0, self._strikes - elapsed)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        self._strikes += 1.0
        return False

    @property
    def flooding(self) -> bool:
        return self._strikes > self.flood_strikes


class Window:
    """At most ``limit`` events per key in any ``seconds`` (a sliding window); 0 means no
    limit. :meth:`hit` counts an event when allowed and says how long to wait when not;
    :meth:`tally` counts every event, with an item, and hands the items back at the
    ``limit``-th (the chat guard's automatic sanctions)."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self._hits: dict[str, deque[tuple[float, int]]] = {}
        """Per key, its events in the window: when, and an item (0 for :meth:`hit`)."""
        self._pruned = float("-inf")

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` may act again (0: now), counting nothing."""
        if self.limit <= 0:
            return 0.0
        hits = self._hits.get(key)
        if hits is None:
            return 0.0
        while hits and hits[0][0] <= now - self.seconds:
            hits.popleft()
        if len(hits) < self.limit:
            return 0.0
        return hits[0][0] + self.seconds - now

    def hit(self, key: str, now: float) -> float:
        """Count an event of ``key`` if allowed (returns 0), else the seconds to wait."""
        wait = self.wait(key, now)
        if wait > 0 or self.limit <= 0:
            return wait
        self._add(key, now, 0)
        return 0.0

    def tally(self, key: str, now: float, item: int) -> list[int] | None:
        """Count an event of ``key`` with ``item``; at the ``limit``-th within the window, the
        items of those events, oldest first, and the key starts again from none (None before
        then, and always when the limit is 0)."""
        if self.limit <= 0:
            return None
        self.wait(key, now)  # drops the key's events that left the window
        hits = self._add(key, now, item)
        if len(hits) < self.limit:
            return None
        del self._hits[key]
        return [item for _, item in hits]

    def _add(self, key: str, now: float, item: int) -> deque[tuple[float, int]]:
        if len(self._hits) >= MAX_KEYS or now - self._pruned >= max(self.seconds, 1.0):
            self.prune(now)
        hits = self._hits.setdefault(key, deque())
        hits.append((now, item))
        return hits

    def prune(self, now: float) -> None:
        """Drop the keys whose last event is a whole window old: they wait for nothing."""
        self._pruned = now
        stale = [k for k, h in self._hits.items() if not h or h[-1][0] <= now - self.seconds]
        for key in stale:
            del self._hits[key]

    def __len__(self) -> int:
        """The keys remembered."""
        return len(self._hits)


class Lockout:
    """``failures`` failed attempts on a key within ``seconds`` lock it for ``seconds`` after
    the last of them; a success clears the key. ``failures`` 0 never locks."""

    def __init__(self, failures: int, seconds: float) -> None:
        self.failures = failures
        self.seconds = seconds
        self._failed: dict[str, deque[float]] = {}
        self._pruned = float("-inf")

    def locked_until(self, key: str, now: float) -> float | None:
        """When the key's lock ends, if it is locked now."""
        failed = self._failed.get(key)
        if self.failures <= 0 or failed is None or len(failed) < self.failures:
            return None
        until = failed[-1] + self.seconds
        if until <= now:
            del self._failed[key]
            return None
        return until

    def fail(self, key: str, now: float) -> float | None:
        """Count a failure; returns when the key is now locked until, if it is."""
        if self.failures <= 0:
            return None
        if len(self._failed) >= MAX_KEYS or now - self._pruned >= max(self.seconds, 1.0):
            self.prune(now)
        failed = self._failed.setdefault(key, deque(maxlen=self.failures))
        while failed and failed[0] <= now - self.seconds:
            failed.popleft()
        failed.append(now)
        return self.locked_until(key, now)

    def clear(self, key: str) -> None:
        self._failed.pop(key, None)

    def prune(self, now: float) -> None:
        """Drop the keys whose last failure is ``seconds`` old: neither locked nor counted."""
        self._pruned = now
        stale = [k for k, f in self._failed.items() if not f or f[-1] <= now - self.seconds]
        for key in stale:
            del self._failed[key]

    def __len__(self) -> int:
        """The keys remembered."""
        return len(self._failed)


@dataclass(frozen=True)
class AccountGuards:
    """The abuse limits of the account routes (docs/SERVER.md, "Abuse limits")."""

    signups: Window
    """New accounts and guests per client address."""
    logins: Window
    """Log-in attempts per client address."""
    lockout: Lockout
    """Failed log-ins per nickname key."""

    @classmethod
    def of(cls, settings: Settings) -> AccountGuards:
        return cls(
            Window(settings.signup_limit, 60.0 * settings.signup_window_minutes),
            Window(settings.login_limit, 60.0 * settings.login_window_minutes),
            Lockout(settings.login_lockout_failures, 60.0 * settings.login_lockout_minutes),
        )
