"""The search bot's review of a player's decisions in a finished game (bots/analysis.py)."""

from __future__ import annotations

import random

from tienlen.bots.analysis import review_seat
from tienlen.bots.search import SearchBot
from tienlen.engine.actions import PASS
from tienlen.engine.codec import action_from_dict
from tienlen.engine.game import Game
from tienlen.engine.record import record_of, replay
from tienlen.engine.rules import RuleSet
from tienlen.engine.views import view_of


def _random_game(seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(RuleSet.preset("thapthanh"), 4, seed=seed)
    while not game.is_terminal():
        game.apply_action(rng.choice(game.legal_actions()))
    return game


def test_each_real_decision_is_reviewed_from_the_seat_view_the_player_had() -> None:
    game = _random_game(11)
    record = record_of(game, bet=1000)
    reviews = review_seat(record, 0, samples=8, seed=3)
    assert reviews, "a whole game has decisions"
    before = record.new_game()
    applied = 0
    for review in reviews:
        action = action_from_dict(record.actions[review.action])
        assert action.seat == 0 and action.kind in ("play", "pass")
        for raw in record.actions[applied : review.action]:
            before.apply(action_from_dict(raw))
        applied = review.action
        view = view_of(before, 0)
        # A decision with a choice, the player's own move, and a legal move for the bot.
        assert len(view.legal) > 1 and view.my_turn
        assert review.played == (action.cards if action.kind == "play" else PASS)
        assert review.bot in view.legal
        if review.bot == review.played:
            assert (review.chips_difference, review.samples) == (0.0, 0)
        else:
            assert review.chips_difference is not None and 0 < review.samples <= 8
            # Chips at the game's bet: a multiple of nothing in particular, but bounded by
            # what a game can move at 1000 a unit.
            assert abs(review.chips_difference) < 1000 * 200
    # Reproducible from the seed; the game itself is untouched.
    assert review_seat(record, 0, samples=8, seed=3) == reviews
    assert replay(record).hands == game.hands


def test_a_bot_that_played_the_search_bots_moves_agrees_with_itself() -> None:
    """Seat 0 played by the search bot (same seed, same samples): every choice is the same."""
    game = Game.new(RuleSet.preset("b52"), 4, seed=6)
    assert not game.over  # no instant win at this deal
    bots = {0: SearchBot(seed=9, samples=6)}
    rng = random.Random(2)
    while not game.is_terminal():
        seat = game.current
        if seat == 0:
            game.apply_action(bots[0].act(view_of(game, 0)), 0)
        else:
            game.apply_action(rng.choice(game.legal_actions()), seat)
    reviews = review_seat(record_of(game, bet=10), 0, samples=6, seed=9)
    assert reviews and all(r.bot == r.played for r in reviews)
    assert all(r.chips_difference == 0.0 for r in reviews)
