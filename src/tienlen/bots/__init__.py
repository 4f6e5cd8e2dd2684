"""Bots at four strengths, the view they decide from, and the loop that seats them.

Levels, weakest first: ``random`` (a baseline), ``greedy``, ``strategic`` and ``search``
(docs/BOTS.md). :func:`make_bot` builds one; :class:`Table` runs a game with bots in some
seats; a bot only ever sees a :class:`SeatView`.
"""

from __future__ import annotations

from ..engine.views import PublicLog, SeatView, view_of
from .base import Bot, BotError, Decision, Table, ask, play_turn
from .basic import GreedyBot, RandomBot
from .search import SearchBot
from .strategic import StrategicBot

LEVELS = ("random", "greedy", "strategic", "search")
"""Bot levels, weakest first."""
DEFAULT_LEVEL = "search"
"""The level that fills empty seats: the strongest that answers within 300 ms here
(docs/BOTS.md has the measurement)."""


class UnknownLevel(ValueError):
    """A bot level that does not exist."""


def make_bot(level: str, seed: int | None = None, **options: object) -> Bot:
    """A bot of ``level`` (one of :data:`LEVELS`); ``seed`` makes random choices reproducible.

    ``options`` go to the search bot (``samples``, ``candidates``, ``moves``, ``margin``,
    ``inference``, ``time_limit_s``).
    """
    if level == "search":
        return SearchBot(seed, **options)  # type: ignore[arg-type]
    if options:
        raise TypeError(f"the {level} bot takes no options")
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return GreedyBot(seed)
    if level == "strategic":
        return StrategicBot(seed)
    raise UnknownLevel(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")


__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Bot",
    "BotError",
    "Decision",
    "GreedyBot",
    "PublicLog",
    "RandomBot",
    "SearchBot",
    "SeatView",
    "StrategicBot",
    "Table",
    "UnknownLevel",
    "ask",
    "make_bot",
    "play_turn",
    "view_of",
]
