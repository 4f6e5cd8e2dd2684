"""Combinations: what a set of cards is, and what beats what.

A combination is described by a small int *code* ``kind << 16 | length << 8 | top`` where
``length`` is the number of cards (for consecutive pairs: the number of pairs) and ``top`` the
highest card. Two plays of one kind and length compare by ``top``; chops (chặt) across kinds are
decided by the rule set's chop table, written in terms of :data:`CATEGORIES`.
"""

from __future__ import annotations

from typing import Final

from .cards import RANK_TWO, mask_str

SINGLE: Final = 1
PAIR: Final = 2
TRIPLE: Final = 3
STRAIGHT: Final = 4
QUAD: Final = 5
PAIRS: Final = 6
"""Consecutive pairs (đôi thông): length is the number of pairs, 3 to 6."""

KIND_NAMES = {
    SINGLE: "single",
    PAIR: "pair",
    TRIPLE: "triple",
    STRAIGHT: "straight",
    QUAD: "four of a kind",
    PAIRS: "consecutive pairs",
}
KIND_KEYS: Final = {
    SINGLE: "single",
    PAIR: "pair",
    TRIPLE: "triple",
    STRAIGHT: "straight",
    QUAD: "quad",
    PAIRS: "pairs",
}
"""Each kind's stable key on the wire (a play's ``kind``, beside its ``length``)."""
KIND_NAMES_VI = {
    SINGLE: "lẻ",
    PAIR: "đôi",
    TRIPLE: "sám cô",
    STRAIGHT: "sảnh",
    QUAD: "tứ quý",
    PAIRS: "đôi thông",
}

# Chop categories: what may be chopped and what chops. A 2 is a heo, a bomb is hàng.
TWO: Final = "two"
TWO_PAIR: Final = "two_pair"
TWO_TRIPLE: Final = "two_triple"
PAIRS3: Final = "pairs3"
PAIRS4: Final = "pairs4"
PAIRS5: Final = "pairs5"
PAIRS6: Final = "pairs6"
FOUR_KIND: Final = "quad"
CATEGORIES: Final = (TWO, TWO_PAIR, TWO_TRIPLE, PAIRS3, FOUR_KIND, PAIRS4, PAIRS5, PAIRS6)
BOMB_CATEGORIES: Final = (PAIRS3, FOUR_KIND, PAIRS4, PAIRS5, PAIRS6)
CATEGORY_NAMES = {
    TWO: ("a single 2", "heo"),
    TWO_PAIR: ("a pair of 2s", "đôi heo"),
    TWO_TRIPLE: ("three 2s", "ba heo"),
    PAIRS3: ("3 consecutive pairs", "3 đôi thông"),
    FOUR_KIND: ("four of a kind", "tứ quý"),
    PAIRS4: ("4 consecutive pairs", "4 đôi thông"),
    PAIRS5: ("5 consecutive pairs", "5 đôi thông"),
    PAIRS6: ("6 consecutive pairs", "6 đôi thông"),
}

NIB_COUNT: Final = tuple(bin(n).count("1") for n in range(16))


def kind_of(code: int) -> int:
    return code >> 16


def length_of(code: int) -> int:
    return (code >> 8) & 0xFF


def top_of(code: int) -> int:
    return code & 0xFF


def make_code(kind: int, length: int, top: int) -> int:
    return kind << 16 | length << 8 | top


def category(code: int) -> str | None:
    """The chop category of a combination (a heo or a bomb), or None for ordinary plays."""
    kind = code >> 16
    if kind == PAIRS:
        return (PAIRS3, PAIRS4, PAIRS5, PAIRS6)[((code >> 8) & 0xFF) - 3]
    if kind == QUAD:
        return FOUR_KIND
    if (code & 0xFF) >> 2 == RANK_TWO:
        if kind == SINGLE:
            return TWO
        if kind == PAIR:
            return TWO_PAIR
        if kind == TRIPLE:
            return TWO_TRIPLE
    return None


TWO_CARD: Final = 4 * RANK_TWO
"""The lowest 2: a play whose top card is this one or higher is topped by a 2."""
BOMB_CODE: Final = QUAD << 16
"""Codes from this one up are bombs: four of a kind and consecutive pairs."""
SINGLE_BELOW_TWO: Final = SINGLE << 16 | 1 << 8 | TWO_CARD
"""Codes below this one are singles below a 2 (nothing chops them)."""


def is_heavy(code: int) -> bool:
    """Whether a play is a heo or a bomb: ``category(code) is not None`` in two comparisons (no
    straight holds a 2)."""
    return code >= BOMB_CODE or code & 0xFF >= TWO_CARD


def is_bomb(code: int) -> bool:
    kind = code >> 16
    return kind in (PAIRS, QUAD)


_CLASSIFY_CACHE: Final[dict[int, int]] = {}
_CACHE_LIMIT: Final = 1 << 20


def classify(mask: int) -> int:
    """The code of the combination these cards form, or 0 when they form none.

    Consecutive pairs of any length 3–6 and straights of 3–12 cards are recognised here; whether
    a rule set allows them is checked by the rule set.
    """
    code = _CLASSIFY_CACHE.get(mask)
    if code is not None:
        return code
    code = _classify(mask)
    if len(_CLASSIFY_CACHE) >= _CACHE_LIMIT:
        _CLASSIFY_CACHE.clear()
    _CLASSIFY_CACHE[mask] = code
    return code


def _classify(mask: int) -> int:
    if mask <= 0 or mask >> 52:
        return 0
    n = mask.bit_count()
    top = mask.bit_length() - 1
    if n == 1:
        return SINGLE << 16 | 1 << 8 | top
    low_rank = ((mask & -mask).bit_length() - 1) >> 2
    high_rank = top >> 2
    if low_rank == high_rank:
        kind = (0, 0, PAIR, TRIPLE, QUAD)[n]
        return kind << 16 | n << 8 | top
    if high_rank == RANK_TWO:
        return 0
    span = high_rank - low_rank + 1
    if n == span and n >= 3:
        per_rank = 1
    elif n == 2 * span and span >= 3:
        per_rank = 2
    else:
        return 0
    shifted = mask >> (4 * low_rank)
    for _ in range(span):
        if NIB_COUNT[shifted & 15] != per_rank:
            return 0
        shifted >>= 4
    if per_rank == 1:
        return STRAIGHT << 16 | n << 8 | top
    if span > 6:
        return 0
    return PAIRS << 16 | span << 8 | top


def describe(code: int) -> str:
    """English name of a combination code, e.g. ``straight of 5``."""
    kind = code >> 16
    length = (code >> 8) & 0xFF
    if kind == STRAIGHT:
        return f"straight of {length}"
    if kind == PAIRS:
        return f"{length} consecutive pairs"
    return KIND_NAMES.get(kind, "nothing")


def describe_vi(code: int) -> str:
    kind = code >> 16
    length = (code >> 8) & 0xFF
    if kind == STRAIGHT:
        return f"sảnh {length} lá"
    if kind == PAIRS:
        return f"{length} đôi thông"
    return KIND_NAMES_VI.get(kind, "không")


def play_str(mask: int) -> str:
    """A play in compact notation: its cards, or ``pass`` for the empty play."""
    return mask_str(mask) if mask else "pass"
