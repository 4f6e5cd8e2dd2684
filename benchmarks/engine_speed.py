"""Engine speed: legal-move generation and random games per second on one core.

Run: ``.venv/bin/python benchmarks/engine_speed.py [--games N] [--seed S]`` (or ``make bench``).
Figures and the machine they were measured on are recorded in docs/BENCHMARKS.md.

Random games: 4 players, every move drawn uniformly from ``legal_actions()`` of the current
player (a pass counts as one action when allowed). Instant wins are switched off so every game
is played out; "first out" stops at the first player out, "full ranking" plays to the last place.

The first lines say which engine ran: compiled by mypyc (the default install, where a C
compiler works) or pure Python (``TIENLEN_PURE=1`` in the environment, or no compiled modules).
Games per second are wall-clock; games per CPU-second, and the load average before and after,
are printed beside them because a shared machine slows the wall clock down.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable

from tienlen.engine import cards, combos, ending, events, game, instant, moves
from tienlen.engine.cards import parse_mask
from tienlen.engine.combos import classify
from tienlen.engine.game import Game
from tienlen.engine.moves import beating_plays, leading_plays
from tienlen.engine.rules import RuleSet


def _time_per_call(fn: Callable[[], object], min_seconds: float = 0.5) -> float:
    """Median microseconds per call over several timed batches."""
    batch = 1
    while True:
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed > 0.05:
            break
        batch *= 2
    samples = []
    deadline = time.perf_counter() + min_seconds
    while time.perf_counter() < deadline or len(samples) < 5:
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        samples.append((time.perf_counter() - start) / batch * 1e6)
    return statistics.median(samples)


def move_generation(rules: RuleSet, hands: int, seed: int) -> dict[str, float]:
    """µs per call, averaged over ``hands`` random 13-card hands."""
    rng = random.Random(seed)
    deck = list(range(52))
    samples: list[int] = []
    for _ in range(hands):
        rng.shuffle(deck)
        mask = 0
        for c in deck[:13]:
            mask |= 1 << c
        samples.append(mask)
    targets = {
        "beat a single (7♦)": classify(parse_mask("7d")),
        "beat a pair (66)": classify(parse_mask("6s 6c")),
        "beat a straight (4-5-6-7-8)": classify(parse_mask("4s 5s 6s 7s 8s")),
    }

    def lead() -> None:
        for hand in samples:
            leading_plays(hand, rules)

    out = {"lead with 13 cards": _time_per_call(lead) / len(samples)}
    for name, code in targets.items():

        def beat(code: int = code) -> None:
            for hand in samples:
                beating_plays(hand, code, rules)

        out[name] = _time_per_call(beat) / len(samples)
    return out


def random_games(rules: RuleSet, games: int, seed: int) -> tuple[float, float, float]:
    """(games per second, games per CPU-second, actions per game) for uniformly random play."""
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    start_cpu = time.process_time()
    for _ in range(games):
        game = Game.new(rules, 4, rng=rng)
        while not game.over:
            game.apply_action(rng.choice(game.legal_actions()))
            actions += 1
    elapsed = time.perf_counter() - start
    elapsed_cpu = time.process_time() - start_cpu
    return games / elapsed, games / elapsed_cpu, actions / games


def engine_kind() -> str:
    """Which engine this process runs: the modules setup.py compiles, compiled or not."""
    hot = (cards, combos, ending, events, game, instant, moves)
    compiled = [m.__name__.rsplit(".", 1)[1] for m in hot if not str(m.__file__).endswith(".py")]
    if not compiled:
        return "pure Python"
    return f"compiled by mypyc ({', '.join(compiled)})"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="random games per mode")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    base = RuleSet.preset("thapthanh", instant_wins=())
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.processor()}")
    print(f"Engine: {engine_kind()}")
    print(f"Load average (1, 5, 15 min) before: {load()}")
    print("\nLegal-move generation (µs per call, 500 random 13-card hands):")
    for name, micros in move_generation(base, 500, args.seed).items():
        print(f"  {name:32s} {micros:8.2f}")
    print(f"\nRandom 4-player games, one core ({args.games} games each):")
    for label, rules in (
        ("to the first player out", base),
        ("to full ranking", base.replace(full_ranking=True)),
    ):
        rate, cpu_rate, per_game = random_games(rules, args.games, args.seed)
        print(
            f"  {label:26s} {rate:8.0f} games/s ({cpu_rate:.0f} per CPU-second)"
            f"   {per_game:5.1f} actions/game"
        )
    print(f"Load average after: {load()}")


if __name__ == "__main__":
    main()
