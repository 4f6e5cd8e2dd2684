"""The two simple levels: random (a baseline) and greedy."""

from __future__ import annotations

import random

from ..engine import combos as C
from ..engine.cards import TWOS_MASK
from ..engine.game import PASS
from ..engine.views import SeatView


def is_precious(mask: int) -> bool:
    """Whether a play spends a 2 (heo) or is a bomb (hàng): what greedy keeps."""
    return bool(mask & TWOS_MASK) or C.is_bomb(C.classify(mask))


class RandomBot:
    """Picks uniformly among its legal actions (passing is one of them)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: SeatView) -> int:
        if not view.my_turn:
            return self.rng.choice((PASS, *view.legal))
        return self.rng.choice(view.legal)


class GreedyBot:
    """Plays its lowest combination and keeps 2s and bombs.

    Leading: of the plays holding its lowest card, the longest (then the lowest). Following: the
    beating play with the lowest top card. It spends 2s and bombs only when it holds nothing
    else, and never chops out of turn.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        del seed  # deterministic

    def act(self, view: SeatView) -> int:
        if not view.my_turn:
            return PASS
        plays = [a for a in view.legal if a != PASS]
        if not plays:
            return PASS
        ordinary = [a for a in plays if not is_precious(a)]
        if view.leading:
            pool = ordinary or plays
            lowest = min(m & -m for m in pool)
            with_lowest = [m for m in pool if m & lowest]
            return min(with_lowest, key=lambda m: (-m.bit_count(), m.bit_length()))
        if ordinary:
            return min(ordinary, key=lambda m: (m.bit_length(), m.bit_count()))
        if only_precious(view.hand):
            return min(plays, key=lambda m: (m.bit_length(), m.bit_count()))
        return PASS


def only_precious(hand: int) -> bool:
    """Whether the hand is nothing but 2s and bombs (then greedy spends them)."""
    rest = hand & ~TWOS_MASK
    if not rest or C.is_bomb(C.classify(rest)):
        return True
    return all((rest >> (4 * rank)) & 15 in (0, 15) for rank in range(12))
