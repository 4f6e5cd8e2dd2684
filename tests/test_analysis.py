"""The search bot's review of a player's decisions in a finished game (bots/analysis.py)."""

from __future__ import annotations

import random

from conftest import m
from engine_driver import FOUR_PAIRS, OTHER_FOUR_PAIRS, start

from tienlen.bots.analysis import review_seat
from tienlen.bots.search import SearchBot
from tienlen.engine.actions import PASS
from tienlen.engine.codec import action_from_dict
from tienlen.engine.events import Play
from tienlen.engine.game import Action, Game
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


def _finish(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    while not game.is_terminal():
        game.apply_action(rng.choice(game.legal_actions()))


def test_out_of_turn_chop_offers_are_reviewed_whether_taken_or_declined() -> None:
    # Seat 0 leads 2♠; seats 2 and 3 hold 4 consecutive pairs that chop it, out of turn.
    chopped = start("langvuichoi", "2s 2c", "", FOUR_PAIRS, OTHER_FOUR_PAIRS, seed=0)
    chopped.apply(Action.play(0, "2s"))
    assert chopped.chop_window() == (2, 3)
    chopped.apply(Action.play(2, FOUR_PAIRS))  # seat 2 chops before seat 1 answers
    _finish(chopped, 5)
    declined = start("langvuichoi", "2s 2c", "", FOUR_PAIRS, OTHER_FOUR_PAIRS, seed=0)
    declined.apply(Action.play(0, "2s"))
    declined.apply(Action.decline(2))
    _finish(declined, 5)
    for game, played in ((chopped, m(FOUR_PAIRS)), (declined, PASS)):
        record = record_of(game, ruleset="langvuichoi", bet=100)
        reviews = review_seat(record, 2, samples=4, seed=1)
        offer = reviews[0]
        assert (offer.action, offer.kind, offer.played) == (1, "chop", played)
        # The bot's choice from the view seat 2 had then: a chop or a decline (PASS).
        before = record.new_game()
        before.apply(action_from_dict(record.actions[0]))
        view = view_of(before, 2)
        assert view.chop_offer and not view.my_turn
        assert offer.bot == PASS or offer.bot in view.legal
        if offer.bot != offer.played:
            assert offer.chips_difference is not None and offer.samples > 0
        assert all(r.kind == "turn" for r in reviews[1:])
    # Seat 1, whose turn it was, has no offer of its own to review at action 1.
    record = record_of(chopped, ruleset="langvuichoi", bet=100)
    assert all(r.action != 1 for r in review_seat(record, 1, samples=4, seed=1))


def test_a_turn_played_by_the_timer_is_reviewed_as_the_timers_move() -> None:
    game = Game.new(RuleSet.preset("thapthanh"), 4, seed=21)
    assert not game.over
    leader = game.current
    game.timeout()  # the leader's timer plays its smallest card (the 3♠ of a first game)
    leader_play = game.events[-1]
    assert isinstance(leader_play, Play) and leader_play.auto and leader_play.seat == leader
    game.apply_action(game.legal_actions()[1])  # the next seat beats it with its smallest
    seat = game.current
    assert len(game.legal_actions()) > 1  # a real choice, left to the timer: a pass
    game.timeout()
    _finish(game, 8)
    record = record_of(game, bet=10)
    first = review_seat(record, leader, samples=4, seed=2)[0]
    assert (first.action, first.kind, first.played) == (0, "timer", leader_play.cards)
    assert first.bot in view_of(record.new_game(), leader).legal
    timed = review_seat(record, seat, samples=4, seed=2)[0]
    assert (timed.action, timed.kind, timed.played) == (2, "timer", PASS)
