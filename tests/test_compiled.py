"""The compiled engine plays exactly like the pure Python one (differential test).

setup.py compiles the hot engine modules with mypyc when it can; the ``.py`` sources stay the
reference. tests/seeded_games.py plays the same seeded games (every preset, out-of-turn chops
and declined offers, time-outs, players leaving, refused commands, copies, snapshots, views) in
two fresh processes, one with ``TIENLEN_PURE=1``
and one on the engine as installed, and the outputs must be identical. Without a compiled
engine the comparison is skipped and says so; the pure side is still played and checked.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import pickle
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tienlen.engine import PURE_SWITCH, events
from tienlen.engine.rules import PRESETS

SCRIPT = Path(__file__).with_name("seeded_games.py")
PAIRS_OF_GAMES = 200

ENGINE_MODULES = ("cards", "combos", "ending", "events", "game", "instant", "moves")
"""What setup.py compiles."""


@cache
def played(pure: bool) -> dict[str, Any]:
    """The output of the seeded games in a fresh process, pure or as installed."""
    env = {k: v for k, v in os.environ.items() if k != PURE_SWITCH}
    if pure:
        env[PURE_SWITCH] = "1"
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", str(PAIRS_OF_GAMES)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    output: dict[str, Any] = json.loads(result.stdout)
    return output


def test_pure_side_is_pure_and_plays_everything_compared() -> None:
    """The reference runs the .py sources, and the games reach what the comparison is for."""
    output = played(pure=True)
    assert output["compiled"] == []
    games = output["games"]
    assert len(games) == 2 * PAIRS_OF_GAMES
    assert {g["preset"] for g in games} == set(PRESETS)
    seen: Counter[str] = Counter()
    for game in games:
        assert game["summary"] == game["replayed_summary"]  # the record replays to the same end
        assert game["events"] == game["restored_events"]  # so does the snapshot, and its copy
        for event in game["events"]:
            seen[event["type"]] += 1
            seen["out of turn"] += event["type"] == "play" and event["out_of_turn"]
            seen["over-chop"] += event["type"] == "chop" and len(event["chain"]) > 1
        for action in game["record"]["actions"]:
            seen.update(kind for kind in ("timeout", "decline") if kind in action)
        for refusal in game.get("refused", []):
            seen["refused " + refusal["code"]] += 1
    wanted = (
        "chop",
        "over-chop",
        "out of turn",
        "decline",
        "timeout",
        "left",
        "instant_win",
        "cong",
    )
    for kind in wanted:
        assert seen[kind] >= 1, f"no {kind} in the seeded games: the comparison would miss it"
    assert sum(n for k, n in seen.items() if k.startswith("refused")) >= 100


def test_compiled_engine_plays_exactly_like_the_pure_one() -> None:
    installed = played(pure=False)
    if not installed["compiled"]:
        pytest.skip(
            "no compiled engine installed (pure Python install: no C compiler, or "
            f"{PURE_SWITCH}=1 at install): only the pure side was played"
        )
    assert installed["compiled"] == list(ENGINE_MODULES)
    pure = played(pure=True)["games"]
    for mine, reference in zip(installed["games"], pure, strict=True):
        assert mine == reference, f"game {reference['record']} differs"


SAMPLES = {
    "beaten": (1, 2, 3),
    "could_beat": True,
    "out_of_turn": True,
    "auto": True,
    "inherited": True,
}
"""Values that are not the defaults and of the right types (compiled, ``__init__`` checks);
any other field is an int."""


@pytest.mark.parametrize("name", ["Play", "Pass", "RoundWon"])
def test_a_spelled_out_event_init_matches_the_fields(name: str) -> None:
    """Play, Pass and RoundWon write their own ``__init__`` (compiled, it is faster than the
    dataclass one): it must take every field, in order, with the same defaults, and set it;
    and the event must still pickle and copy (compiled, through its ``__reduce__``)."""
    cls = getattr(events, name)
    assert "__init__" in vars(cls)
    fields = dataclasses.fields(cls)
    values: list[object] = [SAMPLES.get(f.name, 7 + i) for i, f in enumerate(fields)]
    for event in (cls(*values), cls(**{f.name: v for f, v in zip(fields, values, strict=True)})):
        assert [getattr(event, f.name) for f in fields] == values
    for twin in (pickle.loads(pickle.dumps(event)), copy.copy(event)):
        assert [getattr(twin, f.name) for f in fields] == values
    required = [f for f in fields if f.default is dataclasses.MISSING]
    event = cls(*values[: len(required)])
    assert [getattr(event, f.name) for f in fields] == values[: len(required)] + [
        f.default for f in fields[len(required) :]
    ]
