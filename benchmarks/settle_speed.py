"""Settlement speed: settling finished games and reading hands for thối, on one core.

Run: ``.venv/bin/python benchmarks/settle_speed.py [--games N] [--seed S]``.
Figures and the machine they were measured on are recorded in docs/BENCHMARKS.md.

The search bot settles every game it plays out in its look-ahead, so ``settle`` is on its hot
path; the words of each line are made only when read, and are not timed here. Games: 4 players,
every preset, every action drawn uniformly from ``legal_actions()`` (instant wins on), so chops,
cóng and instant wins all occur.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from tienlen.engine.game import Game
from tienlen.engine.rules import PRESETS, RuleSet
from tienlen.money.settlement import hand_penalties, settle


def finished_games(per_preset: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    games = []
    for name in sorted(PRESETS):
        rules = RuleSet.preset(name)
        for _ in range(per_preset):
            game = Game.new(rules, 4, rng=rng)
            while not game.over:
                game.apply_action(rng.choice(game.legal_actions()))
            games.append(game)
    return games


def best_of(runs: int, fn: Callable[[], None]) -> float:
    """The fastest of ``runs`` timings of ``fn()``, in seconds (least disturbed by others)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per preset")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    games = finished_games(args.games, args.seed)
    rng = random.Random(args.seed)
    deck = list(range(52))
    hands = []
    for _ in range(2000):
        rng.shuffle(deck)
        hands.append(sum(1 << c for c in deck[:13]))
    scoring = [RuleSet.preset(name).scoring for name in sorted(PRESETS)]

    def settle_all() -> None:
        for game in games:
            settle(game)

    def read_all() -> None:
        for s in scoring:
            for hand in hands:
                hand_penalties(hand, s)

    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.processor()}")
    settled = best_of(5, settle_all) / len(games) * 1e6
    read = best_of(5, read_all) / (len(hands) * len(scoring)) * 1e6
    print(f"  settle, µs per game ({len(games)} games)        {settled:8.1f}")
    print(f"  hand_penalties, µs per random 13-card hand  {read:8.2f}")
    print(f"  (median game length {statistics.median(len(g.history) for g in games)} actions)")


if __name__ == "__main__":
    main()
