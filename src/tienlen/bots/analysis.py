"""Reviewing a finished game: what the search bot would have played at each of a player's
decisions, and what that choice was worth in chips against the player's.

At each decision the bot sees exactly what the player saw (the seat view built by the engine
at that point, never the others' hands, though the game is over). Its choice is
:meth:`SearchBot.act` on that view, with one bot following the whole game as it would at a
table. The chips difference is estimated on the same sampled deals for both choices (paired):
the hidden cards are dealt again consistently with the view (:func:`~.search.sample_world`),
each choice is played out with the strategic policy at every seat, and the settlement of the
game's preset at its bet scores the end. It is an estimate: the mean over ``samples`` deals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine.actions import PASS
from ..engine.record import GameRecord, apply_record_action
from ..engine.views import PublicLog, SeatView
from ..money.settlement import settle
from .search import SearchBot, rollout, sample_world
from .strategic import StrategicPolicy

__all__ = ["DecisionReview", "review_seat"]


@dataclass(frozen=True)
class DecisionReview:
    """One decision of the player: the record action's index, what they played and what the
    bot would have (card masks; 0 = pass), and the bot's choice's expected chips minus the
    player's (None when no deal could be sampled)."""

    action: int
    played: int
    bot: int
    chips_difference: float | None
    samples: int


def _chips_difference(
    view: SeatView, bot: int, played: int, bet: int, samples: int, rng: random.Random
) -> tuple[float | None, int]:
    if bot == played:
        return 0.0, 0
    policy = StrategicPolicy()
    diffs: list[float] = []
    for _ in range(samples):
        world = sample_world(view, rng)
        if world is None:
            continue
        values = []
        for action in (bot, played):
            game = world.copy()
            game.apply_action(action, view.seat)
            rollout(game, policy)
            values.append(float(settle(game, bet).deltas[view.seat]) if game.over else 0.0)
        diffs.append(values[0] - values[1])
    if not diffs:
        return None, 0
    return sum(diffs) / len(diffs), len(diffs)


def review_seat(
    record: GameRecord, seat: int, samples: int = 16, seed: int = 0
) -> list[DecisionReview]:
    """The review of every real decision (a play or a pass with another choice open) that
    ``seat`` made in the recorded game."""
    game = record.new_game()
    log = PublicLog(game.n)
    bot = SearchBot(seed=seed, samples=samples)
    rng = random.Random(seed)
    reviews: list[DecisionReview] = []
    for index, action in enumerate(record.actions):
        decides = isinstance(action, dict) and ("play" in action or "pass" in action)
        if decides and action.get("seat") == seat and game.current == seat and not game.over:
            view = log.view(game, seat)
            if len(view.legal) > 1:
                before = len(game.history)
                apply_record_action(game, index, action)
                last = game.history[before]
                played = last.cards if last.kind == "play" else PASS
                choice = bot.act(view)
                diff, n = _chips_difference(view, choice, played, record.bet, samples, rng)
                reviews.append(DecisionReview(index, played, choice, diff, n))
                continue
        apply_record_action(game, index, action)
    return reviews
