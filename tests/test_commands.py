"""One command path (game.py, codec.py): every change to a game is an :class:`Action` sent
through :meth:`Game.apply`, which returns exactly the events it caused; a refused command raises
with its stable code and changes nothing; commands read from JSON say precisely what is wrong.
Events are numbered: ``seq`` is the position in the log, ``action`` the command that caused it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import deal, m
from engine_driver import (
    FOUR_PAIRS,
    PRESET_NAMES,
    new_game,
    random_command,
    start,
    state_of,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tienlen.engine import combos as C
from tienlen.engine import errors as E
from tienlen.engine.actions import ACTION_KINDS
from tienlen.engine.cards import FULL_DECK, mask_ascii
from tienlen.engine.codec import action_from_dict, action_to_dict, apply_action_dict
from tienlen.engine.events import (
    Chop,
    Cong,
    GameOver,
    InstantWin,
    Left,
    Pass,
    Play,
    PlayerOut,
    RoundWon,
)
from tienlen.engine.game import PASS, Action, Game
from tienlen.engine.rules import RuleSet

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- Game.apply returns exactly the events each kind causes ------------------------------------
def applied(game: Game, action: Action) -> list[Any]:
    """Apply ``action``; check the result is the tail of the log and the history grew by it."""
    events_before = len(game.events)
    history_before = list(game.history)
    result = game.apply(action)
    assert len(result) == len(game.events) - events_before
    assert all(a is b for a, b in zip(result, game.events[events_before:], strict=True))
    assert game.history == [*history_before, action]
    return result


def test_apply_play_leading_returns_the_play() -> None:
    game = start("langvuichoi", "7s", "8s", "9s", FOUR_PAIRS, seed=4)
    result = applied(game, Action.play(0, "7s"))
    assert result == [Play(0, m("7s"), C.classify(m("7s")), None)]
    assert game.current_player == 1


def test_apply_play_returns_the_play_and_its_chop() -> None:
    game = start("langvuichoi", "2s", "", "", FOUR_PAIRS, seed=4)
    applied(game, Action.play(0, "2s"))
    two = (0, m("2s"), C.classify(m("2s")))
    result = applied(game, Action.play(3, FOUR_PAIRS))
    assert result == [
        Play(3, m(FOUR_PAIRS), C.classify(m(FOUR_PAIRS)), two, out_of_turn=True),
        Chop(3, 0, m(FOUR_PAIRS), m("2s"), (two,)),
    ]
    assert result[0].action == result[1].action == 2


def test_apply_pass_returns_the_pass_and_the_round_it_closes() -> None:
    game = start("thapthanh", "7s", "", players=2, seed=1)
    applied(game, Action.play(0, "7s"))
    result = applied(game, Action.pass_turn(1))
    assert result == [Pass(1, result[0].could_beat), RoundWon(0, 0, False)]
    assert isinstance(result[0].could_beat, bool)


@pytest.mark.parametrize("leading", [True, False])
def test_apply_timeout_plays_the_smallest_card_or_passes(leading: bool) -> None:
    game = start("thapthanh", "7s", "", "", "", seed=6)
    if not leading:
        applied(game, Action.play(0, "7s"))
    seat = game.current_player
    smallest = game.hands[seat] & -game.hands[seat]
    result = applied(game, Action.timeout(seat))
    if leading:
        assert result == [Play(seat, smallest, C.classify(smallest), None, auto=True)]
    else:
        assert result == [Pass(seat, result[0].could_beat, auto=True)]


def test_apply_leave_returns_left_and_what_it_ends() -> None:
    game = start("thapthanh", "7s", "", "", "", seed=6)
    assert applied(game, Action.leave(2)) == [Left(2)]
    assert applied(game, Action.leave(0)) == [Left(0)]
    result = applied(game, Action.leave(1))
    assert result[0] == Left(1)
    assert isinstance(result[-1], GameOver) and result[-1].reason == "left"
    assert game.over and game.winner == 3


def test_apply_decline_returns_no_event_but_is_in_the_history() -> None:
    game = start("langvuichoi", "2s", "", "", FOUR_PAIRS, seed=4)
    applied(game, Action.play(0, "2s"))
    assert game.chop_window() == (3,)
    events = len(game.events)
    assert applied(game, Action.decline(3)) == []
    assert len(game.events) == events
    assert game.history[-1] == Action(3, "decline", 0)


def test_action_constructors() -> None:
    assert Action.play(2, "3s 4s 5s") == Action(2, "play", m("3s 4s 5s"))
    assert Action.play(2, m("3s")) == Action(2, "play", 1)
    assert Action.play(2, [0, 1]) == Action(2, "play", 0b11)
    assert Action.pass_turn(1) == Action(1, "pass", 0)
    assert Action.timeout(1) == Action(1, "timeout", 0)
    assert Action.leave(1) == Action(1, "leave", 0)
    assert Action.decline(1) == Action(1, "decline", 0)
    assert ACTION_KINDS == ("play", "pass", "timeout", "leave", "decline")


_FIRST_EVENT = {"play": Play, "pass": Pass, "timeout": (Play, Pass), "leave": Left}


@settings(SETTINGS, max_examples=150)
@given(preset=st.sampled_from(PRESET_NAMES), n=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_every_command_returns_exactly_its_events(preset: str, n: int, seed: int) -> None:
    game = new_game(preset, n, seed)
    rng = random.Random(seed)
    while not game.over:
        action = random_command(game, rng)
        current = game.current
        result = applied(game, action)
        if action.kind == "decline":
            assert result == []
            continue
        first = result[0]
        assert isinstance(first, _FIRST_EVENT[action.kind])
        assert getattr(first, "seat", None) == action.seat
        if action.kind == "play":
            assert isinstance(first, Play) and first.cards == action.cards and not first.auto
            assert first.out_of_turn == (action.seat != current)
            if first.out_of_turn:
                assert isinstance(result[1], Chop) and result[1].seat == action.seat
        elif action.kind in ("pass", "timeout"):
            assert getattr(first, "auto", None) == (action.kind == "timeout")
        allowed_after = (Chop, PlayerOut, Cong, RoundWon, GameOver)
        assert all(isinstance(e, allowed_after) for e in result[1:]), result
        assert sum(isinstance(e, GameOver) for e in result) == int(game.over)
        assert isinstance(result[-1], GameOver) == game.over


# --- refused commands: the code, the message, and nothing changed -------------------------------
def refused(game: Game, action: Action, code: str, message: str, seat: int | None) -> None:
    before = state_of(game)
    legal_before = [game.legal_actions(s) for s in range(game.n)]
    window_before = game.chop_window()
    with pytest.raises(E.IllegalAction) as caught:
        game.apply(action)
    assert caught.value.code == code, caught.value
    assert str(caught.value) == caught.value.message == message
    assert caught.value.seat == seat
    assert state_of(game) == before
    assert [game.legal_actions(s) for s in range(game.n)] == legal_before
    assert game.chop_window() == window_before
    # The same command as JSON is refused the same way by the JSON path.
    with pytest.raises(E.IllegalAction) as again:
        apply_action_dict(game, json.loads(json.dumps(action_to_dict(action))))
    assert (again.value.code, str(again.value)) == (code, message)
    assert state_of(game) == before


def _table() -> Game:
    """langvuichoi, seat 0 leads and holds 7♠ 2♠ 9♦; seat 3 holds 4 consecutive pairs."""
    return start("langvuichoi", "7s 2s 9d", "8s 4d", "9s", FOUR_PAIRS, seed=4)


def test_refused_before_the_first_play() -> None:
    game = _table()
    one = game.hands[1] & -game.hands[1]
    refused(game, Action.play(0, "3s"), "cards_not_in_hand", "seat 0 does not hold 3♠", 0)
    refused(game, Action.play(0, "7s 9d"), "not_a_combination", "7♠ 9♦ is not a combination", 0)
    refused(game, Action(0, "play", 0), "not_a_combination", "a play needs at least one card", 0)
    refused(game, Action.pass_turn(0), "cannot_pass", "seat 0 leads this round and must play", 0)
    turn = "it is seat 0's turn, not seat 1's"
    refused(game, Action.play(1, one), "not_your_turn", turn + _OUT_OF_TURN_HINT, 1)
    refused(game, Action.pass_turn(1), "not_your_turn", turn, 1)
    refused(game, Action.timeout(1), "not_your_turn", turn, 1)
    refused(
        game,
        Action.decline(3),
        "no_chop_offer",
        "seat 3 has no out-of-turn chop offer to decline",
        3,
    )
    refused(
        game,
        Action.decline(0),
        "no_chop_offer",
        "seat 0 has no out-of-turn chop offer to decline (it is their turn: pass instead)",
        0,
    )
    refused(game, Action.play(4, "3s"), "not_in_game", "there is no seat 4 at this table", None)
    refused(game, Action.leave(-1), "not_in_game", "there is no seat -1 at this table", None)


def test_an_unknown_kind_is_a_bad_action() -> None:
    game = _table()
    before = state_of(game)
    for seat in (0, 1):
        with pytest.raises(E.BadAction) as caught:
            game.apply(Action(seat, "fold"))  # type: ignore[arg-type]
        assert caught.value.code == "bad_action" and caught.value.seat == seat
        assert str(caught.value) == "unknown action kind 'fold'"
        assert state_of(game) == before


_OUT_OF_TURN_HINT = " (only 4 consecutive pairs chopping a 2 or a bomb may play out of turn)"


def test_refused_during_a_round_and_a_chop_window() -> None:
    game = _table()
    game.apply(Action.play(0, "7s"))
    refused(game, Action.play(1, "4d"), "does_not_beat", "4♦ (single) does not beat 7♠ (single)", 1)
    refused(
        game,
        Action.decline(3),
        "no_chop_offer",
        "seat 3 has no out-of-turn chop offer to decline",
        3,
    )
    game.apply(Action.pass_turn(1))
    refused(game, Action.pass_turn(1), "already_passed", "seat 1 has already passed this round", 1)
    refused(game, Action.play(1, "8s"), "already_passed", "seat 1 passed this round", 1)
    game.apply(Action.pass_turn(2))
    game.apply(Action.pass_turn(3))
    assert game.current_player == 0 and game.leading
    game.apply(Action.play(0, "2s"))
    assert game.chop_window() == (3,)
    refused(
        game,
        Action.decline(0),
        "no_chop_offer",
        "seat 0 has no out-of-turn chop offer to decline",
        0,
    )
    game.apply(Action.decline(3))
    refused(
        game,
        Action.play(3, FOUR_PAIRS),
        "no_chop_offer",
        "seat 3 let the chop offer on 2♠ go",
        3,
    )
    refused(
        game,
        Action.decline(3),
        "no_chop_offer",
        "seat 3 has no out-of-turn chop offer to decline",
        3,
    )


def test_the_first_play_must_contain_the_lowest_card() -> None:
    game = Game(RuleSet.preset("sanhrong"), deal("", "3s 9h", "", ""), first_game=True)
    assert game.instant_win is None and game.current_player == 1
    refused(
        game,
        Action.play(1, "9h"),
        "must_contain_card",
        "the first play of the game must contain 3♠",
        1,
    )


def test_refused_after_the_end() -> None:
    game = start("thapthanh", "7s", "", players=2, seed=1)
    game.apply(Action.leave(1))
    assert game.over
    for action in (
        Action.play(0, "7s"),
        Action.pass_turn(0),
        Action.timeout(0),
        Action.leave(0),
        Action.decline(1),
    ):
        refused(game, action, "game_over", "the game is over", action.seat)


def test_a_refused_command_is_not_in_the_history_and_numbering_goes_on() -> None:
    game = _table()
    game.apply(Action.play(0, "7s"))
    with pytest.raises(E.DoesNotBeat):
        game.apply(Action.play(1, "4d"))
    events = game.apply(Action.play(1, "8s"))
    assert [(e.seq, e.action) for e in game.events] == [(1, 1), (2, 2)]
    assert events[0].action == len(game.history) == 2


# --- commands as JSON -------------------------------------------------------------------------
@SETTINGS
@given(
    seat=st.integers(0, 3),
    kind=st.sampled_from(ACTION_KINDS),
    cards=st.integers(1, FULL_DECK),
)
def test_action_dict_round_trip(seat: int, kind: str, cards: int) -> None:
    action = Action(seat, kind, cards if kind == "play" else 0)  # type: ignore[arg-type]
    data = action_to_dict(action)
    assert data["seat"] == seat and set(data) == {"seat", kind}
    if kind == "play":
        assert data["play"] == mask_ascii(cards)
    else:
        assert data[kind] is True
    wire = json.loads(json.dumps(data))
    assert action_from_dict(wire) == action
    if kind == "play":
        as_list = {"seat": seat, "play": data["play"].split()}
        assert action_from_dict(as_list) == action


@pytest.mark.parametrize(
    ("data", "message", "seat"),
    [
        ([], "an action is a JSON object", None),
        ("pass", "an action is a JSON object", None),
        (None, "an action is a JSON object", None),
        ({"pass": True}, "an action needs an integer seat", None),
        ({"seat": "1", "pass": True}, "an action needs an integer seat", None),
        ({"seat": True, "pass": True}, "an action needs an integer seat", None),
        ({"seat": 1.0, "pass": True}, "an action needs an integer seat", None),
        ({"seat": 1}, "an action has exactly one of play, pass, timeout, leave, decline", 1),
        (
            {"seat": 1, "pass": True, "timeout": True},
            "an action has exactly one of play, pass, timeout, leave, decline",
            1,
        ),
        (
            {"seat": -1, "leave": True, "decline": True},
            "an action has exactly one of play, pass, timeout, leave, decline",
            None,
        ),
        ({"seat": 2, "fold": True}, "an action has exactly one of " + ", ".join(ACTION_KINDS), 2),
        ({"seat": 0, "play": 5}, "play must be a string of cards or a list of card names", 0),
        (
            {"seat": 0, "play": ["3s", 4]},
            "play must be a string of cards or a list of card names",
            0,
        ),
        ({"seat": 0, "play": None}, "play must be a string of cards or a list of card names", 0),
        ({"seat": 0, "pass": False}, "pass must be true", 0),
        ({"seat": 0, "pass": 1}, "pass must be true", 0),
        ({"seat": 3, "decline": "yes"}, "decline must be true", 3),
        ({"seat": 1, "timeout": None}, "timeout must be true", 1),
        ({"seat": 1, "leave": [True]}, "leave must be true", 1),
    ],
)
def test_malformed_commands_say_what_is_wrong(data: Any, message: str, seat: int | None) -> None:
    with pytest.raises(E.BadAction) as caught:
        action_from_dict(data)
    assert str(caught.value) == message
    assert caught.value.code == "bad_action" and caught.value.seat == seat
    game = _table()
    before = state_of(game)
    with pytest.raises(E.BadAction) as again:
        apply_action_dict(game, data)
    assert str(again.value) == message
    assert state_of(game) == before


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("3x", "not a card: '3x' (write a rank 3-10/J/Q/K/A/2 and a suit s/c/d/h)"),
        ("7s 7s", "card 7♠ is written twice"),
        (["7s", "11s"], "not a card: '11s' (write a rank 3-10/J/Q/K/A/2 and a suit s/c/d/h)"),
    ],
)
def test_unreadable_cards_are_a_bad_action_on_the_json_path(cards: Any, message: str) -> None:
    game = _table()
    before = state_of(game)
    with pytest.raises(E.BadAction) as caught:
        apply_action_dict(game, {"seat": 0, "play": cards})
    assert str(caught.value) == message and caught.value.code == "bad_action"
    assert state_of(game) == before


def test_json_commands_drive_a_game_like_actions() -> None:
    game = _table()
    twin = _table()
    script = [
        {"seat": 0, "play": "7s"},
        {"seat": 1, "play": ["8s"]},
        {"seat": 2, "pass": True},
        {"seat": 3, "timeout": True},
        {"seat": 0, "pass": True},
    ]
    for data in script:
        events = apply_action_dict(game, data)
        assert events == twin.apply(action_from_dict(data))
    assert [action_to_dict(a) for a in game.history] == [
        {"seat": 0, "play": "7s"},
        {"seat": 1, "play": "8s"},
        {"seat": 2, "pass": True},
        {"seat": 3, "timeout": True},
        {"seat": 0, "pass": True},
    ]
    assert game.current_player == 1 and game.leading


# --- event numbering ----------------------------------------------------------------------------
def _apply_somehow(game: Game, action: Action, rng: random.Random) -> None:
    """Apply through one of the entry points: apply, the OpenSpiel methods, or JSON."""
    route = rng.randrange(3)
    if route == 0:
        game.apply(action)
    elif route == 1:
        apply_action_dict(game, json.loads(json.dumps(action_to_dict(action))))
    elif action.kind == "play":
        if action.seat == game.current:
            game.legal_actions()  # warm the cache: the fast path of apply_action
        game.apply_action(action.cards, action.seat)
    elif action.kind in ("pass", "decline"):
        game.apply_action(PASS, action.seat)  # a pass out of turn is a decline
    elif action.kind == "timeout":
        game.timeout(action.seat)
    else:
        game.leave(action.seat)


def check_numbering(game: Game) -> None:
    assert [e.seq for e in game.events] == list(range(1, len(game.events) + 1))
    numbers = [e.action for e in game.events]
    assert numbers == sorted(numbers)
    assert all(0 <= a <= len(game.history) for a in numbers)


@settings(SETTINGS, max_examples=150)
@given(preset=st.sampled_from(PRESET_NAMES), n=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_events_are_numbered_by_position_and_by_command(preset: str, n: int, seed: int) -> None:
    game = new_game(preset, n, seed)
    rng = random.Random(seed)
    check_numbering(game)
    if game.instant_win is not None:
        assert [e.action for e in game.events] == [0, 0]
        return
    assert game.events == []
    while not game.over:
        action = random_command(game, rng)
        before = len(game.events)
        _apply_somehow(game, action, rng)
        assert game.history[-1] == action
        new = game.events[before:]
        assert [e.seq for e in new] == list(range(before + 1, len(game.events) + 1))
        public = sum(a.kind != "decline" for a in game.history)  # declines are private
        assert all(e.action == public for e in new)
        if action.kind == "decline":
            assert new == []
        elif action.kind == "play" and len(new) > 1 and isinstance(new[1], Chop):
            assert new[0].action == new[1].action
    check_numbering(game)
    public_actions = [a for a in game.history if a.kind != "decline"]
    for index, _ in enumerate(public_actions, 1):
        assert [e for e in game.events if e.action == index], index


def six_pairs_deal(seed: int) -> list[int]:
    return deal("3s 3c 4s 4c 5s 5c 7s 7c 9s 9c Js Jc", "", "", "", seed=seed)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_an_instant_win_at_the_deal_is_action_zero(preset: str) -> None:
    game = Game(RuleSet.preset(preset), six_pairs_deal(3), first_game=False, leader=1)
    assert game.over and game.history == []
    assert [type(e) for e in game.events] == [InstantWin, GameOver]
    assert [(e.seq, e.action) for e in game.events] == [(1, 0), (2, 0)]
    assert game.events[0].seats == (0,)
