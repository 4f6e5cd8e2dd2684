"""A series of games at one table: who leads the next game, and who may not win it at the deal.

The lead rules across games (RULES.md §4): after an instant win the next game is a first game
again (3♠ leads) and, under ``no_consecutive_instant_win``, its winner may not win instantly again;
a game nobody won (everyone left) also restarts as a first game; otherwise the winner leads, or
whoever paid for the table under đền bài.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import errors as E
from .game import Game


@dataclass(frozen=True)
class NextGame:
    """How the next game at the table starts (the lead rules across a series of games)."""

    first_game: bool
    leader: int | None
    barred_instant_winner: int | None = None

    def kwargs(self) -> dict[str, Any]:
        return {
            "first_game": self.first_game,
            "leader": self.leader,
            "barred_instant_winner": self.barred_instant_winner,
        }


def next_game(game: Game, leader: int | None = None) -> NextGame:
    """The start of the game after ``game`` at the same seats.

    After an instant win the next game is a first game again (3♠ leads), and under
    ``no_consecutive_instant_win`` its winner may not win instantly again; a game nobody won
    (everyone left) also restarts as a first game; otherwise the winner leads. ``leader``
    overrides the winner, for the đền bài rule (the one who pays for the table leads).
    """
    if not game.over:
        raise E.IllegalAction("the game is not over yet")
    if game.instant_win is not None:
        barred = None
        if game.rules.no_consecutive_instant_win and not game.instant_win.shared:
            barred = game.instant_win.seats[0]
        return NextGame(first_game=True, leader=None, barred_instant_winner=barred)
    if game.winner is None:
        return NextGame(first_game=True, leader=None)
    return NextGame(first_game=False, leader=game.winner if leader is None else leader)
