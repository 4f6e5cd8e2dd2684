"""Verifiable deals: shuffles and record checks per second on one core.

Run: ``.venv/bin/python benchmarks/deal_speed.py [--deals N]``. Figures and the machine they were
measured on are recorded in docs/BENCHMARKS.md.

``tienlen-deal/1`` (docs/FAIRNESS.md) costs two or three HMAC-SHA256 calls and 51 draws a deal;
the plain ``random.shuffle`` deal that bots and tests use is measured alongside for scale.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import random
import time
from collections.abc import Callable

from tienlen.engine.cards import mask_ascii
from tienlen.engine.deal import deal_field, deal_game, deal_hands
from tienlen.engine.game import deal
from tienlen.engine.verify import verify_record


def per_second(fn: Callable[[int], object], count: int) -> float:
    """Calls per second of ``fn(t)`` for t = 0 … count-1, best of three runs."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for t in range(count):
            fn(t)
        best = min(best, time.process_time() - start)
    return count / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    args = parser.parse_args()
    seeds = [hashlib.sha256(t.to_bytes(8, "big")).digest() for t in range(args.deals)]
    clients = [b"\x01" * 16, b"\x02" * 16, b"\x03" * 16, b"\x04" * 16]
    records = []
    for seed in seeds[: args.deals // 10]:
        hands = deal_game(seed, clients, 4).hands
        deal_data = deal_field(seed, clients)
        records.append({"hands": [mask_ascii(h) for h in hands], "deal": deal_data})
    rng = random.Random(0)
    rows = [
        ("random.shuffle deal (game.deal)", per_second(lambda t: deal(4, rng), args.deals)),
        (
            "tienlen-deal/1, no client seeds",
            per_second(lambda t: deal_hands(seeds[t], [], 4), args.deals),
        ),
        (
            "tienlen-deal/1, 4 client seeds",
            per_second(lambda t: deal_hands(seeds[t], clients, 4), args.deals),
        ),
        (
            "verify_record (4 players)",
            per_second(lambda t: verify_record(records[t]), len(records)),
        ),
    ]
    print(f"Python {platform.python_version()} on {platform.machine()}, one core, CPU time")
    for name, rate in rows:
        print(f"{name:34} {rate:>10,.0f} /s")


if __name__ == "__main__":
    main()
