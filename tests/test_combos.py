"""Combinations: what a set of cards is, and how plays of one kind compare (RULES.md §1)."""

from __future__ import annotations

import pytest
from conftest import m

from tienlen.engine import combos as C
from tienlen.engine.cards import RANK_TWO, card_str, parse_card
from tienlen.engine.rules import RuleSet

STANDARD = RuleSet.preset("thapthanh")


def kind_length_top(text: str) -> tuple[int, int, str]:
    code = C.classify(m(text))
    return C.kind_of(code), C.length_of(code), card_str(C.top_of(code))


@pytest.mark.parametrize(
    ("cards", "kind", "length", "top"),
    [
        ("3s", C.SINGLE, 1, "3♠"),
        ("2h", C.SINGLE, 1, "2♥"),
        ("4d 4h", C.PAIR, 2, "4♥"),
        ("2s 2c", C.PAIR, 2, "2♣"),
        ("9s 9c 9h", C.TRIPLE, 3, "9♥"),
        ("2s 2d 2h", C.TRIPLE, 3, "2♥"),
        ("3s 4c 5d", C.STRAIGHT, 3, "5♦"),
        ("Qh Kd As", C.STRAIGHT, 3, "A♠"),
        ("7s 8s 9s 10s", C.STRAIGHT, 4, "10♠"),
        ("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks Ah", C.STRAIGHT, 12, "A♥"),
        ("Jc Js", C.PAIR, 2, "J♣"),
        ("5s 5c 5d 5h", C.QUAD, 4, "5♥"),
        ("2s 2c 2d 2h", C.QUAD, 4, "2♥"),
        ("3s 3c 4d 4h 5s 5h", C.PAIRS, 3, "5♥"),
        ("Qs Qc Kd Kh As Ac", C.PAIRS, 3, "A♣"),
        ("6s 6c 7d 7h 8s 8h 9c 9d", C.PAIRS, 4, "9♦"),
        ("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c", C.PAIRS, 5, "7♣"),
        ("9d 9h 10c 10d Jc Jh Qd Qh Kd Kh Ac As", C.PAIRS, 6, "A♣"),
    ],
)
def test_every_kind_is_recognised(cards: str, kind: int, length: int, top: str) -> None:
    assert kind_length_top(cards) == (kind, length, top)
    assert STANDARD.allows(C.classify(m(cards)))


@pytest.mark.parametrize(
    ("cards", "why"),
    [
        ("3s 4s", "two cards of different ranks"),
        ("3s 5s 6s", "a gap"),
        ("3s 4s 6s 7s", "a gap in a longer run"),
        ("Qs Ks As 2s", "a straight may not hold a 2"),
        ("Ks As 2s", "a straight may not run through the 2"),
        ("As 2s 3s", "no wrap-around"),
        ("2s 3s 4s", "no wrap-around from 2"),
        ("3s 3c 4s 4c", "two consecutive pairs are no combination"),
        ("Ks Kc As Ac 2s 2c", "consecutive pairs may not hold 2s"),
        ("3s 3c 4s 4c 6s 6c", "pairs with a gap"),
        ("3s 3c 3d 4s 4c 4d", "consecutive triples"),
        ("3s 3c 4s 4c 5s", "pairs and a loose card"),
        ("3s 3c 4s 5s", "a straight with a doubled card"),
        ("5s 5c 6d 6h", "two pairs"),
        ("5s 5c 5d 6s 6c", "full house"),
        ("5s 5c 5d 5h 6s", "four of a kind and a card"),
    ],
)
def test_non_combinations(cards: str, why: str) -> None:
    assert C.classify(m(cards)) == 0, why


def test_classify_refuses_empty_and_out_of_deck_masks() -> None:
    assert C.classify(0) == 0
    assert C.classify(-1) == 0
    assert C.classify(1 << 52) == 0


def test_longest_straight_is_three_to_ace() -> None:
    """3→A is 12 cards; nothing longer exists because a 2 never joins a straight."""
    twelve = m("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As")
    assert C.length_of(C.classify(twelve)) == 12
    assert C.classify(twelve | m("2s")) == 0


def test_min_straight_option_refuses_short_straights() -> None:
    strict = STANDARD.replace(min_straight=4)
    assert not strict.allows(C.classify(m("3s 4s 5s")))
    assert strict.allows(C.classify(m("3s 4s 5s 6s")))
    assert strict.allows(C.classify(m("3s 3c 4s 4c 5s 5c")))


def beats(new: str, old: str, rules: RuleSet = STANDARD) -> bool:
    return rules.beats(C.classify(m(new)), C.classify(m(old)))


@pytest.mark.parametrize(
    ("higher", "lower"),
    [
        # Seed 004's examples.
        ("5d 5c", "4d 4h"),
        ("Qh Kd As", "10c Jd Qh"),
        ("5d 6s 7c", "5h 6h 7s"),
        # Singles: rank first, then suit.
        ("4s", "3h"),
        ("3c", "3s"),
        ("2h", "2d"),
        ("2s", "Ah"),
        # Pairs, triples, quads compare by their highest card.
        ("9s 9h", "9c 9d"),
        ("5s 5d 5h", "4s 4d 4h"),
        ("7s 7c 7d 7h", "6s 6c 6d 6h"),
        # Straights of one length by their top card; suits need not match.
        ("4s 5s 6s 7s", "3h 4h 5h 6h"),
        ("3s 4s 5h", "3h 4h 5d"),
        # Consecutive pairs of one length.
        ("4s 4c 5s 5c 6s 6h", "4d 4h 5d 5h 6c 6d"),
        ("5s 5c 6s 6c 7s 7c 8s 8c", "4s 4c 5d 5h 6d 6h 7d 7h"),
    ],
)
def test_same_kind_and_length_compares_by_highest_card(higher: str, lower: str) -> None:
    assert beats(higher, lower)
    assert not beats(lower, higher)


def test_seed_004_straight_example_decided_by_the_ace() -> None:
    """♥Q♦K♠A beats ♣10♦J♥Q: ♠A > ♥Q, though the ace is the lowest suit."""
    assert beats("Qh Kd As", "10c Jd Qh")
    assert beats("5d 6s 7c", "5h 6h 7s")  # ♣7 > ♠7
    assert beats("5d 5c", "4d 4h")


@pytest.mark.parametrize(
    ("play", "table", "why"),
    [
        ("4s 5s 6s 7s", "3s 4c 5d", "a longer straight does not beat a shorter one"),
        ("3s 4s 5s", "4c 5d 6d 7d", "a shorter straight does not beat a longer one"),
        ("Ks Kc", "As", "a pair does not beat a single"),
        ("As", "Ks Kc", "a single does not beat a pair"),
        ("9s 9c 9d", "8s 8c", "a triple does not beat a pair"),
        ("5s 6s 7s", "4s 4c 4d", "a straight does not beat a triple"),
        ("3s 3c 4s 4c 5s 5c", "Ks Kc", "3 consecutive pairs do not chop an ordinary pair"),
        ("7s 7c 7d 7h", "As", "four of a kind does not chop an ace"),
        ("6s 6c 7s 7c 8s 8c 9s 9c", "Qs Kc Ad", "4 consecutive pairs do not chop a straight"),
        ("2s", "2c", "a lower 2 does not beat a higher one"),
        ("3s", "3s", "a card does not beat itself"),
        ("3s 3c 4s 4c 5s 5c", "5d 5h 6d 6h 7d 7h 8d 8h", "3 pairs do not beat 4 pairs"),
        ("Ks Kc Kd", "2s 2c 2d", "no triple beats three 2s"),
    ],
)
def test_plays_that_do_not_beat(play: str, table: str, why: str) -> None:
    assert not beats(play, table), why


def test_top_card_of_same_rank_plays_decides_by_suit() -> None:
    assert beats("8c 8h", "8s 8d")
    assert not beats("8s 8d", "8c 8h")


def test_category_of_twos_and_bombs() -> None:
    assert C.category(C.classify(m("2s"))) == C.TWO
    assert C.category(C.classify(m("2s 2h"))) == C.TWO_PAIR
    assert C.category(C.classify(m("2s 2c 2h"))) == C.TWO_TRIPLE
    assert C.category(C.classify(m("2s 2c 2d 2h"))) == C.FOUR_KIND
    assert C.category(C.classify(m("3s 3c 4s 4c 5s 5c"))) == C.PAIRS3
    assert C.category(C.classify(m("3s 3c 4s 4c 5s 5c 6s 6c"))) == C.PAIRS4
    assert C.category(C.classify(m("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c"))) == C.PAIRS5
    assert C.category(C.classify(m("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c"))) == C.PAIRS6
    for ordinary in ("As", "As Ah", "As Ac Ah", "3s 4s 5s"):
        assert C.category(C.classify(m(ordinary))) is None
    assert C.is_bomb(C.classify(m("2s 2c 2d 2h")))
    assert not C.is_bomb(C.classify(m("2s 2c")))


def test_descriptions_in_english_and_vietnamese() -> None:
    assert C.describe(C.classify(m("3s 4s 5s 6s"))) == "straight of 4"
    assert C.describe(C.classify(m("3s 3c 4s 4c 5s 5c"))) == "3 consecutive pairs"
    assert C.describe(C.classify(m("9s 9c 9d 9h"))) == "four of a kind"
    assert C.describe(0) == "nothing"
    assert C.describe_vi(C.classify(m("3s 4s 5s"))) == "sảnh 3 lá"
    assert C.describe_vi(C.classify(m("3s 3c 4s 4c 5s 5c"))) == "3 đôi thông"
    assert C.describe_vi(C.classify(m("3s 3c 3d"))) == "sám cô"
    assert C.play_str(0) == "pass"
    assert C.play_str(m("3s 3c")) == "3♠ 3♣"


def test_code_fields_round_trip() -> None:
    code = C.make_code(C.STRAIGHT, 5, parse_card("9h"))
    assert (C.kind_of(code), C.length_of(code), C.top_of(code)) == (C.STRAIGHT, 5, 27)
    assert C.classify(m("5s 6s 7s 8s 9h")) == code


def _every_code() -> set[int]:
    """The code of every combination there is: each set of one rank, and each straight and run
    of pairs by length, top rank and top card."""
    masks = [sub << (4 * rank) for rank in range(13) for sub in range(1, 16)]
    for top in range(2, 12):
        for suit in range(4):
            top_card = 1 << (4 * top + suit)
            for length in range(3, top + 2):
                low = top - length + 1
                masks.append(sum(1 << (4 * r) for r in range(low, top)) | top_card)
                if length <= 6 and suit:
                    pairs = sum(3 << (4 * r) for r in range(low, top))
                    masks.append(pairs | 1 << (4 * top) | top_card)
    return {C.classify(mask) for mask in masks} - {0}


def test_the_quick_code_tests_agree_with_category_and_kind() -> None:
    """game.py tells a heo or a bomb, and a single below a 2, by comparing codes."""
    codes = _every_code()
    # Singles, pairs, triples, quads (by top card), straights of 3-12 and 3-6 pairs (by top
    # rank and card): all there are.
    straights = sum(4 * (12 - length + 1) for length in range(3, 13))
    assert len(codes) == 52 + 39 + 26 + 13 + straights + sum(3 * (13 - n) for n in range(3, 7))
    for code in codes:
        assert C.is_heavy(code) == (C.category(code) is not None), C.describe(code)
        below_two = C.kind_of(code) == C.SINGLE and C.top_of(code) < 4 * RANK_TWO
        assert (code < C.SINGLE_BELOW_TWO) == below_two, C.describe(code)
    assert {c for c in codes if c >= C.BOMB_CODE} == {c for c in codes if C.is_bomb(c)}
