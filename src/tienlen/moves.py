"""Legal-play generation: every distinct card set a hand can lay, when leading or beating.

Plays are card masks. Generation works rank by rank on 4-bit suit nibbles with precomputed
tables, so its cost grows with the number of plays produced, not with the number of subsets.
"""

from __future__ import annotations

from . import combos as C
from .cards import RANK_TWO
from .rules import RuleSet

_RANKS = range(13)


def _bits_with(count: int, rank: int) -> tuple[tuple[int, ...], ...]:
    """For each nibble: its sub-masks with ``count`` suits, placed at ``rank``."""
    table = []
    for nib in range(16):
        subs = [s for s in range(1, 16) if s & nib == s and C.NIB_COUNT[s] == count]
        table.append(tuple(s << (4 * rank) for s in sorted(subs)))
    return tuple(table)


# SUBS[k][rank][nibble] -> masks of k cards of that rank drawn from the nibble's suits.
SUBS = tuple(tuple(_bits_with(k, r) for r in _RANKS) for k in range(5))
_RANK_FOLD = sum(1 << (4 * r) for r in _RANKS)
_RUN = tuple(sum(1 << (4 * i) for i in range(n)) for n in range(14))
_CODE_PREFIX = {
    (C.PAIRS, 3): C.PAIRS3,
    (C.PAIRS, 4): C.PAIRS4,
    (C.PAIRS, 5): C.PAIRS5,
    (C.PAIRS, 6): C.PAIRS6,
}
_CATEGORY_SHAPE = {
    C.PAIRS3: (2, 3),
    C.PAIRS4: (2, 4),
    C.PAIRS5: (2, 5),
    C.PAIRS6: (2, 6),
}


def ranks_present(hand: int) -> int:
    """A mask with bit ``4 * rank`` set for each rank the hand holds."""
    x = hand | hand >> 1
    x |= x >> 2
    return x & _RANK_FOLD


def singles(hand: int, above: int = -1) -> list[int]:
    """Single cards higher than card ``above``."""
    hand = hand >> (above + 1) << (above + 1)
    out = []
    while hand:
        low = hand & -hand
        out.append(low)
        hand ^= low
    return out


def sets(hand: int, size: int, above: int = -1) -> list[int]:
    """Pairs, triples or fours of a kind (``size`` cards of one rank) with top card > ``above``."""
    out: list[int] = []
    sub = SUBS[size]
    first = max(above >> 2, 0) if above >= 0 else 0
    for rank in range(first, 13):
        nib = (hand >> (4 * rank)) & 15
        if C.NIB_COUNT[nib] >= size:
            if rank == above >> 2:
                limit = 1 << above
                out.extend(m for m in sub[rank][nib] if m > limit)
            else:
                out.extend(sub[rank][nib])
    return out


def runs(hand: int, per_rank: int, length: int, above: int = -1) -> list[int]:
    """Straights (``per_rank`` 1) or consecutive pairs (2) of ``length`` ranks, top > ``above``.

    The top rank never reaches 2: neither kind may contain a 2.
    """
    present = ranks_present(hand) if per_rank == 1 else _ranks_with_pairs(hand)
    sub = SUBS[per_rank]
    out: list[int] = []
    lowest_top = max(length - 1, above >> 2 if above >= 0 else 0)
    window = _RUN[length]
    for top_rank in range(lowest_top, RANK_TWO):
        start = top_rank - length + 1
        if present & (window << (4 * start)) != window << (4 * start):
            continue
        partial = [0]
        for rank in range(start, top_rank):
            choices = sub[rank][(hand >> (4 * rank)) & 15]
            partial = [p | c for p in partial for c in choices]
        tops = sub[top_rank][(hand >> (4 * top_rank)) & 15]
        if top_rank == above >> 2:
            limit = 1 << above
            tops = tuple(t for t in tops if t > limit)
        out.extend(p | t for p in partial for t in tops)
    return out


def _ranks_with_pairs(hand: int) -> int:
    out = 0
    for rank in range(12):
        if C.NIB_COUNT[(hand >> (4 * rank)) & 15] >= 2:
            out |= 1 << (4 * rank)
    return out


def all_runs(hand: int, per_rank: int, min_len: int, max_len: int) -> list[int]:
    """Every straight (1) or consecutive-pairs run (2) of min_len to max_len ranks."""
    present = ranks_present(hand) if per_rank == 1 else _ranks_with_pairs(hand)
    sub = SUBS[per_rank]
    out: list[int] = []
    for start in range(0, RANK_TWO - min_len + 1):
        if not present >> (4 * start) & 1:
            continue
        partial = [0]
        rank = start
        while rank < RANK_TWO and rank - start < max_len and present >> (4 * rank) & 1:
            choices = sub[rank][(hand >> (4 * rank)) & 15]
            partial = [p | c for p in partial for c in choices]
            rank += 1
            if rank - start >= min_len:
                out.extend(partial)
    return out


def leading_plays(hand: int, rules: RuleSet) -> list[int]:
    """Every combination the hand can lead with."""
    out = singles(hand)
    out += sets(hand, 2)
    out += sets(hand, 3)
    out += sets(hand, 4)
    out += all_runs(hand, 1, rules.min_straight, 12)
    out += all_runs(hand, 2, 3, 6)
    return out


def bombs(hand: int, category: str) -> list[int]:
    """Every bomb of one chop category in the hand."""
    if category == C.FOUR_KIND:
        return sets(hand, 4)
    per_rank, length = _CATEGORY_SHAPE[category]
    return runs(hand, per_rank, length)


def beating_plays(hand: int, code: int, rules: RuleSet) -> list[int]:
    """Every play of the hand that may be laid on the combination ``code``."""
    kind = code >> 16
    length = (code >> 8) & 0xFF
    top = code & 0xFF
    if kind == C.SINGLE:
        out = singles(hand, top)
    elif kind == C.PAIR:
        out = sets(hand, 2, top)
    elif kind == C.TRIPLE:
        out = sets(hand, 3, top)
    elif kind == C.QUAD:
        out = sets(hand, 4, top)
    elif kind == C.STRAIGHT:
        out = runs(hand, 1, length, top)
    else:
        out = runs(hand, 2, length, top)
    own = C.category(code)
    for chopper in rules.choppers_of(own):
        if chopper != own:
            out += bombs(hand, chopper)
    return out


def chopping_plays(hand: int, code: int, rules: RuleSet, categories: tuple[str, ...]) -> list[int]:
    """The plays among ``beating_plays`` whose chop category is one of ``categories``."""
    return [
        m
        for m in beating_plays(hand, code, rules)
        if C.category(C.classify(m)) in categories
    ]
