"""A table's deal through the engine: Game.new deals verifiably, the game carries its deal, views
hide the server seed until the end, and records and snapshots keep what verification needs."""

from __future__ import annotations

import json

import pytest

from tienlen.engine.codec import (
    restore_snapshot,
    seat_view_to_dict,
    snapshot_of,
    spectator_view_to_dict,
)
from tienlen.engine.deal import commitment, deal_game
from tienlen.engine.game import Action, Game
from tienlen.engine.record import record_of
from tienlen.engine.rules import RuleSet
from tienlen.engine.verify import verify_record
from tienlen.engine.views import spectator_view, view_of

SEED = bytes(range(32))
CLIENT = [b"an", b"binh", b"", b"chi!"]


def play_out(game: Game) -> None:
    while not game.is_terminal():
        game.apply_action(game.legal_actions()[-1])


def test_a_seeded_table_deals_what_the_scheme_says() -> None:
    rules = RuleSet.preset("thapthanh")
    game = Game.new(rules, 4, server_seed=SEED, client_seeds=CLIENT)
    dealt = deal_game(SEED, CLIENT, 4, redeal_four_twos=rules.redeal_four_twos)
    assert list(game.initial_hands) == dealt.hands
    assert game.deal is not None
    assert game.deal["commitment"] == commitment(SEED)
    assert game.deal["server_seed"] == SEED.hex()
    assert game.deal["client_seeds"] == [c.hex() for c in CLIENT]


def test_a_secure_game_verifies_and_a_tampered_one_does_not() -> None:
    game = Game.new(RuleSet.preset("b52"), 3, secure=True)
    play_out(game)
    data = json.loads(json.dumps(record_of(game).to_dict()))
    assert verify_record(data).ok
    data["hands"][0], data["hands"][1] = data["hands"][1], data["hands"][0]
    assert not verify_record(data).ok


def test_two_secure_games_draw_different_seeds() -> None:
    first = Game.new(RuleSet.preset("thapthanh"), 4, secure=True)
    second = Game.new(RuleSet.preset("thapthanh"), 4, secure=True)
    assert first.deal is not None and second.deal is not None
    assert first.deal["server_seed"] != second.deal["server_seed"]


def test_views_show_the_server_seed_only_after_the_game() -> None:
    game = Game.new(RuleSet.preset("thapthanh"), 4, server_seed=SEED, client_seeds=CLIENT)
    for view in (seat_view_to_dict(view_of(game, 0)), spectator_view_to_dict(spectator_view(game))):
        assert view["deal"]["commitment"] == commitment(SEED)
        assert "server_seed" not in view["deal"]
        assert SEED.hex() not in json.dumps(view)
    play_out(game)
    assert view_of(game, 2).deal == game.deal
    assert spectator_view(game).deal == game.deal


def test_a_snapshot_keeps_the_deal() -> None:
    game = Game.new(RuleSet.preset("sanhrong"), 4, server_seed=SEED, client_seeds=CLIENT)
    game.apply(Action.play(game.current, game.legal_actions()[-1]))
    again = restore_snapshot(json.loads(json.dumps(snapshot_of(game))))
    assert again.deal == game.deal
    assert again.initial_hands == game.initial_hands


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"secure": True, "seed": 3}, "not from a random generator"),
        ({"server_seed": SEED, "seed": 3}, "not from a random generator"),
        ({"client_seeds": [b"x"] * 4}, "need a verifiable deal"),
        ({"server_seed": b"short"}, "32 bytes"),
        ({"server_seed": SEED, "client_seeds": [b"x"]}, "one per seat"),
    ],
)
def test_bad_deal_arguments_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Game.new(RuleSet.preset("thapthanh"), 4, **kwargs)  # type: ignore[arg-type]
