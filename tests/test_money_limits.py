"""The most a game can cost one player (money/limits.py) bounds every game actually played:
random games of every preset and seat count, settled without balances, never charge a seat
more than the bound, and the bound is the worst hand's price where that hand can be dealt."""

from __future__ import annotations

import random

import pytest

from tienlen.engine.cards import parse_mask
from tienlen.engine.game import PASS, Action, Game
from tienlen.engine.rules import RuleSet
from tienlen.engine.views import view_of
from tienlen.money.hands import loss_units
from tienlen.money.limits import most_a_game_costs
from tienlen.money.settlement import settle

PRESETS = ["thapthanh", "langvuichoi", "b52", "sanhrong", "bigfun"]


def _random_game(rules: RuleSet, players: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(rules, players, seed=seed)
    while not game.is_terminal():
        for seat in game.chop_window():
            game.apply(Action.decline(seat))
        if game.is_terminal():
            break
        view = view_of(game, game.current)
        choice = rng.choice(view.legal)
        seat = view.seat
        game.apply(Action.pass_turn(seat) if choice == PASS else Action.play(seat, choice))
    return game


@pytest.mark.parametrize("preset", PRESETS)
def test_no_random_game_costs_a_seat_more_than_the_bound(preset: str) -> None:
    rules = RuleSet.preset(preset)
    for players in (2, 3, 4):
        bound = most_a_game_costs(rules, players)
        worst = 0
        for seed in range(40):
            result = settle(_random_game(rules, players, seed), bet=1)
            paid = [0] * players
            for item in result.items:
                paid[item.payer] += item.owed
            worst = max(worst, *paid)
        assert 0 < worst <= bound, (players, worst, bound)


def test_the_bound_is_the_worst_hand_at_its_worst_plus_every_chop() -> None:
    thapthanh = RuleSet.preset("thapthanh")
    # Four 2s (5 + 5 + 10 + 10) and two hàng (10 each) caught cóng: 26 + 50 = 76 bets.
    worst_hand = parse_mask("2s 2c 2d 2h 3s 3c 3d 3h 4s 4c 4d 4h 5s")
    assert loss_units(worst_hand, thapthanh.scoring, cong=True) == 76
    # Chops: the four 2s and 12 four of a kinds of the other 48 cards (10 each) at 4 seats.
    assert most_a_game_costs(thapthanh, 4) == 76 + 30 + 120
    assert most_a_game_costs(thapthanh, 2) == 76 + 30 + 60  # 26 cards dealt: 6 hàng at most
    bigfun = RuleSet.preset("bigfun")  # đền bài: one player may pay for all three losers
    assert most_a_game_costs(bigfun, 4) > 3 * loss_units(worst_hand, bigfun.scoring, cong=True)
    no_chops = RuleSet.preset("b52")
    assert not no_chops.scoring.chop_pays
    assert most_a_game_costs(no_chops, 2) == most_a_game_costs(no_chops, 4)
