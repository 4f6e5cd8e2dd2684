"""The bot interface and the loop that asks bots for actions and applies them.

A bot sees a :class:`~tienlen.engine.views.SeatView` (never the game) and returns one of
``view.legal``; out of turn it may also return ``PASS`` to let a chop go.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..engine.cards import mask_str
from ..engine.game import PASS, Action, Game
from ..engine.views import PublicLog, SeatView


class Bot(Protocol):
    """Anything with a name that picks an action from a seat's view."""

    name: str

    def act(self, view: SeatView) -> int:
        """One of ``view.legal`` (or ``PASS`` to decline an out-of-turn chop)."""
        ...


class BotError(RuntimeError):
    """A bot answered with an action that is not legal for its seat."""


@dataclass(frozen=True, slots=True)
class Decision:
    seat: int
    action: int
    seconds: float
    """Time the bot took to decide."""
    out_of_turn: bool = False


def ask(bot: Bot, view: SeatView) -> tuple[int, float]:
    """Ask ``bot`` for its action on ``view``; check it is legal. Returns (action, seconds)."""
    start = time.perf_counter()
    action = bot.act(view)
    seconds = time.perf_counter() - start
    if action not in view.legal and not (action == PASS and not view.my_turn):
        shown = "pass" if action == PASS else mask_str(action) if action > 0 else repr(action)
        raise BotError(f"bot {bot.name!r} at seat {view.seat} chose an illegal action: {shown}")
    return action, seconds


class Table:
    """One game driven action by action, with a bot (or ``None`` for a person) in each seat."""

    def __init__(
        self, game: Game, bots: Sequence[Bot | None], time_budget_s: float | None = None
    ) -> None:
        if len(bots) != game.n:
            raise ValueError(f"{game.n} seats need {game.n} bots (None for a person)")
        self.game = game
        self.bots = list(bots)
        self.time_budget_s = time_budget_s
        self.log = PublicLog(game.n)

    def view(self, seat: int) -> SeatView:
        return self.log.view(self.game, seat, self.time_budget_s)

    def step(self) -> Decision | None:
        """Offer the engine's out-of-turn chop window to its bots in order, then let the current
        bot act; apply what they chose. A bot that lets its chop go declines it.

        Returns None, changing nothing more, when the game is over or a person must answer:
        a chop offer at the head of the window, or their turn.
        """
        game = self.game
        if game.over:
            return None
        for seat in game.chop_window():
            bot = self.bots[seat]
            if bot is None:
                return None
            action, seconds = ask(bot, self.view(seat))
            if action != PASS:
                game.apply(Action.play(seat, action))
                return Decision(seat, action, seconds, out_of_turn=True)
            game.apply(Action.decline(seat))
        seat = game.current
        bot = self.bots[seat]
        if bot is None:
            return None
        action, seconds = ask(bot, self.view(seat))
        game.apply_action(action, seat)
        return Decision(seat, action, seconds)

    def run(self) -> list[Decision]:
        """Play bot turns until the game ends or a person must act; the decisions made."""
        decisions: list[Decision] = []
        while True:
            decision = self.step()
            if decision is None:
                return decisions
            decisions.append(decision)


def play_turn(game: Game, bots: Sequence[Bot | None]) -> Decision | None:
    """Ask the bots of one table for the next action and apply it (see :meth:`Table.step`)."""
    return Table(game, bots).step()
