"""Regenerate tests/data/perft.json: legal-play counts computed by brute force, not by moves.py.

Run from the repository root: ``.venv/bin/python tests/data/make_perft.py``. Every count here
comes from ``reference.py`` (all subsets of a hand, classified one by one); the game is used only
to carry the state along (whose turn, what is on the table), never to list moves. Regenerate
only when a rule changes on purpose, and say why in the commit.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from tienlen.engine.cards import mask_ascii, parse_mask
from tienlen.engine.game import PASS, Game
from tienlen.engine.rules import RuleSet

HERE = Path(__file__).resolve().parent


def load_reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tienlen_reference", HERE / "reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


R = load_reference()

# (name, preset, overrides, hand, card the play must contain or None, table play or None)
POSITIONS: list[tuple[str, str, dict[str, Any], str, str | None, str | None]] = [
    ("lead: a mixed hand", "thapthanh", {}, "3s 4c 4d 5h 6s 7c 8d 9h 9s 10c Jd Qh 2s", None, None),
    (
        "lead: four suits of 3 4 5 and a 6: straights, consecutive pairs from quads",
        "thapthanh",
        {},
        "3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h 6s",
        None,
        None,
    ),
    (
        "lead: consecutive pairs drawn from triples",
        "thapthanh",
        {},
        "3s 3c 3d 4s 4c 4d 5s 5c 5d 6s 6c 6d 7h",
        None,
        None,
    ),
    (
        "lead: 6 consecutive pairs",
        "b52",
        {},
        "3s 3c 4d 4h 5s 5d 6c 6h 7s 7h 8c 8d 9s",
        None,
        None,
    ),
    (
        "lead: 3 to A in spades and a second ace (straights up to 12 cards)",
        "langvuichoi",
        {},
        "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As Ah",
        None,
        None,
    ),
    (
        "lead: shortest straight 5 (override)",
        "thapthanh",
        {"min_straight": 5},
        "3s 4c 5d 6h 7s 8c 9d 9h 10s Jc Qd Kh 2h",
        None,
        None,
    ),
    ("lead: a single card left", "bigfun", {}, "2h", None, None),
    (
        "first play must contain 3♠",
        "sanhrong",
        {},
        "3s 3c 4d 4h 5s 5c 6d 7h 8s 9c 9d Js 2h",
        "3s",
        None,
    ),
    (
        "first play must contain 3♠, which sits in a triple, pairs and straights",
        "bigfun",
        {},
        "3s 3c 3d 4s 4c 5d 6h 6s 7c 8d 9s 9h 10h",
        "3s",
        None,
    ),
    (
        "first play must contain the lowest card dealt (3♣ when 3♠ is undealt)",
        "bigfun",
        {},
        "3c 3d 4s 4h 5c 6d 7h 8s 9c 10d Jh Qs Kc",
        "3c",
        None,
    ),
    (
        "beat a single 2 holding a higher 2, a quad and two 3-pair runs inside 4 pairs",
        "thapthanh",
        {},
        "3s 3c 3d 3h 5s 5c 6s 6c 7s 7c 8s 8c 2h",
        None,
        "2d",
    ),
    (
        "sanhrong: four of a kind does not chop a 2",
        "sanhrong",
        {},
        "3s 3c 3d 3h 5s 5c 6s 6c 7s 7c 8s 8c 2h",
        None,
        "2d",
    ),
    (
        "beat a pair of 2s: a higher pair of 2s and 4 pairs, not 3 pairs",
        "thapthanh",
        {},
        "4s 5s 6s 7s 7c 8s 8c 9s 9c 10s 10c 2d 2h",
        None,
        "2s 2c",
    ),
    (
        "beat a pair of 2s with a quad",
        "b52",
        {},
        "3s 3c 3d 3h 5s 5c 6s 6c 7s 7c 9d Jh Ks",
        None,
        "2s 2d",
    ),
    (
        "sanhrong: a pair of 2s falls only to 4 pairs",
        "sanhrong",
        {},
        "3s 3c 3d 3h 5s 5c 6s 6c 7s 7c 8s 8c 2h",
        None,
        "2s 2c",
    ),
    (
        "three 2s cannot be chopped",
        "thapthanh",
        {},
        "3s 3c 3d 3h 5s 5c 6s 6c 7s 7c 8s 8c 2h",
        None,
        "2s 2c 2d",
    ),
    (
        "beat a straight of 5 with two suits to choose at every rank",
        "thapthanh",
        {},
        "4s 4c 5s 5c 6s 6c 7s 7c 8s 8c 9h 10h 2s",
        None,
        "3h 4h 5h 6h 7h",
    ),
    (
        "beat a straight: the same top rank wins only with a higher suit",
        "langvuichoi",
        {},
        "5s 5h 6s 6h 7s 7h 8c 9c 10c Jc Qc Kc Ac",
        None,
        "5d 6d 7d",
    ),
    (
        "beat 3 consecutive pairs from triples, with a quad and 4 pairs",
        "thapthanh",
        {},
        "5d 5h 6s 6c 6d 7s 7c 7d 8s 8c 8d 8h 9s",
        None,
        "3s 3c 4s 4c 5s 5c",
    ),
    (
        "sanhrong: 3 consecutive pairs are not chopped by a quad",
        "sanhrong",
        {},
        "5d 5h 6s 6c 6d 7s 7c 7d 8s 8c 8d 8h 9s",
        None,
        "3s 3c 4s 4c 5s 5c",
    ),
    (
        "beat four of a kind: a higher quad or 4 pairs",
        "b52",
        {},
        "9s 9c 9d 9h Js Jc Qs Qc Ks Kc Ad Ah 2h",
        None,
        "4s 4c 4d 4h",
    ),
    (
        "beat 5 consecutive pairs: higher 5 pairs or 6 pairs",
        "thapthanh",
        {},
        "4s 4c 5s 5c 6s 6c 7s 7c 8s 8c 9s 9c 2h",
        None,
        "3d 3h 4d 4h 5d 5h 6d 6h 7d 7h",
    ),
    (
        "beat a triple with triples drawn from quads and three 2s",
        "bigfun",
        {},
        "6s 6c 6d 6h 7s 7c 7d 2s 2c 2d 9h 10h Jh",
        None,
        "5s 5c 5d",
    ),
    (
        "beat a pair: a quad is no chop for an ordinary pair",
        "thapthanh",
        {},
        "3s 3c 3d 3h 9s 9c 9d Ks Kc 2h 10d Jd Qd",
        None,
        "8s 8c",
    ),
    (
        "beat a pair of 9s by suit",
        "thapthanh",
        {},
        "3s 3c 3d 3h 9s 9h 9d Ks Kc 2h 10d Jd Qd",
        None,
        "9c 9s",
    ),
]

# Whole games: (preset, players, seed). Along one fixed line of play the current player takes
# action number (7 * step + 3) mod count of their sorted legal actions; the counts are summed.
LINES: list[tuple[str, int, int]] = [
    ("thapthanh", 4, 1),
    ("thapthanh", 3, 2),
    ("thapthanh", 2, 3),
    ("langvuichoi", 4, 4),
    ("b52", 4, 16),
    ("b52", 3, 6),
    ("sanhrong", 4, 7),
    ("sanhrong", 2, 8),
    ("bigfun", 4, 9),
    ("bigfun", 3, 10),
]

# Game trees: (preset, players, seed, depth): the number of distinct action sequences of the
# current players, depth 1 to ``depth``.
TREES: list[tuple[str, int, int, int]] = [
    ("thapthanh", 4, 11, 3),
    ("sanhrong", 4, 12, 3),
    ("bigfun", 2, 13, 3),
]


def reference_actions(game: Game) -> list[int]:
    """The current player's legal actions by brute force, sorted (PASS first when allowed)."""
    seat = game.current_player
    if game.leading:
        plays = R.legal_plays(game.hands[seat], game.rules, 0, game.required)
        return sorted(plays)
    plays = R.legal_plays(
        game.hands[seat],
        game.rules,
        game.last_mask,
        only_four_pairs=bool(game.revived >> seat & 1),
    )
    return [PASS, *sorted(plays)]


def position_entry(
    name: str,
    preset: str,
    overrides: dict[str, Any],
    hand: str,
    must_contain: str | None,
    beat: str | None,
) -> dict[str, Any]:
    rules = RuleSet.preset(preset, **overrides)
    hand_mask = parse_mask(hand)
    table = parse_mask(beat) if beat else 0
    required = parse_mask(must_contain) if must_contain else 0
    legal = R.legal_plays(hand_mask, rules, table, required)
    return {
        "name": name,
        "preset": preset,
        "overrides": overrides,
        "hand": hand,
        "beat": beat,
        "must_contain": must_contain,
        "legal": len(legal),
    }


def line_entry(preset: str, players: int, seed: int) -> dict[str, Any]:
    game = Game.new(RuleSet.preset(preset), players, seed=seed)
    step = total = 0
    while not game.is_terminal():
        actions = reference_actions(game)
        total += len(actions)
        game.apply_action(actions[(7 * step + 3) % len(actions)])
        step += 1
    return {
        "preset": preset,
        "players": players,
        "seed": seed,
        "plies": step,
        "legal_total": total,
        "winner": game.winner,
        "ranking": list(game.ranking),
        "cards_left": game.cards_left(),
    }


def tree_counts(game: Game, depth: int) -> list[int]:
    """Distinct action sequences of length 1..depth (replaying the history for each child)."""
    counts = [0] * depth
    assert not game.history, "trees start at the deal"

    def visit(path: list[int], level: int) -> None:
        node = Game(game.rules, game.initial_hands, first_game=game.first_game)
        for action in path:
            node.apply_action(action)
        if node.is_terminal():
            return
        actions = reference_actions(node)
        counts[level] += len(actions)
        if level + 1 < depth:
            for action in actions:
                visit([*path, action], level + 1)

    visit([], 0)
    return counts


def main() -> None:
    positions = [
        position_entry(name, preset, overrides, hand, must, beat)
        for name, preset, overrides, hand, must, beat in POSITIONS
    ]
    lines = [line_entry(*line) for line in LINES]
    trees = []
    for preset, players, seed, depth in TREES:
        game = Game.new(RuleSet.preset(preset), players, seed=seed)
        assert not game.is_terminal(), f"{preset} seed {seed} is an instant win: pick another"
        trees.append(
            {
                "preset": preset,
                "players": players,
                "seed": seed,
                "sequences": tree_counts(game, depth),
                "first_hand": mask_ascii(game.hands[game.current_player]),
            }
        )
    data = {
        "about": (
            "Legal-play counts by brute force over every subset of a hand (tests/data/"
            "reference.py), regenerated by tests/data/make_perft.py. positions: one hand, "
            "leading (beat null) or beating a play. lines: a whole game where the current "
            "player takes action (7*step+3) mod count of their sorted legal actions (PASS is 0, "
            "so first); legal_total sums the counts. trees: distinct action sequences of the "
            "current players, depth 1, 2, 3 (out-of-turn chops not counted)."
        ),
        "positions": positions,
        "lines": lines,
        "trees": trees,
    }
    out = HERE / "perft.json"
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out}: {len(positions)} positions, {len(lines)} lines, {len(trees)} trees")


if __name__ == "__main__":
    main()
