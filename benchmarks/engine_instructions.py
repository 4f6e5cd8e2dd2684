"""Engine cost in machine instructions per game, which a busy machine does not change.

Run: ``.venv/bin/python benchmarks/engine_instructions.py [--games N] [--seed S]`` (valgrind
must be installed). For the pure Python engine and for the engine as installed (compiled by
mypyc, where it is), it runs valgrind's cachegrind twice on the loop of
``benchmarks/engine_speed.py`` (random 4-player games played to full ranking, each move a
uniformly random legal action): once playing ``N`` games (default 300, seed 2026) and once
playing none, with ``PYTHONHASHSEED=0``. The difference divided by ``N`` is the cost of one game,
start-up and imports left out. Figures are recorded in docs/BENCHMARKS.md ("Engine").

``--engine pure`` or ``--engine installed`` measures one of the two only.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = """
import sys
sys.path.insert(0, {here!r})
from engine_speed import engine_kind, random_games
from tienlen.engine.rules import RuleSet

rules = RuleSet.preset("thapthanh", instant_wins=()).replace(full_ranking=True)
print(engine_kind())
if {games}:
    random_games(rules, {games}, {seed})
"""


def instructions(games: int, seed: int, pure: bool) -> tuple[int, str]:
    """(instructions executed, engine kind) of a Python process playing ``games`` games."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("TIENLEN_PURE", None)
    if pure:
        env["TIENLEN_PURE"] = "1"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cachegrind.out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={out}",
                sys.executable,
                "-c",
                CHILD.format(here=str(HERE), games=games, seed=seed),
            ],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    match = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if match is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr}")
    return int(match.group(1).replace(",", "")), done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="full-ranking games (default 300)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--engine", choices=("both", "pure", "installed"), default="both")
    args = parser.parse_args()
    engines = {"both": (True, False), "pure": (True,), "installed": (False,)}[args.engine]
    print(f"{args.games} full-ranking games, seed {args.seed}, PYTHONHASHSEED=0 (cachegrind)")
    for pure in engines:
        played, kind = instructions(args.games, args.seed, pure)
        idle, _ = instructions(0, args.seed, pure)
        per_game = (played - idle) / args.games
        print(f"  {per_game / 1e6:6.3f} million instructions per game: {kind}")


if __name__ == "__main__":
    main()
