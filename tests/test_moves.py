"""Legal plays (moves.py): leading lists every distinct card set once; beating lists only
higher plays of the same kind and length, plus the chops the rule set allows."""

from __future__ import annotations

import random

import pytest
from conftest import m
from hypothesis import given, settings
from hypothesis import strategies as st

from tienlen.engine import combos as C
from tienlen.engine.cards import FULL_DECK, cards_of, mask_of, mask_str
from tienlen.engine.moves import (
    beating_plays,
    chopping_plays,
    has_runs,
    leading_plays,
    ranks_with,
    runs,
    sets,
)
from tienlen.engine.rules import RuleSet

THAPTHANH = RuleSet.preset("thapthanh")
SANHRONG = RuleSet.preset("sanhrong")


def strs(plays: list[int]) -> set[str]:
    return {mask_str(p) for p in plays}


def brute_force_plays(hand: int, rules: RuleSet) -> list[int]:
    """Every subset of the hand that the rule set knows as a combination."""
    cards = cards_of(hand)
    out = []
    for bits in range(1, 1 << len(cards)):
        mask = mask_of(c for i, c in enumerate(cards) if bits >> i & 1)
        code = C.classify(mask)
        if code and rules.allows(code):
            out.append(mask)
    return out


# --- leading ------------------------------------------------------------------------------
def test_leading_lists_each_card_set_once() -> None:
    hand = m("3s 3c 4s 5s")
    plays = leading_plays(hand, THAPTHANH)
    assert len(plays) == len(set(plays))
    assert strs(plays) == {
        "3♠",
        "3♣",
        "4♠",
        "5♠",
        "3♠ 3♣",
        # One straight 3-4-5 per choice of 3: two distinct plays.
        "3♠ 4♠ 5♠",
        "3♣ 4♠ 5♠",
    }


def test_leading_a_straight_with_several_suit_choices_is_several_plays() -> None:
    hand = m("3s 3h 4c 4d 5s")
    straights = [p for p in leading_plays(hand, THAPTHANH) if C.kind_of(C.classify(p)) == 4]
    assert strs(straights) == {"3♠ 4♣ 5♠", "3♠ 4♦ 5♠", "3♥ 4♣ 5♠", "3♥ 4♦ 5♠"}


def test_leading_lists_every_set_and_sub_set_of_a_quad() -> None:
    plays = leading_plays(m("9s 9c 9d 9h"), THAPTHANH)
    by_size = [sum(1 for p in plays if p.bit_count() == k) for k in (1, 2, 3, 4)]
    assert by_size == [4, 6, 4, 1]


def test_leading_lists_runs_of_every_length_but_never_through_a_2() -> None:
    plays = strs(leading_plays(m("Js Qs Ks As 2s"), THAPTHANH))
    assert {"J♠ Q♠ K♠", "Q♠ K♠ A♠", "J♠ Q♠ K♠ A♠"} <= plays
    assert not any("2♠" in p and len(p.split()) > 1 for p in plays)


def test_leading_lists_consecutive_pairs_and_the_min_straight_option() -> None:
    hand = m("3s 3c 4s 4c 5s 5c 6s")
    plays = leading_plays(hand, THAPTHANH)
    assert "3♠ 3♣ 4♠ 4♣ 5♠ 5♣" in strs(plays)
    longer_only = leading_plays(hand, THAPTHANH.replace(min_straight=4))
    assert not [p for p in longer_only if C.classify(p) >> 8 == (C.STRAIGHT << 8) | 3]
    assert [p for p in longer_only if C.kind_of(C.classify(p)) == C.STRAIGHT]


def test_leading_an_empty_hand_has_no_plays() -> None:
    assert leading_plays(0, THAPTHANH) == []


# --- beating ------------------------------------------------------------------------------
def beat(hand: str, table: str, rules: RuleSet = THAPTHANH) -> set[str]:
    plays = beating_plays(m(hand), C.classify(m(table)), rules)
    assert len(plays) == len(set(plays))
    return strs(plays)


def test_beating_a_single_lists_only_higher_singles() -> None:
    assert beat("3s 7c 7h 9d Ks", "7d") == {"7♥", "9♦", "K♠"}


def test_beating_a_pair_uses_the_top_card_and_suit() -> None:
    assert beat("8s 8c 8h 9s 9d", "5s 5c") == {
        "8♠ 8♣",
        "8♠ 8♥",
        "8♣ 8♥",
        "9♠ 9♦",
    }
    # Against 8♠8♦ only pairs topped above 8♦ count: those with 8♥.
    assert beat("8c 8h 9s 9d", "8s 8d") == {"8♣ 8♥", "9♠ 9♦"}


def test_beating_a_straight_needs_the_same_length() -> None:
    hand = "5s 6s 7s 8s 9s"
    assert beat(hand, "4c 5c 6c") == {"5♠ 6♠ 7♠", "6♠ 7♠ 8♠", "7♠ 8♠ 9♠"}
    assert beat(hand, "5c 6c 7c 8c") == {"6♠ 7♠ 8♠ 9♠"}  # 5♠…8♠ loses to 8♣
    assert beat(hand, "6h 7h 8h 9h") == set()


def test_beating_ordinary_plays_offers_no_bombs() -> None:
    assert beat("9s 9c 9d 9h 3s 3c 4s 4c 5s 5c", "As") == set()


def test_beating_a_single_two_offers_higher_twos_and_every_chop() -> None:
    hand = "2h 3s 3c 4s 4c 5s 5c 9s 9c 9d 9h"
    plays = beat(hand, "2d")
    assert "2♥" in plays
    assert "3♠ 3♣ 4♠ 4♣ 5♠ 5♣" in plays
    assert "9♠ 9♣ 9♦ 9♥" in plays
    assert len(plays) == 3


def test_beating_a_pair_of_twos_never_offers_three_consecutive_pairs() -> None:
    hand = "3s 3c 4s 4c 5s 5c 9s 9c 9d 9h"
    assert beat(hand, "2d 2h") == {"9♠ 9♣ 9♦ 9♥"}
    assert beat(hand, "2d 2h", SANHRONG) == set()


def test_beating_three_consecutive_pairs() -> None:
    hand = "6s 6c 7s 7c 8s 8c 9s 9c 9d 9h"
    plays = beat(hand, "4d 4h 5d 5h 6d 6h")
    assert "6♠ 6♣ 7♠ 7♣ 8♠ 8♣" in plays
    assert "7♠ 7♣ 8♠ 8♣ 9♠ 9♣" in plays
    assert "9♠ 9♣ 9♦ 9♥" in plays
    assert "6♠ 6♣ 7♠ 7♣ 8♠ 8♣ 9♠ 9♣" in plays  # 4 consecutive pairs chop 3
    assert "9♠ 9♣ 9♦ 9♥" not in beat(hand, "4d 4h 5d 5h 6d 6h", SANHRONG)


def test_beating_four_of_a_kind() -> None:
    hand = "Js Jc Jd Jh 3s 3c 4s 4c 5s 5c 6d 6h"
    assert beat(hand, "10s 10c 10d 10h") == {"J♠ J♣ J♦ J♥", "3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♦ 6♥"}
    assert beat(hand, "Qs Qc Qd Qh") == {"3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♦ 6♥"}


def test_chopping_plays_keeps_only_the_named_categories() -> None:
    hand = m("2h 3s 3c 4s 4c 5s 5c 6d 6h 9s 9c 9d 9h")
    code = C.classify(m("2d"))
    chops = chopping_plays(hand, code, THAPTHANH, (C.PAIRS4, C.PAIRS5, C.PAIRS6))
    assert strs(chops) == {"3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♦ 6♥"}


def test_ranks_with_and_sets_helpers() -> None:
    hand = m("3s 3c 3d 5h 7s 7c 7d 7h")
    assert ranks_with(hand, 1) == 1 | 1 << 8 | 1 << 16
    assert ranks_with(hand, 2) == 1 | 1 << 16
    assert ranks_with(hand, 3) == 1 | 1 << 16
    assert ranks_with(hand, 4) == 1 << 16
    triples = m("7s 7c 7d 8s 8c 8h")
    assert strs(sets(triples, 3, above=m("7h").bit_length() - 1)) == {"8♠ 8♣ 8♥"}
    assert strs(sets(triples, 3, above=m("6h").bit_length() - 1)) == {"7♠ 7♣ 7♦", "8♠ 8♣ 8♥"}


# --- against brute force ----------------------------------------------------------------------
def _window_hand(low_rank: int) -> st.SearchStrategy[int]:
    pool = list(range(4 * low_rank, min(52, 4 * low_rank + 24)))
    return st.lists(st.sampled_from(pool), min_size=13, max_size=13, unique=True).map(mask_of)


HANDS = st.one_of(
    st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True).map(mask_of),
    st.integers(0, 7).flatmap(_window_hand),
)
RULES = st.sampled_from(
    [THAPTHANH, SANHRONG, RuleSet.preset("bigfun"), THAPTHANH.replace(min_straight=5)]
)


@settings(max_examples=25, deadline=None)
@given(hand=HANDS, rules=RULES, seed=st.integers(0, 2**16))
def test_moves_match_brute_force(hand: int, rules: RuleSet, seed: int) -> None:
    every = brute_force_plays(hand, rules)
    leading = leading_plays(hand, rules)
    assert len(leading) == len(set(leading))
    assert sorted(leading) == sorted(every)

    # Table plays: the combinations of an opponent's hand from the rest of the deck.
    rng = random.Random(seed)
    rest = cards_of(FULL_DECK & ~hand)
    rng.shuffle(rest)
    opponent = brute_force_plays(mask_of(rest[:13]), rules)
    by_code = {C.classify(p): p for p in opponent}
    codes = sorted(by_code)
    bombs_and_twos = [c for c in codes if C.category(c) is not None]
    for code in rng.sample(codes, min(20, len(codes))) + bombs_and_twos:
        beating = beating_plays(hand, code, rules)
        assert len(beating) == len(set(beating))
        expected = [p for p in every if rules.beats(C.classify(p), code)]
        assert sorted(beating) == sorted(expected), mask_str(by_code[code])


@pytest.mark.parametrize("hand_seed", range(3))
def test_bomb_rich_hands_match_brute_force(hand_seed: int) -> None:
    """Hands dense in pairs and quads, where every chop path is taken."""
    rng = random.Random(hand_seed)
    pool = list(range(4 * 4, 4 * 10))  # 7 through Q: four of a kind and long pair runs
    hand = mask_of(rng.sample(pool, 13))
    every = brute_force_plays(hand, THAPTHANH)
    for table in ("2s", "2c 2d", "3s 3c 4s 4c 5s 5c", "3s 3c 3d 3h", "3d 3h 4d 4h 5d 5h 6s 6c"):
        code = C.classify(m(table))
        expected = [p for p in every if THAPTHANH.beats(C.classify(p), code)]
        assert sorted(beating_plays(hand, code, THAPTHANH)) == sorted(expected)


def documented_order(play: int) -> tuple[int, int, int, list[int]]:
    """Where a play stands in the lists: sets rank by rank (singles, pairs, triples, the quad,
    each by its cards), then straights, then runs of pairs, each by top rank, then length, then
    their cards rank by rank from the lowest."""
    code = C.classify(play)
    kind, length, top = C.kind_of(code), C.length_of(code), C.top_of(code)
    by_rank = [play & 15 << (4 * r) for r in range(13) if play >> (4 * r) & 15]
    if kind in (C.SINGLE, C.PAIR, C.TRIPLE, C.QUAD):
        return (0, top >> 2, length, by_rank)
    return (1 if kind == C.STRAIGHT else 2, top >> 2, length, by_rank)


@settings(max_examples=100, deadline=None)
@given(hand=HANDS, rules=RULES, per_rank=st.sampled_from([1, 2]), above=st.integers(-1, 51))
def test_plays_come_in_the_documented_order(
    hand: int, rules: RuleSet, per_rank: int, above: int
) -> None:
    """Random players draw a play by its place in these lists, so the order is part of the
    behaviour (seeded games replay the same): it must not change with the implementation."""
    leading = leading_plays(hand, rules)
    assert leading == sorted(leading, key=documented_order)
    for length in range(3, 7):
        found = runs(hand, per_rank, length, above)
        assert found == sorted(found, key=documented_order)


@settings(max_examples=200, deadline=None)
@given(
    hand=st.one_of(HANDS, st.lists(st.integers(0, 51), max_size=20, unique=True).map(mask_of)),
    per_rank=st.sampled_from([1, 2]),
    length=st.integers(3, 12),
    above=st.integers(-1, 51),
)
def test_has_runs_says_whether_runs_finds_any(
    hand: int, per_rank: int, length: int, above: int
) -> None:
    assert has_runs(hand, per_rank, length, above) == bool(runs(hand, per_rank, length, above))
