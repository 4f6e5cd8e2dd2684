"""Game records (record.py) and their documentation (docs/RECORDS.md).

Writing a record and reading it back gives the same game; every malformed record and every
illegal action is refused with a specific code and message; the example in RECORDS.md replays
and prints what the page says.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import deal
from typer.testing import CliRunner

from tienlen.cli.app import app, replay_summary
from tienlen.engine import errors as E
from tienlen.engine.cards import mask_ascii, parse_mask
from tienlen.engine.codec import event_to_dict, summary_of
from tienlen.engine.game import Game
from tienlen.engine.record import (
    GameRecord,
    RecordError,
    ReplayError,
    parse_record,
    record_of,
    replay,
    rules_from_spec,
)
from tienlen.engine.rules import RuleSet

DOC = Path(__file__).resolve().parents[1] / "docs" / "RECORDS.md"
THAPTHANH = RuleSet.preset("thapthanh")


def finished_game(preset: str = "thapthanh", players: int = 4, seed: int = 1) -> Game:
    game = Game.new(RuleSet.preset(preset), players, seed=seed)
    rng = random.Random(seed)
    while not game.is_terminal():
        game.apply_action(rng.choice(game.legal_actions()))
    return game


def a_record(**changes: Any) -> dict[str, Any]:
    """A valid record of a finished 3-player game, with some fields changed."""
    data = record_of(finished_game(players=3, seed=2)).to_dict()
    data.update(changes)
    return data


# --- writing and reading --------------------------------------------------------------------


def test_record_of_writes_the_documented_fields_in_order() -> None:
    game = finished_game()
    data = record_of(game, players=["A", "B", "C", "D"], bet=5, extra={"room": "VIP"}).to_dict()
    assert list(data) == [
        "format",
        "ruleset",
        "players",
        "hands",
        "first_game",
        "leader",
        "bet",
        "room",
        "actions",
    ]
    assert data["ruleset"] == "thapthanh"
    assert data["players"] == ["A", "B", "C", "D"]
    assert data["hands"] == [mask_ascii(h) for h in game.initial_hands]
    assert all(re.fullmatch(r"((10|[2-9JQKA])[scdh] ?)+", h) for h in data["hands"])
    assert data["first_game"] is True and data["leader"] is None and data["bet"] == 5
    for action, entry in zip(game.history, data["actions"], strict=True):
        assert entry["seat"] == action.seat
        if action.kind == "play":
            assert entry == {"seat": action.seat, "play": mask_ascii(action.cards)}
        else:
            assert entry == {"seat": action.seat, action.kind: True}


def test_record_of_names_players_by_seat_by_default() -> None:
    data = record_of(finished_game(players=2)).to_dict()
    assert data["players"] == ["Seat 0", "Seat 1"]
    assert "barred_instant_winner" not in data


def test_minimal_record_takes_the_defaults() -> None:
    hands = deal("3s", "", players=2)
    record = parse_record({"hands": [mask_ascii(h) for h in hands]})
    assert record.rules == THAPTHANH and record.ruleset == "thapthanh"
    assert record.players == ["Seat 0", "Seat 1"]
    assert (record.first_game, record.leader, record.bet) == (True, None, 1)
    assert record.barred_instant_winner is None and record.actions == [] and record.extra == {}
    game = replay(record)
    assert not game.is_terminal() and game.current_player == 0


def test_hands_and_plays_accept_every_card_notation() -> None:
    hands = deal("3s 10h", "", players=2)
    written = [
        ["3♠", *mask_ascii(hands[0] & ~parse_mask("3s")).split()],
        mask_ascii(hands[1]).replace(" ", ",").replace("10", "T").upper(),
    ]
    record = parse_record({"hands": written, "actions": [{"seat": 0, "play": ["3S"]}]})
    assert record.hands == hands
    game = replay(record)
    assert game.hands[0] == hands[0] & ~parse_mask("3s")


def test_unknown_fields_are_kept_and_written_back() -> None:
    data = a_record(table_name="Bàn 7", balances=[100, 200, 300], notes={"a": [1, 2]})
    record = parse_record(data)
    assert record.extra == {
        "table_name": "Bàn 7",
        "balances": [100, 200, 300],
        "notes": {"a": [1, 2]},
    }
    again = record.to_dict()
    assert again == data
    assert list(again)[-1] == "actions"


def test_a_rule_set_with_overrides_is_written_as_preset_and_overrides() -> None:
    rules = RuleSet.preset("b52", full_ranking=True, min_straight=4)
    game = Game(rules, deal("3s", "", "", players=3))
    spec = record_of(game).to_dict()["ruleset"]
    assert spec == {"preset": "b52", "overrides": {"full_ranking": True, "min_straight": 4}}
    assert rules_from_spec(spec) == rules
    assert rules_from_spec(json.loads(json.dumps(spec))) == rules


def test_overrides_change_what_replays() -> None:
    """min_straight 4: the 3-card straight that leads the game becomes illegal."""
    hands = deal("3s 4s 5s", "", players=2)
    actions = [{"seat": 0, "play": "3s 4s 5s"}]
    plain = {"hands": [mask_ascii(h) for h in hands], "actions": actions}
    assert not replay(parse_record(plain)).is_terminal()
    custom = {**plain, "ruleset": {"preset": "thapthanh", "overrides": {"min_straight": 4}}}
    with pytest.raises(ReplayError) as info:
        replay(parse_record(custom))
    assert (info.value.index, info.value.code) == (0, "not_a_combination")


def test_a_later_game_starts_with_the_given_leader() -> None:
    hands = deal("", "", "", players=3, seed=4)
    game = Game(THAPTHANH, hands, first_game=False, leader=2)
    assert game.current_player == 2
    game.play(game.hands[2] & -game.hands[2])
    data = json.loads(json.dumps(record_of(game).to_dict()))
    assert (data["first_game"], data["leader"]) == (False, 2)
    again = replay(parse_record(data))
    assert [event_to_dict(e) for e in again.events] == [event_to_dict(e) for e in game.events]


def test_barred_instant_winner_is_read_and_written() -> None:
    hands = deal("2s 2c 2d 2h", "", players=2)  # four 2s: an instant win in every game
    assert Game(THAPTHANH, hands).instant_win is not None
    data = {"hands": [mask_ascii(h) for h in hands], "barred_instant_winner": 0}
    record = parse_record(data)
    game = replay(record)
    assert game.instant_win is None and not game.is_terminal()
    assert record_of(game).to_dict()["barred_instant_winner"] == 0


# --- malformed records ------------------------------------------------------------------------

GOOD = a_record()
HANDS = GOOD["hands"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "a game record is a JSON object"),
        ("record", "a game record is a JSON object"),
        ({**GOOD, "ruleset": "tlmn"}, r"unknown rule preset 'tlmn' \(known: thapthanh"),
        ({**GOOD, "ruleset": 5}, "ruleset must be a preset name"),
        ({**GOOD, "ruleset": {"overrides": {}}}, "ruleset must be a preset name"),
        ({**GOOD, "ruleset": {"preset": "b52", "overrides": [1]}}, "overrides must be an object"),
        ({**GOOD, "ruleset": {"preset": "b52", "overrides": {"turbo": 1}}}, "unknown rule option"),
        (
            {**GOOD, "ruleset": {"preset": "b52", "overrides": {"min_straight": 2}}},
            "min_straight",
        ),
        (
            {**GOOD, "ruleset": {"preset": "b52", "overrides": {"instant_wins": {"x": "all"}}}},
            "unknown instant-win hand",
        ),
        ({k: v for k, v in GOOD.items() if k != "hands"}, "hands must be a list of 2 to 4"),
        ({**GOOD, "hands": HANDS[0]}, "hands must be a list of 2 to 4"),
        ({**GOOD, "hands": HANDS[:1]}, "hands must be a list of 2 to 4"),
        ({**GOOD, "hands": [*HANDS, *HANDS[:2]]}, "hands must be a list of 2 to 4"),
        ({**GOOD, "hands": [5, *HANDS[1:]]}, r"hands\[0\] must be a string or a list"),
        ({**GOOD, "hands": [HANDS[0], ["3s", 4], HANDS[2]]}, r"hands\[1\] must be a string"),
        ({**GOOD, "hands": [HANDS[0], "3x " + HANDS[1], HANDS[2]]}, r"hands\[1\]: not a card"),
        ({**GOOD, "hands": [HANDS[0] + " " + HANDS[0].split()[0], *HANDS[1:]]}, "written twice"),
        ({**GOOD, "hands": [HANDS[0], HANDS[0], HANDS[2]]}, "seat 1: .* dealt twice"),
        (
            {**GOOD, "hands": [" ".join(HANDS[0].split()[:12]), *HANDS[1:]]},
            "seat 0 holds 12 cards, not 13",
        ),
        ({**GOOD, "players": ["A"]}, "players must list one name per hand"),
        ({**GOOD, "players": "ABC"}, "players must list one name per hand"),
        ({**GOOD, "actions": {"0": "pass"}}, "actions must be a list"),
        ({**GOOD, "bet": 0}, "bet must be a positive whole number"),
        ({**GOOD, "bet": 2.5}, "bet must be a positive whole number"),
        ({**GOOD, "bet": True}, "bet must be a positive whole number"),
        ({**GOOD, "first_game": "yes"}, "first_game must be true or false"),
        ({**GOOD, "first_game": False, "leader": "0"}, "leader must be a seat number"),
        ({**GOOD, "first_game": False, "leader": 3}, "leader must be a seat from 0 to 2"),
        ({**GOOD, "barred_instant_winner": "0"}, "barred_instant_winner must be a seat"),
        ({**GOOD, "barred_instant_winner": 3}, "barred_instant_winner must be a seat from 0 to 2"),
        ({**GOOD, "barred_instant_winner": -1}, "barred_instant_winner must be a seat from 0"),
    ],
)
def test_malformed_records_are_refused(data: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message) as info:
        parse_record(data)
    assert info.value.code == "bad_record"


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"min_straight": "4"}, "min_straight"),
        ({"min_straight": 3.5}, "min_straight"),
        ({"full_ranking": "yes"}, "full_ranking"),
        ({"four_pairs_out_of_turn": 1}, "four_pairs_out_of_turn"),
        ({"instant_win_ties": "coin_toss"}, "instant_win_ties"),
        ({"scoring": 5}, "scoring"),
        ({"chops": 5}, "chops must be a list of"),
        ({"chops": [["two", "pairs3", "quad"]]}, "chops must be made of pairs"),
        ({"instant_wins": 5}, "instant_wins must be made of pairs"),
        ({"instant_wins": ["dragon"]}, "instant_wins must be made of pairs"),
    ],
)
def test_overrides_of_the_wrong_type_are_refused(override: dict[str, Any], message: str) -> None:
    """A value of the wrong type must not slip into the rule set, to fail (or not) later."""
    with pytest.raises(RecordError, match=message):
        parse_record({**GOOD, "ruleset": {"preset": "b52", "overrides": override}})


# --- illegal actions ------------------------------------------------------------------------


def _opening() -> tuple[list[int], dict[str, Any]]:
    """Seat 0 holds 3♠ and 4♠, seat 1 holds 2♥: seat 0 leads."""
    hands = deal("3s 4s 5c 6d 7h 9s 9c", "2h 8s 8c", "", players=3, seed=3)
    return hands, {"ruleset": "sanhrong", "hands": [mask_ascii(h) for h in hands]}


@pytest.mark.parametrize(
    ("actions", "index", "code", "message"),
    [
        (["pass"], 0, "bad_action", "an action is a JSON object"),
        ([{"play": "3s"}], 0, "bad_action", "integer seat"),
        ([{"seat": "0", "play": "3s"}], 0, "bad_action", "integer seat"),
        ([{"seat": True, "play": "3s"}], 0, "bad_action", "integer seat"),
        ([{"seat": 0}], 0, "bad_action", "exactly one of play, pass, timeout, leave"),
        ([{"seat": 0, "play": "3s", "pass": True}], 0, "bad_action", "exactly one of"),
        ([{"seat": 0, "pass": False}], 0, "bad_action", "pass must be true"),
        ([{"seat": 0, "leave": "yes"}], 0, "bad_action", "leave must be true"),
        ([{"seat": 0, "play": 3}], 0, "bad_action", "play must be a string of cards"),
        ([{"seat": 0, "play": ["3s", 4]}], 0, "bad_action", "play must be"),
        ([{"seat": 0, "play": "3x"}], 0, "bad_cards", "not a card: '3x'"),
        ([{"seat": 0, "play": "3s 3s"}], 0, "bad_cards", "written twice"),
        ([{"seat": 1, "play": "2h"}], 0, "not_your_turn", "it is seat 0's turn"),
        ([{"seat": 5, "pass": True}], 0, "not_in_game", "no seat 5"),
        ([{"seat": 0, "play": "2h"}], 0, "cards_not_in_hand", "does not hold 2♥"),
        ([{"seat": 0, "play": "3s 4s"}], 0, "not_a_combination", "not a combination"),
        ([{"seat": 0, "play": "4s"}], 0, "must_contain_card", "must contain 3♠"),
        ([{"seat": 0, "pass": True}], 0, "cannot_pass", "leads this round"),
        (
            [{"seat": 0, "play": "3s"}, {"seat": 1, "pass": True}, {"seat": 1, "pass": True}],
            2,
            "already_passed",
            "seat 1 has already passed this round",
        ),
        (
            [{"seat": 0, "play": "9s 9c"}, {"seat": 1, "play": "8s 8c"}],
            0,
            "must_contain_card",
            "3♠",
        ),
        (
            [{"seat": 0, "play": "3s"}, {"seat": 1, "play": "8s 8c"}],
            1,
            "does_not_beat",
            "does not beat",
        ),
        (
            [{"seat": 0, "leave": True}, {"seat": 0, "pass": True}],
            1,
            "not_in_game",
            "seat 0 has left",
        ),
        (
            [{"seat": 0, "leave": True}, {"seat": 1, "leave": True}, {"seat": 2, "pass": True}],
            2,
            "game_over",
            "the game is over",
        ),
    ],
)
def test_illegal_actions_are_reported_with_their_index(
    actions: list[Any], index: int, code: str, message: str
) -> None:
    _, data = _opening()
    record = parse_record({**data, "actions": actions})
    with pytest.raises(ReplayError) as info:
        replay(record)
    error = info.value
    assert (error.index, error.code) == (index, code)
    assert re.search(message, error.message), error.message
    assert error.to_dict() == {"index": index, "code": code, "message": error.message}
    assert str(error) == f"action {index}: {error.message}"


def test_a_seat_that_passed_may_not_play_in_the_round() -> None:
    """bigfun: a seat that passed may not come back in the same round, even with 4 pairs."""
    hands = deal("3s", "4s 6s", "5s", players=3, seed=5)
    actions = [
        {"seat": 0, "play": "3s"},
        {"seat": 1, "pass": True},
        {"seat": 2, "play": "5s"},
        {"seat": 1, "play": "6s"},
    ]
    data = {"ruleset": "bigfun", "hands": [mask_ascii(h) for h in hands], "actions": actions}
    with pytest.raises(ReplayError) as info:
        replay(parse_record(data))
    assert (info.value.index, info.value.code) == (3, "already_passed")
    assert info.value.message == "seat 1 passed this round"


def test_every_illegal_action_code_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    codes = {cls.code for cls in _subclasses(E.IllegalAction)} - {"illegal"}
    codes |= {"bad_cards", "bad_action", "bad_record", "bad_json", "io_error"}
    for code in codes:
        assert f"`{code}`" in text, f"docs/RECORDS.md does not explain {code}"


def _subclasses(cls: type) -> set[type]:
    out = set(cls.__subclasses__())
    for sub in list(out):
        out |= _subclasses(sub)
    return out


# --- docs/RECORDS.md ------------------------------------------------------------------------


def _doc_block(label: str) -> Any:
    """The JSON code block that follows ``<!-- example: LABEL -->`` in RECORDS.md."""
    text = DOC.read_text(encoding="utf-8")
    match = re.search(rf"<!-- example: {label} -->\s*```json\n(.*?)\n```", text, re.DOTALL)
    assert match, f"no '{label}' example in docs/RECORDS.md"
    return json.loads(match.group(1))


def test_the_documented_example_replays_through_the_cli(tmp_path: Path) -> None:
    record = _doc_block("record")
    kinds = {next(k for k in a if k != "seat") for a in record["actions"]}
    assert kinds == {"play", "pass", "timeout", "leave"}, "the example shows every action"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    for key, value in _doc_block("output").items():
        assert printed[key] == value, key
    assert "deltas" in printed and "items" in printed


def test_the_documented_output_lists_every_engine_field() -> None:
    shown = set(_doc_block("output"))
    game = finished_game()
    summary = replay_summary(record_of(game).to_dict())
    engine_fields = set(summary_of(game)) | {"players", "ruleset"}
    assert engine_fields <= set(summary)
    assert shown == engine_fields
    text = DOC.read_text(encoding="utf-8")
    for field in [*engine_fields, "deltas", "items"]:
        assert f"`{field}`" in text


def test_the_documented_example_keeps_its_extra_field() -> None:
    record = parse_record(_doc_block("record"))
    assert record.extra == {"table_name": "Bàn 7"}
    assert record.players == ["An", "Bình", "Chi"] and record.bet == 10
    game = replay(record)
    assert game.winner == 2 and game.is_terminal()
    written = record_of(game, players=record.players, bet=record.bet, extra=record.extra)
    assert written.to_dict() == _doc_block("record")


def test_an_unfinished_record_replays_without_an_outcome() -> None:
    data = a_record()
    data["actions"] = data["actions"][:4]
    summary = replay_summary(data)
    assert summary["over"] is False
    assert summary["winner"] is None and summary["ranking"] == []
    assert "deltas" not in summary


def test_game_record_round_trips_through_json() -> None:
    game = finished_game("bigfun", 4, seed=9)
    record = record_of(game, players=["Ánh", "Bảo", "Cúc", "Dũng"], bet=2)
    text = json.dumps(record.to_dict(), ensure_ascii=False)
    again = parse_record(json.loads(text))
    assert isinstance(again, GameRecord)
    assert again.to_dict() == record.to_dict()
    assert summary_of(replay(again)) == summary_of(game)
