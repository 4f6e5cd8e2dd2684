"""Who a live table deals in, and who it stands up (issue 17: "the table as players want it").

Two rules keep a seat from costing a player who is not there or cannot pay:

- **Enough chips.** A person is dealt in only with at least :func:`chips_needed` (one bet);
  below it they cannot be seated, and after a settlement they are stood up and told why
  (``stood_up``, with the daily top-up and when it comes) — seed 000: "TK về 0: Khi đang
  chơi nếu TK về 0 sẽ bị đẩy ra phòng chờ ngoài cùng".
- **Away is not playing.** When the turn timer has acted for a person
  ``TableConfig.away_after`` turns in a row, or their connection is lost, their seat is marked
  away and not ready: they finish the game in progress by the timer and are not dealt in again
  until they say ``ready`` — or, when the lost connection was why, until it comes back. Their
  own play, pass or declined chop, or their ``ready``, resets the count. A game that ends
  with them still counted and never acting in it (a dealt tới trắng, over before any turn)
  counts as one more turn the timer took: without it a silent player lost the game they
  stopped in, the tới trắng and the game after.

The table (:mod:`.live`) calls these; what they decide is visible to everyone in the seats
of ``table`` messages (``away``, ``ready``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any

from ...engine.actions import Action
from ..clock import server_day
from ..settings import Settings
from . import protocol as P
from .messages import StoodUpBody, TopUp
from .seating import Occupant

__all__ = [
    "Funds",
    "FundsOf",
    "acted",
    "back",
    "came_back",
    "chips_needed",
    "dealt",
    "game_over",
    "lost_connection",
    "mark_away",
    "next_top_up",
    "own_action",
    "stood_up_message",
    "timed_out",
]


@dataclass(frozen=True)
class Funds:
    """A person's chips now, and the daily top-up they could claim (None: none will come)."""

    chips: int
    top_up: TopUp | None = None


FundsOf = Callable[[str], Awaitable[Funds | None]]
"""A person's :class:`Funds` read as they are (None: unlimited, a bot); the lobby's reads the
ledger without taking the balance claim that dealing takes."""


def chips_needed(bet: int) -> int:
    """The least balance a person is dealt in with at a table of ``bet``: one bet, the game's
    basic stake. Settlement never takes more than a player holds, so with less they would
    play for less than the others (docs/SERVER.md, "Sitting out")."""
    return max(1, bet)


def stood_up_message(seat: int, funds: Funds, needs: int) -> StoodUpBody:
    """The ``stood_up`` message (docs/PROTOCOL.md), to the player alone."""
    return {
        "type": "stood_up",
        "seat": seat,
        "reason": "no_chips",
        "chips": funds.chips,
        "needs": needs,
        "top_up": funds.top_up,
    }


def next_top_up(last_topup_on: Any, chips: int, now: datetime, settings: Settings) -> TopUp | None:
    """The daily top-up a player holding ``chips`` could claim next (``ledger.claim_daily_
    topup``'s rule): now when none was claimed this server day, else at the next day's start;
    None when they hold too much for one or the server gives none."""
    if settings.topup_amount <= 0 or chips >= settings.topup_floor:
        return None
    offset = timedelta(hours=settings.day_utc_offset_hours)
    today = server_day(now, settings.day_utc_offset_hours)
    at = now.astimezone(UTC)
    if last_topup_on is not None and last_topup_on >= today:
        at = datetime.combine(today + timedelta(days=1), time(0), tzinfo=UTC) - offset
    return {"chips": settings.topup_amount, "at": at.isoformat()}


def own_action(message: P.Play | P.Pass | P.DeclineChop, seat: int) -> Action:
    """The game action a player's own ``play``, ``pass`` or ``decline_chop`` asks for."""
    if isinstance(message, P.Play):
        return Action.play(seat, message.mask)
    if isinstance(message, P.Pass):
        return Action.pass_turn(seat)
    return Action.decline(seat)


def mark_away(occupant: Occupant | None) -> None:
    """A person sits out: away and not ready, until they say ``ready``."""
    if occupant is not None and occupant.level is None:
        occupant.away, occupant.ready = True, False
        occupant.ready_on_return = None


def lost_connection(occupant: Occupant | None) -> None:
    """A person's connection closed: away while it is gone (never dealt in), and as they were
    when they come back within the grace period (a reload costs nothing), unless the timer
    has meanwhile acted for them ``away_after`` times in a row."""
    if occupant is not None and occupant.level is None and not occupant.away:
        ready = occupant.ready
        mark_away(occupant)
        occupant.ready_on_return = ready


def came_back(occupant: Occupant | None) -> None:
    """A person's connection opened again: away no more if the lost connection was why."""
    if occupant is not None and occupant.ready_on_return is not None:
        occupant.away, occupant.ready = False, occupant.ready_on_return
        occupant.ready_on_return = None


def back(occupant: Occupant, ready: bool) -> None:
    """``ready``: ready or not for the next game; ``ready: true`` also ends sitting out and
    the count (the person is there)."""
    occupant.ready = ready
    if ready:
        occupant.away, occupant.ready_on_return = False, None
        occupant.timeouts = 0


def timed_out(occupant: Occupant | None, away_after: int) -> None:
    """The turn timer played or passed for ``occupant``: counted, and at ``away_after`` in a
    row they are marked away."""
    if occupant is None or occupant.level is not None:
        return
    occupant.silent_game = False
    occupant.timeouts += 1
    if occupant.timeouts >= away_after:
        mark_away(occupant)


def acted(occupant: Occupant | None) -> None:
    """``occupant`` played, passed or declined a chop themselves: the count starts again."""
    if occupant is not None:
        occupant.timeouts, occupant.silent_game = 0, False


def dealt(occupant: Occupant | None) -> None:
    """``occupant`` is dealt into a game: nothing has been done for them in it yet."""
    if occupant is not None:
        occupant.silent_game = True


def game_over(occupant: Occupant | None, away_after: int) -> None:
    """A game ``occupant`` was dealt into is over: if they were counted when it began and
    neither they nor the timer acted for them in it, it counts as one more time-out."""
    if occupant is not None and occupant.silent_game and occupant.timeouts > 0:
        timed_out(occupant, away_after)
    if occupant is not None:
        occupant.silent_game = False
