"""The rule set: the chop table (chặt) per preset, presets, overrides and their errors."""

from __future__ import annotations

import dataclasses
import itertools
import re
from pathlib import Path

import pytest
from conftest import m

from tienlen.engine import combos as C
from tienlen.engine.rules import (
    INSTANT_WIN_HANDS,
    PRESETS,
    SANHRONG_CHOPS,
    STANDARD_CHOPS,
    RuleSet,
    RuleSetError,
)

STANDARD_PRESETS = ("thapthanh", "langvuichoi", "b52", "bigfun")

SINGLE_TWO = "2h"
PAIR_OF_TWOS = "2d 2h"
THREE_2S = "2s 2d 2h"
PAIRS3 = "5s 5c 6s 6c 7s 7c"
HIGHER_PAIRS3 = "5d 5h 6d 6h 7d 7h"
QUAD = "9s 9c 9d 9h"
HIGHER_QUAD = "10s 10c 10d 10h"
PAIRS4 = "Js Jc Qs Qc Ks Kc As Ac"
HIGHER_PAIRS4 = "Jd Jh Qd Qh Kd Kh Ad Ah"
LOW_PAIRS4 = "3s 3c 4s 4c 5d 5h 6d 6h"
PAIRS5 = "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c"
PAIRS6 = "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c"


def beats(new: str, old: str, preset: str | RuleSet) -> bool:
    rules = RuleSet.preset(preset) if isinstance(preset, str) else preset
    return rules.beats(C.classify(m(new)), C.classify(m(old)))


# The chop table of RULES.md §1 (seeds 001 and 002): (table, chopper, chops?).
STANDARD_TABLE = [
    (SINGLE_TWO, PAIRS3, True),
    (SINGLE_TWO, QUAD, True),
    (SINGLE_TWO, PAIRS4, True),
    (PAIR_OF_TWOS, PAIRS3, False),  # 3 consecutive pairs do NOT chop a pair of 2s
    (PAIR_OF_TWOS, QUAD, True),
    (PAIR_OF_TWOS, PAIRS4, True),
    (PAIRS3, HIGHER_PAIRS3, True),
    (HIGHER_PAIRS3, PAIRS3, False),
    (PAIRS3, QUAD, True),
    (PAIRS3, PAIRS4, True),
    (QUAD, HIGHER_QUAD, True),
    (HIGHER_QUAD, QUAD, False),
    (QUAD, PAIRS3, False),
    (QUAD, PAIRS4, True),
    (PAIRS4, HIGHER_PAIRS4, True),
    (HIGHER_PAIRS4, PAIRS4, False),
    (PAIRS4, QUAD, False),
    (PAIRS4, PAIRS3, False),
    # Seed 000's order goes on: 4 < 5 < 6 consecutive pairs.
    (PAIRS4, PAIRS5, True),
    (SINGLE_TWO, PAIRS6, True),
    (PAIRS5, PAIRS6, True),
    (PAIRS5, PAIRS4, False),
    # Three 2s are chopped by nothing.
    (THREE_2S, QUAD, False),
    (THREE_2S, PAIRS4, False),
]


@pytest.mark.parametrize("preset", STANDARD_PRESETS)
@pytest.mark.parametrize(("table", "chopper", "chops"), STANDARD_TABLE)
def test_standard_chop_table(preset: str, table: str, chopper: str, chops: bool) -> None:
    assert beats(chopper, table, preset) is chops


# Seed 003 lists the chops of 3 and 4 consecutive pairs and gives four of a kind none.
SANHRONG_TABLE = [
    (SINGLE_TWO, PAIRS3, True),
    (SINGLE_TWO, QUAD, False),
    (SINGLE_TWO, PAIRS4, True),
    (PAIR_OF_TWOS, PAIRS3, False),
    (PAIR_OF_TWOS, QUAD, False),
    (PAIR_OF_TWOS, PAIRS4, True),
    (PAIRS3, QUAD, False),
    (PAIRS3, PAIRS4, True),
    (PAIRS3, HIGHER_PAIRS3, True),
    (QUAD, HIGHER_QUAD, True),  # same kind: an ordinary higher play
    (QUAD, PAIRS4, True),
    (PAIRS4, HIGHER_PAIRS4, True),
    (PAIRS4, PAIRS5, True),
]


@pytest.mark.parametrize(("table", "chopper", "chops"), SANHRONG_TABLE)
def test_sanhrong_chop_table(table: str, chopper: str, chops: bool) -> None:
    assert beats(chopper, table, "sanhrong") is chops


@pytest.mark.parametrize("preset", list(PRESETS))
def test_over_chop_chain_each_step_beats_the_last(preset: str) -> None:
    """chặt chồng: 2 ← 3 pairs ← 4 pairs ← higher 4 pairs, in every preset."""
    chain = [SINGLE_TWO, PAIRS3, LOW_PAIRS4, PAIRS4, HIGHER_PAIRS4]
    for lower, higher in itertools.pairwise(chain):
        assert beats(higher, lower, preset), (lower, higher)


def test_standard_over_chop_through_four_of_a_kind() -> None:
    chain = [SINGLE_TWO, PAIRS3, QUAD, HIGHER_QUAD, PAIRS4]
    for lower, higher in itertools.pairwise(chain):
        assert beats(higher, lower, "thapthanh"), (lower, higher)


def test_four_twos_is_an_ordinary_four_of_a_kind() -> None:
    four_twos = "2s 2c 2d 2h"
    assert beats(four_twos, HIGHER_QUAD, "thapthanh")
    assert beats(four_twos, PAIRS3, "b52")
    assert not beats(HIGHER_QUAD, four_twos, "thapthanh")
    assert beats(PAIRS4, four_twos, "thapthanh")


def test_choppers_of_lists_categories() -> None:
    rules = RuleSet.preset("thapthanh")
    assert rules.choppers_of(C.TWO_PAIR) == (C.PAIRS4, C.PAIRS5, C.PAIRS6, C.FOUR_KIND)
    assert rules.choppers_of(None) == ()
    assert rules.choppers_of(C.TWO_TRIPLE) == ()
    assert C.FOUR_KIND not in RuleSet.preset("sanhrong").choppers_of(C.TWO)


def test_custom_chop_table() -> None:
    """A table where 3 consecutive pairs do chop a pair of 2s."""
    rules = RuleSet.preset("thapthanh").replace(
        chops=[*PRESETS["thapthanh"].chops, (C.TWO_PAIR, C.PAIRS3)]
    )
    assert beats(PAIRS3, PAIR_OF_TWOS, rules)
    assert isinstance(rules.chops, frozenset)


# --- presets and options ------------------------------------------------------------------
def test_presets_are_the_five_portals() -> None:
    assert list(PRESETS) == ["thapthanh", "langvuichoi", "b52", "sanhrong", "bigfun"]
    for name, rules in PRESETS.items():
        assert rules.name == name
        assert RuleSet.preset(name) is rules


@pytest.mark.parametrize(
    ("preset", "after_pass", "out_of_turn", "must_contain", "full_ranking"),
    [
        ("thapthanh", True, False, False, False),
        ("langvuichoi", True, True, False, False),
        ("b52", True, False, False, False),
        ("sanhrong", True, True, True, False),
        ("bigfun", False, False, True, True),
    ],
)
def test_preset_turn_options(
    preset: str, after_pass: bool, out_of_turn: bool, must_contain: bool, full_ranking: bool
) -> None:
    rules = RuleSet.preset(preset)
    assert rules.four_pairs_after_pass is after_pass
    assert rules.four_pairs_out_of_turn is out_of_turn
    assert rules.first_play_must_contain_lowest is must_contain
    assert rules.full_ranking is full_ranking
    assert rules.two_last_ranks_last is False
    assert rules.redeal_four_twos is False


def test_preset_instant_win_options() -> None:
    assert RuleSet.preset("thapthanh").no_consecutive_instant_win
    assert RuleSet.preset("langvuichoi").instant_win_ties == "share_later_games"
    assert RuleSet.preset("b52").instant_win_ties == "nearest_leader"
    assert RuleSet.preset("bigfun").instant_sets_consecutive
    assert not RuleSet.preset("sanhrong").instant_sets_consecutive
    assert all(rules.six_pairs_quad_counts_two for rules in PRESETS.values())


def test_preset_with_overrides_is_a_new_rule_set() -> None:
    rules = RuleSet.preset("b52", full_ranking=True)
    assert rules.full_ranking
    assert not PRESETS["b52"].full_ranking
    assert rules.to_spec() == {"preset": "b52", "overrides": {"full_ranking": True}}
    assert PRESETS["b52"].to_spec() == "b52"


def test_instant_wins_override_accepts_a_dict() -> None:
    rules = RuleSet.preset("b52", instant_wins={"dragon": "first"})
    assert rules.instant_scope() == {"dragon": "first"}


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"no_such_option": True}, "unknown rule option"),
        ({"instant_wins": {"royal_flush": "all"}}, "unknown instant-win hand"),
        ({"instant_wins": {"dragon": "sometimes"}}, "scope must be"),
        ({"chops": [(C.TWO, "straight")]}, "bad chop table entry"),
        ({"chops": [("ace", C.PAIRS3)]}, "bad chop table entry"),
        ({"min_straight": 2}, "min_straight"),
        ({"min_straight": 13}, "min_straight"),
    ],
)
def test_bad_overrides_are_refused(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RuleSetError, match=message):
        RuleSet.preset("thapthanh", **overrides)


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(RuleSetError, match=r"unknown rule preset 'tlmn'.*thapthanh"):
        RuleSet.preset("tlmn")
    assert issubclass(RuleSetError, ValueError)


# --- docs/RULES.md says what the code does ----------------------------------------------------
RULES_DOC = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"


def _doc_rows(heading: str) -> dict[str, list[str]]:
    """The rows of the first table under a heading, by their first cell's `code` name."""
    section = RULES_DOC.read_text(encoding="utf-8").split(f"## {heading}\n", 1)[1]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        match = re.match(r"\| `(\w+)`", line)
        if match:
            rows[match.group(1)] = [cell.strip() for cell in line.strip("|").split("|")]
        elif rows and not line.startswith("|"):
            break
    return rows


def _shown(value: object) -> str | None:
    """How the option table writes a value; None for values it names in words."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int | str):
        return str(value)
    if value == STANDARD_CHOPS:
        return "standard"
    if value == SANHRONG_CHOPS:
        return "sanhrong"
    return None


def test_rules_doc_lists_every_option_with_each_presets_value() -> None:
    rows = _doc_rows("Every RuleSet option")
    assert set(rows) == {f.name for f in dataclasses.fields(RuleSet)}
    checked = 0
    for option, cells in rows.items():
        for preset, cell in zip(PRESETS, cells[2:], strict=True):
            shown = _shown(getattr(PRESETS[preset], option))
            if shown is not None:
                assert cell == shown, (option, preset)
                checked += 1
    assert checked >= 5 * 13


def test_rules_doc_instant_win_table_matches_the_presets() -> None:
    rows = _doc_rows("Instant wins (tới trắng)")
    assert set(rows) == set(INSTANT_WIN_HANDS)
    for hand, cells in rows.items():
        for preset, cell in zip(PRESETS, cells[1:], strict=True):
            assert PRESETS[preset].instant_scope().get(hand, "—") == cell, (hand, preset)
