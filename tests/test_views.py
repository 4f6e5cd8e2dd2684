"""Seat and spectator views (views.py, codec.py): a seat sees its own hand and the public game,
and nothing that depends on the hidden cards of others.

The key property: two deals that agree on seat s's hand and on everything public give seat s
byte-identical views. The twin deal keeps seat s's hand and every card already played, and
shares the other seats' unplayed cards out again among them (same counts); the same commands
are then replayed on it. Where the twin refuses a command or the public record parts ways (an
instant win, a time-out that plays another smallest card, a passed seat given its turn back to
chop), the hidden hands showed through the rules themselves, and the comparison stops there.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from typing import Any

import pytest
from conftest import deal, m
from engine_driver import (
    FOUR_PAIRS,
    OUT_OF_TURN_PRESETS,
    PRESET_NAMES,
    new_game,
    random_command,
    start,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tienlen.engine.cards import FULL_DECK, cards_of, mask_ascii, mask_of, parse_mask
from tienlen.engine.codec import (
    event_to_dict,
    seat_delta,
    seat_view_to_dict,
    spectator_view_to_dict,
    table_to_dict,
)
from tienlen.engine.errors import IllegalAction
from tienlen.engine.events import Pass
from tienlen.engine.game import Action, Game
from tienlen.engine.rules import RuleSet
from tienlen.engine.views import PublicLog, public_deal, spectator_view, view_of

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seat_json(game: Game, seat: int) -> str:
    return json.dumps(seat_view_to_dict(view_of(game, seat)), sort_keys=True)


def spectator_json(game: Game) -> str:
    return json.dumps(spectator_view_to_dict(spectator_view(game)), sort_keys=True)


# --- the key property: views depend only on what the seat may know ------------------------------
def public_record(game: Game) -> tuple[Any, ...]:
    """What the whole table knows: the events without ``could_beat``, and whose turn it is."""
    events = []
    for event in game.events:
        data = event_to_dict(event)
        data.pop("could_beat", None)
        events.append(data)
    return (events, game.current_player, game.over)


def twin_deal(game: Game, hands_then: list[int], seat: int, rng: random.Random) -> list[int] | None:
    """The initial hands of a deal agreeing with ``game`` on ``seat``'s hand and every card
    played by the time the others held ``hands_then``: their unplayed cards, and the cards not
    dealt at a table of 2 or 3, dealt out again. None when there is nothing to deal again."""
    others = [k for k in range(game.n) if k != seat]
    dealt = 0
    for hand in game.initial_hands:
        dealt |= hand
    pinned = 0
    undealt = FULL_DECK & ~dealt
    if game.first_game:
        # The first leader holds the lowest card dealt, and the table knows it: it stays, and
        # no card below it may be dealt in.
        pinned = dealt & -dealt
        undealt &= ~(pinned - 1)
    pool = cards_of(undealt) + [c for k in others for c in cards_of(hands_then[k] & ~pinned)]
    if len(pool) <= 1 or (len(others) == 1 and not undealt):
        return None
    rng.shuffle(pool)
    hands = list(game.initial_hands)
    for k in others:
        keep = game.initial_hands[k] & ~hands_then[k] | hands_then[k] & pinned
        count = (hands_then[k] & ~pinned).bit_count()
        hands[k] = keep | mask_of(pool[:count])
        pool = pool[count:]
    return hands


def compare_with_twin(
    preset: str, n: int, seed: int, seat: int, cut: float, twin_seed: int
) -> tuple[int, int]:
    """Play a random game; compare ``seat``'s views with a twin deal's at each prefix.

    Returns the number of views compared and whether the twin deal differed at all (else
    nothing is counted).
    """
    game = new_game(preset, n, seed)
    if game.over:
        return 0, 0
    rng = random.Random(seed)
    hands_at = [list(game.hands)]
    commands: list[Action] = []
    while not game.over:
        action = random_command(game, rng)
        game.apply(action)
        commands.append(action)
        hands_at.append(list(game.hands))
    seat %= n
    then = min(int(cut * len(commands)), len(commands) - 1)
    hands = twin_deal(game, hands_at[then], seat, random.Random(twin_seed))
    if hands is None:
        return 0, 0
    original = Game(
        game.rules,
        game.initial_hands,
        first_game=game.first_game,
        leader=game.leader,
        barred_instant_winner=game.barred_instant_winner,
    )
    twin = Game(
        game.rules,
        hands,
        first_game=game.first_game,
        leader=game.leader,
        barred_instant_winner=game.barred_instant_winner,
    )
    if twin.over:
        return 0, 0
    assert twin.hands[seat] == original.hands[seat]
    log = PublicLog(n)  # the twin's views built incrementally, the original's from scratch
    compared = 0
    for action in commands:
        if original.over or public_record(original) != public_record(twin):
            break
        mine = seat_json(original, seat)
        theirs = json.dumps(seat_view_to_dict(log.view(twin, seat)), sort_keys=True)
        assert mine == theirs, f"seat {seat} tells the deals apart after {len(twin.history)}"
        assert spectator_json(original) == json.dumps(
            spectator_view_to_dict(log.spectator(twin)), sort_keys=True
        )
        compared += 1
        original.apply(action)
        try:
            twin.apply(action)
        except IllegalAction:
            break
    return (compared, 1) if hands != list(game.initial_hands) else (0, 0)


def test_a_seat_cannot_tell_deals_apart_that_agree_on_what_it_knows() -> None:
    totals = {"compared": 0, "games": 0, "twins": 0}

    @settings(SETTINGS, max_examples=60)
    @given(
        preset=st.sampled_from(PRESET_NAMES),
        n=st.integers(2, 4),
        seed=st.integers(0, 2**32),
        seat=st.integers(0, 3),
        cut=st.floats(0.2, 1),
        twin_seed=st.integers(0, 2**32),
    )
    def check(preset: str, n: int, seed: int, seat: int, cut: float, twin_seed: int) -> None:
        compared, differing = compare_with_twin(preset, n, seed, seat, cut, twin_seed)
        totals["compared"] += compared
        totals["games"] += compared > 0
        totals["twins"] += differing

    check()
    # Enough views were compared, between deals that really differed, to mean something.
    assert totals["compared"] >= 400, totals
    assert totals["games"] >= 25, totals


@pytest.mark.parametrize("preset", OUT_OF_TURN_PRESETS)
def test_a_hidden_decline_leaves_no_trace_in_other_views(preset: str) -> None:
    hands = deal("2s", "", "", FOUR_PAIRS, seed=4)
    swapped = [hands[0], hands[1], hands[3], hands[2]]  # seat 2 holds the bomb instead
    declined = Game(RuleSet.preset(preset), hands, first_game=False, leader=0)
    kept = Game(RuleSet.preset(preset), swapped, first_game=False, leader=0)
    declined.apply(Action.play(0, "2s"))
    kept.apply(Action.play(0, "2s"))
    assert declined.chop_window() == (3,) and kept.chop_window() == (2,)
    declined.apply(Action.decline(3))  # seat 3 lets it go; in the twin seat 2 is not asked yet
    for game in (declined, kept):
        game.apply(Action.pass_turn(1))
    assert public_record(declined)[1:] == public_record(kept)[1:]
    assert seat_json(declined, 0) == seat_json(kept, 0)
    assert spectator_json(declined) == spectator_json(kept)


# --- what a view never holds --------------------------------------------------------------------
_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([scdh♠♣♦♥])(?![0-9A-Za-z])")


def cards_written(data: Any) -> int:
    """Every card named anywhere in a JSON value (card lists, descriptions, …)."""
    if isinstance(data, str):
        found = 0
        for rank, suit in _CARD.findall(data):
            found |= parse_mask(rank + suit)
        return found
    if isinstance(data, dict):
        out = 0
        for key, value in data.items():
            out |= cards_written(key) | cards_written(value)
        return out
    if isinstance(data, list):
        out = 0
        for value in data:
            out |= cards_written(value)
        return out
    return 0


def keys_in(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data).union(*(keys_in(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(keys_in(v) for v in data))
    return set()


def check_views(game: Game) -> None:
    if game.over:  # GameOver shows the cards left, as a table does
        return
    for seat in range(game.n):
        data = seat_view_to_dict(view_of(game, seat))
        hidden = 0
        for other in range(game.n):
            if other != seat:
                hidden |= game.hands[other]
        assert not cards_written(data) & hidden, f"seat {seat} sees another seat's card"
        # The card the first play must contain is its holder's (the leader's) alone.
        mine = game.required & game.hands[seat]
        assert data["required"] == (mask_ascii(mine) if mine else None), (seat, data["required"])
        assert "could_beat" not in keys_in(data)
        assert parse_mask(data["hand"]) == game.hands[seat]
        assert all(parse_mask(cards) & ~game.hands[seat] == 0 for cards in data["legal"])
        assert data["seq"] == len(game.events)
    data = spectator_view_to_dict(spectator_view(game))
    held = 0
    for hand in game.hands:
        held |= hand
    assert not cards_written(data) & held
    assert "could_beat" not in keys_in(data)
    assert not {"hand", "legal", "seat", "chop_offer", "my_turn", "can_pass"} & set(data)


@settings(SETTINGS, max_examples=40)
@given(preset=st.sampled_from(PRESET_NAMES), n=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_views_never_hold_hidden_cards_or_could_beat(preset: str, n: int, seed: int) -> None:
    game = new_game(preset, n, seed)
    rng = random.Random(seed)
    check_views(game)
    while not game.over:
        game.apply(random_command(game, rng))
        if rng.random() < 0.3 or game.over:
            check_views(game)
    # The game itself keeps could_beat (scoring needs it); only views blank it.
    passes = [e for e in game.events if isinstance(e, Pass)]
    assert all(isinstance(e.could_beat, bool) for e in passes)
    assert all(e.could_beat is None for e in view_of(game, 0).events if isinstance(e, Pass))


def unlogged(view: Mapping[str, Any]) -> dict[str, Any]:
    """A view without its events and actions, its other keys in their order."""
    return {key: value for key, value in view.items() if key not in ("actions", "events")}


@settings(SETTINGS, max_examples=20)
@given(preset=st.sampled_from(PRESET_NAMES), n=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_a_seat_delta_from_the_shared_table_part_is_the_seat_view(
    preset: str, n: int, seed: int
) -> None:
    """A server writes the part every view shares once per change (from any view of that
    moment, a spectator's included) and adds each seat's own: the same as each seat's view."""
    game = new_game(preset, n, seed)
    rng = random.Random(seed)
    log = PublicLog(n)
    while True:
        views = [log.view(game, seat) for seat in range(n)]
        shared = [table_to_dict(log.spectator(game))] + [table_to_dict(v) for v in views]
        for view in views:
            for table in shared:
                assert seat_delta(view, table) == unlogged(seat_view_to_dict(view))
        assert shared[0] == unlogged(spectator_view_to_dict(log.spectator(game)))
        if game.over:
            break
        game.apply(random_command(game, rng))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_only_the_leader_is_told_the_card_its_first_play_must_contain(players: int) -> None:
    """With two or three players the card is the lowest dealt: naming it to the others would
    tell them a card the leader holds (PROTOCOL.md: a seat sees only its own cards)."""
    lowest = "3s" if players == 4 else "3c"
    hands = deal("9c", lowest, players=players, undealt="" if players == 4 else "3s")
    game = Game(RuleSet.preset("bigfun"), hands, first_game=True)
    assert game.required == m(lowest) and game.current == 1
    for seat in range(players):
        view = view_of(game, seat)
        told = seat_view_to_dict(view)["required"]
        assert (view.required, told) == ((m(lowest), lowest) if seat == 1 else (0, None)), seat
    game.apply_action(game.legal_actions()[0], 1)
    assert all(view_of(game, seat).required == 0 for seat in range(players))


def test_the_checks_above_can_fail() -> None:
    """``cards_written`` finds cards in every form a view writes them."""
    assert cards_written({"hand": "10h Qs", "x": ["2c"], "y": "single 7♠"}) == m("10h Qs 2c 7s")
    assert cards_written({"commitment": "a3c5f07e10h", "ruleset": "sanhrong"}) == 0


# --- declines, deals and the rest of a view -----------------------------------------------------
@pytest.mark.parametrize("preset", OUT_OF_TURN_PRESETS)
def test_only_the_declining_seat_sees_its_decline(preset: str) -> None:
    game = start(preset, "2s", "", "", FOUR_PAIRS, seed=4)
    game.apply(Action.play(0, "2s"))
    game.apply(Action.decline(3))
    game.apply(Action.pass_turn(1))
    decline = {"seat": 3, "decline": True}
    mine = seat_view_to_dict(view_of(game, 3))
    assert mine["actions"] == [{"seat": 0, "play": "2s"}, decline, {"seat": 1, "pass": True}]
    assert view_of(game, 3).actions == tuple(game.history)
    for seat in (0, 1, 2):
        data = seat_view_to_dict(view_of(game, seat))
        assert data["actions"] == [{"seat": 0, "play": "2s"}, {"seat": 1, "pass": True}]
        assert not data["chop_offer"]
    assert decline not in spectator_view_to_dict(spectator_view(game))["actions"]
    log = PublicLog(game.n)  # the incremental log hides it the same way
    assert log.view(game, 0).actions == view_of(game, 0).actions
    assert log.view(game, 3).actions == view_of(game, 3).actions


DEAL = {
    "scheme": "test-scheme/1",
    "commitment": "c0ffee",
    "client_seeds": ["a", "b"],
    "server_seed": "the-secret-server-seed",
}


def test_the_server_seed_is_hidden_until_the_game_is_over() -> None:
    game = start("thapthanh", "7s", "", "", "", seed=6)
    assert view_of(game, 0).deal is None and public_deal(game) is None
    game.deal = dict(DEAL)
    for text in [seat_json(game, s) for s in range(4)] + [spectator_json(game)]:
        assert "the-secret-server-seed" not in text
        assert "c0ffee" in text
    shown = seat_view_to_dict(view_of(game, 1))["deal"]
    assert shown == {k: v for k, v in DEAL.items() if k != "server_seed"}
    shown["commitment"] = "changed"
    assert game.deal == DEAL  # a view's deal is a copy
    for seat in (1, 2, 3):
        game.apply(Action.leave(seat))
    assert game.over
    assert seat_view_to_dict(view_of(game, 0))["deal"] == DEAL
    assert spectator_view(game).deal == DEAL
    assert "the-secret-server-seed" in spectator_json(game)


def test_a_view_is_a_frozen_copy() -> None:
    game = start("langvuichoi", "7s", "8s", "", "", seed=4)
    game.apply(Action.play(0, "7s"))
    game.apply(Action.pass_turn(1))
    view = view_of(game, 2)
    text = json.dumps(seat_view_to_dict(view), sort_keys=True)
    assert all(a is not b for a, b in zip(view.events, game.events, strict=True))
    assert view.seq == 2 and not view.over and view.current == 2 and view.my_turn
    game.apply(Action.pass_turn(2))
    game.apply(Action.pass_turn(3))
    assert json.dumps(seat_view_to_dict(view), sort_keys=True) == text
    assert seat_view_to_dict(view_of(game, 2))["seq"] == 5  # 2 passes and the round won
