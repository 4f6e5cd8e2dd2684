"""Legal-play generation: every distinct card set a hand can lay, when leading or beating.

Plays are card masks. Generation works rank by rank on 4-bit suit nibbles with precomputed
tables, so its cost grows with the number of plays produced, not with the number of subsets.
"""

from __future__ import annotations

from typing import Final

from . import combos as C
from .cards import RANK_TWO
from .rules import RuleSet

_RANKS: Final = range(13)


def _bits_with(count: int, rank: int) -> tuple[tuple[int, ...], ...]:
    """For each nibble: its sub-masks with ``count`` suits, placed at ``rank``."""
    table = []
    for nib in range(16):
        subs = [s for s in range(1, 16) if s & nib == s and C.NIB_COUNT[s] == count]
        table.append(tuple(s << (4 * rank) for s in sorted(subs)))
    return tuple(table)


# SUBS[k][rank][nibble] -> masks of k cards of that rank drawn from the nibble's suits.
SUBS: Final = tuple(tuple(_bits_with(k, r) for r in _RANKS) for k in range(5))
# SAME_RANK[rank][nibble] -> every single, pair, triple and four of a kind within the nibble.
SAME_RANK: Final = tuple(
    tuple(SUBS[1][r][n] + SUBS[2][r][n] + SUBS[3][r][n] + SUBS[4][r][n] for n in range(16))
    for r in _RANKS
)
# SAME_RANK_BY_BYTE[i][byte] -> SAME_RANK of ranks 2i and 2i+1 at once, for the suits in bits
# 8i to 8i+7 of a hand: a hand is read a byte (two ranks) at a time, seven lookups in all.
SAME_RANK_BY_BYTE: Final = tuple(
    tuple(
        SAME_RANK[2 * i][byte & 15] + (SAME_RANK[2 * i + 1][byte >> 4] if 2 * i + 1 < 13 else ())
        for byte in range(256 if 2 * i + 1 < 13 else 16)
    )
    for i in range(7)
)
(
    _BY_BYTE_0,
    _BY_BYTE_1,
    _BY_BYTE_2,
    _BY_BYTE_3,
    _BY_BYTE_4,
    _BY_BYTE_5,
    _BY_BYTE_6,
) = SAME_RANK_BY_BYTE
_FOLD: Final = sum(1 << (4 * r) for r in _RANKS)
"""Bit 0 of every rank's nibble."""
_LOW3: Final = 0x7 * _FOLD
_LOW2: Final = 0x3 * _FOLD
_NO_TWOS: Final = _FOLD & ~(0xF << (4 * RANK_TWO))
_RUN: Final = tuple(sum(1 << (4 * i) for i in range(n)) for n in range(14))
_CATEGORY_SHAPE: Final = {
    C.PAIRS3: 3,
    C.PAIRS4: 4,
    C.PAIRS5: 5,
    C.PAIRS6: 6,
}


def ranks_with(hand: int, count: int) -> int:
    """A mask with bit ``4 * rank`` set for each rank of which the hand holds ``count`` or more.

    Bit tricks on all 13 nibbles at once: pure-Python loops over ranks are the slow part.
    """
    x = hand
    if count <= 1:
        x |= x >> 1
        x |= x >> 2
        return x & _FOLD
    if count == 2:
        y = (x & (x >> 1) & _LOW3) | (x & (x >> 2) & _LOW2) | (x & (x >> 3) & _FOLD)
        y |= y >> 1
        y |= y >> 2
        return y & _FOLD
    if count == 3:
        y = (x & (x >> 1) & (x >> 2) & _LOW2) | (x & (x >> 3) & ((x >> 1) | (x >> 2)) & _FOLD)
        y |= y >> 1
        return y & _FOLD
    return x & (x >> 1) & (x >> 2) & (x >> 3) & _FOLD


def ranks_present(hand: int) -> int:
    """A mask with bit ``4 * rank`` set for each rank the hand holds."""
    return ranks_with(hand, 1)


def has_run(ranks: int, length: int) -> bool:
    """Whether a ranks_with() mask holds ``length`` consecutive ranks, 2s left out (a run of
    straights or pairs never holds a 2)."""
    ranks &= _NO_TWOS
    for _ in range(length - 1):
        ranks &= ranks >> 4
    return ranks != 0


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
    ranks = ranks_with(hand, size)
    if above >= 0:
        above_rank = above >> 2
        ranks = ranks >> (4 * above_rank) << (4 * above_rank)
        if ranks & (1 << (4 * above_rank)):
            ranks ^= 1 << (4 * above_rank)
            limit = 1 << above
            out.extend(m for m in sub[above_rank][(hand >> (4 * above_rank)) & 15] if m > limit)
    while ranks:
        low = ranks & -ranks
        shift = low.bit_length() - 1
        out.extend(sub[shift >> 2][(hand >> shift) & 15])
        ranks ^= low
    return out


def runs(hand: int, per_rank: int, length: int, above: int = -1) -> list[int]:
    """Straights (``per_rank`` 1) or consecutive pairs (2) of ``length`` ranks, top > ``above``.

    The top rank never reaches 2: neither kind may contain a 2. Ordered by top rank, then by
    the cards rank by rank from the lowest (each rank's choices in ascending order). A rank
    holding exactly ``per_rank`` cards gives every run through it the same cards, so only the
    richer ranks (rarer) multiply the choices.
    """
    present = ranks_with(hand, per_rank) & _NO_TWOS
    # Keep only ranks that end a full run of ``length``.
    ends = present
    for _ in range(length - 1):
        ends &= ends << 4
    if above >= 0:
        ends = ends >> (4 * (above >> 2)) << (4 * (above >> 2))
    out: list[int] = []
    if not ends:
        return out
    richer = ranks_with(hand, per_rank + 1)
    plain = hand & ~(richer * 15)
    sub = SUBS[per_rank]
    below = 4 * (length - 1)
    limit = 1 << above if above >= 0 else 0
    while ends:
        low = ends & -ends
        ends ^= low
        shift = low.bit_length() - 1
        lower = (1 << shift) - (1 << (shift - below))  # the run's ranks under its top
        partial = [plain & lower]
        rich = richer & lower
        while rich:
            bit = rich & -rich
            rich ^= bit
            at = bit.bit_length() - 1
            choices = sub[at >> 2][(hand >> at) & 15]
            partial = [p | c for p in partial for c in choices]
        tops = sub[shift >> 2][(hand >> shift) & 15]
        for p in partial:
            for t in tops:
                if t > limit:
                    out.append(p | t)
    return out


def has_runs(hand: int, per_rank: int, length: int, above: int = -1) -> bool:
    """Whether :func:`runs` would find any, without listing them (there may be thousands in a
    hand of 39 unseen cards): a run must end above ``above``'s rank, or at it with a top card
    that beats ``above``."""
    ends = ranks_with(hand, per_rank) & _NO_TWOS
    for _ in range(length - 1):
        ends &= ends << 4
    if above < 0:
        return ends != 0
    top_rank = above >> 2
    if ends >> (4 * top_rank + 4):
        return True
    if not ends >> (4 * top_rank) & 1:
        return False
    limit = 1 << above
    return any(t > limit for t in SUBS[per_rank][top_rank][(hand >> (4 * top_rank)) & 15])


def all_runs(hand: int, per_rank: int, min_len: int, max_len: int) -> list[int]:
    """Every straight (1) or consecutive-pairs run (2) of min_len to max_len ranks.

    Ordered by top rank, then length, then the cards rank by rank from the lowest (each rank's
    choices in ascending order).
    """
    return _all_runs(
        hand,
        ranks_with(hand, per_rank) & _NO_TWOS,
        ranks_with(hand, per_rank + 1),
        per_rank,
        min_len,
        max_len,
    )


def _all_runs(
    hand: int, present: int, richer: int, per_rank: int, min_len: int, max_len: int
) -> list[int]:
    """:func:`all_runs` from the ranks holding ``per_rank`` cards or more (2s left out) and
    those holding more than ``per_rank``. A rank holding exactly ``per_rank`` cards gives every
    run through it the same cards, so a run over such ranks only (most) is one mask, the span's
    cards; a richer rank multiplies the choices."""
    ends = present
    for _ in range(min_len - 1):
        ends &= ends << 4
    out: list[int] = []
    if not ends:
        return out
    plain = hand & ~(richer * 15)
    sub = SUBS[per_rank]
    first = 4 * (min_len - 1)
    longest = 4 * max_len
    while ends:
        low = ends & -ends
        ends ^= low
        shift = low.bit_length() - 1  # 4 * the top rank
        start = shift - first  # 4 * the lowest rank of the run
        span = (16 << shift) - (1 << start)
        while True:
            rich = richer & span
            if rich:
                found = [plain & span]
                while rich:
                    bit = rich & -rich
                    rich ^= bit
                    at = bit.bit_length() - 1
                    choices = sub[at >> 2][(hand >> at) & 15]
                    found = [f | c for f in found for c in choices]
                out += found
            else:
                out.append(plain & span)
            start -= 4  # one rank longer, while the ranks go on
            if start < 0 or not (present >> start) & 1 or shift - start >= longest:
                break
            span |= 15 << start
    return out


def _spans_by_stretch(min_len: int) -> dict[int, tuple[int, ...]]:
    """For each stretch of consecutive ranks (2s left out; all 4 bits of each rank): the spans
    of the straights of ``min_len`` ranks or more within it, by top rank, then length."""
    by_stretch: dict[int, tuple[int, ...]] = {}
    for lo in range(12):
        for hi in range(lo + min_len - 1, 12):
            spans = []
            for top in range(lo + min_len - 1, hi + 1):
                for start in range(top - min_len + 1, lo - 1, -1):
                    spans.append((16 << (4 * top)) - (1 << (4 * start)))
            by_stretch[(16 << (4 * hi)) - (1 << (4 * lo))] = tuple(spans)
    return by_stretch


_BY_STRETCH: Final[dict[int, dict[int, tuple[int, ...]]]] = {}
""":func:`_spans_by_stretch` by minimum straight length, made when first asked for."""


def _straight_spans(ranks: int, min_len: int) -> tuple[int, tuple[int, ...]]:
    """For the ranks a hand holds (a ranks_with() mask, 2s left out): the spans of its
    straights, in the order they are listed, after the ranks they cover (bit ``4 * rank``). The
    spans depend on the ranks held only; each stretch of consecutive ranks adds its own."""
    by_stretch = _BY_STRETCH.get(min_len)
    if by_stretch is None:
        by_stretch = _BY_STRETCH[min_len] = _spans_by_stretch(min_len)
    rest = ranks * 15  # the held ranks' nibbles: a stretch is a run of set bits
    found: tuple[int, ...] = ()
    cover = 0
    while rest:
        low = rest & -rest
        stretch = rest & ~(rest + low)
        rest ^= stretch
        of_stretch = by_stretch.get(stretch)
        if of_stretch:
            found += of_stretch
            cover |= stretch & _FOLD
    return cover, found


_STRAIGHT_SPANS: Final[dict[int, dict[int, tuple[int, tuple[int, ...]]]]] = {}
""":func:`_straight_spans` by minimum straight length, then by the ranks held: filled as sets
of ranks are met (at most 4,096 for each length)."""


def leading_plays(hand: int, rules: RuleSet) -> list[int]:
    """Every combination the hand can lead with: sets rank by rank, straights, then runs of
    pairs (the cheap tests first: most hands hold no run of pairs, many no straight).

    A straight through ranks holding one card each (most straights) is the hand's cards in its
    span, and the spans depend on which ranks the hand holds only: they are looked up, not
    searched for.
    """
    b = hand.to_bytes(7, "little")
    out = [
        *_BY_BYTE_0[b[0]],
        *_BY_BYTE_1[b[1]],
        *_BY_BYTE_2[b[2]],
        *_BY_BYTE_3[b[3]],
        *_BY_BYTE_4[b[4]],
        *_BY_BYTE_5[b[5]],
        *_BY_BYTE_6[b[6]],
    ]
    x = hand
    ones = x | x >> 1  # ranks_with(hand, 1) and (2), written out: calls cost more
    ones = (ones | ones >> 2) & _NO_TWOS
    if not ones & (ones >> 4) & (ones >> 8):
        return out  # no three ranks in a row: no straight, no run of pairs
    min_len = rules.min_straight
    table = _STRAIGHT_SPANS.get(min_len)
    if table is None:
        table = _STRAIGHT_SPANS[min_len] = {}
    found = table.get(ones)
    if found is None:
        found = table[ones] = _straight_spans(ones, min_len)
    cover, spans = found
    twos = (x & (x >> 1) & _LOW3) | (x & (x >> 2) & _LOW2) | (x & (x >> 3) & _FOLD)
    twos |= twos >> 1
    twos |= twos >> 2
    twos &= _NO_TWOS
    # No spans: no straight of min_straight ranks (there may still be 3 pairs in a row).
    if spans and not twos & cover:
        out += [hand & span for span in spans]  # one card of each rank in the straights
    elif spans:
        plain = hand & ~(twos * 15)
        sub = SUBS[1]
        for span in spans:
            rich = twos & span
            if rich:
                runs = [plain & span]
                while rich:
                    bit = rich & -rich
                    rich ^= bit
                    at = bit.bit_length() - 1
                    choices = sub[at >> 2][(hand >> at) & 15]
                    runs = [r | c for r in runs for c in choices]
                out += runs
            else:
                out.append(plain & span)
    if twos & (twos >> 4) & (twos >> 8):
        out += _all_runs(hand, twos, ranks_with(hand, 3), 2, 3, 6)
    return out


def bombs(hand: int, category: str) -> list[int]:
    """Every bomb of one chop category in the hand."""
    if category == C.FOUR_KIND:
        return sets(hand, 4)
    return runs(hand, 2, _CATEGORY_SHAPE[category])


def chops(hand: int, victim: str, rules: RuleSet) -> list[int]:
    """The bombs of the hand that may chop a play of category ``victim``, chopper by chopper
    in the rule set's order. The hand is read once for four of a kinds and runs of pairs, so a
    chopper the hand cannot hold costs a test, not a search (most hands hold no bomb)."""
    quads = hand & (hand >> 1) & (hand >> 2) & (hand >> 3) & _FOLD
    pairs = ranks_with(hand, 2)
    if not quads and not has_run(pairs, 3):
        return []
    out: list[int] = []
    for chopper in rules.choppers_of(victim):
        if chopper == victim:
            continue
        if chopper == C.FOUR_KIND:
            if quads:
                out += sets(hand, 4)
        elif has_run(pairs, _CATEGORY_SHAPE[chopper]):
            out += runs(hand, 2, _CATEGORY_SHAPE[chopper])
    return out


def beating_plays(hand: int, code: int, rules: RuleSet) -> list[int]:
    """Every play of the hand that may be laid on the combination ``code``."""
    kind = code >> 16
    length = (code >> 8) & 0xFF
    top = code & 0xFF
    if kind == C.SINGLE:
        # singles(hand, top) written out: most answers are to a single, and a call costs more
        # than the loop in pure Python.
        rest = hand >> (top + 1) << (top + 1)
        out = []
        while rest:
            low = rest & -rest
            out.append(low)
            rest ^= low
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
    if kind < C.QUAD and top < 4 * RANK_TWO:
        return out  # below a 2 and not a bomb: nothing chops it
    own = C.category(code)
    if own is not None:
        out += chops(hand, own, rules)
    return out


def chopping_plays(hand: int, code: int, rules: RuleSet, categories: tuple[str, ...]) -> list[int]:
    """The plays among ``beating_plays`` whose chop category is one of ``categories``."""
    return [m for m in beating_plays(hand, code, rules) if C.category(C.classify(m)) in categories]


_OUT_OF_TURN_CATEGORIES: Final = (C.PAIRS4, C.PAIRS5, C.PAIRS6)


def out_of_turn_chops(hand: int, code: int, rules: RuleSet) -> list[int]:
    """The plays of the hand that chop ``code`` with 4 or more consecutive pairs (the bomb that
    needs no turn). Asked of every other seat after each 2 or bomb, so a cheap test comes
    first: most hands hold no 4 pairs in a row."""
    if not has_run(ranks_with(hand, 2), 4):
        return []
    return chopping_plays(hand, code, rules, _OUT_OF_TURN_CATEGORIES)
