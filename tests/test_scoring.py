"""Settlement: hand reading (thối), options, errors, and invariants on random games.

The seeds' worked examples are in test_scoring_records.py; this module checks the pieces and
the promises that hold for every game: chips are conserved (deltas plus the fee sum to zero),
nobody pays more than their balance, and a record carries everything settlement needs.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import m
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tienlen.cli import app
from tienlen.engine.codec import summary_of
from tienlen.engine.game import PASS, Game
from tienlen.engine.record import RecordError, parse_record, record_of, replay
from tienlen.engine.rules import PRESETS, RuleSet, RuleSetError
from tienlen.engine.scoring_rules import SCORING_PRESETS, ScoringRules
from tienlen.money.hands import hand_penalties
from tienlen.money.settlement import Settlement, SettlementError, replay_fields, settle
from tienlen.money.words import penalty_name

RECORDS = Path(__file__).resolve().parent / "records"


def record_data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"scoring_{name}.json").read_text("utf-8"))
    return data


def game_of(name: str, ruleset: Any = None) -> Game:
    """A stored scoring record replayed, optionally under another rule set."""
    data = record_data(name)
    if ruleset is not None:
        data["ruleset"] = ruleset
    return replay(parse_record(data))


def penalties(hand: str, preset: str) -> list[tuple[str, int, int]]:
    found = hand_penalties(m(hand), SCORING_PRESETS[preset])
    return sorted((penalty_name(p)[1], p.units, p.cards) for p in found)


# --- reading a hand for thối ---------------------------------------------------------------


def test_each_two_is_a_heo_at_its_colour() -> None:
    assert penalties("2s 2h 5d", "thapthanh") == [
        ("heo đen", 5, m("2s")),
        ("heo đỏ", 10, m("2h")),
    ]
    assert penalties("2c 2d", "b52") == [("heo đen", 10, m("2c")), ("heo đỏ", 20, m("2d"))]


def test_four_twos_count_as_four_heo_not_a_four_of_a_kind() -> None:
    assert [units for _, units, _ in penalties("2s 2c 2d 2h", "sanhrong")] == [3, 3, 6, 6]


def test_the_reading_that_charges_most_wins() -> None:
    # 44 5555 66 77: four 5s (×30) or 44-55-66-77 (×40), not both.
    assert penalties("4s 4c 5s 5c 5d 5h 6s 6c 7s 7c", "langvuichoi") == [
        ("4 đôi thông", 40, m("4s 4c 5s 5c 6s 6c 7s 7c"))
    ]
    # 44 5555 66: four 5s (×30) beats 44-55-66 (×15).
    assert penalties("4s 4c 5s 5c 5d 5h 6s 6c", "langvuichoi") == [("tứ quý", 30, m("5s 5c 5d 5h"))]


def test_a_run_of_pairs_counts_once_at_its_length() -> None:
    six = "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c"
    assert penalties(six, "sanhrong") == [("6 đôi thông", 16, m(six))]
    two_runs = "3s 3c 4s 4c 5s 5c 8s 8c 9s 9c 10s 10c"
    assert [units for _, units, _ in penalties(two_runs, "sanhrong")] == [12, 12]
    assert penalties("3s 3c 4s 4c 6s 6c", "sanhrong") == []


def test_three_of_spades_is_charged_even_inside_a_bomb() -> None:
    assert penalties("3s 3c 4s 4c 5s 5c", "b52") == [
        ("3 bích", 10, m("3s")),
        ("3 đôi thông", 20, m("3s 3c 4s 4c 5s 5c")),
    ]
    assert penalties("3s", "thapthanh") == []


@given(st.integers(0, (1 << 52) - 1), st.sampled_from(sorted(SCORING_PRESETS)))
@settings(max_examples=200, deadline=None)
def test_penalties_use_only_held_cards_each_once(hand: int, preset: str) -> None:
    found = hand_penalties(hand, SCORING_PRESETS[preset])
    used = 0
    for p in found:
        assert p.cards & ~hand == 0
        assert p.units > 0
        if p.kind != "three_spades":
            assert p.cards & used == 0, "no card in two bombs or heo"
            used |= p.cards


# --- options ---------------------------------------------------------------------------------


def test_chops_do_not_pay_where_only_the_hands_at_the_end_count() -> None:
    game = game_of("thapthanh_chop25", "b52")
    assert summary_of(game)["chops"], "the chops were made"
    assert all(item.kind != "chop" for item in settle(game).items)


def test_chop_money_can_be_switched_on_for_sanhrong() -> None:
    rules = {"preset": "sanhrong", "overrides": {"scoring": {"chop_pays": True}}}
    chops = [i for i in settle(game_of("thapthanh_chop15", rules)).items if i.kind == "chop"]
    assert [(i.payer, i.payee, i.amount) for i in chops] == [(1, 2, 3 + 6)]


def test_den_bai_off_each_cong_player_pays_their_own() -> None:
    rules = {"preset": "bigfun", "overrides": {"scoring": {"den_bai": False}}}
    result = settle(game_of("bigfun_den_bai", rules))
    assert result.deltas == [16, -3, -9, -4]
    assert result.den_bai is None


def test_no_den_bai_when_nobody_could_beat() -> None:
    # Every loser cóng, but each pass was forced: each pays their own cóng, 2 + their heo.
    hands = [
        "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2h",
        "3c 3d 5c 6h 7c 7d 9c 9d Jc Qc Kc Ac 2c",
        "4c 4d 6c 6d 8c 8d 10c 10d Jd Qd Kd Ad 2d",
        "3h 4h 5h 5d 7h 8h 9h 10h Jh Qh Kh Ah 2s",
    ]
    game = Game(RuleSet.preset("bigfun"), hands)
    game.play("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As", 0)
    for seat in (1, 2, 3):
        game.pass_turn(seat)
    game.play("2h", 0)
    assert game.cong == (1, 2, 3)
    result = settle(game)
    assert result.den_bai is None
    assert result.deltas == [10, -3, -4, -3]


def test_cong_counted_like_any_loss_when_the_rule_set_says_so() -> None:
    rules = {"preset": "thapthanh", "overrides": {"scoring": {"cong_units": None}}}
    result = settle(game_of("thapthanh_cong", rules), bet=100)
    # Seat 1 never played: 13 cards + red 2 10, instead of 26 + 10.
    assert result.deltas == [3800, -2300, -1500]


def test_cong_pays_everyone_reckoning() -> None:
    # Seed 004's other reckoning: the cóng player pays an instant-win loss (2) to the first and
    # to each player not cóng; places and thối are not paid.
    rules = {"preset": "bigfun", "overrides": {"scoring": {"cong_pays_everyone": True}}}
    result = settle(game_of("bigfun_one_cong", rules), bet=10)
    assert result.deltas == [20, 20, 20, -60]
    assert {i.kind for i in result.items} == {"instant_win"}


def test_place_payouts_are_configurable() -> None:
    rules = RuleSet.preset("bigfun", scoring={"place_units": [3, 1]})
    assert rules.scoring.place_units == (3, 1)
    assert RuleSet.preset("bigfun").scoring.place_units == (1, 1)
    data = record_data("bigfun_places")
    data["ruleset"] = rules.to_spec()
    game = replay(parse_record(json.loads(json.dumps(data))))
    # bét pays nhất 3 + thối 2; ba pays nhì 1.
    assert settle(game).deltas == [1, -1, -5, 5]


def test_the_house_fee_is_given_to_settle_not_the_rule_set() -> None:
    game = game_of("thapthanh_eighteen")
    assert settle(game, bet=1000).fee == 0, "no fee unless one is given: a friendly table"
    with_fee = settle(game, bet=1000, fee_bp=400)
    assert (with_fee.fee, with_fee.fee_bp, with_fee.deltas) == (720, 400, [17280, -18000])
    rules = {"preset": "thapthanh", "overrides": {"scoring": {"house_fee_percent": 4}}}
    with pytest.raises(RecordError, match="unknown scoring option"):
        game_of("thapthanh_eighteen", rules)


def test_fee_is_in_basis_points_rounded_down_per_winner() -> None:
    game = game_of("thapthanh_eighteen")
    assert settle(game, bet=1, fee_bp=600).fees == [1, 0]  # 18 × 6 % = 1.08
    assert settle(game, bet=1000, fee_bp=250).fees == [450, 0]
    assert settle(game, bet=7, fee_bp=3330).fees == [41, 0]  # 126 × 0.333 = 41.958
    assert settle(game, bet=7, fee_bp=1).fees == [0, 0]  # 126 × 0.01 % = 0.0126
    assert settle(game, bet=10_000, fee_bp=1).fees == [18, 0]
    assert settle(game, bet=1, fee_bp=9999).fees == [17, 0]  # 17.998


@pytest.mark.parametrize(
    ("scoring", "message"),
    [
        ({"card": -1}, "card must be a whole number"),
        ({"red_two": 2.5}, "red_two must be a whole number"),
        ({"cong_units": "26"}, "cong_units must be"),
        ({"cong_multiplier": 0}, "cong_multiplier must be a whole number, 1 or more"),
        ({"penalty_counting": "times"}, "penalty_counting must be"),
        ({"place_units": [1, -1]}, "place_units must be"),
        ({"house_fee_percent": 4}, "unknown scoring option"),
        ({"chop_pays": "yes"}, "chop_pays must be true or false"),
    ],
)
def test_bad_scoring_options_are_refused(scoring: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleSetError, match=message):
        RuleSet.preset("thapthanh", scoring=scoring)


def test_every_preset_has_valid_scoring() -> None:
    assert set(SCORING_PRESETS) == set(PRESETS)
    for name, rules in PRESETS.items():
        assert rules.scoring is SCORING_PRESETS[name]
        assert rules.scoring.problems() == []
    assert ScoringRules().problems() == []


# --- errors ----------------------------------------------------------------------------------


def test_an_unfinished_game_is_not_settled() -> None:
    game = Game.new(RuleSet.preset("thapthanh"), 4, seed=1)
    if game.is_terminal():  # pragma: no cover - seed 1 deals no instant win
        pytest.fail("seed 1 should not end at the deal")
    with pytest.raises(SettlementError, match="not over"):
        settle(game)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bet": 0}, "bet must be a positive"),
        ({"bet": True}, "bet must be a positive"),
        ({"bet": 1.5}, "bet must be a positive"),
        ({"balances": [10]}, "balances must list 2 seats"),
        ({"balances": [10, -1]}, r"balances\[1\] must be"),
        ({"balances": [10, True]}, r"balances\[1\] must be"),
        ({"fee_bp": -1}, "house fee must be"),
        ({"fee_bp": 10_000}, "house fee must be"),
        ({"fee_bp": 6.0}, "house fee must be"),
        ({"fee_bp": float("inf")}, "house fee must be"),
        ({"fee_bp": "600"}, "house fee must be"),
        ({"fee_bp": True}, "house fee must be"),
    ],
)
def test_bad_settlement_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(SettlementError, match=message):
        settle(game_of("thapthanh_eighteen"), **kwargs)


def run_cli(data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(app, ["replay", "-"], input=json.dumps(data))
    out: dict[str, Any] = json.loads(result.output)
    return result.exit_code, out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"room": "casino"}, "room must be one of trainee, tycoon, vip"),
        ({"balances": "lots"}, "balances must be a list"),
        ({"balances": [1, 2, 3]}, "balances must list 2 seats"),
        ({"house_fee_bp": 10_000}, "house fee must be"),
        ({"house_fee_bp": 6.5}, "house fee must be"),
        ({"house_fee_percent": 150}, "house fee must be"),
        ({"house_fee_percent": 2.345}, "not a whole number of basis points"),
        ({"house_fee_percent": float("inf")}, "house_fee_percent must be a finite number"),
        ({"house_fee_percent": "6"}, "house_fee_percent must be a number"),
        ({"house_fee_percent": 6, "house_fee_bp": 600}, "not both"),
    ],
)
def test_replay_refuses_bad_money_fields(extra: dict[str, Any], message: str) -> None:
    data = record_data("thapthanh_eighteen") | extra
    code, out = run_cli(data)
    assert code == 2
    assert out["error"]["code"] == "bad_record"
    assert message in out["error"]["message"]


def test_replay_fee_field_overrides_the_room() -> None:
    data = record_data("thapthanh_eighteen") | {"room": "vip", "house_fee_bp": 0}
    code, out = run_cli(data)
    assert code == 0
    assert (out["fee"], out["fee_bp"]) == (0, 0)
    code, out = run_cli(record_data("thapthanh_eighteen") | {"room": "tycoon"})
    assert (out["fee"], out["fee_bp"]) == (720, 400)


def test_replay_reads_an_old_records_fee_in_percent_as_basis_points() -> None:
    for percent, bp, fee in ((6, 600, 1080), (2.5, 250, 450), (0.01, 1, 1)):
        code, out = run_cli(record_data("thapthanh_eighteen") | {"house_fee_percent": percent})
        assert code == 0
        assert (out["fee_bp"], out["fee"]) == (bp, fee)
    data = record_data("thapthanh_eighteen") | {"room": "trainee", "house_fee_percent": 2}
    assert run_cli(data)[1]["fee_bp"] == 200


def test_unfinished_record_prints_no_settlement() -> None:
    data = record_data("thapthanh_eighteen")
    data["actions"] = data["actions"][:3]
    code, out = run_cli(data)
    assert code == 0
    assert out["over"] is False
    assert "deltas" not in out


def test_settlement_to_dict_is_the_replay_contract() -> None:
    game = game_of("thapthanh_chop15")
    data = record_data("thapthanh_chop15")
    fields = replay_fields(game, parse_record(data))
    assert fields == settle(game, bet=1000).to_dict()
    assert set(fields) >= {"deltas", "items", "fee", "fees", "bet"}
    assert set(fields["items"][0]) == {
        "payer",
        "payee",
        "amount",
        "owed",
        "reason",
        "reason_vi",
        "kind",
        "facts",
    }


# --- short payments ------------------------------------------------------------------------


def test_chop_money_moves_first_and_can_fund_the_end() -> None:
    # Seat 1 pays the chop 15 then cards; with 20 chips it pays the chop in full and shares
    # the 5 left over its 27 of end-of-game debts (12 cards, 5 and 10 thối) in proportion.
    game = game_of("thapthanh_chop15")
    result = settle(game, bet=1, balances=[100, 20, 0, 100])
    seat1 = [(i.amount, i.owed) for i in result.items if i.payer == 1]
    assert seat1 == [(15, 15), (2, 12), (1, 5), (2, 10)]
    # Seat 2 started with nothing but won 15 from the chop before the end.
    assert result.deltas == [-22, -20, 64, -22]


def test_a_player_with_no_chips_pays_nothing() -> None:
    result = settle(game_of("thapthanh_eighteen"), bet=1000, balances=[0, 0])
    assert result.deltas == [0, 0]
    assert [i.owed for i in result.items] == [8000, 10000]


# --- random games ----------------------------------------------------------------------------


def clustered_deal(rng: random.Random, n: int) -> list[int]:
    """Ranks dealt in runs, so bombs, heo and instant wins are common."""
    deck = list(range(52))
    if rng.random() < 0.35:
        blocks = [deck[i : i + 8] for i in range(0, 52, 8)]
        for block in blocks:
            rng.shuffle(block)
        rng.shuffle(blocks)
        deck = [c for block in blocks for c in block]
        for _ in range(rng.randrange(0, 12)):
            i, j = rng.randrange(52), rng.randrange(52)
            deck[i], deck[j] = deck[j], deck[i]
    else:
        rng.shuffle(deck)
    return [sum(1 << c for c in deck[13 * s : 13 * s + 13]) for s in range(n)]


def play_randomly(rules: RuleSet, n: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(
        rules,
        clustered_deal(rng, n),
        first_game=rng.random() < 0.5,
        leader=rng.randrange(n),
    )
    leave_rate = rng.choice([0.0, 0.0, 0.02, 0.1])
    passive = {s for s in range(n) if rng.random() < 0.3}
    """Seats that pass whenever they may: they end cóng unless they lead."""
    while not game.is_terminal():
        seats = [s for s in range(n) if game.in_game >> s & 1]
        if rng.random() < leave_rate:
            game.leave(rng.choice(seats))
            continue
        if rules.four_pairs_out_of_turn and rng.random() < 0.5:
            others = [(s, a) for s in seats for a in game.legal_actions(s) if s != game.current]
            if others:
                seat, action = rng.choice(others)
                game.apply_action(action, seat)
                continue
        if rng.random() < 0.03:
            game.timeout()
            continue
        actions = game.legal_actions()
        plays = [a for a in actions if a != PASS]
        bombs = [a for a in plays if a.bit_count() >= 6 or (a >> 48 and a.bit_count() < 4)]
        if game.current in passive and PASS in actions:
            game.apply_action(PASS)
        elif bombs and rng.random() < 0.7:
            game.apply_action(rng.choice(bombs))
        elif plays and (PASS not in actions or rng.random() < 0.7):
            game.apply_action(rng.choice(plays))
        else:
            game.apply_action(actions[0])
    return game


def check_settlement(
    game: Game, result: Settlement, balances: list[int] | None, fee_bp: int
) -> None:
    n = game.n
    assert sum(result.deltas) + result.fee == 0
    assert sum(result.fees) == result.fee
    net = [0] * n
    for item in result.items:
        assert 0 <= item.payer < n and 0 <= item.payee < n and item.payer != item.payee
        assert 0 <= item.amount <= item.owed
        if balances is None:
            assert item.amount == item.owed
        net[item.payer] -= item.amount
        net[item.payee] += item.amount
    fraction = Fraction(fee_bp, 10_000)
    for seat in range(n):
        assert result.fees[seat] == (math.floor(net[seat] * fraction) if net[seat] > 0 else 0)
        assert result.deltas[seat] == net[seat] - result.fees[seat]
        if balances is not None:
            assert -result.deltas[seat] <= balances[seat], "nobody loses more than they hold"
    if result.void:
        assert result.items == [] and result.deltas == [0] * n


@given(
    preset=st.sampled_from(sorted(PRESETS)),
    n=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    bet=st.sampled_from([1, 7, 1000]),
    balances=st.none() | st.lists(st.integers(0, 400), min_size=4, max_size=4),
    fee_bp=st.sampled_from([0, 1, 200, 400, 600, 250, 9950, 9999]),
)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_games_conserve_chips_and_respect_balances(
    preset: str,
    n: int,
    seed: int,
    bet: int,
    balances: list[int] | None,
    fee_bp: int,
) -> None:
    game = play_randomly(RuleSet.preset(preset), n, seed)
    chips = None if balances is None else [b * bet // 10 for b in balances[:n]]
    result = settle(game, bet=bet, balances=chips, fee_bp=fee_bp)
    check_settlement(game, result, chips, fee_bp)
    # The same game through its record settles identically.
    extra: dict[str, Any] = {"house_fee_bp": fee_bp}
    if chips is not None:
        extra["balances"] = chips
    record = parse_record(record_of(game, bet=bet, extra=extra).to_dict())
    assert replay_fields(replay(record), record) == result.to_dict()
    json.dumps(result.to_dict())


@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_without_limits_losers_pay_the_winner(preset: str, seed: int) -> None:
    rules = RuleSet.preset(preset)
    game = play_randomly(rules, 4, seed)
    result = settle(game)
    if result.void:
        return
    winner = game.winner
    assert winner is not None
    end = [i for i in result.items if i.kind != "chop"]
    if rules.full_ranking:
        # Places flow up the ranking; cóng and thối go to the first.
        place = {seat: k for k, seat in enumerate(game.ranking)}
        for item in end:
            if item.kind == "place":
                assert place[item.payee] < place[item.payer]
            else:
                assert item.payee == game.ranking[0]
    else:
        # Nhất ăn cả: every end-of-game payment goes to the winner (or the instant winners).
        winners = game.instant_win.seats if game.instant_win else (winner,)
        assert all(i.payee in winners and i.payer not in winners for i in end)
        assert {i.payer for i in end} <= set(range(4)) - set(winners)
