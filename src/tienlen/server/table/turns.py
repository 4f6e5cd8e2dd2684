"""Who a live table's game waits on, and until when: the turn, the chop offers, the bots asked.

After every change to the game in progress, :class:`.live.LiveTable` asks :meth:`Turns.
schedule` to set the turn timer (public: everyone is told it), to offer each person in the
engine's chop window a private out-of-turn chop with a timer of its own, and to ask the bots
whose turn or offer it is. The timers are the table's alarms; what they ring for (the time-out
rule, a lapsed offer declined) is the table's to apply.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal

from ...bots import make_bot
from ...engine.game import Game
from ...engine.views import PublicLog
from ..botpool import BotAnswer, BotRunner
from .messages import TimerInfo
from .seating import Lineup, Occupant, TableConfig
from .timers import Alarms

__all__ = ["Turns"]


class Turns:
    """The timers and bot questions of one table's game in progress."""

    def __init__(self, alarms: Alarms, bots: BotRunner, config: TableConfig) -> None:
        self._alarms = alarms
        self._bots = bots
        self._config = config
        self._turn_key: tuple[int, int, int] | None = None
        self._turn_timer: TimerInfo | None = None
        self._offers: dict[int, tuple[int, int, int]] = {}
        self._offer_timers: dict[int, TimerInfo] = {}
        self._asked: dict[str, tuple[str, tuple[int, int]]] = {}

    def schedule(
        self,
        game_no: int,
        game: Game,
        lineup: Lineup,
        log: PublicLog,
        public: int,
        now: float,
        occupant: Callable[[str], Occupant | None],
    ) -> tuple[TimerInfo | None, dict[int, TimerInfo]]:
        """Set the turn timer, offer chops to people, and ask bots, as game ``game_no`` now
        stands after ``public`` public commands. The timers this started (the turn's; the
        chops' by game seat) go out with the change (bots answer later, on the table's task)."""
        turn, chops = None, {}
        turn_key = (game_no, public, game.current)
        if turn_key != self._turn_key:  # a new turn (never a decline: that would tell)
            self._turn_key = turn_key
            turn = self._turn_timer = _timer(
                game_no, game.current, "turn", self._config.turn_s, now
            )
            self._alarms.set(("turn",), turn["deadline"])
        window = game.chop_window()
        play = (game_no, game.last_seat, game.last_mask)
        for seat in window:
            if lineup.bots[seat] or self._offers.get(seat) == play:
                continue
            self._offers[seat] = play
            timer = _timer(game_no, seat, "chop", self._config.chop_s, now)
            chops[seat] = self._offer_timers[seat] = timer
            self._alarms.set(("chop", seat), timer["deadline"])
        for seat in [s for s in self._offers if s not in window]:
            del self._offers[seat], self._offer_timers[seat]
            self._alarms.cancel(("chop", seat))
        token = (game_no, public)
        if lineup.bots[game.current]:
            self._ask_bot(game, lineup, log, occupant, game.current, "turn", token)
        bots_offered = [seat for seat in window if lineup.bots[seat]]
        if bots_offered:  # bots in the window are asked one at a time, in its order
            self._ask_bot(game, lineup, log, occupant, bots_offered[0], "chop", token)
        return turn, chops

    def running(self, seat: int | None) -> list[TimerInfo]:
        """The timers game seat ``seat`` (None: a spectator) may know of: the turn's, and its
        own chop offer's."""
        timers = [] if self._turn_timer is None else [self._turn_timer]
        if seat is not None and seat in self._offer_timers:
            timers.append(self._offer_timers[seat])
        return timers

    def stop(self) -> None:
        """The game is over: no turn runs and no offer stands."""
        self._alarms.cancel_kinds("turn", "chop")
        self._turn_key = self._turn_timer = None
        self._offers.clear()
        self._offer_timers.clear()

    def answered(self, answer: BotAnswer, occupant: Occupant | None, rng: random.Random) -> None:
        """A bot's answer came back: it may be asked again, with its state as it returns."""
        self._bots.answered(answer.user)
        if occupant is not None and occupant.level is not None:
            if answer.bot is not None:
                occupant.bot = answer.bot  # its state, as a process pool hands it back
            elif answer.action is None:
                # It failed or overran and may still be running: go on with a fresh one.
                occupant.bot = make_bot(occupant.level, seed=rng.randrange(2**32))

    def forget(self, user: str) -> None:
        """``user``'s answer was stale: it is asked again if still needed."""
        self._asked.pop(user, None)

    def _ask_bot(
        self,
        game: Game,
        lineup: Lineup,
        log: PublicLog,
        occupant_of: Callable[[str], Occupant | None],
        seat: int,
        slot: Literal["turn", "chop"],
        token: tuple[int, int],
    ) -> None:
        user = lineup.users[seat]
        occupant = occupant_of(user)
        if occupant is None or occupant.bot is None or self._bots.busy(user):
            return
        if self._asked.get(user) == (slot, token):
            return
        self._asked[user] = (slot, token)
        view = log.view(game, seat, time_budget_s=0.6 * self._config.bot_budget_s)
        self._bots.ask(BotAnswer(user, slot, seat, token, None, None), occupant.bot, view)


def _timer(
    game_no: int, seat: int, kind: Literal["turn", "chop"], seconds: float, now: float
) -> TimerInfo:
    return {
        "game": game_no,
        "seat": seat,
        "kind": kind,
        "deadline": now + seconds,
        "seconds": seconds,
    }
