"""Instant-win hands (tới trắng / ăn trắng), checked right after the deal.

Each detector takes the :class:`Shape` of a hand and the rule set (for the options that change a
hand's reading) and says whether the hand holds that pattern. See RULES.md §2 and docs/RULES.md.

A hand is read once, whatever the number of detectors a preset lists (bigfun has fifteen): its
shape holds, as bit masks with one bit per rank, the ranks of which it has at least one, two,
three and four cards, and every detector is a few operations on those masks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from .cards import THREE_SPADES, TWOS_MASK
from .events import InstantWin
from .moves import has_run, ranks_with
from .rules import RuleSet

_RED: Final = sum(0b1100 << (4 * r) for r in range(13))
_BLACK: Final = sum(0b0011 << (4 * r) for r in range(13))
_ACE_DOWN: Final = sum(1 << (4 * r) for r in range(12))
"""One bit per rank from 3 to A: a dragon's ranks, and in each suit a dragon flush's."""
_LOW_RANKS: Final = (0, 0x1, 0x11, 0x111, 0x1111)
"""``_LOW_RANKS[k]``: the bits of the k lowest ranks (3, 4, 5, 6)."""
_FIVE_RANKS: Final = 0x11111


class Shape:
    """A hand read for the detectors: which ranks it holds at least one, two, three, four of."""

    def __init__(self, hand: int) -> None:
        self.hand = hand
        self.ones = ranks_with(hand, 1)
        """Bit ``4 * rank`` set for each rank held."""
        self.pairs = ranks_with(hand, 2)
        self.triples = ranks_with(hand, 3)
        self.quads = ranks_with(hand, 4)

    def at_least(self, size: int) -> int:
        return (self.ones, self.pairs, self.triples, self.quads)[size - 1]


def _sets(shape: Shape, size: int, how_many: int, rules: RuleSet) -> bool:
    ranks = shape.at_least(size)
    if rules.instant_sets_consecutive:
        return has_run(ranks, how_many)
    return ranks.bit_count() >= how_many


def dragon(shape: Shape, rules: RuleSet) -> bool:
    return shape.ones & _ACE_DOWN == _ACE_DOWN


def dragon_flush(shape: Shape, rules: RuleSet) -> bool:
    return any(shape.hand >> suit & _ACE_DOWN == _ACE_DOWN for suit in range(4))


def four_twos(shape: Shape, rules: RuleSet) -> bool:
    return shape.hand & TWOS_MASK == TWOS_MASK


def five_consecutive_pairs(shape: Shape, rules: RuleSet) -> bool:
    return has_run(shape.pairs, 5)


def six_consecutive_pairs(shape: Shape, rules: RuleSet) -> bool:
    return has_run(shape.pairs, 6)


def six_pairs(shape: Shape, rules: RuleSet) -> bool:
    """Six pairs of any ranks, 2s included; a triple gives one pair, a quad two (an option)."""
    pairs = shape.pairs.bit_count()
    if rules.six_pairs_quad_counts_two:
        pairs += shape.quads.bit_count()
    return pairs >= 6


def two_quads(shape: Shape, rules: RuleSet) -> bool:
    return shape.quads.bit_count() >= 2


def twelve_one_colour(shape: Shape, rules: RuleSet) -> bool:
    return (shape.hand & _RED).bit_count() >= 12 or (shape.hand & _BLACK).bit_count() >= 12


def four_triples(shape: Shape, rules: RuleSet) -> bool:
    return _sets(shape, 3, 4, rules)


def three_triples(shape: Shape, rules: RuleSet) -> bool:
    return _sets(shape, 3, 3, rules)


def three_quads(shape: Shape, rules: RuleSet) -> bool:
    return _sets(shape, 4, 3, rules)


def four_threes(shape: Shape, rules: RuleSet) -> bool:
    return shape.hand & 0xF == 0xF


def three_pairs_with_3s(shape: Shape, rules: RuleSet) -> bool:
    """33 44 55 with 3♠ among the 3s: the only 3-pair run that can hold 3♠."""
    low = _LOW_RANKS[3]
    return bool(shape.hand >> THREE_SPADES & 1) and shape.pairs & low == low


def four_pairs_with_3s(shape: Shape, rules: RuleSet) -> bool:
    low = _LOW_RANKS[4]
    return bool(shape.hand >> THREE_SPADES & 1) and shape.pairs & low == low


def five_pairs_one_triple(shape: Shape, rules: RuleSet) -> bool:
    """A triple and five pairs of five other ranks (seed 004: 33 66 88 99 JJ AAA): the triple
    is one of the pairs, so a triple and six pairs in all."""
    return shape.triples != 0 and shape.pairs.bit_count() >= 6


def five_consecutive_pairs_one_triple(shape: Shape, rules: RuleSet) -> bool:
    """Five consecutive pairs and a triple of another rank (44 55 66 77 88 JJJ)."""
    starts = shape.pairs & _ACE_DOWN
    for _ in range(4):
        starts &= starts >> 4  # ranks that start five consecutive pairs
    while starts:
        low = starts & -starts
        starts ^= low
        if shape.triples & ~(_FIVE_RANKS * low):
            return True
    return False


DETECTORS: Final[dict[str, Callable[[Shape, RuleSet], bool]]] = {
    "dragon": dragon,
    "dragon_flush": dragon_flush,
    "four_twos": four_twos,
    "five_consecutive_pairs": five_consecutive_pairs,
    "six_consecutive_pairs": six_consecutive_pairs,
    "six_pairs": six_pairs,
    "two_quads": two_quads,
    "twelve_one_colour": twelve_one_colour,
    "four_triples": four_triples,
    "four_threes": four_threes,
    "three_pairs_with_3s": three_pairs_with_3s,
    "four_pairs_with_3s": four_pairs_with_3s,
    "three_triples": three_triples,
    "three_quads": three_quads,
    "five_pairs_one_triple": five_pairs_one_triple,
    "five_consecutive_pairs_one_triple": five_consecutive_pairs_one_triple,
}


def instant_hands(hand: int, rules: RuleSet, first_game: bool) -> tuple[str, ...]:
    """The instant-win hands this hand holds that count in this game, in the rule set's order."""
    found = []
    shape: Shape | None = None
    for name, scope in rules.instant_wins:
        if scope == "first" and not first_game:
            continue
        if scope == "other" and first_game:
            continue
        if shape is None:
            shape = Shape(hand)
        if DETECTORS[name](shape, rules):
            found.append(name)
    return tuple(found)


def instant_win_at_deal(
    hands: Sequence[int], rules: RuleSet, first_game: bool, leader: int, barred: int | None
) -> InstantWin | None:
    """The tới trắng the deal decides, if any: the first seat in play order from the leader
    holding an instant-win hand wins alone, unless the rules let every such seat share the win
    (later games only). ``barred`` is a seat that may not win this way."""
    if not rules.instant_wins:
        return None
    n = len(hands)
    found: list[tuple[int, tuple[str, ...]]] = []
    for k in range(n):
        seat = (leader + k) % n
        if seat == barred:
            continue
        names = instant_hands(hands[seat], rules, first_game)
        if names:
            found.append((seat, names))
    if not found:
        return None
    shared = len(found) > 1 and rules.instant_win_ties == "share_later_games" and not first_game
    winners = found if shared else found[:1]
    seats = tuple(s for s, _ in winners)
    return InstantWin(
        seats, tuple(names for _, names in winners), shared, tuple(hands[s] for s in seats)
    )
