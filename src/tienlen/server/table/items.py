"""What a live table's task takes from its queue, one at a time (see :mod:`.live`).

Everything that changes a table arrives as one of these items: a connection opening or
closing, a parsed client message, an alarm of its clock, a bot's answer (:mod:`~..botpool`), a
banned person sent away.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..botpool import BotAnswer

__all__ = ["Alarm", "Command", "Connection", "Expel", "Item"]


class Connection(NamedTuple):
    user: str
    name: str | None
    """The name of a connection that opened; None when it closed."""


class Command(NamedTuple):
    user: str
    message: Any


class Alarm(NamedTuple):
    key: tuple[Any, ...]
    when: float


class Expel(NamedTuple):
    """A person banned: their connection is gone and their seat left at once."""

    user: str


Item = Connection | Command | Alarm | BotAnswer | Expel | None
"""What the table's task takes from its queue; None stops it."""
