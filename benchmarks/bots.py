"""Bot strength and speed over duplicate deals under a preset (thapthanh by default).

Run: ``.venv/bin/python benchmarks/bots.py [--deals N] [--search-deals M] [--workers W]``.
Figures, the exact command and the machine are recorded in docs/BENCHMARKS.md ("Bots").

Three measurements:
1. strategic against three greedy bots, ``--deals`` duplicate deals (4 games each);
2. search against three strategic bots, ``--search-deals`` duplicate deals;
3. each level's decision time (median and 99th percentile), on one process with the four
   levels at one table, so that the timings do not compete with each other for cores.

The search bot runs on a fixed number of samples per decision (``--samples``), not on the
clock, so results are reproducible whatever the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tienlen.cli.arena import ArenaConfig, ArenaReport, render_report, run_arena


def match(config: ArenaConfig, workers: int, label: str) -> tuple[ArenaReport, float]:
    start = time.perf_counter()
    with Progress(
        TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()
    ) as progress:
        task = progress.add_task(label, total=config.deals)
        report, _ = run_arena(
            config, workers, on_deal=lambda done: progress.update(task, completed=done)
        )
    return report, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="strategic vs greedy deals")
    parser.add_argument("--search-deals", type=int, default=2000, help="search vs strategic")
    parser.add_argument("--timing-deals", type=int, default=100, help="decision-time deals")
    parser.add_argument("--samples", type=int, default=None, help="search samples/decision")
    parser.add_argument("--preset", default="thapthanh")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", help="also write the results to this JSON file")
    args = parser.parse_args()

    console = Console()
    console.print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} cores, {args.workers} worker(s), preset {args.preset}"
    )
    results: dict[str, Any] = {"preset": args.preset, "seed": args.seed, "workers": args.workers}
    strategic_field = ("strategic", "greedy", "greedy", "greedy")
    search_field = ("search", "strategic", "strategic", "strategic")
    runs = [
        ("strategic_vs_greedy", strategic_field, args.deals),
        ("search_vs_strategic", search_field, args.search_deals),
    ]
    for key, lineup, deals in runs:
        if deals <= 0:
            continue
        config = ArenaConfig(
            lineup, deals=deals, preset=args.preset, seed=args.seed, search_samples=args.samples
        )
        report, seconds = match(config, args.workers, key)
        render_report(report, console)
        console.print(f"{key}: {seconds:.0f} s wall\n")
        results[key] = report.to_dict() | {"wall_seconds": seconds}
    if args.timing_deals > 0:
        config = ArenaConfig(
            ("random", "greedy", "strategic", "search"),
            deals=args.timing_deals,
            preset=args.preset,
            seed=args.seed,
            search_samples=args.samples,
        )
        report, seconds = match(config, 1, "decision times")
        render_report(report, console)
        results["decision_times"] = report.to_dict() | {"wall_seconds": seconds}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
