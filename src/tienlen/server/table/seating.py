"""A table's settings, its seats, and the lineup of each game dealt at it.

Seats belong to the table (0 to 3, gaps allowed); a game is dealt to the ready players in seat
order, and its game seats (0 to n-1) are theirs: :class:`Lineup` maps one onto the other. Who
leads the next game follows the preset (:func:`~tienlen.money.settlement.next_game_after`),
carried over to the new lineup by :func:`lead_after`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ...bots import Bot
from ...engine.game import Game
from ...engine.record import GameRecord, record_of
from ...money.settlement import next_game_after
from ..errors import Refused
from ..settings import Settings
from .messages import SeatInfo
from .protocol import MAX_SEATS, BotLevel, RateLimit


@dataclass(frozen=True)
class TableConfig:
    """A table's clocks and sizes. Seconds throughout; seed 000's turn timer is 10, 15 or 20."""

    seats: int = 4
    turn_s: int = 10
    """The turn timer, in whole seconds (what ``turn_seconds`` says, on the socket as in REST)."""
    chop_s: float = 3.0
    """How long a person's out-of-turn chop offer stays open."""
    grace_s: float = 60.0
    """How long a player who lost the connection keeps the seat before leaving."""
    client_seeds: bool = True
    """Collect client seeds after the commitment (docs/FAIRNESS.md)."""
    seed_window_s: float = 3.0
    start_wait_s: float = 5.0
    """Once two are ready (and no game was just played), how long others have to sit down and
    be ready; after a game the next one starts at the end of ``between_games_s``."""
    between_games_s: float = 3.0
    first_deal_wait_s: float = 0.0
    """When more than 0, the first game waits this long even at a full, ready table ("play
    now": a newcomer sees a countdown, not a running turn)."""
    play_now_wait_s: float = 5.0
    """How long a "play now" table's first deal waits (the lobby sets its
    ``first_deal_wait_s``)."""
    away_after: int = 2
    """Turns in a row the timer acts for a person before their seat is marked away
    (server/seat_rules.py)."""
    bot_budget_s: float = 2.0
    """Wall-clock seconds a bot may think before the time-out rule acts for it."""
    bot_delay_s: float = 0.8
    """The least time a bot takes, so people can follow (and chop) its plays."""
    log_size: int = 256
    """Messages kept per recipient for resuming, at most ..."""
    log_chars: int = 64_000
    """... and at most this much of their text (about 50 updates; server/outbox.py)."""
    rate: float = 10.0
    """Messages a connection may send a second (``burst`` at once); see :class:`RateLimit`."""
    burst: float = 20.0
    bots: bool = True
    """Whether the owner may seat bots (at the lobby's chip tables they are house bots with
    ledger accounts: server/house_bots.py)."""

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= MAX_SEATS:
            raise ValueError(f"a table has 2 to {MAX_SEATS} seats, not {self.seats}")
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name.endswith("_s") and not (isinstance(value, int | float) and value >= 0):
                raise ValueError(f"{f.name} must be a number of seconds, 0 or more")
        if isinstance(self.turn_s, bool) or not isinstance(self.turn_s, int) or self.turn_s < 1:
            raise ValueError(f"turn_s is whole seconds, at least 1, not {self.turn_s!r}")
        if self.bot_budget_s <= 0:
            raise ValueError("bot_budget_s must be more than 0")
        if self.away_after < 1:
            raise ValueError("away_after must be at least 1")
        if self.log_size < 1 or self.log_chars < 1:
            raise ValueError("log_size and log_chars must be at least 1")
        if not (self.rate > 0 and self.burst >= 1):
            raise ValueError("rate must be more than 0 and burst at least 1")

    def rate_limit(self) -> RateLimit:
        """A fresh limit for one connection."""
        return RateLimit(self.rate, self.burst)

    @classmethod
    def of(cls, settings: Settings) -> TableConfig:
        """The clocks the server's settings give (``TIENLEN_GRACE_SECONDS`` …, docs/SERVER.md);
        each table's seats and turn timer are its own."""
        return cls(
            grace_s=settings.grace_seconds,
            chop_s=settings.chop_seconds,
            seed_window_s=settings.seed_window_seconds,
            start_wait_s=settings.start_wait_seconds,
            between_games_s=settings.between_games_seconds,
            play_now_wait_s=settings.play_now_wait_seconds,
            away_after=settings.away_after_turns,
            bot_delay_s=settings.bot_delay_seconds,
            bot_budget_s=settings.bot_budget_seconds,
        )


@dataclass
class Occupant:
    """Whoever holds a seat: a person or a bot (``level`` set)."""

    user: str
    name: str
    level: BotLevel | None = None
    bot: Bot | None = None
    ready: bool = False
    away: bool = False
    """Sitting out (server/seat_rules.py): not dealt in until they say ``ready``."""
    timeouts: int = 0
    """Turns in a row the timer acted for them."""
    silent_game: bool = False
    """Dealt into the game on, and nothing done in it by them or the timer for them yet."""
    ready_on_return: bool | None = None
    """Away only for a lost connection: whether they were ready, as they are again when they
    come back (None: not away for that alone)."""


SitGuard = Callable[[Occupant, list[Occupant]], None]
"""Told of a person about to sit and of the people seated; raises :class:`Refused` to refuse
(the lobby's: two accounts of one network or device, server/sightings.py)."""


class Seats(list[Occupant | None]):
    """The table's seats, each empty (None) or held."""

    guard: SitGuard | None = None

    def seat_of(self, user: str) -> int | None:
        for seat, occupant in enumerate(self):
            if occupant is not None and occupant.user == user:
                return seat
        return None

    def occupant(self, user: str) -> Occupant | None:
        seat = self.seat_of(user)
        return None if seat is None else self[seat]

    def own(self, user: str, refusal: str) -> int:
        """The seat ``user`` holds; refused with ``not_seated`` (and ``refusal``) if none."""
        seat = self.seat_of(user)
        if seat is None:
            raise Refused("not_seated", refusal)
        return seat

    def info(
        self, connected: Callable[[str], bool], playing: Callable[[str], bool]
    ) -> list[SeatInfo | None]:
        """The seats as ``table`` messages show them."""
        return [
            None
            if o is None
            else {
                "seat": seat,
                "user": o.user,
                "name": o.name,
                "bot": o.level,
                "connected": o.level is not None or connected(o.user),
                "ready": o.ready,
                "playing": playing(o.user),
                "away": o.away,
            }
            for seat, o in enumerate(self)
        ]

    def free(self, seat: int) -> None:
        """Refused (``no_such_seat``, ``seat_taken``) unless ``seat`` is there and empty."""
        if seat >= len(self):
            raise Refused("no_such_seat", f"this table has seats 0 to {len(self) - 1}")
        if self[seat] is not None:
            raise Refused("seat_taken", f"seat {seat} is taken")

    def take(self, seat: int, occupant: Occupant) -> None:
        """Seat ``occupant`` in an empty seat (``no_such_seat``, ``seat_taken``, or what the
        :attr:`guard` refuses a person with)."""
        self.free(seat)
        if self.guard is not None and occupant.level is None:
            self.guard(occupant, [o for o in self if o is not None and o.level is None])
        self[seat] = occupant

    def next_person(self, after: int | None, connected: Iterable[str]) -> str | None:
        """Who a table passes to from someone who sat at ``after`` (None: nowhere): the next
        person seated round the table, else the first of ``connected``, else nobody."""
        start = -1 if after is None else after
        for k in range(1, len(self) + 1):
            o = self[(start + k) % len(self)]
            if o is not None and o.level is None:
                return o.user
        return next(iter(connected), None)


@dataclass
class Lineup:
    """The players of one game, by game seat."""

    seats: list[int]
    """The table seat of each game seat."""
    users: list[str]
    names: list[str]
    bots: list[bool]
    balances: list[int] | None = None
    """Each player's chips before the game, for settlement (None: nobody's is known)."""
    present: list[bool] = field(default_factory=list)
    """Still seated (False once they stood up or left)."""
    levels: list[BotLevel | None] = field(default_factory=list)
    """Each bot's level (None for a person), to seat the same bots after a restart."""

    def __post_init__(self) -> None:
        self.present = [True] * len(self.users)

    @classmethod
    def of(
        cls, seats: list[int], occupants: list[Occupant], chips: list[int | None], purse: int
    ) -> Lineup:
        """The lineup of ``occupants`` at ``seats``; unknown balances (bots') count as
        ``purse``."""
        balances = None
        if any(c is not None for c in chips):
            balances = [purse if c is None else c for c in chips]
        return cls(
            seats=list(seats),
            users=[o.user for o in occupants],
            names=[o.name for o in occupants],
            bots=[o.level is not None for o in occupants],
            balances=balances,
            levels=[o.level for o in occupants],
        )

    def remove(self, user: str) -> None:
        """Take a player out before the deal."""
        k = self.users.index(user)
        del self.seats[k], self.users[k], self.names[k], self.bots[k], self.present[k]
        if self.levels:
            del self.levels[k]
        if self.balances is not None:
            del self.balances[k]

    def record(self, played: Game, bet: int, fee_bp: int, **extra: Any) -> GameRecord:
        """The game's record, with what settlement and the ledger need: who played (``users``,
        table ``seats``), the house fee and the balances before the game."""
        extra |= {"users": list(self.users), "seats": list(self.seats), "house_fee_bp": fee_bp}
        if self.balances is not None:
            extra["balances"] = list(self.balances)
        return record_of(played, players=list(self.names), bet=bet, extra=extra)

    def seat(self, user: str) -> int | None:
        """The game seat of ``user`` while still seated, else None."""
        if user not in self.users:
            return None
        k = self.users.index(user)
        return k if self.present[k] else None


def lead_after(previous: Game, before: list[str], users: list[str]) -> dict[str, Any]:
    """How the game after ``previous`` (played by ``before``, by game seat) starts for the
    lineup ``users``, as ``Game.new`` keywords. When the one who should lead is gone, it is a
    first game; a barred instant winner who is gone is barred no more."""
    start = next_game_after(previous)
    first, leader, barred = start.first_game, None, None
    if not first and start.leader is not None:
        if before[start.leader] in users:
            leader = users.index(before[start.leader])
        else:
            first = True
    if start.barred_instant_winner is not None and before[start.barred_instant_winner] in users:
        barred = users.index(before[start.barred_instant_winner])
    return {"first_game": first, "leader": leader, "barred_instant_winner": barred}
