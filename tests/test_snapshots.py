"""Snapshots and copies (game.py, codec.py): ``snapshot_of(game)`` survives JSON and
``restore_snapshot`` gives back the same game — it plays on exactly like the original, events and
their numbers included; a snapshot that does not fit is refused with a clear RecordError; and
``Game.copy()`` is independent of its original yet plays on identically.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import deal
from engine_driver import (
    FOUR_PAIRS,
    PRESET_NAMES,
    new_game,
    play_random,
    start,
    state_of,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tienlen.engine.codec import (
    SNAPSHOT_FORMAT,
    event_to_dict,
    restore_snapshot,
    seat_view_to_dict,
    snapshot_of,
)
from tienlen.engine.game import MAX_ATTRIBUTES, Action, Game
from tienlen.engine.record import RecordError, record_of
from tienlen.engine.rules import RuleSet
from tienlen.engine.views import view_of

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RULES = [*PRESET_NAMES, "langvuichoi-strict"]


def rules_named(name: str) -> str | RuleSet:
    if name == "langvuichoi-strict":  # a rule set with overrides travels as preset + overrides
        return RuleSet.preset("langvuichoi", four_pairs_after_pass=False)
    return name


def events_of(game: Game) -> list[dict[str, Any]]:
    return [event_to_dict(e) for e in game.events]


def comparable(game: Game) -> dict[str, Any]:
    """The deep state, less what may differ between equal games: the legal-actions cache."""
    return state_of(game)


def same_game(one: Game, other: Game) -> None:
    assert events_of(one) == events_of(other)
    assert one.history == other.history
    assert comparable(one) == comparable(other)
    assert one.chop_window() == other.chop_window()
    for seat in range(one.n):
        assert one.legal_actions(seat) == other.legal_actions(seat)
        assert seat_view_to_dict(view_of(one, seat)) == seat_view_to_dict(view_of(other, seat))


def through_json(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data, ensure_ascii=False))


DEAL = {"scheme": "test/1", "commitment": "c0ffee", "server_seed": "secret"}


@settings(SETTINGS, max_examples=80)
@given(
    rules=st.sampled_from(RULES),
    n=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    cut=st.integers(0, 120),
    then=st.integers(0, 2**32),
    with_deal=st.booleans(),
)
def test_a_restored_snapshot_plays_on_like_the_original(
    rules: str, n: int, seed: int, cut: int, then: int, with_deal: bool
) -> None:
    game = new_game(rules_named(rules), n, seed)
    if with_deal:
        game.deal = dict(DEAL)
    play_random(game, random.Random(seed), limit=cut)
    data = snapshot_of(game)
    assert data["format"] == SNAPSHOT_FORMAT and data["seq"] == len(game.events)
    restored = restore_snapshot(through_json(data))
    same_game(game, restored)
    assert restored.deal == (DEAL if with_deal else None)
    assert snapshot_of(restored) == data

    play_random(game, random.Random(then))
    play_random(restored, random.Random(then))
    assert record_of(restored).to_dict() == record_of(game).to_dict()
    assert events_of(restored) == events_of(game)
    same_game(game, restored)


def test_snapshots_keep_what_a_later_game_needs() -> None:
    game = Game(
        RuleSet.preset("thapthanh"),
        start("thapthanh", "7s", "", "", "", seed=6).initial_hands,
        first_game=False,
        leader=2,
        barred_instant_winner=1,
    )
    game.apply(Action.play(2, game.hands[2] & -game.hands[2]))
    data = through_json(snapshot_of(game))
    assert data["leader"] == 2 and data["first_game"] is False
    assert data["barred_instant_winner"] == 1
    restored = restore_snapshot(data)
    assert (restored.leader, restored.first_game, restored.barred_instant_winner) == (2, False, 1)
    same_game(game, restored)


def test_a_snapshot_of_an_instant_win_or_a_finished_game() -> None:
    six_pairs = deal("3s 3c 4s 4c 5s 5c 7s 7c 9s 9c Js Jc", "", "", "", seed=3)
    won = Game(RuleSet.preset("thapthanh"), six_pairs, first_game=False, leader=1)
    assert won.over and won.instant_win is not None
    data = through_json(snapshot_of(won))
    assert data["actions"] == [] and data["seq"] == 2
    restored = restore_snapshot(data)
    assert restored.instant_win == won.instant_win
    same_game(won, restored)
    game = start("langvuichoi", "2s", "", "", FOUR_PAIRS, seed=4)
    play_random(game, random.Random(1))
    assert game.over
    restored = restore_snapshot(through_json(snapshot_of(game)))
    assert restored.over and restored.ranking == game.ranking
    same_game(game, restored)


def test_a_snapshot_keeps_declines_and_the_chop_window() -> None:
    game = start("sanhrong", "2s", "", "", FOUR_PAIRS, seed=4)
    game.apply(Action.play(0, "2s"))
    assert game.chop_window() == (3,)
    game.apply(Action.decline(3))
    data = through_json(snapshot_of(game))
    assert data["actions"][-1] == {"seat": 3, "decline": True}
    restored = restore_snapshot(data)
    assert restored.chop_window() == () and restored.declined == 1 << 3
    same_game(game, restored)


# --- snapshots that do not fit ------------------------------------------------------------------
def _snapshot() -> dict[str, Any]:
    game = start("langvuichoi", "7s 2s", "8s", "9s", FOUR_PAIRS, seed=4)
    for action in (
        Action.play(0, "7s"),
        Action.play(1, "8s"),
        Action.play(2, "9s"),
        Action.pass_turn(3),
    ):
        game.apply(action)
    data = through_json(snapshot_of(game))
    assert data["seq"] == 4
    return data


def refused(data: Any, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        restore_snapshot(data)
    assert str(caught.value) == message
    assert caught.value.code == "bad_record"


def test_an_untouched_snapshot_restores() -> None:
    assert snapshot_of(restore_snapshot(_snapshot())) == _snapshot()


def test_a_changed_action_is_refused() -> None:
    data = _snapshot()
    data["actions"][1] = {"seat": 2, "play": "9s"}
    refused(
        data,
        "snapshot does not replay: action 1: it is seat 1's turn, not seat 2's "
        "(only 4 consecutive pairs chopping a 2 or a bomb may play out of turn)",
    )
    data = _snapshot()
    data["actions"][2] = {"seat": 2, "play": "3s"}
    refused(data, "snapshot does not replay: action 2: seat 2 does not hold 3♠")
    data = _snapshot()
    data["actions"].insert(1, {"seat": 3, "decline": True})
    refused(
        data, "snapshot does not replay: action 1: seat 3 has no out-of-turn chop offer to decline"
    )
    data = _snapshot()
    data["actions"][0] = {"seat": 0, "fold": True}
    refused(
        data,
        "snapshot does not replay: action 0: "
        "an action has exactly one of play, pass, timeout, leave, decline",
    )
    data = _snapshot()
    data["actions"][0] = {"seat": 0, "play": "7x"}
    refused(
        data,
        "snapshot does not replay: action 0: not a card: '7x' "
        "(write a rank 3-10/J/Q/K/A/2 and a suit s/c/d/h)",
    )


def test_a_wrong_seq_is_refused() -> None:
    data = _snapshot()
    data["seq"] = 7
    refused(data, "snapshot says 7 events, its actions give 4")
    data = _snapshot()
    data["actions"] = data["actions"][:-1]  # a command lost: the count no longer fits
    refused(data, "snapshot says 4 events, its actions give 3")


@pytest.mark.parametrize("seq", [None, True, "4", 4.0])
def test_a_snapshot_without_a_whole_seq_is_refused(seq: Any) -> None:
    data = _snapshot()
    if seq is None:
        del data["seq"]
    else:
        data["seq"] = seq
    refused(data, "a snapshot needs seq, the number of events so far")


def test_a_game_and_its_copy_hold_the_same_few_attributes() -> None:
    """copy() copies every attribute, and a game keeps to MAX_ATTRIBUTES: past it, CPython 3.11
    reads each of them through a dictionary lookup (the pure engine loses 3 %)."""
    game = Game.new(RuleSet.preset("thapthanh"), 4, seed=3)
    play_random(game, random.Random(3), limit=10)
    names = set(game.__getstate__())
    assert len(names) <= MAX_ATTRIBUTES, f"{len(names)} attributes: group the rarely read ones"
    assert set(game.copy().__getstate__()) == names


def test_a_copy_has_its_own_deal() -> None:
    game = Game.new(RuleSet.preset("thapthanh"), 4, server_seed=bytes(32))
    twin = game.copy()
    assert twin.deal is not None and twin.deal == game.deal
    twin.deal["client_seeds"] = ["ff"]
    assert game.deal is not None and "ff" not in game.deal["client_seeds"]


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "tienlen-snapshot/1",
        {"hands": []},
        {**_snapshot(), "format": "tienlen-record/1"},
        {**_snapshot(), "format": "tienlen-snapshot/2"},
        {k: v for k, v in _snapshot().items() if k != "format"},
    ],
)
def test_a_wrong_format_is_refused(data: Any) -> None:
    refused(data, 'a snapshot is a JSON object with "format": "tienlen-snapshot/1"')


def test_a_broken_deal_is_refused() -> None:
    data = _snapshot()
    data["hands"] = data["hands"][:1]
    refused(data, "hands must be a list of 2 to 4 hands")
    data = _snapshot()
    data["hands"][1] = data["hands"][0]
    with pytest.raises(RecordError, match="dealt twice"):
        restore_snapshot(data)
    data = _snapshot()
    data["ruleset"] = "nosuchpreset"
    with pytest.raises(RecordError, match=r"^ruleset: "):
        restore_snapshot(data)


# --- copies -------------------------------------------------------------------------------------
@settings(SETTINGS, max_examples=60)
@given(
    rules=st.sampled_from(RULES),
    n=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    cut=st.integers(0, 100),
    then=st.integers(0, 2**32),
)
def test_a_copy_is_independent_and_plays_on_identically(
    rules: str, n: int, seed: int, cut: int, then: int
) -> None:
    game = new_game(rules_named(rules), n, seed)
    play_random(game, random.Random(seed), limit=cut)
    twin = game.copy()
    same_game(game, twin)
    before = state_of(game)
    before_events = events_of(game)
    legal_before = [game.legal_actions(s) for s in range(n)]

    play_random(twin, random.Random(then))  # the copy plays to the end ...
    assert state_of(game) == before  # ... and the original has not moved
    assert events_of(game) == before_events
    assert [game.legal_actions(s) for s in range(n)] == legal_before

    other = game.copy()
    play_random(game, random.Random(then))  # the original plays the same commands
    assert record_of(game).to_dict() == record_of(twin).to_dict()
    assert events_of(game) == events_of(twin)
    same_game(game, twin)
    assert state_of(other) == before  # a copy stays put while its original plays on
