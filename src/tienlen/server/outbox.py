"""What a table has sent one recipient: its numbers and the recent messages, for resuming.

Each recipient (a player or a spectator) has its own numbering, 1, 2, 3 … with no gaps: a
table-wide number would skip where a message went to someone else alone (a private chop offer),
and the gap would tell everyone that a seat holds a bomb. A client that reconnects names the
last number it saw; :meth:`Outbox.since` gives what it missed, or None when the log no longer
reaches back that far (then the table sends a fresh ``state``).
"""

from __future__ import annotations

from collections import deque
from typing import Any


class Outbox:
    """The numbered messages of one recipient at one table, the latest ``size`` kept."""

    __slots__ = ("_log", "n")

    def __init__(self, size: int) -> None:
        self.n = 0
        """The number of the last message; 0 before the first."""
        self._log: deque[dict[str, Any]] = deque(maxlen=size)

    def add(self, message: dict[str, Any]) -> dict[str, Any]:
        """Number a message (a copy: ``message`` may be shared by several recipients)."""
        self.n += 1
        numbered = {**message, "n": self.n}
        self._log.append(numbered)
        return numbered

    def since(self, last_n: int) -> list[dict[str, Any]] | None:
        """The messages after number ``last_n``, exactly as sent; None when some of them are no
        longer kept, or ``last_n`` is a number this outbox never gave."""
        if last_n > self.n:
            return None
        first = self._log[0]["n"] if self._log else self.n + 1
        if last_n + 1 < first:
            return None
        return [m for m in self._log if m["n"] > last_n]
