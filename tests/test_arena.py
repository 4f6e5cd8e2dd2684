"""The arena: duplicate deals, reproducible results, the table, records and the command."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tienlen.cli import app
from tienlen.cli.arena import (
    ArenaConfig,
    ArenaError,
    bradley_terry,
    play_deal,
    run_arena,
    summarise,
    write_records,
)
from tienlen.engine.record import parse_record, replay
from tienlen.engine.rules import RuleSetError

runner = CliRunner()


def test_each_deal_is_played_once_per_rotation() -> None:
    config = ArenaConfig(("strategic", "greedy", "greedy", "greedy"), deals=2, seed=3)
    games = play_deal(config, 0)
    assert [g.rotation for g in games] == [0, 1, 2, 3]
    assert [g.levels.index("strategic") for g in games] == [0, 1, 2, 3]
    for g in games:
        assert sum(g.deltas) == 0  # thapthanh has no house fee
        assert g.winner is None or g.ranking[0] == g.winner
        assert {level for level, _ in g.decisions} <= {"strategic", "greedy"}
    # Same deal, same cards at every rotation; another deal, other cards.
    again = play_deal(config, 0)
    assert [g.deltas for g in again] == [g.deltas for g in games]
    assert [g.deltas for g in play_deal(config, 1)] != [g.deltas for g in games]


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    config = ArenaConfig(("random", "greedy", "strategic"), deals=6, seed=11)
    one, games_one = run_arena(config, workers=1)
    two, games_two = run_arena(config, workers=2)
    assert [[(g.winner, g.deltas) for g in d] for d in games_one] == [
        [(g.winner, g.deltas) for g in d] for d in games_two
    ]
    strip = [{k: v for k, v in s.to_dict().items() if "decision" not in k} for s in one.levels]
    assert strip == [
        {k: v for k, v in s.to_dict().items() if "decision" not in k} for s in two.levels
    ]


def test_summary_counts_and_intervals() -> None:
    config = ArenaConfig(("strategic", "greedy", "greedy", "greedy"), deals=5)
    report, deals = run_arena(config, workers=1)
    by_level = {s.level: s for s in report.levels}
    assert report.games == 20 and report.deals == 5
    assert by_level["strategic"].games == 20 and by_level["greedy"].games == 60
    winners = sum(1 for d in deals for g in d if g.winner is not None)
    assert by_level["strategic"].wins + by_level["greedy"].wins == winners
    chips = sum(g.deltas[g.levels.index("strategic")] for d in deals for g in d)
    assert by_level["strategic"].mean_chips == pytest.approx(chips / 20)
    assert by_level["strategic"].win_ci > 0 and by_level["strategic"].chips_ci > 0
    assert by_level["strategic"].decisions > 0
    assert by_level["strategic"].decision_p99_ms >= by_level["strategic"].decision_median_ms
    # One deal: no interval.
    single = summarise(config, deals[:1])
    assert math.isnan(single.levels[0].win_ci)


def test_bradley_terry_ratings() -> None:
    even = bradley_terry(["a", "b"], {("a", "b"): 10, ("b", "a"): 10})
    assert even["a"] == pytest.approx(1500) and even["b"] == pytest.approx(1500)
    skewed = bradley_terry(["a", "b"], {("a", "b"): 30, ("b", "a"): 10})
    assert skewed["a"] > 1500 > skewed["b"]
    # 3:1 odds (with the virtual draw 30.5:10.5) is about 185 points apart.
    assert skewed["a"] - skewed["b"] == pytest.approx(400 * math.log10(30.5 / 10.5), rel=1e-3)
    sweep = bradley_terry(["a", "b"], {("a", "b"): 50})
    assert math.isfinite(sweep["a"]) and sweep["a"] > skewed["a"]
    assert bradley_terry(["a"], {}) == {"a": 1500.0}


def test_records_replay_to_the_same_result(tmp_path: Path) -> None:
    config = ArenaConfig(("greedy", "random"), deals=2, keep_records=True, preset="b52")
    _, deals = run_arena(config, workers=1)
    out = tmp_path / "games.jsonl"
    assert write_records(deals, out) == 4
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    for line, game in zip(lines, [g for d in deals for g in d], strict=True):
        data = json.loads(line)
        assert data["arena"]["levels"] == list(game.levels)
        assert data["arena"]["deltas"] == list(game.deltas)
        replayed = replay(parse_record(data))
        assert replayed.over and replayed.winner == game.winner
    folder = tmp_path / "records"
    assert write_records(deals, folder) == 4
    assert sorted(p.name for p in folder.iterdir())[0] == "deal00000-rotation0.json"


def test_bad_configurations_are_refused() -> None:
    with pytest.raises(ArenaError, match="2 to 4"):
        ArenaConfig(("greedy",))
    with pytest.raises(ArenaError, match="unknown bot level 'genius'"):
        ArenaConfig(("greedy", "genius"))
    with pytest.raises(ArenaError, match="at least one deal"):
        ArenaConfig(("greedy", "random"), deals=0)
    with pytest.raises(ArenaError, match="at least 1"):
        ArenaConfig(("greedy", "search"), search_samples=0)
    with pytest.raises(RuleSetError, match="unknown rule preset"):
        ArenaConfig(("greedy", "random"), preset="nope")


def test_search_options_reach_the_search_bot() -> None:
    config = ArenaConfig(("search", "greedy"), deals=1, search_samples=2, search_candidates=2)
    assert config.bot_options("search") == {"samples": 2, "candidates": 2}
    assert config.bot_options("greedy") == {}
    games = play_deal(config, 0)
    assert len(games) == 2 and all(g.winner is not None for g in games)


def test_arena_command_prints_a_table_and_json(tmp_path: Path) -> None:
    result = runner.invoke(app, ["arena", "greedy", "random", "-n", "3", "-j", "1", "-q"])
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "win %" in result.output and "Elo" in result.output
    out = tmp_path / "g.jsonl"
    result = runner.invoke(
        app, ["arena", "greedy", "random", "-n", "2", "-j", "1", "-q", "--json", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["games"] == 4 and [s["level"] for s in data["levels"]] == ["greedy", "random"]
    assert len(out.read_text(encoding="utf-8").splitlines()) == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["greedy", "genius"], "unknown bot level"),
        (["greedy"], "2 to 4"),
        (["greedy", "random", "-n", "0"], "at least one deal"),
        (["greedy", "random", "--preset", "nope"], "unknown rule preset"),
        (["greedy", "random", "-j", "-1"], "--workers"),
    ],
)
def test_arena_command_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["arena", *args, "-q"])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
