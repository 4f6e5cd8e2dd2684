"""Splitting a hand into the fewest, strongest combinations (the strategic bot's plan).

Suits hardly matter to how a hand splits, so the planner works on rank counts: a hand is 13
counts (0–4), a *part* is a combination described by ranks, and the best split is found by a
memoised search that always places the lowest remaining rank first. The cost of a split is the
number of its parts less a discount for strong parts (2s, bombs, high pairs, long straights):
strong parts win rounds and give the lead back, so they are nearly free.
"""

from __future__ import annotations

from ..engine import combos as C
from ..engine.cards import RANK_TWO

Part = tuple[int, int, int, int]
"""(kind, lowest rank, number of ranks, cards per rank)."""

COMBO_COST = 1.0
STRENGTH_WEIGHT = 0.8

_SINGLE_STRENGTH = (0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0.2, 0.35, 0.55, 1.0)
_PAIR_STRENGTH = (0, 0, 0, 0, 0, 0, 0, 0.1, 0.2, 0.35, 0.55, 0.8, 1.0)
WEAK_BELOW = 0.75
"""A part weaker than this is not expected to win its round: it needs a lead to be played."""
_CACHE_LIMIT = 400_000

Split = tuple[float, tuple[Part, ...], int]
"""(cost, parts lowest first, how many parts are weak)."""
_caches: dict[int, dict[int, Split]] = {}
_part_costs: dict[Part, tuple[float, int]] = {}


_BYTE_COUNTS = tuple(C.NIB_COUNT[b & 15] | C.NIB_COUNT[b >> 4] << 3 for b in range(256))


def counts_key(hand: int) -> int:
    """The hand's rank counts packed 3 bits per rank (the planner's memo key)."""
    t = _BYTE_COUNTS
    return (
        t[hand & 255]
        | t[(hand >> 8) & 255] << 6
        | t[(hand >> 16) & 255] << 12
        | t[(hand >> 24) & 255] << 18
        | t[(hand >> 32) & 255] << 24
        | t[(hand >> 40) & 255] << 30
        | t[(hand >> 48) & 255] << 36
    )


def strength(part: Part) -> float:
    """How likely a part is to win its round, from 0 (low single) to 1 (a 2 or a bomb)."""
    kind, low, ranks, _ = part
    top = low + ranks - 1
    if kind == C.SINGLE:
        return _SINGLE_STRENGTH[top]
    if kind == C.PAIR:
        return _PAIR_STRENGTH[top]
    if kind == C.TRIPLE:
        return 1.0 if top == RANK_TWO else 0.4 + 0.04 * top
    if kind == C.STRAIGHT:
        return min(1.0, 0.12 * (ranks - 3) + 0.1 * max(0, top - 6))
    return 1.0  # four of a kind, consecutive pairs


def part_cost(part: Part) -> float:
    return COMBO_COST - STRENGTH_WEIGHT * strength(part)


def _cost_and_weak(part: Part) -> tuple[float, int]:
    found = _part_costs.get(part)
    if found is None:
        found = (part_cost(part), int(strength(part) < WEAK_BELOW))
        _part_costs[part] = found
    return found


_SET_KINDS = (0, C.SINGLE, C.PAIR, C.TRIPLE, C.QUAD)


def _options(key: int, min_straight: int) -> tuple[int, list[tuple[Part, int]]]:
    """The parts holding the lowest rank present, each with the key left after it."""
    low = 0
    while not (key >> (3 * low)) & 7:
        low += 1
    count = (key >> (3 * low)) & 7
    out: list[tuple[Part, int]] = []
    for size in range(count, 0, -1):
        out.append(((_SET_KINDS[size], low, 1, size), key - (size << (3 * low))))
    # Straights starting at the lowest rank: one card of each rank, never a 2.
    left = key
    rank = low
    while rank < RANK_TWO and (key >> (3 * rank)) & 7:
        left -= 1 << (3 * rank)
        length = rank - low + 1
        if length >= min_straight:
            out.append(((C.STRAIGHT, low, length, 1), left))
        rank += 1
    # Consecutive pairs (đôi thông) starting there: 3 to 6 pairs.
    left = key
    rank = low
    while rank < RANK_TWO and rank - low < 6 and (key >> (3 * rank)) & 7 >= 2:
        left -= 2 << (3 * rank)
        length = rank - low + 1
        if length >= 3:
            out.append(((C.PAIRS, low, length, 2), left))
        rank += 1
    return low, out


def best_split(key: int, min_straight: int = 3) -> Split:
    """The cheapest split of the hand with rank counts ``key``."""
    cache = _caches.setdefault(min_straight, {})
    return _solve(key, min_straight, cache)


_EMPTY: Split = (0.0, (), 0)


def _solve(key: int, min_straight: int, cache: dict[int, Split]) -> Split:
    if key == 0:
        return _EMPTY
    found = cache.get(key)
    if found is not None:
        return found
    best: Split = (1e9, (), 0)
    for part, left in _options(key, min_straight)[1]:
        sub_cost, sub_parts, sub_weak = _solve(left, min_straight, cache)
        cost, weak = _cost_and_weak(part)
        cost += sub_cost
        if cost < best[0] - 1e-9:
            best = (cost, (part, *sub_parts), weak + sub_weak)
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = best
    return best


def hand_cost(hand: int, min_straight: int = 3) -> float:
    """The cost of the best split of a hand (lower is better; 0 for an empty hand)."""
    return best_split(counts_key(hand), min_straight)[0]


def part_masks(hand: int, parts: tuple[Part, ...]) -> list[int]:
    """Real cards for each part: straights and runs take the lowest suits on their lower ranks
    and sets take what the rank has left, so the highest suits go where they top a part."""
    remaining = hand
    out: list[int] = []
    # Place longer parts first so that each set gets the cards the runs leave.
    order = sorted(range(len(parts)), key=lambda i: parts[i][0] not in (C.STRAIGHT, C.PAIRS))
    masks = [0] * len(parts)
    for i in order:
        kind, low, ranks, per_rank = parts[i]
        mask = 0
        for rank in range(low, low + ranks):
            nib = (remaining >> (4 * rank)) & 15
            top_rank = rank == low + ranks - 1
            take = _pick(nib, per_rank, highest=top_rank and kind in (C.STRAIGHT, C.PAIRS))
            mask |= take << (4 * rank)
        remaining &= ~mask
        masks[i] = mask
    out.extend(masks)
    return out


def _pick(nib: int, count: int, highest: bool) -> int:
    """``count`` suits out of a rank's nibble: the lowest ones, or the highest when ``highest``."""
    suits = [s for s in range(4) if nib >> s & 1]
    chosen = suits[-count:] if highest else suits[:count]
    out = 0
    for s in chosen:
        out |= 1 << s
    return out
