"""Perft: the fast move generator against brute force, on fixed positions and whole games.

tests/data/perft.json holds counts made by tests/data/make_perft.py from tests/data/reference.py
(every subset of a hand, classified one by one). Here the generator in
``tienlen.engine.moves`` and the
game's ``legal_actions`` must produce exactly those plays, each once.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import deal

from tienlen.engine.cards import mask_ascii, parse_mask
from tienlen.engine.combos import classify
from tienlen.engine.game import PASS, Game
from tienlen.engine.moves import beating_plays, leading_plays
from tienlen.engine.rules import RuleSet

DATA = Path(__file__).resolve().parent / "data"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"tienlen_{name}", DATA / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


R = _load("reference")
PERFT: dict[str, Any] = json.loads((DATA / "perft.json").read_text(encoding="utf-8"))
POSITIONS = PERFT["positions"]
LINES = PERFT["lines"]
TREES = PERFT["trees"]


def _generated(position: dict[str, Any]) -> list[int]:
    rules = RuleSet.preset(position["preset"], **position["overrides"])
    hand = parse_mask(position["hand"])
    if position["beat"] is None:
        plays = leading_plays(hand, rules)
        if position["must_contain"]:
            required = parse_mask(position["must_contain"])
            plays = [p for p in plays if p & required]
        return plays
    return beating_plays(hand, classify(parse_mask(position["beat"])), rules)


def test_perft_file_covers_the_tricky_cases() -> None:
    names = " | ".join(p["name"] for p in POSITIONS)
    for needle in ("3♠", "pair of 2s", "single 2", "sanhrong", "triples", "straight"):
        assert needle in names
    assert len(POSITIONS) >= 20
    assert {line["preset"] for line in LINES} == {
        "thapthanh",
        "langvuichoi",
        "b52",
        "sanhrong",
        "bigfun",
    }
    assert {line["players"] for line in LINES} == {2, 3, 4}


@pytest.mark.parametrize("position", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_generator_matches_brute_force(position: dict[str, Any]) -> None:
    rules = RuleSet.preset(position["preset"], **position["overrides"])
    hand = parse_mask(position["hand"])
    table = parse_mask(position["beat"]) if position["beat"] else 0
    required = parse_mask(position["must_contain"]) if position["must_contain"] else 0
    expected = R.legal_plays(hand, rules, table, required)
    assert len(expected) == position["legal"], "perft.json is stale: run make_perft.py"

    plays = _generated(position)
    assert len(plays) == len(set(plays)), "a play is listed twice"
    missing = sorted(expected - set(plays))
    extra = sorted(set(plays) - expected)
    assert not missing, f"generator misses {[mask_ascii(m) for m in missing[:5]]}"
    assert not extra, f"generator invents {[mask_ascii(m) for m in extra[:5]]}"


FIRST_PLAYS = [p for p in POSITIONS if p["must_contain"]]


@pytest.mark.parametrize("position", FIRST_PLAYS, ids=[p["name"] for p in FIRST_PLAYS])
def test_first_play_through_the_game(position: dict[str, Any]) -> None:
    """The game itself restricts a first game's opening play to the lowest card dealt."""
    rules = RuleSet.preset(position["preset"], **position["overrides"])
    required = position["must_contain"]
    # Leave every card below the required one undealt, so that it is the lowest card dealt.
    below = " ".join(mask_ascii(1 << c) for c in range(parse_mask(required).bit_length() - 1))
    players = 4 if not below else 3
    game = Game(rules, deal(position["hand"], players=players, undealt=below, seed=1))
    assert not game.is_terminal()
    assert game.current_player == 0
    assert game.required == parse_mask(required)
    legal = game.legal_actions()
    assert PASS not in legal
    assert len(legal) == position["legal"]
    assert set(legal) == R.legal_plays(parse_mask(position["hand"]), rules, 0, game.required)


def _play_line(preset: str, players: int, seed: int) -> tuple[Game, int, int]:
    game = Game.new(RuleSet.preset(preset), players, seed=seed)
    step = total = 0
    while not game.is_terminal():
        actions = game.legal_actions()
        assert len(actions) == len(set(actions))
        actions.sort()
        total += len(actions)
        game.apply_action(actions[(7 * step + 3) % len(actions)])
        step += 1
    return game, step, total


@pytest.mark.parametrize(
    "line", LINES, ids=[f"{x['preset']}-{x['players']}p-seed{x['seed']}" for x in LINES]
)
def test_whole_game_line(line: dict[str, Any]) -> None:
    game, plies, total = _play_line(line["preset"], line["players"], line["seed"])
    assert (plies, total) == (line["plies"], line["legal_total"])
    assert game.winner == line["winner"]
    assert list(game.ranking) == line["ranking"]
    assert game.cards_left() == line["cards_left"]


def test_one_line_against_brute_force_at_every_step() -> None:
    """Not only the totals: each step's legal actions equal the reference's, in a whole game."""
    line = next(x for x in LINES if x["preset"] == "sanhrong" and x["players"] == 2)
    game = Game.new(RuleSet.preset("sanhrong"), 2, seed=line["seed"])
    step = 0
    while not game.is_terminal():
        seat = game.current_player
        expected = R.legal_plays(
            game.hands[seat],
            game.rules,
            game.last_mask,
            game.required,
            only_four_pairs=bool(game.revived >> seat & 1),
        )
        actions = game.legal_actions()
        assert set(actions) - {PASS} == expected
        assert (PASS in actions) == (not game.leading)
        actions.sort()
        game.apply_action(actions[(7 * step + 3) % len(actions)])
        step += 1
    assert step == line["plies"]


def _sequences(game: Game, depth: int) -> list[int]:
    counts = [0] * depth

    def visit(path: list[int], level: int) -> None:
        node = Game(game.rules, game.initial_hands, first_game=game.first_game)
        for action in path:
            node.apply_action(action)
        if node.is_terminal():
            return
        actions = node.legal_actions()
        counts[level] += len(actions)
        if level + 1 < depth:
            for action in actions:
                visit([*path, action], level + 1)

    visit([], 0)
    return counts


@pytest.mark.parametrize(
    "tree", TREES, ids=[f"{x['preset']}-{x['players']}p-seed{x['seed']}" for x in TREES]
)
def test_game_tree_sequences(tree: dict[str, Any]) -> None:
    game = Game.new(RuleSet.preset(tree["preset"]), tree["players"], seed=tree["seed"])
    assert mask_ascii(game.hands[game.current_player]) == tree["first_hand"]
    assert _sequences(game, len(tree["sequences"])) == tree["sequences"]
