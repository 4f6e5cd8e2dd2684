"""Instant-win hands (tới trắng / ăn trắng), checked right after the deal.

Each detector takes a hand mask and the rule set (for the options that change a hand's reading)
and says whether the hand holds that pattern. See RULES.md §2 and docs/RULES.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .cards import RANK_TWO, THREE_SPADES, TWOS_MASK
from .combos import NIB_COUNT
from .rules import RuleSet

_RED: Final = sum(0b1100 << (4 * r) for r in range(13))
_BLACK: Final = sum(0b0011 << (4 * r) for r in range(13))


def _counts(hand: int) -> list[int]:
    return [NIB_COUNT[(hand >> (4 * r)) & 15] for r in range(13)]


def _longest_run(flags: list[bool]) -> int:
    best = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


def _pair_run(hand: int, length: int) -> bool:
    counts = _counts(hand)
    return _longest_run([c >= 2 for c in counts[:RANK_TWO]]) >= length


def _sets(hand: int, size: int, how_many: int, rules: RuleSet) -> bool:
    counts = _counts(hand)
    if rules.instant_sets_consecutive:
        return _longest_run([c >= size for c in counts[:RANK_TWO]]) >= how_many
    return sum(1 for c in counts if c >= size) >= how_many


def dragon(hand: int, rules: RuleSet) -> bool:
    return all(c >= 1 for c in _counts(hand)[:RANK_TWO])


def dragon_flush(hand: int, rules: RuleSet) -> bool:
    return any(all(hand >> (4 * r + s) & 1 for r in range(RANK_TWO)) for s in range(4))


def four_twos(hand: int, rules: RuleSet) -> bool:
    return hand & TWOS_MASK == TWOS_MASK


def five_consecutive_pairs(hand: int, rules: RuleSet) -> bool:
    return _pair_run(hand, 5)


def six_consecutive_pairs(hand: int, rules: RuleSet) -> bool:
    return _pair_run(hand, 6)


def six_pairs(hand: int, rules: RuleSet) -> bool:
    """Six pairs of any ranks, 2s included; a triple gives one pair, a quad two (an option)."""
    pairs = 0
    for c in _counts(hand):
        pairs += 2 if c == 4 and rules.six_pairs_quad_counts_two else min(c // 2, 1)
    return pairs >= 6


def two_quads(hand: int, rules: RuleSet) -> bool:
    return sum(1 for c in _counts(hand) if c == 4) >= 2


def twelve_one_colour(hand: int, rules: RuleSet) -> bool:
    return (hand & _RED).bit_count() >= 12 or (hand & _BLACK).bit_count() >= 12


def four_triples(hand: int, rules: RuleSet) -> bool:
    return _sets(hand, 3, 4, rules)


def three_triples(hand: int, rules: RuleSet) -> bool:
    return _sets(hand, 3, 3, rules)


def three_quads(hand: int, rules: RuleSet) -> bool:
    return _sets(hand, 4, 3, rules)


def four_threes(hand: int, rules: RuleSet) -> bool:
    return hand & 0xF == 0xF


def three_pairs_with_3s(hand: int, rules: RuleSet) -> bool:
    """33 44 55 with 3♠ among the 3s: the only 3-pair run that can hold 3♠."""
    counts = _counts(hand)
    return bool(hand >> THREE_SPADES & 1) and all(c >= 2 for c in counts[:3])


def four_pairs_with_3s(hand: int, rules: RuleSet) -> bool:
    counts = _counts(hand)
    return bool(hand >> THREE_SPADES & 1) and all(c >= 2 for c in counts[:4])


def five_pairs_one_triple(hand: int, rules: RuleSet) -> bool:
    """A triple and five pairs of five other ranks (seed 004: 33 66 88 99 JJ AAA)."""
    counts = _counts(hand)
    for t, c in enumerate(counts):
        if c >= 3 and sum(1 for r, d in enumerate(counts) if r != t and d >= 2) >= 5:
            return True
    return False


def five_consecutive_pairs_one_triple(hand: int, rules: RuleSet) -> bool:
    """Five consecutive pairs and a triple of another rank (44 55 66 77 88 JJJ)."""
    counts = _counts(hand)
    for start in range(RANK_TWO - 4):
        if all(counts[r] >= 2 for r in range(start, start + 5)):
            others = [c for r, c in enumerate(counts) if not start <= r < start + 5]
            if any(c >= 3 for c in others):
                return True
    return False


DETECTORS: Final[dict[str, Callable[[int, RuleSet], bool]]] = {
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
    for name, scope in rules.instant_wins:
        if scope == "first" and not first_game:
            continue
        if scope == "other" and first_game:
            continue
        if DETECTORS[name](hand, rules):
            found.append(name)
    return tuple(found)
