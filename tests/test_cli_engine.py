"""The command line's engine tools: ``tienlen replay``, ``moves``, ``presets`` and ``--version``.

Good input prints JSON (replay) or one play per line (moves) and exits 0; every kind of bad
input prints one clear error and exits non-zero, and never a traceback.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from conftest import deal
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from tienlen.cli.app import app, replay_summary
from tienlen.engine.cards import mask_ascii
from tienlen.engine.game import Game
from tienlen.engine.record import RecordError, ReplayError, record_of
from tienlen.engine.rules import PRESETS, RuleSet

SUIT_SYMBOLS = re.compile("[♠♣♦♥]")
RECORDS = Path(__file__).parent / "records"

TIENLEN = Path(sys.executable).with_name("tienlen")
ENGINE_FIELDS = {
    "winner",
    "ranking",
    "instant_win",
    "instant_winners",
    "cong",
    "chops",
    "cards_left",
    "over",
    "players",
    "ruleset",
}


def invoke(*args: str, stdin: str | None = None) -> Result:
    """Run the CLI in-process; fail on any exception other than a clean exit."""
    result = CliRunner().invoke(app, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"traceback from {args}: {result.exception!r}")
    assert "Traceback" not in result.output
    return result


def replay_text(text: str) -> Result:
    return invoke("replay", "-", stdin=text)


def error_of(result: Result, exit_code: int) -> dict[str, Any]:
    """The ``{"error": …}`` object printed for a refused record, checked for its shape."""
    assert result.exit_code == exit_code, result.output
    payload = json.loads(result.stdout)
    assert list(payload) == ["error"]
    error: dict[str, Any] = payload["error"]
    assert set(error) == {"index", "code", "message"}
    assert isinstance(error["message"], str) and error["message"]
    return error


def finished_record(preset: str = "thapthanh", players: int = 3, seed: int = 2) -> dict[str, Any]:
    game = Game.new(RuleSet.preset(preset), players, seed=seed)
    rng = random.Random(seed)
    while not game.is_terminal():
        game.apply_action(rng.choice(game.legal_actions()))
    return record_of(game, players=[f"P{i}" for i in range(players)], bet=2).to_dict()


GOOD = finished_record()


# --- replay: good records ---------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_replay_prints_the_outcome(preset: str, tmp_path: Path) -> None:
    record = finished_record(preset, 4, seed=21)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 1, "one line of JSON"
    out = json.loads(result.stdout)
    assert set(out) >= ENGINE_FIELDS
    assert out["over"] is True and out["ruleset"] == preset
    assert out["players"] == ["P0", "P1", "P2", "P3"]
    assert sorted(out["ranking"]) == [0, 1, 2, 3] and out["winner"] == out["ranking"][0]
    assert len(out["cards_left"]) == 4
    assert "deltas" in out and "items" in out
    assert len(out["deltas"]) == 4


def test_replay_reads_standard_input_and_files_alike(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    from_file = invoke("replay", str(path))
    from_stdin = replay_text(json.dumps(GOOD))
    assert from_file.exit_code == from_stdin.exit_code == 0
    assert from_file.stdout == from_stdin.stdout


def test_replay_of_an_unfinished_record() -> None:
    record = {**GOOD, "actions": GOOD["actions"][:5]}
    result = replay_text(json.dumps(record))
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["over"] is False and out["winner"] is None and out["ranking"] == []
    assert "deltas" not in out


def test_replay_with_overrides_applies_them() -> None:
    """full_ranking on: the same actions stop short of an ending (play would go on)."""
    plain = json.loads(replay_text(json.dumps(GOOD)).stdout)
    assert plain["over"] is True
    custom = {**GOOD, "ruleset": {"preset": "thapthanh", "overrides": {"full_ranking": True}}}
    result = replay_text(json.dumps(custom))
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["ruleset"] == "thapthanh" and out["over"] is False


def test_replay_of_an_instant_win() -> None:
    hands = deal("2s 2c 2d 2h", "", "", players=3)
    result = replay_text(json.dumps({"hands": [mask_ascii(h) for h in hands]}))
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["instant_win"] == "four_twos" and out["instant_winners"] == [0]
    assert out["winner"] == 0 and out["over"] is True


def test_replay_writes_every_card_in_ascii() -> None:
    """One notation per output: JSON carries the records' ASCII cards, in the settlement's
    reasons too (a thối and a chop here)."""
    text = (RECORDS / "scoring_thapthanh_chop15.json").read_text(encoding="utf-8")
    result = replay_text(text)
    assert result.exit_code == 0, result.output
    assert not SUIT_SYMBOLS.search(result.stdout), result.stdout
    out = json.loads(result.stdout)
    assert out["cards_left"][2] == "" and out["cards_left"][3].startswith("3s 3c 3d 3h")
    reasons = [item["reason"] for item in out["items"]]
    assert "caught holding four of a kind (3s 3c 3d 3h): 10 cards" in reasons
    assert "chặt heo đỏ (2h): heo đen 5 + heo đỏ 10 = 15 lá" in [
        item["reason_vi"] for item in out["items"]
    ]


def test_replay_errors_write_cards_in_ascii() -> None:
    actions = list(GOOD["actions"])
    seat = actions[4]["seat"]
    other = GOOD["hands"][(seat + 1) % 3].split()[-1]
    actions[4] = {"seat": seat, "play": other}
    error = error_of(replay_text(json.dumps({**GOOD, "actions": actions})), 1)
    assert error["message"] == f"seat {seat} does not hold {other}"


def arena_lines(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def test_replay_reads_json_lines(tmp_path: Path) -> None:
    """What ``arena -o games.jsonl`` writes: one result line per record, each with its line."""
    records = [finished_record(seed=s) for s in (3, 4, 5)]
    path = tmp_path / "games.jsonl"
    path.write_text(arena_lines(records[:2]) + "\n" + arena_lines(records[2:]), encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["line"] for line in lines] == [1, 2, 4]  # the blank line 3 is skipped
    for line, record in zip(lines, records, strict=True):
        alone = json.loads(replay_text(json.dumps(record)).stdout)
        assert line == {"line": line["line"], **alone}
    # The same text on standard input, and a one-record .jsonl file, read as lines too.
    from_stdin = replay_text(path.read_text(encoding="utf-8"))
    assert from_stdin.exit_code == 0 and from_stdin.stdout == result.stdout
    one = tmp_path / "one.jsonl"
    one.write_text(arena_lines(records[:1]), encoding="utf-8")
    assert json.loads(invoke("replay", str(one)).stdout)["line"] == 1


def test_arena_output_replays(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    written = invoke("arena", "random", "greedy", "-n", "2", "-j", "1", "-q", "-o", str(path))
    assert written.exit_code == 0, written.output
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["line"] for line in lines] == [1, 2, 3, 4]
    assert all(line["over"] and "deltas" in line for line in lines)


def test_json_lines_report_each_bad_line_and_the_worst_status(tmp_path: Path) -> None:
    actions = [{"seat": 0, "play": ["3s", 4]}]
    illegal = {**GOOD, "actions": actions}
    unreadable = {**GOOD, "bet": -1}
    path = tmp_path / "games.jsonl"
    path.write_text(arena_lines([GOOD, illegal]) + "{not json\n", encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 2  # a line that is not JSON
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["line"] for line in lines] == [1, 2, 3]
    assert lines[0]["over"] is True
    assert lines[1]["error"]["code"] == "bad_action" and lines[1]["error"]["index"] == 0
    assert lines[2]["error"]["code"] == "bad_json"
    path.write_text(arena_lines([GOOD, illegal]), encoding="utf-8")
    assert invoke("replay", str(path)).exit_code == 1
    path.write_text(arena_lines([illegal, unreadable]), encoding="utf-8")
    assert invoke("replay", str(path)).exit_code == 2


def test_two_indented_records_are_not_json_lines() -> None:
    text = json.dumps(GOOD, indent=1) + "\n" + json.dumps(GOOD, indent=1)
    error = error_of(replay_text(text), 2)
    assert error["code"] == "bad_json" and "Extra data" in error["message"]


# --- replay: bad input ------------------------------------------------------------------------


def test_replay_of_text_that_is_not_json() -> None:
    error = error_of(replay_text('{"hands": ['), 2)
    assert error["index"] is None and error["code"] == "bad_json"
    assert error["message"].startswith("not JSON:")


def test_replay_of_json_nested_too_deep() -> None:
    error = error_of(replay_text("[" * 100_000), 2)
    assert error["code"] == "bad_json"


def test_replay_of_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"players": ["Bình"]}'.encode("latin-1"))
    error = error_of(invoke("replay", str(path)), 2)
    assert error["index"] is None and error["code"] in {"io_error", "bad_json"}
    assert "UTF-8" in error["message"] or "utf-8" in error["message"]


@pytest.mark.parametrize("name", ["missing.json", "."])
def test_replay_of_a_file_that_cannot_be_read(name: str, tmp_path: Path) -> None:
    error = error_of(invoke("replay", str(tmp_path / name)), 2)
    assert error["index"] is None and error["code"] == "io_error"


HANDS = GOOD["hands"]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([], "a game record is a JSON object"),
        ({**GOOD, "hands": ["3s 4s 5x", *HANDS[1:]]}, "not a card: '5x'"),
        ({**GOOD, "hands": [HANDS[0], ["3s", "9z"], HANDS[2]]}, "not a card: '9z'"),
        ({**GOOD, "hands": [HANDS[0] + " " + HANDS[0].split()[0], *HANDS[1:]]}, "written twice"),
        ({**GOOD, "hands": [HANDS[0], HANDS[0], HANDS[2]]}, "dealt twice"),
        (
            {**GOOD, "hands": [" ".join(HANDS[0].split()[:12]), *HANDS[1:]]},
            "seat 0 holds 12 cards, not 13",
        ),
        ({**GOOD, "hands": [*HANDS, *HANDS[:2]]}, "hands must be a list of 2 to 4 hands"),
        ({**GOOD, "ruleset": "miennam"}, "unknown rule preset 'miennam'"),
        ({**GOOD, "ruleset": {"preset": "bigfun", "overrides": {"fast": 1}}}, "unknown rule"),
        (
            {**GOOD, "ruleset": {"preset": "bigfun", "overrides": {"full_ranking": "yes"}}},
            "full_ranking must be true or false",
        ),
        (
            {**GOOD, "ruleset": {"preset": "bigfun", "overrides": {"min_straight": 3.5}}},
            "min_straight must be a whole number",
        ),
        (
            {**GOOD, "ruleset": {"preset": "bigfun", "overrides": {"scoring": 5}}},
            "scoring must be",
        ),
        ({**GOOD, "players": ["only one"]}, "players must list one name per hand"),
        ({**GOOD, "bet": -5}, "bet must be a positive whole number"),
        ({**GOOD, "barred_instant_winner": 3}, "barred_instant_winner must be a seat from 0 to 2"),
    ],
)
def test_replay_of_a_malformed_record(record: Any, message: str) -> None:
    error = error_of(replay_text(json.dumps(record)), 2)
    assert error["index"] is None and error["code"] == "bad_record"
    assert message in error["message"]


def test_replay_stops_at_the_first_illegal_action() -> None:
    actions = list(GOOD["actions"])
    index = 4
    seat = actions[index]["seat"]
    other = GOOD["hands"][(seat + 1) % 3].split()[-1]
    actions[index] = {"seat": seat, "play": other}
    actions.append({"this": "is never read"})
    error = error_of(replay_text(json.dumps({**GOOD, "actions": actions})), 1)
    assert error["index"] == index and error["code"] == "cards_not_in_hand"
    assert error["message"].startswith(f"seat {seat} does not hold")


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"seat": 0, "play": ["3s", 4]}, "bad_action"),
        ({"seat": 0, "play": "3s3s"}, "bad_cards"),
        ({"seat": 0, "play": "Xs"}, "bad_cards"),
        ({"seat": 0, "timeout": 1}, "bad_action"),
        ({"seat": 7, "pass": True}, "not_in_game"),
        ([0, "pass"], "bad_action"),
    ],
)
def test_replay_of_a_malformed_action(action: Any, code: str) -> None:
    error = error_of(replay_text(json.dumps({**GOOD, "actions": [action]})), 1)
    assert error == {"index": 0, "code": code, "message": error["message"]}


def test_replay_after_the_end_is_game_over() -> None:
    actions = [*GOOD["actions"], {"seat": 0, "pass": True}]
    error = error_of(replay_text(json.dumps({**GOOD, "actions": actions})), 1)
    assert error["index"] == len(GOOD["actions"]) and error["code"] == "game_over"


def test_installed_command_exits_cleanly(tmp_path: Path) -> None:
    """The real entry point, in a subprocess: JSON on stdout, exit codes, nothing on stderr."""
    good = subprocess.run(
        [str(TIENLEN), "replay", "-"],
        input=json.dumps(GOOD),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert good.returncode == 0 and good.stderr == ""
    assert json.loads(good.stdout)["over"] is True
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps({**GOOD, "hands": HANDS[:1]}), encoding="utf-8")
    bad = subprocess.run(
        [str(TIENLEN), "replay", str(bad_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr + bad.stdout
    assert json.loads(bad.stdout)["error"]["code"] == "bad_record"


# --- moves ------------------------------------------------------------------------------------


def moves(*args: str) -> list[str]:
    result = invoke("moves", *args)
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_moves_when_leading_lists_every_play_once() -> None:
    assert moves("--hand", "3s 3c 4d 5h") == [
        "3♠\tsingle",
        "3♣\tsingle",
        "4♦\tsingle",
        "5♥\tsingle",
        "3♠ 3♣\tpair",
        "3♠ 4♦ 5♥\tstraight of 3",
        "3♣ 4♦ 5♥\tstraight of 3",
    ]


def test_moves_in_ascii() -> None:
    assert moves("--hand", "10h Jh Qh", "--ascii") == [
        "10h\tsingle",
        "Jh\tsingle",
        "Qh\tsingle",
        "10h Jh Qh\tstraight of 3",
    ]


def test_moves_beating_a_single_two() -> None:
    hand = "3s 3c 3d 3h 5s 5c 6s 6c 7s 7c 2h"
    assert moves("--hand", hand, "--beat", "2d", "--ascii") == [
        "2h\tsingle",
        "3s 3c 3d 3h\tfour of a kind",
        "5s 5c 6s 6c 7s 7c\t3 consecutive pairs",
    ]
    # Sảnh Rồng's table: four of a kind does not chop a 2.
    for option in ("--preset", "--rules"):  # --preset, as on the other commands
        assert moves("--hand", hand, "--beat", "2d", option, "sanhrong", "--ascii") == [
            "2h\tsingle",
            "5s 5c 6s 6c 7s 7c\t3 consecutive pairs",
        ]


def test_moves_with_nothing_to_beat_says_so() -> None:
    for args, shown in ((), "2♥"), (("--ascii",), "2h"):
        result = invoke("moves", "--hand", "3s 4c", "--beat", "2h", *args)
        assert result.exit_code == 0 and result.stdout == ""
        assert result.stderr == f"No legal play: nothing in the hand beats {shown}; pass.\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hand", "3s 4x"], "not a card: '4x'"),
        (["--hand", "3s 3s"], "written twice"),
        (["--hand", "3s", "--rules", "tlmn"], "unknown rule preset 'tlmn'"),
        (["--hand", "3s 4s", "--beat", "5s 7h"], "is not a combination"),
        (["--hand", "3s 4s", "--beat", "3s"], "shares cards with --hand"),
        (["--hand", ""], "--hand is empty"),
        (["--hand", "  "], "--hand is empty"),
        (
            ["--hand", "3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h 6s 6c"],
            "--hand holds 14 cards; a hand holds at most 13",
        ),
    ],
)
def test_moves_refuses_bad_input(args: list[str], message: str) -> None:
    result = invoke("moves", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("Error: ") and message in result.stderr


def help_line(option: str, *command: str) -> str:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    return next(line for line in result.stdout.splitlines() if option in line)


def test_flags_show_no_value_in_help() -> None:
    """--ascii takes no value, so the help shows no type after it (typer shows <bool>)."""
    assert "<bool>" not in help_line("--ascii", "moves")
    assert "<bool>" not in help_line("--version")
    assert "<bool>" not in help_line("--json", "arena")
    assert "<bool>" not in help_line("--quiet", "arena")
    assert "<str>" in help_line("--hand", "moves")  # an option with a value keeps its type


def test_version_is_the_installed_one() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout == f"tienlen {metadata.version('tienlen')}\n"


def test_presets_lists_the_five_portals_one_line_each() -> None:
    result = invoke("presets")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(PRESETS)
    for line in lines:
        name = line.split()[0]
        rules = PRESETS[name]
        portal, scoring, distinctive = line[len(name) :].strip().split(" · ")
        assert portal and scoring and distinctive
        # The words follow the rule set, so a preset that changes shows here.
        assert ("out of turn" in distinctive) == rules.four_pairs_out_of_turn
        assert ("full ranking" in distinctive) == rules.full_ranking
        assert ("first play holds 3♠" in distinctive) == rules.first_play_must_contain_lowest
        assert ("no chop after passing" in distinctive) == (not rules.four_pairs_after_pass)
        assert ("chops do not pay" in scoring) == (not rules.scoring.chop_pays)
        assert ("instead of their cards" in scoring) == (
            rules.scoring.penalty_counting == "replace"
        )


# --- no tracebacks, whatever the record holds -----------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "3s", "2h 2d", "thapthanh", "bigfun", "x", "VIP", "Tập sự"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)
FIELDS = [
    "ruleset",
    "players",
    "hands",
    "first_game",
    "leader",
    "bet",
    "barred_instant_winner",
    "actions",
    "balances",
    "room",
    "house_fee_percent",
    "house_fee_bp",
]


@settings(max_examples=150, deadline=None)
@given(
    field=st.sampled_from(FIELDS),
    value=json_values,
    action_index=st.integers(0, 30),
    action_field=st.sampled_from(["seat", "play", "pass", "timeout", "leave", "extra"]),
    action_value=json_values,
)
def test_any_json_in_any_field_gives_an_answer_not_a_traceback(
    field: str, value: Any, action_index: int, action_field: str, action_value: Any
) -> None:
    record = json.loads(json.dumps(GOOD))
    record[field] = value
    if isinstance(record.get("actions"), list) and action_index < len(record["actions"]):
        action = record["actions"][action_index]
        if isinstance(action, dict):
            action[action_field] = action_value
    try:
        summary = replay_summary(record)
    except (RecordError, ReplayError) as exc:
        assert str(exc)
    else:
        json.dumps(summary)
