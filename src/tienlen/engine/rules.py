"""The rule set: every house-rule option in one object, and the five portals' presets.

A table is opened with a :class:`RuleSet`; the five portals' house rules are presets named
after their seeds (``thapthanh``, ``langvuichoi``, ``b52``, ``sanhrong``, ``bigfun``), and a
custom table is a preset with overrides: ``RuleSet.preset("b52", full_ranking=True)``.
docs/RULES.md explains each option and the choices made where the seeds are silent.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from . import combos as C
from .scoring_rules import SCORING_PRESETS, ScoringRules

Scope = Literal["all", "first", "other"]
"""When an instant win counts: every game, first games only, or games other than first."""

INSTANT_WIN_HANDS: dict[str, tuple[str, str]] = {
    "dragon": ("dragon straight 3 to A", "sảnh rồng"),
    "dragon_flush": ("dragon straight flush", "thùng phá sảnh rồng"),
    "four_twos": ("four 2s", "tứ quý heo"),
    "five_consecutive_pairs": ("5 consecutive pairs", "5 đôi thông"),
    "six_consecutive_pairs": ("6 consecutive pairs", "6 đôi thông"),
    "six_pairs": ("6 pairs", "6 đôi"),
    "two_quads": ("two four-of-a-kinds", "2 tứ quý"),
    "twelve_one_colour": ("12 cards of one colour", "12 lá đồng màu"),
    "four_triples": ("four triples", "4 sám cô"),
    "four_threes": ("four 3s", "tứ quý 3"),
    "three_pairs_with_3s": ("3 consecutive pairs with 3♠", "3 đôi thông có 3♠"),
    "four_pairs_with_3s": ("4 consecutive pairs with 3♠", "4 đôi thông có 3♠"),
    "three_triples": ("three triples", "3 sám cô"),
    "three_quads": ("three four-of-a-kinds", "3 tứ quý"),
    "five_pairs_one_triple": ("5 pairs and a triple", "5 đôi 1 sám"),
    "five_consecutive_pairs_one_triple": ("5 consecutive pairs and a triple", "5 đôi thông 1 sám"),
}
"""Instant-win (tới trắng) hands: identifier → (English, Vietnamese)."""

# The chop table of RULES.md §1 (seeds 001 and 002), extended up the bomb order of seed 000.
STANDARD_CHOPS: frozenset[tuple[str, str]] = frozenset(
    {
        (C.TWO, C.PAIRS3),
        (C.TWO, C.FOUR_KIND),
        (C.TWO, C.PAIRS4),
        (C.TWO, C.PAIRS5),
        (C.TWO, C.PAIRS6),
        (C.TWO_PAIR, C.FOUR_KIND),
        (C.TWO_PAIR, C.PAIRS4),
        (C.TWO_PAIR, C.PAIRS5),
        (C.TWO_PAIR, C.PAIRS6),
        (C.PAIRS3, C.FOUR_KIND),
        (C.PAIRS3, C.PAIRS4),
        (C.PAIRS3, C.PAIRS5),
        (C.PAIRS3, C.PAIRS6),
        (C.FOUR_KIND, C.PAIRS4),
        (C.FOUR_KIND, C.PAIRS5),
        (C.FOUR_KIND, C.PAIRS6),
        (C.PAIRS4, C.PAIRS5),
        (C.PAIRS4, C.PAIRS6),
        (C.PAIRS5, C.PAIRS6),
    }
)
"""(what is chopped, what chops it). Same-kind bombs beat lower ones as ordinary plays."""

# Seed 003 lists the chops of 3 and 4 consecutive pairs and gives four of a kind none.
SANHRONG_CHOPS = frozenset(
    {
        (C.TWO, C.PAIRS3),
        (C.TWO, C.PAIRS4),
        (C.TWO, C.PAIRS5),
        (C.TWO, C.PAIRS6),
        (C.TWO_PAIR, C.PAIRS4),
        (C.TWO_PAIR, C.PAIRS5),
        (C.TWO_PAIR, C.PAIRS6),
        (C.PAIRS3, C.PAIRS4),
        (C.PAIRS3, C.PAIRS5),
        (C.PAIRS3, C.PAIRS6),
        (C.FOUR_KIND, C.PAIRS4),
        (C.FOUR_KIND, C.PAIRS5),
        (C.FOUR_KIND, C.PAIRS6),
        (C.PAIRS4, C.PAIRS5),
        (C.PAIRS4, C.PAIRS6),
        (C.PAIRS5, C.PAIRS6),
    }
)

_COMMON_INSTANT: tuple[tuple[str, Scope], ...] = (
    ("dragon", "all"),
    ("four_twos", "all"),
    ("five_consecutive_pairs", "all"),
    ("six_pairs", "all"),
)
"""Instant wins every seed but 004 counts in every game."""
_FIRST_GAME_3S: tuple[tuple[str, Scope], ...] = (
    ("four_threes", "first"),
    ("three_pairs_with_3s", "first"),
)


@dataclass(frozen=True)
class RuleSet:
    """Every option of a table. Presets: :meth:`preset`; overrides: :meth:`replace`."""

    name: str = "custom"
    # --- combinations and chops -------------------------------------------------------------
    min_straight: int = 3
    """Shortest straight (sảnh). A 2 is never in a straight; the longest runs 3 to A."""
    chops: frozenset[tuple[str, str]] = STANDARD_CHOPS
    """Chop table: pairs (victim category, chopper category) from :mod:`tienlen.combos`."""
    four_pairs_after_pass: bool = True
    """A player who passed this round may still chop with 4+ consecutive pairs."""
    four_pairs_out_of_turn: bool = False
    """4+ consecutive pairs may chop at once, before the player whose turn it is."""
    # --- leading -------------------------------------------------------------------------------
    first_play_must_contain_lowest: bool = False
    """In a first game, the opening play must contain 3♠ (or the lowest card dealt)."""
    # --- ending --------------------------------------------------------------------------------
    full_ranking: bool = False
    """Play on after the first player is out, to settle every place (seed 004)."""
    two_last_ranks_last: bool = False
    """A player whose last play contains a 2 ranks last instead of winning (seed 004 local rule)."""
    # --- instant wins (tới trắng) ------------------------------------------------------------
    instant_wins: tuple[tuple[str, Scope], ...] = _COMMON_INSTANT
    """Instant-win hands and when each counts; names from :data:`INSTANT_WIN_HANDS`."""
    instant_win_ties: Literal["nearest_leader", "share_later_games"] = "nearest_leader"
    """Several instant winners: the first in play order from the leader (in a first game the
    3♠ holder leads, so 3♠ wins), or (seed 001) all share the win in games after the first."""
    six_pairs_quad_counts_two: bool = True
    """For "6 pairs": a four of a kind counts as two pairs (a triple always gives one)."""
    instant_sets_consecutive: bool = False
    """"3/4 triples" and "3 quads" need consecutive ranks (seed 004's examples are)."""
    no_consecutive_instant_win: bool = False
    """After an instant win, its winner may not win instantly in the next game (seed 000)."""
    redeal_four_twos: bool = False
    """Redeal when one hand holds all four 2s (seed 004's local rule)."""
    # --- money ---------------------------------------------------------------------------------
    scoring: ScoringRules = field(default_factory=ScoringRules)

    def __post_init__(self) -> None:
        self._check_types()
        for name, scope in self.instant_wins:
            if name not in INSTANT_WIN_HANDS:
                raise RuleSetError(f"unknown instant-win hand {name!r}")
            if scope not in ("all", "first", "other"):
                raise RuleSetError(f"instant win {name!r}: scope must be all, first or other")
        for victim, chopper in self.chops:
            if victim not in C.CATEGORIES or chopper not in C.BOMB_CATEGORIES:
                raise RuleSetError(f"bad chop table entry {(victim, chopper)!r}")
        if not 3 <= self.min_straight <= 12:
            raise RuleSetError("min_straight must be between 3 and 12")
        scoring_problems = self.scoring.problems()
        if scoring_problems:
            raise RuleSetError("scoring: " + "; ".join(scoring_problems))
        choppers: dict[str, tuple[str, ...]] = {}
        for victim, chopper in sorted(self.chops):
            choppers[victim] = (*choppers.get(victim, ()), chopper)
        object.__setattr__(self, "_choppers", choppers)

    def _check_types(self) -> None:
        """Refuse values of the wrong type (from JSON overrides) before they fail later."""
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(f.default, bool) and not isinstance(value, bool):
                raise RuleSetError(f"{f.name} must be true or false, not {value!r}")
        if isinstance(self.min_straight, bool) or not isinstance(self.min_straight, int):
            raise RuleSetError(f"min_straight must be a whole number, not {self.min_straight!r}")
        if self.instant_win_ties not in ("nearest_leader", "share_later_games"):
            raise RuleSetError("instant_win_ties must be nearest_leader or share_later_games")
        if not isinstance(self.scoring, ScoringRules):
            raise RuleSetError("scoring must be an object of scoring options")
        for what, pairs in (("instant_wins", self.instant_wins), ("chops", self.chops)):
            if not isinstance(pairs, (tuple, list, frozenset)) or not all(
                isinstance(p, (tuple, list)) and len(p) == 2 for p in pairs
            ):
                raise RuleSetError(f"{what} must be made of pairs")

    # ---------------------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str, **overrides: Any) -> RuleSet:
        """A named portal preset, optionally with overrides for a custom table."""
        try:
            base = PRESETS[name]
        except KeyError:
            known = ", ".join(PRESETS)
            raise RuleSetError(f"unknown rule preset {name!r} (known: {known})") from None
        return base.replace(**overrides) if overrides else base

    def replace(self, **overrides: Any) -> RuleSet:
        fields = {f.name for f in dataclasses.fields(self)}
        unknown = set(overrides) - fields
        if unknown:
            raise RuleSetError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        if "instant_wins" in overrides and isinstance(overrides["instant_wins"], dict):
            overrides["instant_wins"] = tuple(overrides["instant_wins"].items())
        if "chops" in overrides:
            try:
                overrides["chops"] = frozenset(tuple(p) for p in overrides["chops"])
            except TypeError:
                raise RuleSetError("chops must be a list of [victim, chopper] pairs") from None
        if isinstance(overrides.get("scoring"), dict):
            known = {f.name for f in dataclasses.fields(ScoringRules)}
            unknown = set(overrides["scoring"]) - known
            if unknown:
                raise RuleSetError(f"unknown scoring option(s): {', '.join(sorted(unknown))}")
            overrides["scoring"] = dataclasses.replace(self.scoring, **overrides["scoring"])
        return dataclasses.replace(self, **overrides)

    def to_spec(self) -> str | dict[str, Any]:
        """How a record names this rule set: a preset name, or the preset plus overrides."""
        preset = self.name if self.name in PRESETS else "thapthanh"
        base = PRESETS[preset]
        if base == self:
            return self.name
        overrides: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            mine, theirs = getattr(self, f.name), getattr(base, f.name)
            if f.name == "name" or mine == theirs:
                continue
            if f.name == "chops":
                overrides[f.name] = sorted([list(p) for p in mine])
            elif f.name == "instant_wins":
                overrides[f.name] = dict(mine)
            elif f.name == "scoring":
                overrides[f.name] = {
                    g.name: getattr(mine, g.name)
                    for g in dataclasses.fields(mine)
                    if getattr(mine, g.name) != getattr(theirs, g.name)
                }
            else:
                overrides[f.name] = mine
        return {"preset": preset, "overrides": overrides}

    def choppers_of(self, victim_category: str | None) -> tuple[str, ...]:
        """Bomb categories that may chop a play of this category."""
        if victim_category is None:
            return ()
        return self._choppers.get(victim_category, ())  # type: ignore[attr-defined, no-any-return]

    def beats(self, new_code: int, old_code: int) -> bool:
        """Whether a play with code ``new_code`` may be laid on ``old_code``."""
        if new_code >> 8 == old_code >> 8:
            return (new_code & 0xFF) > (old_code & 0xFF)
        new_cat = C.category(new_code)
        return new_cat is not None and new_cat in self.choppers_of(C.category(old_code))

    def allows(self, code: int) -> bool:
        """Whether this rule set knows the combination at all."""
        return code >> 16 != C.STRAIGHT or (code >> 8) & 0xFF >= self.min_straight

    def instant_scope(self) -> dict[str, Scope]:
        return dict(self.instant_wins)


class RuleSetError(ValueError):
    """A rule set or an override is not valid."""


def _preset(name: str, **kw: Any) -> RuleSet:
    return RuleSet(name=name, scoring=SCORING_PRESETS[name], **kw)


PRESETS: dict[str, RuleSet] = {
    "thapthanh": _preset(
        "thapthanh",
        instant_wins=(
            *_COMMON_INSTANT,
            ("two_quads", "all"),
            ("twelve_one_colour", "all"),
            *_FIRST_GAME_3S,
        ),
        no_consecutive_instant_win=True,
    ),
    "langvuichoi": _preset(
        "langvuichoi",
        instant_wins=(
            *_COMMON_INSTANT,
            ("twelve_one_colour", "all"),
            *_FIRST_GAME_3S,
            ("four_pairs_with_3s", "first"),
        ),
        instant_win_ties="share_later_games",
        four_pairs_out_of_turn=True,
    ),
    "b52": _preset(
        "b52",
        instant_wins=(*_COMMON_INSTANT, *_FIRST_GAME_3S, ("four_pairs_with_3s", "first")),
    ),
    "sanhrong": _preset(
        "sanhrong",
        chops=SANHRONG_CHOPS,
        four_pairs_out_of_turn=True,
        first_play_must_contain_lowest=True,
        instant_wins=(*_COMMON_INSTANT, ("four_triples", "all")),
    ),
    "bigfun": _preset(
        "bigfun",
        four_pairs_after_pass=False,
        first_play_must_contain_lowest=True,
        full_ranking=True,
        instant_sets_consecutive=True,
        instant_wins=(
            ("dragon", "other"),
            ("dragon_flush", "other"),
            ("four_twos", "other"),
            ("five_consecutive_pairs", "other"),
            ("six_consecutive_pairs", "other"),
            ("six_pairs", "other"),
            ("twelve_one_colour", "other"),
            ("four_threes", "first"),
            ("three_pairs_with_3s", "first"),
            ("four_pairs_with_3s", "first"),
            ("three_triples", "first"),
            ("four_triples", "first"),
            ("three_quads", "first"),
            ("five_pairs_one_triple", "first"),
            ("five_consecutive_pairs_one_triple", "first"),
        ),
    ),
}
"""The five portals' house rules, one preset per seed document."""
