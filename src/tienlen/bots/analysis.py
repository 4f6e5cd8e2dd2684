"""Reviewing a finished game: what the search bot would have played at each of a player's
decisions, and what that choice was worth in chips against the player's.

A decision is one of three kinds: a ``turn`` (a play or a pass with another choice open), a
turn the ``timer`` played (the turn timer ran out: the engine played the smallest card of a
leader, else passed; reviewed as if that were the player's choice), and a ``chop`` offer out
of turn (4+ consecutive pairs on the play on the table: the player chopped, or declined, which
is reviewed as a pass). An offer that lapsed because the next play came first is not a
decision the record holds, and is not reviewed.

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
from typing import Literal

from ..engine.actions import PASS
from ..engine.events import Play
from ..engine.game import Game
from ..engine.record import GameRecord, apply_record_action
from ..engine.views import PublicLog, SeatView
from ..money.settlement import settle
from .search import SearchBot, rollout, sample_world
from .strategic import StrategicPolicy

__all__ = ["DecisionKind", "DecisionReview", "review_seat"]

DecisionKind = Literal["turn", "timer", "chop"]


@dataclass(frozen=True)
class DecisionReview:
    """One decision of the player: the record action's index, what they played and what the
    bot would have (card masks; 0 = pass), and the bot's choice's expected chips minus the
    player's (None when no deal could be sampled). ``kind``: a ``turn``, a turn played by the
    ``timer``, or an out-of-turn ``chop`` offer (``played`` 0: declined)."""

    action: int
    played: int
    bot: int
    chips_difference: float | None
    samples: int
    kind: DecisionKind = "turn"


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


def _decision(game: Game, seat: int, action: object) -> DecisionKind | None:
    """The kind of decision ``action`` is for ``seat`` in ``game`` as it stands, if any."""
    if not isinstance(action, dict) or action.get("seat") != seat or game.over:
        return None
    if game.current == seat:
        if "play" in action or "pass" in action:
            return "turn"
        return "timer" if "timeout" in action else None
    if ("play" in action or "decline" in action) and seat in game.chop_window():
        return "chop"
    return None


def _outcome(game: Game, since: int, seat: int) -> int:
    """What ``seat`` ended up playing in the events from ``since`` (0: a pass or a decline)."""
    for event in game.events[since:]:
        if isinstance(event, Play) and event.seat == seat:
            return event.cards
    return PASS


def review_seat(
    record: GameRecord, seat: int, samples: int = 16, seed: int = 0
) -> list[DecisionReview]:
    """The review of every decision (see the module docstring) that ``seat`` made in the
    recorded game."""
    game = record.new_game()
    log = PublicLog(game.n)
    bot = SearchBot(seed=seed, samples=samples)
    rng = random.Random(seed)
    reviews: list[DecisionReview] = []
    for index, action in enumerate(record.actions):
        kind = _decision(game, seat, action)
        if kind is not None:
            view = log.view(game, seat)
            if kind == "chop" or len(view.legal) > 1:
                before = len(game.events)
                apply_record_action(game, index, action)
                played = _outcome(game, before, seat)
                choice = bot.act(view)
                diff, n = _chips_difference(view, choice, played, record.bet, samples, rng)
                reviews.append(DecisionReview(index, played, choice, diff, n, kind))
                continue
        apply_record_action(game, index, action)
    return reviews
