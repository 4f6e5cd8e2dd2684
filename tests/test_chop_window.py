"""The out-of-turn chop window (RULES.md "The out-of-turn chop window"): who is offered a chop
with 4+ consecutive pairs, in which order a table asks them, when an offer lapses (a decline,
or a new 2 or bomb on the table), and how the bots' table follows the engine's order.
"""

from __future__ import annotations

import random

import pytest
from conftest import m
from engine_driver import (
    FOUR_PAIRS,
    IN_TURN_PRESETS,
    OTHER_FOUR_PAIRS,
    OUT_OF_TURN_PRESETS,
    THIRD_FOUR_PAIRS,
    new_game,
    random_command,
    start,
    state_of,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tienlen.bots.base import Decision, Table
from tienlen.engine import errors as E
from tienlen.engine.events import Chop, Play
from tienlen.engine.game import PASS, Action, Game
from tienlen.engine.rules import RuleSet
from tienlen.engine.views import SeatView, view_of

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def bombs_everywhere(rules: str | RuleSet) -> Game:
    """Seat 0 leads 2♠; seats 1, 2 and 3 each hold 4 consecutive pairs that chop it."""
    return start(rules, "2s 2c", FOUR_PAIRS, OTHER_FOUR_PAIRS, THIRD_FOUR_PAIRS, seed=0)


def refused(game: Game, action: Action, code: str) -> None:
    before = state_of(game)
    window = game.chop_window()
    with pytest.raises(E.IllegalAction) as caught:
        game.apply(action)
    assert caught.value.code == code, caught.value
    assert state_of(game) == before and game.chop_window() == window


def offered(game: Game, seat: int) -> bool:
    """What the seat's own view says."""
    return view_of(game, seat).chop_offer


# --- who, in which order ------------------------------------------------------------------------
@pytest.mark.parametrize("preset", OUT_OF_TURN_PRESETS)
def test_the_window_is_in_play_order_from_the_current_player(preset: str) -> None:
    game = bombs_everywhere(preset)
    assert game.chop_window() == ()  # nothing on the table yet
    game.apply(Action.play(0, "2s"))
    assert game.current_player == 1
    # Seat 1 holds a chop too, but it is its turn; seat 0 made the play.
    assert game.chop_window() == (2, 3)
    assert game.legal_actions(0) == []
    assert m(FOUR_PAIRS) in game.legal_actions(1)
    assert [offered(game, s) for s in range(4)] == [False, False, True, True]
    game.apply(Action.pass_turn(1))
    assert game.current_player == 2
    assert game.chop_window() == (3, 1)  # after the current player, wrapping past seat 0
    game.apply(Action.pass_turn(2))
    assert game.chop_window() == (1, 2)
    assert [offered(game, s) for s in range(4)] == [False, True, True, False]


def test_a_passed_seat_is_not_offered_without_four_pairs_after_pass() -> None:
    game = bombs_everywhere(RuleSet.preset("langvuichoi", four_pairs_after_pass=False))
    game.apply(Action.play(0, "2s"))
    game.apply(Action.pass_turn(1))
    assert game.chop_window() == (3,)
    refused(game, Action.decline(1), "no_chop_offer")


@pytest.mark.parametrize("preset", OUT_OF_TURN_PRESETS)
def test_only_chops_that_beat_the_table_are_offered(preset: str) -> None:
    game = start(preset, OTHER_FOUR_PAIRS, "", "", FOUR_PAIRS, seed=5)
    game.apply(Action.play(0, OTHER_FOUR_PAIRS))
    assert game.chop_window() == ()  # 3-4-5-6 does not chop 8-9-10-J
    refused(game, Action.decline(3), "no_chop_offer")
    refused(game, Action.play(3, FOUR_PAIRS), "does_not_beat")


def test_a_seat_that_left_or_went_out_is_not_offered() -> None:
    game = bombs_everywhere("langvuichoi")
    game.apply(Action.play(0, "2s"))
    game.apply(Action.leave(2))
    assert game.chop_window() == (3,)
    refused(game, Action.decline(2), "not_in_game")


# --- declining -----------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", OUT_OF_TURN_PRESETS)
def test_a_decline_takes_the_seat_out_of_the_window(preset: str) -> None:
    game = bombs_everywhere(preset)
    game.apply(Action.play(0, "2s"))
    assert game.apply(Action.decline(2)) == []
    assert game.chop_window() == (3,)
    assert game.legal_actions(2) == []
    view = view_of(game, 2)
    assert not view.chop_offer and view.legal == ()
    assert offered(game, 3)
    refused(game, Action.play(2, OTHER_FOUR_PAIRS), "no_chop_offer")
    refused(game, Action.decline(2), "no_chop_offer")
    game.apply(Action.decline(3))
    assert game.chop_window() == ()
    assert game.declined == 0b1100


@pytest.mark.parametrize("preset", OUT_OF_TURN_PRESETS)
def test_a_seat_that_declined_may_still_chop_in_its_own_turn(preset: str) -> None:
    game = bombs_everywhere(preset)
    game.apply(Action.play(0, "2s"))
    game.apply(Action.decline(2))
    game.apply(Action.pass_turn(1))
    assert game.current_player == 2
    assert game.chop_window() == (3, 1)
    assert m(OTHER_FOUR_PAIRS) in game.legal_actions()
    events = game.apply(Action.play(2, OTHER_FOUR_PAIRS))
    assert isinstance(events[0], Play) and not events[0].out_of_turn
    assert isinstance(events[1], Chop) and events[1].victim == 0


@pytest.mark.parametrize("preset", OUT_OF_TURN_PRESETS)
def test_the_current_players_pass_does_not_end_other_offers(preset: str) -> None:
    game = start(preset, "2s", "", "", FOUR_PAIRS, seed=4)
    game.apply(Action.play(0, "2s"))
    assert game.chop_window() == (3,)
    game.apply(Action.pass_turn(1))
    assert game.chop_window() == (3,)
    game.apply(Action.timeout(2))
    assert game.current_player == 3
    assert game.chop_window() == ()  # its own turn now: it chops or passes in turn
    assert game.legal_actions()[0] == PASS and m(FOUR_PAIRS) in game.legal_actions()
    refused(game, Action.decline(3), "no_chop_offer")


@pytest.mark.parametrize("preset", OUT_OF_TURN_PRESETS)
def test_a_new_two_on_the_table_renews_the_offers(preset: str) -> None:
    game = start(preset, "2s", "2h", "", FOUR_PAIRS, seed=4)
    game.apply(Action.play(0, "2s"))
    game.apply(Action.decline(3))
    assert game.chop_window() == () and game.declined == 0b1000
    game.apply(Action.play(1, "2h"))
    assert game.declined == 0
    assert game.chop_window() == (3,)
    assert offered(game, 3)
    events = game.apply(Action.play(3, FOUR_PAIRS))
    assert events[0].out_of_turn and isinstance(events[1], Chop) and events[1].victim == 1


@pytest.mark.parametrize("preset", OUT_OF_TURN_PRESETS)
def test_a_bomb_on_the_table_renews_the_offers(preset: str) -> None:
    game = bombs_everywhere(preset)
    game.apply(Action.play(0, "2s"))
    game.apply(Action.decline(2))
    game.apply(Action.decline(3))
    game.apply(Action.play(1, FOUR_PAIRS))  # chops in turn
    assert game.declined == 0
    # 8-9-10-J (seat 2) and 7-8-9-10 (seat 3) both chop 3-4-5-6; seat 2 is now current.
    assert game.current_player == 2
    assert game.chop_window() == (3,)


def test_a_new_round_clears_the_declines() -> None:
    game = start("langvuichoi", "2s", "", "", FOUR_PAIRS, seed=4)
    game.apply(Action.play(0, "2s"))
    game.apply(Action.decline(3))
    for seat in (1, 2, 3):
        game.apply(Action.pass_turn(seat))
    assert game.leading and game.current_player == 0
    assert game.declined == 0


@pytest.mark.parametrize("preset", OUT_OF_TURN_PRESETS)
def test_apply_action_pass_out_of_turn_declines(preset: str) -> None:
    game = bombs_everywhere(preset)
    game.apply(Action.play(0, "2s"))
    events = len(game.events)
    game.apply_action(PASS, 3)
    assert game.history[-1] == Action.decline(3)
    assert len(game.events) == events
    assert game.chop_window() == (2,)
    # Without an offer, a pass out of turn is still refused.
    before = state_of(game)
    for seat in (0, 3):
        with pytest.raises(E.NotYourTurn):
            game.apply_action(PASS, seat)
    assert state_of(game) == before
    game.apply_action(PASS)  # the current player's pass is a pass
    assert game.history[-1] == Action.pass_turn(1)


@pytest.mark.parametrize("preset", IN_TURN_PRESETS)
def test_no_window_where_out_of_turn_chops_are_off(preset: str) -> None:
    game = start(preset, "2s", "", "", FOUR_PAIRS, seed=4)
    game.apply(Action.play(0, "2s"))
    assert game.chop_window() == ()
    assert not offered(game, 3)
    refused(game, Action.decline(3), "no_chop_offer")
    refused(game, Action.play(3, FOUR_PAIRS), "not_your_turn")


# --- the window over random games ---------------------------------------------------------------
def check_window(game: Game) -> None:
    window = game.chop_window()
    if not game.rules.four_pairs_out_of_turn or game.over:
        assert window == ()
        return
    n = game.n
    assert list(window) == sorted(window, key=lambda s: (s - game.current) % n)
    for seat in range(n):
        chops = game.legal_actions(seat)
        if seat == game.current:
            assert seat not in window
            continue
        assert (seat in window) == bool(chops)
        if seat in window:
            assert seat != game.last_seat and game.in_game >> seat & 1
            assert not game.declined >> seat & 1
            assert game.last_code != 0


@settings(SETTINGS, max_examples=150)
@given(
    preset=st.sampled_from(OUT_OF_TURN_PRESETS + IN_TURN_PRESETS),
    n=st.integers(2, 4),
    seed=st.integers(0, 2**32),
)
def test_the_window_over_random_games(preset: str, n: int, seed: int) -> None:
    game = new_game(preset, n, seed)
    rng = random.Random(seed)
    check_window(game)
    while not game.over:
        window = game.chop_window()
        table = (game.last_seat, game.last_mask)
        action = random_command(game, rng)
        game.apply(action)
        check_window(game)
        if action.kind == "decline":
            assert game.chop_window() == tuple(s for s in window if s != action.seat)
            assert game.legal_actions(action.seat) == []
        elif action.kind in ("pass", "timeout") and (game.last_seat, game.last_mask) == table:
            # The play on the table stands: every offer but the new current player's stays.
            assert set(game.chop_window()) >= set(window) - {game.current}


# --- the bots' table asks in window order --------------------------------------------------------
class Recorder:
    """A bot that writes down what it was asked and answers from a script (default: let go)."""

    name = "recorder"

    def __init__(self, log: list[SeatView], chop: bool = False) -> None:
        self.log = log
        self.chop = chop

    def act(self, view: SeatView) -> int:
        self.log.append(view)
        if not view.my_turn:
            assert view.chop_offer and view.legal
            return view.legal[0] if self.chop else PASS
        return PASS if view.can_pass else view.legal[0]


def test_the_table_asks_the_window_in_order_then_the_current_player() -> None:
    game = bombs_everywhere("langvuichoi")
    game.apply(Action.play(0, "2s"))
    log: list[SeatView] = []
    table = Table(game, [Recorder(log) for _ in range(4)])
    decision = table.step()
    assert [(v.seat, v.my_turn, v.chop_offer) for v in log] == [
        (2, False, True),
        (3, False, True),
        (1, True, False),
    ]
    assert decision == Decision(1, PASS, decision.seconds)
    assert game.history[1:] == [Action.decline(2), Action.decline(3), Action.pass_turn(1)]
    # Seat 2's turn now; seat 1 passed but still may chop (four_pairs_after_pass) and is asked.
    log.clear()
    table.step()
    assert [(v.seat, v.my_turn) for v in log] == [(1, False), (2, True)]
    assert game.history[-2:] == [Action.decline(1), Action.pass_turn(2)]


def test_a_bot_that_chops_out_of_turn_ends_the_step() -> None:
    game = bombs_everywhere("sanhrong")
    game.apply(Action.play(0, "2s"))
    log: list[SeatView] = []
    bots = [Recorder(log), Recorder(log), Recorder(log), Recorder(log, chop=True)]
    decision = Table(game, bots).step()
    assert decision is not None and decision.out_of_turn and decision.seat == 3
    assert [v.seat for v in log] == [2, 3]
    assert game.history[-2:] == [Action.decline(2), Action.play(3, decision.action)]
    assert game.last_seat == 3 and isinstance(game.events[-1], Chop)


def test_the_table_waits_for_a_person_in_the_window() -> None:
    game = bombs_everywhere("langvuichoi")
    game.apply(Action.play(0, "2s"))
    before = state_of(game)
    log: list[SeatView] = []
    head = Table(game, [Recorder(log), Recorder(log), None, Recorder(log)])
    assert head.step() is None
    assert log == [] and state_of(game) == before
    second = Table(game, [Recorder(log), Recorder(log), Recorder(log), None])
    assert second.step() is None
    assert [v.seat for v in log] == [2]  # seat 2 let its chop go; seat 3 is a person
    assert game.chop_window() == (3,)
    assert game.history[-1] == Action.decline(2)
