"""Money options of a rule set: what each card, heo and hàng is worth, in units of the bet.

Kept apart from :mod:`tienlen.rules` so that settlement code (``tienlen.scoring``) owns it; a
:class:`~tienlen.rules.RuleSet` holds one of these as its ``scoring`` field.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScoringRules:
    """Values in bets (mức cược). See docs/SCORING.md for each preset's arithmetic."""

    card: int = 1
    black_two: int = 5
    red_two: int = 10
    pairs3: int = 10
    quad: int = 10
    pairs4: int = 10
    house_fee_percent: float = 0.0


SCORING_PRESETS: dict[str, ScoringRules] = {
    "thapthanh": ScoringRules(),
    "langvuichoi": ScoringRules(black_two=5, red_two=10, pairs3=15, quad=30, pairs4=40),
    "b52": ScoringRules(black_two=10, red_two=20, pairs3=20, quad=40, pairs4=40),
    "sanhrong": ScoringRules(black_two=3, red_two=6, pairs3=12, quad=12, pairs4=16),
    "bigfun": ScoringRules(),
}
