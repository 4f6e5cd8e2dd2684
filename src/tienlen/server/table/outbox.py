"""What a table has sent one recipient: its numbers and the recent messages, for resuming.

Each recipient (a player or a spectator) has its own numbering, 1, 2, 3 … with no gaps: a
table-wide number would skip where a message went to someone else alone (a private chop offer),
and the gap would tell everyone that a seat holds a bomb. A client that reconnects names the
last number it saw; :meth:`Outbox.since` gives what it missed, or None when the log no longer
reaches back that far (then the table sends a fresh ``state``).

The messages are kept as their JSON text, written once: a kept dict of views would be dozens
of objects that Python's garbage collector walks at every full collection — with hundreds of
tables that grew into pauses of a second (docs/BENCHMARKS.md, "Server load") — while a string
is not walked at all. The text goes with the message (:class:`Numbered`), so the web layer
sends it without writing it again.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping
from typing import Any

import orjson

__all__ = ["Numbered", "Outbox", "to_json"]


def to_json(message: Mapping[str, Any]) -> str:
    """A message as the server writes it on a socket: compact JSON, UTF-8 left as it is.

    Written by orjson (several times faster than the standard library, the same text); what
    orjson refuses and the standard library writes (an int over 64 bits, a key that is not a
    string, a lone surrogate) is written by the standard library, as before."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:
        return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class Numbered(dict[str, Any]):
    """A numbered message and its JSON text (:attr:`text`), written when it was numbered."""

    __slots__ = ("text",)
    text: str

    @classmethod
    def of(cls, text: str) -> Numbered:
        """A kept message read back from its text (sent again as that text)."""
        numbered = cls(json.loads(text))
        numbered.text = text
        return numbered


class Outbox:
    """The numbered messages of one recipient at one table: the latest ``size`` kept, fewer
    where their text would pass ``chars`` characters together (the latest is always kept).

    The text bound keeps a busy table's memory small: a seat's update is about 1,200
    characters, so 256 of them per player were 1.2 MB a table, 600 MB at 500 tables
    (docs/BENCHMARKS.md, "Server load"); a client that missed more than the kept text gets
    a fresh ``state`` instead, as correct and about as long as two updates."""

    __slots__ = ("_chars", "_kept", "_log", "_size", "n")

    def __init__(self, size: int, chars: int | None = None) -> None:
        self.n = 0
        """The number of the last message; 0 before the first."""
        self._log: deque[tuple[int, str]] = deque()
        self._size = size
        self._chars = chars
        self._kept = 0
        """Characters of text in the log."""

    def add(self, message: Mapping[str, Any], text: str | None = None) -> Numbered:
        """Number a message (a copy: ``message`` may be shared by several recipients).
        ``text``: the message's JSON (:func:`to_json`) when already written — a broadcast is
        written once for everyone, and each copy only gains its number."""
        self.n += 1
        numbered = Numbered(message)
        numbered["n"] = self.n
        if text is None or not message:
            numbered.text = to_json(numbered)
        else:
            numbered.text = f'{{"n":{self.n},{text[1:]}'
        log = self._log
        log.append((self.n, numbered.text))
        self._kept += len(numbered.text)
        limit = self._chars
        while len(log) > 1 and (
            len(log) > self._size or (limit is not None and self._kept > limit)
        ):
            self._kept -= len(log.popleft()[1])
        return numbered

    def since(self, last_n: int) -> list[Numbered] | None:
        """The messages after number ``last_n``, exactly as sent; None when some of them are no
        longer kept, or ``last_n`` is a number this outbox never gave."""
        if last_n > self.n:
            return None
        first = self._log[0][0] if self._log else self.n + 1
        if last_n + 1 < first:
            return None
        return [Numbered.of(text) for n, text in self._log if n > last_n]
