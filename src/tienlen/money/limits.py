"""The most one game can cost one player, in bets, read from a rule set's money rules.

The server stakes each house bot to this before a deal (server/house_bots.py), so a bot always
holds what it could lose and a person is never paid short by one. It is a bound, not a
forecast: every charge :mod:`.reckoning` can make is taken at its worst at once.

- **The end of the game**, one loser's lines: the worst 13-card hand (every 2, then as many hàng
  as the other cards can form: a four of a kind takes 4 cards and a run of pairs 6, so at most
  one per 4 cards, each at the dearest hàng value; 3♠ where it is charged) counted, cóng or lost
  to an instant win, with every multiplier, plus the dearest place payout. Under đền bài a
  player pays for every loser, and under ``cong_pays_everyone`` a cóng player pays every other
  seat: that many times.
- **Chops**: a chained play is paid for once, by the last one chopped, so the chops of a game
  cost at most every heavy play dealt: all four 2s and as many hàng as the other cards dealt
  can form.
"""

from __future__ import annotations

from ..engine.rules import RuleSet
from ..engine.scoring_rules import ScoringRules

__all__ = ["most_a_game_costs"]

HAND = 13
TWOS = 4


def most_a_game_costs(rules: RuleSet, players: int) -> int:
    """The most one player can pay in one game of ``players`` under ``rules``, in bets."""
    s = rules.scoring
    end = _most_one_loser_pays(s)
    if s.den_bai or s.cong_pays_everyone:
        end *= players - 1
    return end + _most_chops_cost(s, players)


def _dearest_hang(s: ScoringRules) -> int:
    return max(s.pairs3, s.quad, s.pairs4)


def _twos_value(s: ScoringRules, count: int) -> int:
    """The ``count`` dearest 2s: the red ones first."""
    dear, cheap = sorted((s.red_two, s.black_two), reverse=True)
    return dear * min(count, 2) + cheap * max(0, count - 2)


def _most_thoi(s: ScoringRules) -> int:
    """The most thối a 13-card hand can be caught with."""
    worst = max(
        _twos_value(s, twos) + (HAND - twos) // 4 * _dearest_hang(s) for twos in range(TWOS + 1)
    )
    return worst + s.three_spades


def _most_one_loser_pays(s: ScoringRules) -> int:
    thoi = _most_thoi(s)
    count = HAND * s.card
    counted = count * s.three_spades_finish_multiplier + thoi
    cong_rate = s.cong_units if s.cong_units is not None else count
    cong = (cong_rate + thoi) * s.cong_multiplier * s.three_spades_finish_cong_multiplier
    instant_rate = s.instant_win_units if s.instant_win_units is not None else count
    instant = instant_rate + thoi  # thối added where instant_win_penalties (or counted) says
    if s.first_game_instant_doubles:
        instant = max(instant, 2 * count + thoi)
    return max(counted, cong, instant) + max(s.place_units, default=0)


def _most_chops_cost(s: ScoringRules, players: int) -> int:
    if not s.chop_pays:
        return 0
    others_dealt = min(HAND * players, 52 - TWOS)
    return _twos_value(s, TWOS) + others_dealt // 4 * _dearest_hang(s)
