"""Cards: notation, canonical text, the game's order, CardSet, and errors for bad input."""

from __future__ import annotations

import itertools

import pytest

from tienlen.engine.cards import (
    FULL_DECK,
    THREE_SPADES,
    TWO_HEARTS,
    TWOS_MASK,
    CardError,
    CardSet,
    card_ascii,
    card_str,
    cards_of,
    is_red,
    make_card,
    mask_ascii,
    mask_of,
    mask_str,
    parse_card,
    parse_cards,
    parse_mask,
    rank_of,
    suit_of,
)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("3s", 0, 0),
        ("3♠", 0, 0),
        ("3S", 0, 0),
        ("10h", 7, 3),
        ("Th", 7, 3),
        ("tH", 7, 3),
        ("10♥", 7, 3),
        ("2♥", 12, 3),
        ("2h", 12, 3),
        ("Jc", 8, 1),
        ("qd", 9, 2),
        ("K♦", 10, 2),
        ("a♣", 11, 1),
        ("9s", 6, 0),
        ("  5d ", 2, 2),
        ("4♤", 1, 0),
        ("7♡", 4, 3),
        ("8\u2665\ufe0f", 5, 3),
    ],
)
def test_parse_card_accepts_every_notation(text: str, rank: int, suit: int) -> None:
    card = parse_card(text)
    assert (rank_of(card), suit_of(card)) == (rank, suit)


@pytest.mark.parametrize("bad", ["", "1s", "11h", "3x", "s3", "Z♠", "3", "♠", "3s4s", "10 h", "0s"])
def test_parse_card_refuses_bad_text_with_a_clear_message(bad: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        parse_card(bad)


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)


def test_parse_cards_reads_mixed_notation_in_order() -> None:
    cards = parse_cards("3s 10h 2♥ 4♠ TC jD")
    assert [card_str(c) for c in cards] == ["3♠", "10♥", "2♥", "4♠", "10♣", "J♦"]


def test_parse_cards_accepts_commas_lists_and_run_together_cards() -> None:
    assert parse_cards("3s, 4c,5d") == [0, 5, 10]
    assert parse_cards(["3s", "4c"]) == [0, 5]
    assert parse_cards("3s4c5d10h") == [0, 5, 10, 31]
    assert parse_cards("") == []


@pytest.mark.parametrize("text", ["3s 10h Th", "10h Th", "3s 3♠", "2H 2h"])
def test_parse_cards_refuses_duplicates_naming_the_card(text: str) -> None:
    with pytest.raises(CardError, match="written twice"):
        parse_cards(text)


def test_duplicate_message_names_the_card_canonically() -> None:
    with pytest.raises(CardError, match="10♥ is written twice"):
        parse_cards("3s 10h Th")


def test_parse_cards_reports_the_bad_token() -> None:
    with pytest.raises(CardError, match="'3x'"):
        parse_cards("3s 3x 4s")


def test_canonical_and_ascii_text() -> None:
    assert card_str(parse_card("th")) == "10♥"
    assert card_ascii(parse_card("10♥")) == "10h"
    assert [card_str(c) for c in range(4)] == ["3♠", "3♣", "3♦", "3♥"]
    assert card_str(TWO_HEARTS) == "2♥"
    assert mask_str(m := parse_mask("2h 3s jd")) == "3♠ J♦ 2♥"
    assert mask_ascii(m, ",") == "3s,Jd,2h"


def test_every_card_round_trips_through_both_notations() -> None:
    for card in range(52):
        assert parse_card(card_str(card)) == card
        assert parse_card(card_ascii(card)) == card


def test_order_is_rank_then_suit() -> None:
    assert THREE_SPADES == parse_card("3s") == 0
    assert TWO_HEARTS == parse_card("2h") == 51
    # Suits: ♠ < ♣ < ♦ < ♥ within a rank.
    assert parse_card("5s") < parse_card("5c") < parse_card("5d") < parse_card("5h")
    # Rank decides before suit: any 4 beats any 3, and 3→…→A→2.
    assert parse_card("3h") < parse_card("4s")
    assert parse_card("Ah") < parse_card("2s")
    assert parse_card("10s") < parse_card("10c")
    spades = [parse_card(r + "s") for r in ("3", "4", "5", "6", "7", "8", "9", "10")]
    spades += [parse_card(r + "♠") for r in ("J", "Q", "K", "A", "2")]
    assert all(low < high for low, high in itertools.pairwise(spades))
    assert make_card(12, 3) == TWO_HEARTS


def test_colours_and_twos_mask() -> None:
    assert [is_red(parse_card(t)) for t in ("4s", "4c", "4d", "4h")] == [False, False, True, True]
    assert mask_str(TWOS_MASK) == "2♠ 2♣ 2♦ 2♥"


def test_masks_and_card_lists_convert_both_ways() -> None:
    assert cards_of(mask_of([51, 0, 7])) == [0, 7, 51]
    assert cards_of(0) == []
    assert len(cards_of(FULL_DECK)) == 52


class TestCardSet:
    def test_builds_from_text_cards_masks_and_itself(self) -> None:
        from_text = CardSet("2h 3s Jd")
        assert CardSet([0, 34, 51]) == from_text
        assert CardSet(from_text.mask) == from_text
        assert CardSet(from_text) == from_text
        assert CardSet.parse("3♠ J♦ 2♥") == from_text

    def test_iterates_lowest_first_and_prints_canonically(self) -> None:
        hand = CardSet("2h 3s Jd 10c")
        assert list(hand) == [0, 29, 34, 51]
        assert str(hand) == "3♠ 10♣ J♦ 2♥"
        assert hand.ascii() == "3s 10c Jd 2h"
        assert repr(hand) == "CardSet('3s 10c Jd 2h')"

    def test_set_operations(self) -> None:
        a = CardSet("3s 4s 5s")
        b = CardSet("5s 6s")
        assert len(a) == 3
        assert a | b == CardSet("3s 4s 5s 6s")
        assert a & b == CardSet("5s")
        assert a - b == CardSet("3s 4s")
        assert CardSet("3s 4s").issubset(a)
        assert CardSet("3s 4s") <= a
        assert not b <= a
        assert parse_card("4s") in a
        assert parse_card("4c") not in a
        assert "4s" not in a  # only card ints are members
        assert 99 not in a
        assert not CardSet()
        assert a
        assert CardSet() == CardSet("")

    def test_is_immutable_and_hashable(self) -> None:
        hand = CardSet("3s")
        with pytest.raises(AttributeError):
            hand.mask = 5
        assert len({CardSet("3s 4s"), CardSet("4s 3s")}) == 1
        assert (CardSet("3s") == 0) is False

    @pytest.mark.parametrize("bad", [-1, FULL_DECK + 1, 1 << 52])
    def test_refuses_bad_masks(self, bad: int) -> None:
        with pytest.raises(CardError, match="not a card mask"):
            CardSet(bad)

    @pytest.mark.parametrize("bad", [[52], [-1], [0, 60]])
    def test_refuses_bad_card_numbers(self, bad: list[int]) -> None:
        with pytest.raises(CardError, match="not a card"):
            CardSet(bad)

    def test_refuses_bad_text_and_duplicates(self) -> None:
        with pytest.raises(CardError):
            CardSet("3s 1h")
        with pytest.raises(CardError, match="written twice"):
            CardSet("3s 3♠")
