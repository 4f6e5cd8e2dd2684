"""What a hand held at the end of a game costs: thối, the card count, cóng.

This is the one place that prices a hand. Settlement reads it for every loser, and a bot that
weighs keeping a 2 or a bomb against being caught with it (:func:`thoi_units`), or the risk of
ending cóng (:func:`loss_units`), reads the same numbers instead of keeping its own table.
Values are in bets (units of the table's bet).
"""

from __future__ import annotations

from ..engine import combos as C
from ..engine.cards import RANK_TWO, THREE_SPADES, TWOS_MASK
from ..engine.scoring_rules import ScoringRules
from .items import (
    CardsFacts,
    CongFacts,
    Facts,
    MultiplierCause,
    MultiplierFacts,
    Penalty,
    ThoiFacts,
)

__all__ = ["cong_facts", "count_facts", "hand_penalties", "loss_units", "thoi_units"]


def hand_penalties(hand: int, scoring: ScoringRules) -> list[Penalty]:
    """Everything a hand is caught holding (thối): each 2, its hàng, and 3♠ where it counts.

    Four 2s count as four heo. 3♠ is charged even inside a hàng.
    """
    out: list[Penalty] = []
    twos = hand & TWOS_MASK
    while twos:
        low = twos & -twos
        red = (low.bit_length() - 1) & 3 >= 2
        if red:
            out.append(Penalty("red_two", low, scoring.red_two))
        else:
            out.append(Penalty("black_two", low, scoring.black_two))
        twos ^= low
    out.extend(_bombs(hand, scoring))
    if scoring.three_spades and hand >> THREE_SPADES & 1:
        out.append(Penalty("three_spades", 1 << THREE_SPADES, scoring.three_spades))
    return [p for p in out if p.units]


def thoi_units(cards: int, scoring: ScoringRules) -> int:
    """What being caught holding these cards at the end costs in thối, in bets.

    The strategic bot prices spending a 2 or a bomb with it.
    """
    return sum(p.units for p in hand_penalties(cards, scoring))


def loss_units(hand: int, scoring: ScoringRules, cong: bool = False) -> int:
    """What a loser holding ``hand`` pays the winner of an ordinary game, in bets: the count
    with thối, or (``cong``: they never played a card) the cóng rate with thối and its
    multiplier. Chops, places, a 3♠ finish and a short balance are not counted; under
    ``cong_sweep_only`` the cóng rate is what every loser would pay in a sweep."""
    if cong and (scoring.cong_units is not None or scoring.cong_multiplier > 1):
        facts = cong_facts(hand, scoring)
    else:
        cards, thoi = count_facts(hand, scoring)
        facts = [*cards, *thoi]
    return sum(f.units for f in facts)


def count_facts(
    hand: int, scoring: ScoringRules, penalties: bool = True
) -> tuple[list[CardsFacts], list[ThoiFacts]]:
    """(the card count, the thối) of a hand counted under the preset's arithmetic: under
    ``replace`` a heo or hàng is charged at its value instead of its cards counting one each."""
    found = hand_penalties(hand, scoring) if penalties else []
    ordinary = hand.bit_count()
    replace = scoring.penalty_counting == "replace" and bool(found)
    if replace:
        special = 0
        for p in found:
            special |= p.cards
        ordinary -= special.bit_count()
    cards = []
    if ordinary and scoring.card:
        cards.append(CardsFacts(ordinary, scoring.card, others_only=replace))
    return cards, [ThoiFacts(p) for p in found]


def cong_facts(hand: int, scoring: ScoringRules, finish_3s: bool = False) -> list[Facts]:
    """What a cóng loser holding ``hand`` pays: the cóng rate (or the count) with thối, then
    the cóng multipliers (``finish_3s``: the winner's last play held 3♠, seed 001)."""
    lines: list[Facts]
    if scoring.cong_units is None:
        cards, thoi = count_facts(hand, scoring)
        lines = [*cards, *thoi]
    else:
        lines = [CongFacts(scoring.cong_units, sweep=scoring.cong_sweep_only)]
        lines += [ThoiFacts(p) for p in hand_penalties(hand, scoring)]
    multipliers: tuple[tuple[int, MultiplierCause], ...] = (
        (scoring.cong_multiplier, "cong"),
        (scoring.three_spades_finish_cong_multiplier if finish_3s else 1, "cong_three_spades"),
    )
    for factor, cause in multipliers:
        if factor > 1:
            base = sum(f.units for f in lines)
            lines.append(MultiplierFacts(factor, base, cause))
    return lines


_BELOW_TWOS = (1 << (4 * RANK_TWO)) - 1
_NIBBLE_LOWS = int("1" * RANK_TWO, 16)


def _bombs(hand: int, scoring: ScoringRules) -> list[Penalty]:
    """The hàng a hand holds: four of a kinds and runs of 3+ consecutive pairs, no card used
    twice, read the way that charges most; a run counts once, at its length's value."""
    # Each rank's nibble, 3 to A, read in parallel: bit 4r of ``pairs`` is set when rank r
    # holds 2 or more cards, of ``fours`` when it holds all 4.
    a = hand & _BELOW_TWOS
    b, c, d = a >> 1, a >> 2, a >> 3
    pairs = (a & (b | c | d) | b & (c | d) | c & d) & _NIBBLE_LOWS
    fours = a & b & c & d & _NIBBLE_LOWS
    if not fours and not pairs & (pairs >> 4) & (pairs >> 8):
        return []  # no four of a kind and no three pairs in a row: the common case, fast
    counts = [C.NIB_COUNT[(hand >> (4 * r)) & 15] for r in range(RANK_TWO)]
    quad_ranks = [r for r, n in enumerate(counts) if n == 4]
    best: list[Penalty] = []
    best_value = -1
    for choice in range(1 << len(quad_ranks)):
        quads = [r for i, r in enumerate(quad_ranks) if choice >> i & 1]
        found = [Penalty("quad", 0xF << (4 * r), scoring.quad) for r in quads]
        run: list[int] = []
        for r in range(RANK_TWO + 1):
            if r < RANK_TWO and r not in quads and counts[r] >= 2:
                run.append(r)
                continue
            if len(run) >= 3:
                cards = 0
                for q in run:
                    cards |= _two_lowest((hand >> (4 * q)) & 15) << (4 * q)
                units = scoring.pairs3 if len(run) == 3 else scoring.pairs4
                found.append(Penalty("pairs", cards, units))
            run = []
        value = sum(p.units for p in found)
        if value > best_value:
            best, best_value = found, value
    return best


def _two_lowest(nibble: int) -> int:
    low = nibble & -nibble
    rest = nibble ^ low
    return low | (rest & -rest)
