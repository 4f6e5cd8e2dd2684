"""A live table's seats: sitting down, standing up, bots, and who is stood up for lack of chips.

:class:`TableSeats` is a part of :class:`.live.LiveTable` (its base class), kept apart so
that each stays short: everything here runs on the table's task like the rest of it. The rules
it applies are :mod:`.seat_rules`'.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ...bots import make_bot
from ...engine.actions import Action
from ...engine.game import Game
from ..errors import Refused
from ..protocol import TablePhase
from . import protocol as P
from . import seat_rules
from .dealing import PendingDeal
from .recipients import Member, Recipients
from .seat_rules import Funds, FundsOf
from .seating import Lineup, Occupant, Seats, TableConfig
from .timers import Alarms

BalanceOf = Callable[[str], Awaitable[int | None] | int | None]
BotUser = Callable[[str], Awaitable[tuple[str, str]]]  # level -> the user id and name it sits as


class TableSeats:
    """Seats and who holds them (see the module docstring)."""

    seats: Seats
    owner: str
    bet: int
    config: TableConfig
    recipients: Recipients
    game: Game | None
    lineup: Lineup | None
    phase: TablePhase
    _pending: PendingDeal | None
    _alarms: Alarms
    _rng: random.Random
    _bot_user: BotUser | None
    _bots_added: int
    _balance_of: BalanceOf | None
    _funds_of: FundsOf | None

    if TYPE_CHECKING:

        def _apply(self, action: Action) -> None: ...

        def _game_seat(self, user: str) -> int | None: ...

    async def _sit(self, member: Member, seat: int) -> None:
        if self.seats.seat_of(member.user) is not None:
            raise Refused("already_seated", "you already hold a seat: stand up first")
        self.seats.free(seat)
        funds, needs = await self._funds(member.user), seat_rules.chips_needed(self.bet)
        if funds is not None and funds.chips < needs:
            raise Refused(
                "not_enough_chips",
                f"you hold {funds.chips} chips; this table deals in players holding at least "
                f"{needs} (one bet)",
            )
        self.seats.take(seat, Occupant(member.user, member.name))

    def _vacate(self, seat: int) -> None:
        """Empty a seat; its player leaves a game in progress (seed 000's leaving rules)."""
        occupant = self.seats[seat]
        if occupant is None:
            return
        self.seats[seat] = None
        user = occupant.user
        if self._pending is not None and self._pending.remove(user):
            self._pending = None
            self.phase = "waiting"
            self._alarms.cancel(("seeds",))
        k, game = self._game_seat(user), self.game
        if k is not None and self.lineup is not None and game is not None:
            self.lineup.present[k] = False
            if not game.over and game.in_game >> k & 1:
                self._apply(Action.leave(k))

    async def _balance(self, user: str) -> int | None:
        chips = None if self._balance_of is None else self._balance_of(user)
        return await chips if inspect.isawaitable(chips) else chips

    async def _funds(self, user: str) -> Funds | None:
        """What ``user`` holds now (None: unlimited), without claiming it for a deal."""
        if self._funds_of is not None:
            return await self._funds_of(user)
        chips = await self._balance(user)
        return None if chips is None else Funds(chips)

    async def _stand_up_if_short(self, user: str) -> bool:
        """Stand ``user`` up, telling them why, when they hold less than this table deals in
        with (True then)."""
        seat = self.seats.seat_of(user)
        occupant = None if seat is None else self.seats[seat]
        if seat is None or occupant is None or occupant.level is not None:
            return False
        funds, needs = await self._funds(user), seat_rules.chips_needed(self.bet)
        if funds is None or funds.chips >= needs or self.seats[seat] is not occupant:
            return False
        member = self.recipients.members.get(user)
        if member is not None:
            self.recipients.emit(member, seat_rules.stood_up_message(seat, funds, needs))
        self._vacate(seat)
        return True

    async def place_bot(self, seat: int, level: P.BotLevel, by: str | None = None) -> None:
        """Seat a ready bot, ``bot-k`` unless ``bot_user`` names it: ``by`` the owner's
        ``add_bot``, or by the web layer before :meth:`start`."""
        if by is not None and by != self.owner:
            raise Refused("not_owner", "only the table's owner may seat bots")
        if by is not None and not self.config.bots:
            raise Refused("no_bots", "bots cannot sit at this table")
        self.seats.free(seat)
        k = self._bots_added = self._bots_added + 1
        named = self._bot_user
        user, name = await named(level) if named else (f"bot-{k}", f"{level} bot {k}")
        bot = make_bot(level, seed=self._rng.randrange(2**32))
        self.seats.take(seat, Occupant(user, name, level, bot, ready=True))

    def _remove_bot(self, user: str, seat: int) -> None:
        if user != self.owner:
            raise Refused("not_owner", "only the table's owner may remove bots")
        occupant = self.seats[seat] if seat < len(self.seats) else None
        if occupant is None or occupant.level is None:
            raise Refused("no_bot", f"no bot sits at seat {seat}")
        if self._plays_now(occupant.user):
            raise Refused("seat_in_game", "the bot is playing: remove it after this game")
        self._vacate(seat)

    def _plays_now(self, user: str) -> bool:
        """Whether ``user`` still holds cards in the game in progress."""
        seat, game = self._game_seat(user), self.game
        if seat is None or game is None or game.over:
            return False
        return bool(game.in_game >> seat & 1)
