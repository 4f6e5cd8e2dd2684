"""A slow, obvious reference for what may be played, written apart from the engine.

It reads cards the same way (a card is ``rank * 4 + suit``) but classifies card sets, compares
them and enumerates plays by brute force over every subset of a hand, so that the fast generator
in ``tienlen.engine.moves`` and the checks in ``tienlen.engine.game`` can be tested against it.
Only the rule
options (shortest straight, chop table) come from the rule set.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import NamedTuple

from tienlen.engine.rules import RuleSet

TWO = 12
"""The rank of the 2s (heo): never part of a straight or of consecutive pairs."""


class Combo(NamedTuple):
    kind: str
    """single, pair, triple, quad, straight or pairs (consecutive pairs, đôi thông)."""
    length: int
    """Cards for straights, pairs for consecutive pairs, the card count otherwise."""
    top: int
    """The highest card: plays of one kind and length compare by it."""


def cards_in(mask: int) -> list[int]:
    return [card for card in range(52) if mask >> card & 1]


def classify(cards: list[int]) -> Combo | None:
    """What a set of cards forms, or None; straights of any length 3-12, pairs runs of 3-6."""
    if not cards:
        return None
    ranks = Counter(card // 4 for card in cards)
    top = max(cards)
    if len(ranks) == 1:
        name = {1: "single", 2: "pair", 3: "triple", 4: "quad"}[len(cards)]
        return Combo(name, len(cards), top)
    low, high = min(ranks), max(ranks)
    consecutive = high - low + 1 == len(ranks)
    if not consecutive or TWO in ranks or len(ranks) < 3:
        return None
    counts = set(ranks.values())
    if counts == {1}:
        return Combo("straight", len(cards), top)
    if counts == {2} and len(ranks) <= 6:
        return Combo("pairs", len(ranks), top)
    return None


def chop_category(combo: Combo) -> str | None:
    """The name the chop table uses for a heo or a bomb (hàng)."""
    if combo.kind == "pairs":
        return f"pairs{combo.length}"
    if combo.kind == "quad":
        return "quad"
    if combo.top // 4 == TWO:
        return {"single": "two", "pair": "two_pair", "triple": "two_triple"}.get(combo.kind)
    return None


def allowed(combo: Combo, rules: RuleSet) -> bool:
    return combo.kind != "straight" or combo.length >= rules.min_straight


def beats(new: Combo, old: Combo, rules: RuleSet) -> bool:
    """Same kind and length with a higher top card, or a chop the rule set's table allows."""
    if (new.kind, new.length) == (old.kind, old.length):
        return new.top > old.top
    victim, chopper = chop_category(old), chop_category(new)
    return victim is not None and chopper is not None and (victim, chopper) in rules.chops


def is_four_pairs(combo: Combo | None) -> bool:
    """4 or more consecutive pairs: the bomb that may chop after passing or out of turn."""
    return combo is not None and combo.kind == "pairs" and combo.length >= 4


def may_play(
    mask: int,
    hand: int,
    rules: RuleSet,
    table: int = 0,
    must_contain: int = 0,
    only_four_pairs: bool = False,
) -> bool:
    """Whether ``mask`` may be laid from ``hand`` on the play ``table`` (0: leading)."""
    if mask <= 0 or mask & ~hand:
        return False
    combo = classify(cards_in(mask))
    if combo is None or not allowed(combo, rules):
        return False
    if only_four_pairs and not is_four_pairs(combo):
        return False
    if not table:
        return not must_contain or bool(mask & must_contain)
    old = classify(cards_in(table))
    if old is None:
        raise ValueError("the table play is not a combination")
    return beats(combo, old, rules)


def subsets(hand: int) -> list[int]:
    """Every non-empty subset of a hand, as masks."""
    cards = cards_in(hand)
    out = []
    for size in range(1, len(cards) + 1):
        for chosen in combinations(cards, size):
            mask = 0
            for card in chosen:
                mask |= 1 << card
            out.append(mask)
    return out


def legal_plays(
    hand: int,
    rules: RuleSet,
    table: int = 0,
    must_contain: int = 0,
    only_four_pairs: bool = False,
) -> set[int]:
    """Every play of ``hand`` (brute force over all its subsets)."""
    return {
        mask
        for mask in subsets(hand)
        if may_play(mask, hand, rules, table, must_contain, only_four_pairs)
    }
