"""Money options of a rule set: what each card, heo and hàng is worth, in units of the bet.

Kept apart from :mod:`tienlen.engine.rules` so that settlement (:mod:`tienlen.money`) owns
its meaning; a :class:`~tienlen.engine.rules.RuleSet` holds one of these as its ``scoring``
field. docs/SCORING.md explains every option and each preset's arithmetic, with the seeds'
worked examples. The house fee is not here: it belongs to the room a table is opened in
(:mod:`tienlen.money.rooms`), not to the rules of the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PenaltyCounting = Literal["add", "replace"]
"""How a heo or hàng held at the end is charged: on top of its cards (seed 000), or at its value
instead of counting its cards one each (seeds 002, 003)."""


@dataclass(frozen=True)
class ScoringRules:
    """Values in bets (mức cược). See docs/SCORING.md for each preset's arithmetic."""

    # --- counted cards and thối ---------------------------------------------------------------
    card: int = 1
    """Each card a loser still holds (đếm lá). 0 where only places pay (bigfun)."""
    black_two: int = 5
    red_two: int = 10
    pairs3: int = 10
    quad: int = 10
    pairs4: int = 10
    """4, 5 or 6 consecutive pairs."""
    three_spades: int = 0
    """3♠ held at the end (seed 002); 0 = not charged."""
    penalty_counting: PenaltyCounting = "add"
    # --- chops --------------------------------------------------------------------------------
    chop_pays: bool = True
    """A chop (chặt) moves money: the last one chopped pays the chain's sum to the chopper."""
    # --- cóng ---------------------------------------------------------------------------------
    cong_units: int | None = 26
    """What a cóng loser pays instead of the card count (thối still added); None = count."""
    cong_multiplier: int = 1
    """Multiplies everything a cóng loser pays, thối included (seed 003: ×2)."""
    cong_sweep_only: bool = False
    """Cóng rates only when every other player is cóng (seed 002's "đánh hết 13 lá")."""
    # --- instant wins -----------------------------------------------------------------------
    instant_win_units: int | None = 26
    """What each loser to an instant win pays; None = count the hand like a normal loss."""
    instant_win_penalties: bool = False
    """Losers to an instant win also pay thối for their heo/hàng."""
    first_game_instant_doubles: bool = False
    """Seed 002: an instant win by a first-game-only hand charges the losers' cards ×2 and
    their 2s at thối value."""
    # --- special endings ----------------------------------------------------------------------
    three_spades_finish_multiplier: int = 1
    """The winner's last play holds 3♠: losers' card counts × this (seed 001: 3)."""
    three_spades_finish_cong_multiplier: int = 1
    """… and cóng losers pay everything × this (seed 001: 2)."""
    abandoned_game_void: bool = False
    """Seed 000: at 3+ players, a game that ends because all the others left, before anyone
    went out, moves no chips."""
    # --- full ranking -------------------------------------------------------------------------
    place_units: tuple[int, ...] = ()
    """Full ranking: the k-th from the bottom pays the k-th from the top place_units[k]
    (bét đền nhất, ba đền nhì). Cóng players pay their cóng to the first instead."""
    den_bai: bool = False
    """Full ranking, every loser cóng: the last one who passed while able to beat pays for
    the whole table (đền bài)."""
    cong_pays_everyone: bool = False
    """Seed 004's other reckoning: each cóng player pays an instant-win loss to the first and
    to every player not cóng, and nothing else is paid."""

    def __post_init__(self) -> None:
        if isinstance(self.place_units, list):  # from a JSON override
            object.__setattr__(self, "place_units", tuple(self.place_units))

    def problems(self) -> list[str]:
        """What is wrong with these values, for :class:`~tienlen.rules.RuleSet` to refuse."""
        out: list[str] = []
        counts = {
            "card": self.card,
            "black_two": self.black_two,
            "red_two": self.red_two,
            "pairs3": self.pairs3,
            "quad": self.quad,
            "pairs4": self.pairs4,
            "three_spades": self.three_spades,
        }
        for name, value in counts.items():
            if not _is_count(value):
                out.append(f"{name} must be a whole number of bets, 0 or more")
        for name in ("cong_units", "instant_win_units"):
            value = getattr(self, name)
            if value is not None and not _is_count(value):
                out.append(f"{name} must be a whole number of bets, 0 or more, or null")
        for name in (
            "cong_multiplier",
            "three_spades_finish_multiplier",
            "three_spades_finish_cong_multiplier",
        ):
            value = getattr(self, name)
            if not _is_count(value) or value < 1:
                out.append(f"{name} must be a whole number, 1 or more")
        if self.penalty_counting not in ("add", "replace"):
            out.append("penalty_counting must be 'add' or 'replace'")
        if not isinstance(self.place_units, tuple) or not all(
            _is_count(u) for u in self.place_units
        ):
            out.append("place_units must be a list of whole numbers of bets, 0 or more")
        for name in (
            "chop_pays",
            "cong_sweep_only",
            "instant_win_penalties",
            "first_game_instant_doubles",
            "abandoned_game_void",
            "den_bai",
            "cong_pays_everyone",
        ):
            if not isinstance(getattr(self, name), bool):
                out.append(f"{name} must be true or false")
        return out


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


SCORING_PRESETS: dict[str, ScoringRules] = {
    # Seed 000: counted cards; thối and chops 5 / 10 added to the count; cóng 13 × 2 + thối;
    # instant win 26 without thối; everyone leaving at 3+ players voids the game.
    "thapthanh": ScoringRules(abandoned_game_void=True),
    # Seed 001: thối ×5 ×10 ×15 ×30 ×40 added; cóng 15 + thối; instant win 13 (shared wins
    # split); 3♠ as the winner's last card: cards ×3, cóng ×2.
    "langvuichoi": ScoringRules(
        black_two=5,
        red_two=10,
        pairs3=15,
        quad=30,
        pairs4=40,
        cong_units=15,
        instant_win_units=13,
        three_spades_finish_multiplier=3,
        three_spades_finish_cong_multiplier=2,
    ),
    # Seed 002: conversions 10 / 20 / 20 / 40 and 3♠ 10 replace the card's count; money only
    # from the hands at the end; 26 for an instant win or a sweep (the sweep with thối).
    "b52": ScoringRules(
        black_two=10,
        red_two=20,
        pairs3=20,
        quad=40,
        pairs4=40,
        three_spades=10,
        penalty_counting="replace",
        chop_pays=False,
        cong_units=26,
        cong_sweep_only=True,
        instant_win_units=26,
        first_game_instant_doubles=True,
    ),
    # Seed 003: thối 3 / 6 / 12 / 12 / 16 replace the card's count; cóng doubles everything;
    # an instant win takes the count with thối.
    "sanhrong": ScoringRules(
        black_two=3,
        red_two=6,
        pairs3=12,
        quad=12,
        pairs4=16,
        penalty_counting="replace",
        chop_pays=False,
        cong_units=None,
        cong_multiplier=2,
        instant_win_units=None,
        instant_win_penalties=True,
    ),
    # Seed 004: full ranking, bét đền nhất and ba đền nhì one bet each; cóng 2 bets + heo/hàng
    # to the first; đền bài. Heo/hàng and chop values are this project's defaults.
    "bigfun": ScoringRules(
        card=0,
        black_two=1,
        red_two=2,
        pairs3=2,
        quad=3,
        pairs4=4,
        cong_units=2,
        instant_win_units=2,
        place_units=(1, 1),
        den_bai=True,
    ),
}
