"""The server's clock: injectable, so a test can move time (expiry, the daily top-up)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

__all__ = ["Clock", "server_day", "system_clock"]

Clock = Callable[[], datetime]
"""Returns the current time, timezone-aware."""


def system_clock() -> datetime:
    return datetime.now(UTC)


def server_day(now: datetime, utc_offset_hours: int) -> date:
    """The calendar day at ``now`` in the server's time zone (a fixed offset: no DST in Vietnam)."""
    if now.tzinfo is None:
        raise ValueError("the clock must return timezone-aware times")
    return (now.astimezone(UTC) + timedelta(hours=utc_offset_hours)).date()
