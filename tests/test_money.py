"""Money as data: the facts behind each line, the words made from them, the fee in basis
points, the lobby's rooms, and the one place that prices what decides play (thối, cóng, the
next game's leader after đền bài)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import m
from hypothesis import given, settings
from hypothesis import strategies as st
from test_scoring import play_randomly

from tienlen.bots.strategic import Situation, StrategicPolicy
from tienlen.engine import combos as C
from tienlen.engine.cards import FULL_DECK, parse_mask
from tienlen.engine.errors import IllegalAction
from tienlen.engine.game import PASS, Game
from tienlen.engine.record import parse_record, replay
from tienlen.engine.rules import RuleSet
from tienlen.engine.scoring_rules import SCORING_PRESETS
from tienlen.money.hands import hand_penalties, loss_units, thoi_units
from tienlen.money.items import (
    CardsFacts,
    ChopFacts,
    CongFacts,
    InstantWinFacts,
    Item,
    MultiplierFacts,
    Penalty,
    PlaceFacts,
    ThoiFacts,
)
from tienlen.money.reckoning import den_bai_payer, next_game_after
from tienlen.money.rooms import (
    ROOMS,
    VIP_FEE_CHIPS,
    RoomError,
    can_invite,
    max_bet,
    room,
    vip_points_earned,
)
from tienlen.money.settlement import settle
from tienlen.money.sharing import house_fees, share

RECORDS = Path(__file__).resolve().parent / "records"


def game_of(name: str, ruleset: Any = None) -> Game:
    data = json.loads((RECORDS / f"scoring_{name}.json").read_text("utf-8"))
    if ruleset is not None:
        data["ruleset"] = ruleset
    return replay(parse_record(data))


def items_of(name: str, bet: int = 1) -> list[Item]:
    return settle(game_of(name), bet).items


# --- the facts behind each line ------------------------------------------------------------


def test_a_chop_names_the_bomb_the_play_chopped_and_the_twos() -> None:
    chop = items_of("thapthanh_chop15")[0]
    assert isinstance(chop.facts, ChopFacts)
    f = chop.facts
    assert (f.bomb, f.bomb_category) == (m("4c 4d 5c 5d 6c 6d"), C.PAIRS3)
    assert f.chopped.cards == m("2h")
    assert f.twos == m("2s 2h")
    assert not f.over_chop
    assert [(link.seat, link.category, link.units) for link in f.chain] == [
        (0, C.TWO, 5),
        (1, C.TWO, 10),
    ]
    assert (chop.payer, chop.payee, f.units) == (1, 2, 15)


def test_an_over_chop_names_the_whole_chain() -> None:
    f = items_of("thapthanh_chop35")[0].facts
    assert isinstance(f, ChopFacts)
    assert f.over_chop
    assert (f.bomb_category, f.chopped.cards) == (C.PAIRS4, m("3s 3c 3d 3h"))
    assert [link.category for link in f.chain] == [C.TWO, C.TWO, C.PAIRS3, C.FOUR_KIND]
    assert f.twos == m("2s 2h")
    assert f.units == 35


def test_a_thoi_line_names_the_cards_and_a_count_line_the_number() -> None:
    cards, thoi = items_of("thapthanh_eighteen")
    assert cards.facts == CardsFacts(count=8, per_card=1)
    assert thoi.facts == ThoiFacts(Penalty("pairs", m("4c 4d 5c 5d 6c 6d"), 10))
    assert thoi.facts.penalty.pairs == 3
    twos = [i.facts for i in items_of("sanhrong_two_twos")]
    assert twos == [
        CardsFacts(count=3, per_card=1, others_only=True),
        ThoiFacts(Penalty("black_two", m("2s"), 3)),
        ThoiFacts(Penalty("red_two", m("2h"), 6)),
    ]


def test_multipliers_cong_places_and_instant_wins_keep_their_facts() -> None:
    three_spades = items_of("langvuichoi_three_spades")[1].facts
    assert three_spades == MultiplierFacts(3, 12, "three_spades_finish")
    assert three_spades.units == 24
    cong = [i.facts for i in items_of("sanhrong_cong")]
    assert cong[-1] == MultiplierFacts(2, 15, "cong")
    assert items_of("b52_sweep")[0].facts == CongFacts(26, sweep=True)
    places = [i for i in items_of("bigfun_places") if i.kind == "place"]
    assert [i.facts for i in places] == [PlaceFacts(4, 1, 4, 1), PlaceFacts(3, 2, 4, 1)]
    special = items_of("b52_first_game_special")[0].facts
    assert special == InstantWinFacts(("three_pairs_with_3s",), 22, CardsFacts(11, 1), doubled=True)


def test_den_bai_and_shared_lines_say_for_whom_and_by_how_many() -> None:
    den = items_of("bigfun_den_bai")
    assert [(i.payer, i.for_seat, i.kind, i.facts.what) for i in den[:3]] == [
        (2, 1, "den_bai", "cong"),
        (2, 1, "den_bai", "thoi"),
        (2, None, "cong", "cong"),
    ]
    shared = items_of("langvuichoi_shared_instant")
    assert {i.shared_by for i in shared} == {2}
    assert {i.facts.units for i in shared} == {13}
    assert sorted(i.amount for i in shared) == [6, 6, 7, 7]


def test_cong_paid_as_an_instant_win_loss_says_cong() -> None:
    rules = {"preset": "bigfun", "overrides": {"scoring": {"cong_pays_everyone": True}}}
    line = settle(game_of("bigfun_one_cong", rules)).to_dict()["items"][0]
    assert line["facts"] == {"what": "instant_win", "hands": [], "units": 2, "cong": True}
    assert (line["reason"], line["reason_vi"]) == ("cóng: 2 units", "cóng: 2 cược")


def test_the_json_gives_the_facts_in_ascii_cards_beside_the_words() -> None:
    out = settle(game_of("thapthanh_chop35"), 1000).to_dict()
    chop = out["items"][0]
    assert chop["kind"] == "chop"
    facts = chop["facts"]
    assert facts["what"] == "chop"
    assert parse_mask(facts["bomb"]) == m("7d 7h 8d 8h 9d 9h 10d 10h")
    assert (facts["twos"], facts["chopped"], facts["over_chop"]) == ("2s 2h", "3s 3c 3d 3h", True)
    assert [link["units"] for link in facts["chain"]] == [5, 10, 10, 10]
    assert chop["reason_vi"].startswith("chặt chồng tứ quý (3♠ 3♣ 3♦ 3♥)")
    den = settle(game_of("bigfun_den_bai")).to_dict()["items"][0]
    assert den["facts"] == {"what": "cong", "units": 2, "sweep": False, "for_seat": 1}


def test_the_words_are_made_from_the_facts() -> None:
    line = Item(1, 0, 20, 20, ThoiFacts(Penalty("red_two", m("2d"), 20)))
    assert (line.reason_en, line.reason_vi) == (
        "caught holding red 2 (2♦): 20 cards",
        "thối heo đỏ (2♦): 20 lá",
    )
    other = dataclasses.replace(line, facts=ThoiFacts(Penalty("quad", m("9s 9c 9d 9h"), 3)))
    assert other.reason_vi == "thối tứ quý (9♠ 9♣ 9♦ 9♥): 3 lá"
    in_bets = dataclasses.replace(other, in_cards=False, for_seat=3)
    assert in_bets.reason_vi == "đền bài thay ghế 3: thối tứ quý (9♠ 9♣ 9♦ 9♥): 3 cược"
    assert (
        in_bets.reason_en
        == "đền bài for seat 3: caught holding four of a kind (9♠ 9♣ 9♦ 9♥): 3 units"
    )
    one = dataclasses.replace(line, facts=CongFacts(1), in_cards=False)
    assert (one.reason_en, one.reason_vi) == ("cóng (no card played): 1 unit", "cóng: 1 cược")
    run = Penalty("pairs", m("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c"), 16)
    assert Item(1, 0, 16, 16, ThoiFacts(run)).reason_en.startswith("caught holding 5 consecutive")


# --- the fee in basis points, and short payments ---------------------------------------------


def test_house_fees_are_whole_basis_points_rounded_down() -> None:
    assert house_fees([18_000, -18_000], 600) == [1080, 0]
    assert house_fees([5_000, -5_000], 600) == [300, 0]
    assert house_fees([99, 1, 0, -100], 100) == [0, 0, 0, 0]
    assert house_fees([100, 0], 100) == [1, 0]


@given(st.integers(0, 10**6), st.lists(st.integers(0, 10**5), min_size=1, max_size=8))
@settings(max_examples=200, deadline=None)
def test_short_payments_share_exactly_what_there_is(available: int, owed: list[int]) -> None:
    paid = share(available, owed)
    assert sum(paid) == min(available, sum(owed))
    assert all(0 <= p <= o for p, o in zip(paid, owed, strict=True))
    if available < sum(owed):
        for p, o in zip(paid, owed, strict=True):
            assert abs(p - o * available / sum(owed)) < 1, "within a chip of the proportion"


def test_ties_in_sharing_go_to_the_earlier_debt() -> None:
    assert share(1, [5, 5]) == [1, 0]
    assert share(5000, [8000, 10000]) == [2222, 2778]


# --- rooms: the lobby's data -------------------------------------------------------------------


def test_rooms_are_seed_000s_tiers() -> None:
    assert list(ROOMS) == ["trainee", "tycoon", "vip"]
    tiers = [(r.name_vi, r.min_bet, r.max_bet, r.fee_bp) for r in ROOMS.values()]
    assert tiers == [
        ("Tập sự", 1_000, 5_000, 600),
        ("Đại gia", 5_000, 100_000, 400),
        ("VIP", 200_000, 2_000_000, 200),
    ]
    assert room("trainee").admits(balance=0)
    assert not room("tycoon").admits(balance=199_999)
    assert room("tycoon").admits(balance=200_000)
    assert not room("vip").admits(balance=10**9, vip_points=99)
    assert room("vip").admits(balance=0, vip_points=100)
    assert room("tycoon").allows_bet(5_000) and not room("tycoon").allows_bet(150_000)


@pytest.mark.parametrize(
    ("fee", "finished", "points"),
    [
        (0, True, 1),
        (999, True, 1),
        (1_000, True, 2),
        (2_340, True, 3),
        (5_000, False, 0),
        (0, False, 0),
    ],
)
def test_vip_points_reward_finished_games_and_fees_paid(
    fee: int, finished: bool, points: int
) -> None:
    assert VIP_FEE_CHIPS == 1_000
    assert vip_points_earned(fee, finished=finished) == points


def test_a_hundred_finished_games_open_the_vip_room() -> None:
    vip = ROOMS["vip"]
    assert sum(vip_points_earned(0, finished=True) for _ in range(100)) == vip.min_vip_points


def test_unknown_room_names_the_rooms() -> None:
    with pytest.raises(RoomError, match="room must be one of trainee, tycoon, vip, not 'casino'"):
        room("casino")


def test_table_owner_limits() -> None:
    assert max_bet(50_000) == 5_000
    assert max_bet(9) == 0
    assert can_invite(15_000, 1_000)
    assert not can_invite(14_999, 1_000)


# --- one place for money that decides play ----------------------------------------------------


@given(st.integers(0, (1 << 52) - 1) | st.integers(0, (1 << 52) - 1).map(lambda h: h & h >> 1))
@settings(max_examples=300, deadline=None)
def test_a_hand_with_a_bomb_is_always_charged_for_one(hand: int) -> None:
    counts = [(hand >> (4 * r) & 15).bit_count() for r in range(12)]
    has_bomb = 4 in counts or any(min(counts[r : r + 3]) >= 2 for r in range(10))
    found = hand_penalties(hand, SCORING_PRESETS["thapthanh"])
    assert has_bomb == any(p.kind in ("quad", "pairs") for p in found)


@pytest.mark.parametrize(
    ("cards", "preset", "units"),
    [
        ("2s 2h", "thapthanh", 15),
        ("2s 2c 2d 2h", "sanhrong", 18),  # four heo, not a four of a kind
        ("9s 9c 9d 9h", "langvuichoi", 30),
        ("3s 3c 4s 4c 5s 5c", "b52", 30),  # 3 đôi thông 20 + 3♠ 10
        ("5s 5c 6s 6c 7s 7c 8s 8c 9s 9c", "langvuichoi", 40),
        ("3c 4d 9h", "thapthanh", 0),
    ],
)
def test_thoi_units(cards: str, preset: str, units: int) -> None:
    assert thoi_units(m(cards), SCORING_PRESETS[preset]) == units


@pytest.mark.parametrize(
    ("record", "seat", "cong", "units"),
    [
        ("thapthanh_eighteen", 1, False, 18),
        ("thapthanh_cong", 1, True, 36),
        ("thapthanh_cong", 2, False, 15),
        ("langvuichoi_cong", 1, True, 20),
        ("b52_conversions", 1, False, 81),
        ("b52_sweep", 2, True, 66),
        ("sanhrong_two_twos", 1, False, 12),
        ("sanhrong_cong", 1, True, 30),
    ],
)
def test_loss_units_are_the_seeds_examples(record: str, seat: int, cong: bool, units: int) -> None:
    game = game_of(record)
    hand = game.hands[seat]
    assert loss_units(hand, game.rules.scoring, cong=cong) == units
    paid = sum(i.owed for i in settle(game).items if i.payer == seat and i.kind != "chop")
    assert paid == units


@given(preset=st.sampled_from(["thapthanh", "sanhrong"]), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_loss_units_match_what_settlement_charges(preset: str, seed: int) -> None:
    game = play_randomly(RuleSet.preset(preset), 4, seed)
    result = settle(game)
    if result.void or game.instant_win is not None:
        return
    scoring = game.rules.scoring
    for seat in range(4):
        if seat == game.winner:
            continue
        owed = sum(i.owed for i in result.items if i.payer == seat and i.kind != "chop")
        assert owed == loss_units(game.hands[seat], scoring, cong=seat in game.cong)


def test_the_strategic_bot_prices_thoi_with_the_money(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = RuleSet.preset("b52")
    asked: list[tuple[int, object]] = []

    def spy(cards: int, scoring: object) -> int:
        asked.append((cards, scoring))
        return 0

    monkeypatch.setattr("tienlen.bots.strategic.thoi_units", spy)
    hand = m("3c 4d 7c 9h Jd 2h")
    sit = Situation(
        seat=0,
        hand=hand,
        legal=[PASS, m("Jd"), m("2h")],
        my_turn=True,
        table_code=C.classify(m("10s")),
        table_seat=1,
        unseen=FULL_DECK & ~hand & ~m("10s"),
        cards_left=[6, 2, 9, 9],
        in_game=0b1111,
        played_any=True,
        rules=rules,
        required=0,
    )
    StrategicPolicy().ranked(sit)
    assert asked == [(m("2h"), rules.scoring)]


def test_the_next_game_is_led_by_who_paid_for_the_table() -> None:
    game = game_of("bigfun_den_bai")
    assert den_bai_payer(game) == settle(game).den_bai == 2
    assert game.winner == 0
    start = next_game_after(game)
    assert (start.first_game, start.leader) == (False, 2)
    off = game_of(
        "bigfun_den_bai", {"preset": "bigfun", "overrides": {"scoring": {"den_bai": False}}}
    )
    assert den_bai_payer(off) is None
    assert next_game_after(off).leader == 0
    assert next_game_after(game_of("thapthanh_eighteen")).leader == 0


def test_no_next_game_before_the_end() -> None:
    game = Game.new(RuleSet.preset("bigfun"), 4, seed=3)
    assert not game.over
    assert den_bai_payer(game) is None
    with pytest.raises(IllegalAction, match="not over"):
        next_game_after(game)


def test_play_sessions_take_the_next_leader_from_the_money() -> None:
    import tienlen.cli.play as play

    assert play.next_game_after is next_game_after
    assert not hasattr(play, "next_game"), "the leader after đền bài is read from money/"


@given(preset=st.sampled_from(sorted(SCORING_PRESETS)), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_every_line_is_its_facts_times_the_bet(preset: str, seed: int) -> None:
    game = play_randomly(RuleSet.preset(preset), 4, seed)
    split: dict[int, list[Item]] = {}
    for item in settle(game, bet=7).items:
        assert item.units >= 0
        if item.shared_by == 1:
            assert item.owed == 7 * item.units
        else:  # the pieces of one loser's line, split between instant winners
            split.setdefault(id(item.facts), []).append(item)
        json.dumps(item.to_dict(), ensure_ascii=False)
    for pieces in split.values():
        assert sum(p.owed for p in pieces) == 7 * pieces[0].units
        assert len({p.payer for p in pieces}) == 1
        assert max(p.owed for p in pieces) - min(p.owed for p in pieces) <= 1


# --- the settlement's wire types ---------------------------------------------------------------


def test_every_settlement_is_typed_by_its_schema() -> None:
    """``Settlement.to_dict()`` is what the schemas type a ``settlement`` as
    (:mod:`tienlen.money.wire`): the seeds' worked examples and random games, every kind of
    line, đền bài and shared lines, a void game's notes."""
    from pydantic import TypeAdapter, ValidationError

    from tienlen.money.wire import Settlement as SettlementDict

    adapter = TypeAdapter(SettlementDict)
    games = [game_of(path.stem.removeprefix("scoring_")) for path in RECORDS.glob("scoring_*.json")]
    games += [
        play_randomly(RuleSet.preset(preset), n, seed)
        for preset in sorted(SCORING_PRESETS)
        for n in (2, 3, 4)
        for seed in range(40)
    ]
    whats: set[str] = set()
    extras: set[str] = set()
    for game in games:
        out = json.loads(json.dumps(settle(game, bet=1000, fee_bp=600).to_dict()))
        assert adapter.validate_python(out) == out
        for item in out["items"]:
            whats.add(item["facts"]["what"])
            extras |= {"for_seat", "shared_by", "notes"} & set(item["facts"])
        if "notes" in out:
            extras.add("notes")
    kinds = {"chop", "cards", "thoi", "cong", "multiplier", "instant_win", "place"}
    assert whats == kinds and extras == {"for_seat", "shared_by", "notes"}, (whats, extras)
    paid = next(out for game in games if (out := settle(game, bet=1000).to_dict())["items"])
    with pytest.raises(ValidationError):
        adapter.validate_python(paid | {"secret": 1})
    item = paid["items"][0]
    with pytest.raises(ValidationError):
        adapter.validate_python(paid | {"items": [item | {"facts": item["facts"] | {"what": "x"}}]})
