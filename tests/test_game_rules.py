"""Game flow (game.py): first lead, rounds and pass-locks, hưởng sái, the two 4-consecutive-pairs
options, the end of a game and its ranking, time-outs, leaving, cóng, and illegal actions.

Each scenario names the cards it is about; the rest of every hand is filler from ``deal``.
Scripts read ``"seat: cards"``, ``"seat: pass"``, ``"seat: timeout"`` or ``"seat: leave"``.
"""

from __future__ import annotations

import random
from typing import TypeVar

import pytest
from conftest import deal, m, snapshot

from tienlen.engine import combos as C
from tienlen.engine import errors as E
from tienlen.engine.actions import ACTION_KINDS, Action
from tienlen.engine.events import Chop, Cong, GameOver, Left, Pass, Play, PlayerOut, RoundWon
from tienlen.engine.game import PASS, TERMINAL, Game
from tienlen.engine.rules import PRESETS, RuleSet

T = TypeVar("T")


def start(
    rules: str | RuleSet,
    *given: str,
    players: int | None = None,
    first_game: bool = False,
    leader: int | None = 0,
    undealt: str = "",
    seed: int = 0,
) -> Game:
    """A game that has not been won at the deal (the filler must hold no instant win).

    One hand given means a 4-player table; otherwise one seat per hand unless ``players``.
    """
    if players is None and len(given) < 2:
        players = 4
    ruleset = RuleSet.preset(rules) if isinstance(rules, str) else rules
    hands = deal(*given, players=players, undealt=undealt, seed=seed)
    game = Game(ruleset, hands, first_game=first_game, leader=None if first_game else leader)
    assert game.instant_win is None, "the filler dealt an instant win: pick another seed"
    return game


def run(game: Game, *steps: str) -> None:
    for step in steps:
        seat_text, action = (part.strip() for part in step.split(":"))
        seat = int(seat_text)
        game.apply(Action(seat, action) if action in ACTION_KINDS else Action.play(seat, action))


def events_of(game: Game, kind: type[T]) -> list[T]:
    return [e for e in game.events if isinstance(e, kind)]


def refused(game: Game, code: str, step: str) -> E.IllegalAction:
    """Run one step that must be refused with ``code``, leaving the game exactly as it was."""
    before = snapshot(game)
    with pytest.raises(E.IllegalAction) as caught:
        run(game, step)
    assert caught.value.code == code, caught.value
    assert snapshot(game) == before
    return caught.value


# --- first lead --------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", list(PRESETS))
def test_first_game_is_led_by_the_three_of_spades(preset: str) -> None:
    game = start(preset, "", "", "3s", "", first_game=True)
    assert game.current_player == 2
    assert game.leader == 2
    assert game.leading


@pytest.mark.parametrize("players", [2, 3])
def test_without_three_of_spades_the_lowest_card_leads(players: int) -> None:
    given = ["", "4s 9h"] + [""] * (players - 2)
    game = start("thapthanh", *given, first_game=True, undealt="3s 3c 3d 3h")
    assert game.current_player == 1
    run(game, "1: 9h")  # no card is required under thapthanh


@pytest.mark.parametrize("players", [2, 3])
def test_a_short_table_still_starts_with_three_of_spades_when_dealt(players: int) -> None:
    given = ["", "3s"] + [""] * (players - 2)
    assert start("b52", *given, first_game=True).current_player == 1


@pytest.mark.parametrize("preset", ["thapthanh", "langvuichoi", "b52"])
def test_first_play_may_leave_out_three_of_spades_in_most_presets(preset: str) -> None:
    game = start(preset, "3s 9h", first_game=True)
    run(game, "0: 9h")
    assert game.current_player == 1


@pytest.mark.parametrize("preset", ["sanhrong", "bigfun"])
def test_first_play_must_contain_three_of_spades(preset: str) -> None:
    game = start(preset, "3s 4c 5d 9h", first_game=True, seed=1)
    error = refused(game, "must_contain_card", "0: 9h")
    assert "3♠" in error.message
    assert all(action & m("3s") for action in game.legal_actions())
    assert m("3s 4c 5d") in game.legal_actions()
    run(game, "0: 3s 4c 5d")
    assert game.required == 0


def test_must_contain_the_lowest_card_when_three_of_spades_is_not_dealt() -> None:
    game = start("sanhrong", "", "4s 9h", "", first_game=True, undealt="3s 3c 3d 3h")
    assert game.current_player == 1
    error = refused(game, "must_contain_card", "1: 9h")
    assert "4♠" in error.message
    run(game, "1: 4s")


def test_only_the_first_play_of_the_game_needs_three_of_spades() -> None:
    game = start("bigfun", "3s 9h", "4s", "", "", first_game=True)
    run(game, "0: 3s", "1: pass", "2: pass", "3: pass")
    assert game.current_player == 0 and game.leading
    run(game, "0: 9h")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_later_games_are_led_by_the_given_leader(preset: str) -> None:
    game = start(preset, "3s", "", "9h", "", leader=2)
    assert game.current_player == 2
    assert game.required == 0
    run(game, "2: 9h")


# --- rounds and pass-locks -------------------------------------------------------------------
def test_a_passed_player_is_skipped_until_a_new_round() -> None:
    game = start("thapthanh", "3s 7s", "Ks", "5s 9s", "6s")
    run(game, "0: 3s", "1: pass", "2: 5s", "3: 6s", "0: 7s")
    assert game.current_player == 2  # seat 1 passed: skipped
    refused(game, "already_passed", "1: Ks")
    refused(game, "already_passed", "1: pass")
    run(game, "2: 9s")
    assert game.current_player == 3
    run(game, "3: pass", "0: pass")
    # Everyone else passed after 9♠: seat 2 won the round and leads; the locks are lifted.
    assert events_of(game, RoundWon)[-1] == RoundWon(2, 2, False)
    assert game.current_player == 2 and game.leading and game.passed == 0
    assert PASS not in game.legal_actions()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_passed_player_trying_to_play_gets_already_passed_in_every_preset(preset: str) -> None:
    game = start(preset, "3s 7s", "Ks", "5s 9s", "6s", seed=2)
    run(game, "0: 3s", "1: pass", "2: 5s")
    refused(game, "already_passed", "1: Ks")
    refused(game, "already_passed", "1: pass")
    refused(game, "not_your_turn", "0: 7s")  # seat 0 has not passed: merely not its turn


def test_a_player_who_has_not_passed_may_beat_again_in_one_round() -> None:
    game = start("b52", "3s 5s", "4s 6s", "", "")
    run(game, "0: 3s", "1: 4s", "2: pass", "3: pass", "0: 5s", "1: 6s")
    assert [e.seat for e in events_of(game, Play)] == [0, 1, 0, 1]
    assert game.current_player == 0


def test_the_leader_cannot_pass() -> None:
    game = start("thapthanh", "3s")
    refused(game, "cannot_pass", "0: pass")


def test_the_round_winner_leads_anything() -> None:
    game = start("thapthanh", "3s 4c 5d 9s 9c", seed=1)
    run(game, "0: 3s 4c 5d", "1: pass", "2: pass", "3: pass")
    assert game.current_player == 0 and game.leading
    run(game, "0: 9s 9c")
    assert C.kind_of(game.last_code) == C.PAIR


def test_a_round_continues_past_a_seat_that_passed_while_others_still_answer() -> None:
    game = start("langvuichoi", "3s", "4s", "5s", "6s")
    run(game, "0: 3s", "1: pass", "2: 5s", "3: pass", "0: pass")
    # Seats 1, 3 and 0 passed after 5♠: seat 2 leads.
    assert game.current_player == 2 and game.leading


# --- the end of a game, ranking and cóng -------------------------------------------------------
SEAT0_OUT_IN_THREE_ROUNDS = "3s 3c 2d 2h 4s 2c 5s 6s 7s 8s 9s 10s Js"
STRAIGHT_OUT = "5s 6s 7s 8s 9s 10s Js"


def rotated(shift: int, hands: list[str], steps: list[str]) -> tuple[list[str], list[str]]:
    """The same scenario with every seat moved ``shift`` places on."""
    n = len(hands)
    moved = [hands[(seat - shift) % n] for seat in range(n)]
    out = []
    for step in steps:
        seat, action = step.split(":")
        out.append(f"{(int(seat) + shift) % n}:{action}")
    return moved, out


@pytest.mark.parametrize("shift", [0, 2])
def test_losers_rank_by_fewest_cards_then_play_order_from_the_winner(shift: int) -> None:
    hands = [SEAT0_OUT_IN_THREE_ROUNDS, "9h", "6d 6h", "7d 7h"]
    steps = [
        "0: 3s 3c",
        "1: pass",
        "2: 6d 6h",
        "3: 7d 7h",
        "0: 2d 2h",
        "2: pass",
        "3: pass",
        "0: 4s",
        "1: 9h",
        "2: pass",
        "3: pass",
        "0: 2c",
        "1: pass",
        "0: " + STRAIGHT_OUT,
    ]
    hands, steps = rotated(shift, hands, steps)
    game = start("thapthanh", *hands, leader=shift, seed=3)
    run(game, *steps)
    assert game.is_terminal() and game.current_player == TERMINAL
    assert game.cards_left() == [0, 12, 11, 11][-shift:] + [0, 12, 11, 11][:-shift]
    # Seats 2 and 3 (11 cards each) before seat 1 (12); 2 before 3 in play order from seat 0.
    assert game.ranking == tuple((s + shift) % 4 for s in (0, 2, 3, 1))
    assert game.winner == shift
    over = game.events[-1]
    assert isinstance(over, GameOver) and over.reason == "out" and over.winner == shift
    assert game.cong == ()
    assert game.legal_actions() == []


def cong_game(preset: str, seed: int = 3) -> Game:
    """Seat 0 goes out in three rounds; seat 1 never plays a card."""
    game = start(preset, SEAT0_OUT_IN_THREE_ROUNDS, "", "6d 6h", "7d 7h 9h", seed=seed)
    run(
        game,
        "0: 3s 3c",
        "1: pass",
        "2: 6d 6h",
        "3: 7d 7h",
        "0: 2d 2h",
        "2: pass",
        "3: pass",
        "0: 4s",
        "1: pass",
        "2: pass",
        "3: 9h",
        "0: 2c",
        "3: pass",
        "0: " + STRAIGHT_OUT,
    )
    return game


def test_game_ends_at_the_first_player_out_and_finds_cong() -> None:
    game = cong_game("thapthanh")
    assert game.is_terminal()
    assert game.cong == (1,)
    assert events_of(game, Cong) == [Cong((1,))]
    assert game.ranking == (0, 3, 2, 1)  # 10 cards, 11 cards, 13 cards
    assert events_of(game, PlayerOut) == [PlayerOut(0, 1)]


def test_full_ranking_freezes_cong_players_and_plays_on_with_huong_sai() -> None:
    game = cong_game("bigfun", seed=5)
    assert not game.is_terminal()
    assert events_of(game, Cong) == [Cong((1,))]
    # Seat 0 went out on the round's last play; after seats 2 and 3 pass, the next player still
    # in the game after seat 0 leads (hưởng sái) — seat 1 is frozen, so seat 2.
    assert game.current_player == 2
    run(game, "2: pass", "3: pass")
    assert events_of(game, RoundWon)[-1] == RoundWon(0, 2, True)
    assert game.current_player == 2 and game.leading
    finish_greedily(game)
    assert game.ranking[0] == 0
    assert game.ranking[-1] == 1  # the cóng player ranks last
    assert sorted(game.ranking) == [0, 1, 2, 3]
    assert [e.seat for e in events_of(game, PlayerOut)] == list(game.ranking[:2])


@pytest.mark.parametrize("shift", [0, 1, 2])
@pytest.mark.parametrize("preset", ["thapthanh", "bigfun"])
def test_several_cong_players_rank_in_play_order_from_the_winner(preset: str, shift: int) -> None:
    hands = [SEAT0_OUT_IN_THREE_ROUNDS, "", "", "7d 7h 9h"]
    steps = [
        "0: 3s 3c",
        "1: pass",
        "2: pass",
        "3: 7d 7h",
        "0: 2d 2h",
        "3: pass",
        "0: 4s",
        "1: pass",
        "2: pass",
        "3: 9h",
        "0: 2c",
        "3: pass",
        "0: " + STRAIGHT_OUT,
    ]
    hands, steps = rotated(shift, hands, steps)
    game = start(preset, *hands, leader=shift, seed=3)
    run(game, *steps)
    # Full ranking: two cóng leave one player, who is second; the cóng pair ranks below.
    assert game.is_terminal()
    assert set(game.cong) == {(1 + shift) % 4, (2 + shift) % 4}
    assert game.ranking == tuple((s + shift) % 4 for s in (0, 3, 1, 2))


def test_huong_sai_passes_the_lead_to_the_next_seat_still_playing() -> None:
    hands = [SEAT0_OUT_IN_THREE_ROUNDS, "9h", "6d 6h", "7d 7h"]
    game = start("bigfun", *hands, seed=3)
    run(
        game,
        "0: 3s 3c",
        "1: pass",
        "2: 6d 6h",
        "3: 7d 7h",
        "0: 2d 2h",
        "2: pass",
        "3: pass",
        "0: 4s",
        "1: 9h",
        "2: pass",
        "3: pass",
        "0: 2c",
        "1: pass",
        "0: " + STRAIGHT_OUT,
    )
    assert not game.is_terminal() and game.cong == ()
    assert game.current_player == 1
    run(game, "1: pass", "2: pass", "3: pass")
    assert events_of(game, RoundWon)[-1] == RoundWon(0, 1, True)
    assert game.current_player == 1 and game.leading


def finish_greedily(game: Game) -> None:
    """Play the game out: the last legal action each turn (the biggest play or a pass)."""
    for _ in range(500):
        if game.is_terminal():
            return
        game.apply_action(game.legal_actions()[-1])
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_full_ranking_settles_every_place(players: int) -> None:
    for seed in range(6):
        game = Game.new(RuleSet.preset("bigfun"), players, seed=seed, first_game=False)
        finish_greedily(game)
        assert sorted(game.ranking) == list(range(players))
        if game.instant_win is None:
            outs = [e.seat for e in events_of(game, PlayerOut)]
            assert list(game.ranking[: len(outs)]) == outs
            # Everyone went out or was frozen cóng, but for at most one player left holding cards.
            assert players - 1 <= len(outs) + len(game.cong) <= players
            if game.cong:
                assert set(game.ranking[-len(game.cong) :]) == set(game.cong)


def test_going_out_on_a_two_ranks_last_when_the_option_is_on() -> None:
    rules = RuleSet.preset("thapthanh", two_last_ranks_last=True)
    hands = ["4s 5s 6s 7s 8s 9s 10s Js Qs 3c 3d 2c 2h", "", "6d 6h", "7d 7h"]
    steps = [
        "0: 4s 5s 6s 7s 8s 9s 10s Js Qs",
        "1: pass",
        "2: pass",
        "3: pass",
        "0: 3c 3d",
        "1: pass",
        "2: 6d 6h",
        "3: 7d 7h",
        "0: 2c 2h",
    ]
    game = start(rules, *hands, seed=1)
    run(game, *steps)
    assert events_of(game, PlayerOut) == [PlayerOut(0, 4, ranks_last=True)]
    assert not game.is_terminal()
    finish_greedily(game)
    assert game.ranking[-1] == 0
    assert game.winner != 0

    # Without the option the same play wins at once.
    plain = start("thapthanh", *hands, seed=1)
    run(plain, *steps)
    assert plain.winner == 0 and plain.is_terminal()


def test_two_players_going_out_on_a_two_hands_the_win_to_the_other() -> None:
    rules = RuleSet.preset("b52", two_last_ranks_last=True)
    game = start(rules, "4s 5s 6s 7s 8s 9s 10s Js Qs Ks 2s 2c 2h", "", seed=2)
    run(game, "0: 4s 5s 6s 7s 8s 9s 10s Js Qs Ks", "1: pass", "0: 2s 2c 2h")
    assert game.is_terminal()
    assert game.winner == 1 and game.ranking == (1, 0)


# --- 4 consecutive pairs after a pass, and out of turn ---------------------------------------
FOUR_PAIRS = "3s 3c 4s 4c 5d 5h 6s 6c"


@pytest.mark.parametrize("preset", ["thapthanh", "b52"])
def test_four_pairs_after_pass_gives_the_turn_back_only_to_chop(preset: str) -> None:
    game = start(preset, "8s", FOUR_PAIRS + " 2h", "2s", "", seed=4)
    run(game, "0: 8s", "1: pass", "2: 2s")
    assert game.revived == 1 << 1
    assert game.current_player == 3  # the revived seat waits for its turn in seat order
    run(game, "3: pass", "0: pass")
    assert game.current_player == 1
    actions = game.legal_actions()
    assert actions[0] == PASS
    assert m(FOUR_PAIRS) in actions
    assert all(
        C.classify(a) >> 16 == C.PAIRS and C.length_of(C.classify(a)) >= 4 for a in actions[1:]
    )
    refused(game, "already_passed", "1: 2h")  # 2♥ beats 2♠ but is no chop
    run(game, "1: " + FOUR_PAIRS)
    chop = events_of(game, Chop)[-1]
    assert (chop.seat, chop.victim, chop.cards, chop.victim_cards) == (1, 2, m(FOUR_PAIRS), m("2s"))
    assert game.current_player == 2
    assert game.revived == 0


def test_a_revived_player_who_passes_again_stays_locked() -> None:
    game = start("thapthanh", "8s", FOUR_PAIRS, "2s", "", seed=4)
    run(game, "0: 8s", "1: pass", "2: 2s", "3: pass", "0: pass", "1: pass")
    assert events_of(game, RoundWon)[-1] == RoundWon(2, 2, False)


def test_no_revival_for_ordinary_plays() -> None:
    game = start("thapthanh", "8s", FOUR_PAIRS, "Ks", "", seed=4)
    run(game, "0: 8s", "1: pass", "2: Ks")
    assert game.revived == 0
    run(game, "3: pass", "0: pass")
    assert game.current_player == 2 and game.leading


def test_bigfun_keeps_a_passed_player_out_even_with_four_pairs() -> None:
    game = start("bigfun", "8s", FOUR_PAIRS, "2s", "", seed=4)
    run(game, "0: 8s", "1: pass", "2: 2s")
    assert game.revived == 0
    assert game.legal_actions(1) == []
    refused(game, "already_passed", "1: " + FOUR_PAIRS)
    run(game, "3: pass", "0: pass")
    assert game.current_player == 2 and game.leading


@pytest.mark.parametrize("preset", ["langvuichoi", "sanhrong"])
def test_four_pairs_chop_out_of_turn(preset: str) -> None:
    game = start(preset, "2s", "", "", FOUR_PAIRS, seed=4)
    run(game, "0: 2s")
    assert game.current_player == 1
    assert m(FOUR_PAIRS) in game.legal_actions(3)
    assert all(C.length_of(C.classify(a)) >= 4 for a in game.legal_actions(3))
    assert game.legal_actions(0) == []  # nobody chops their own play
    game.apply_action(m(FOUR_PAIRS), 3)
    play = events_of(game, Play)[-1]
    assert play.seat == 3 and play.out_of_turn
    assert events_of(game, Chop)[-1].victim == 0
    assert game.current_player == 0  # the turn moves on from the chopper


@pytest.mark.parametrize("preset", ["langvuichoi", "sanhrong"])
def test_out_of_turn_chop_also_after_passing(preset: str) -> None:
    game = start(preset, "7s 2s", "8s", "9s", FOUR_PAIRS, seed=4)
    run(game, "0: 7s", "1: 8s", "2: 9s", "3: pass", "0: 2s")
    assert game.current_player == 1
    assert m(FOUR_PAIRS) in game.legal_actions(3)
    run(game, "3: " + FOUR_PAIRS)
    assert game.current_player == 0 and game.passed >> 3 & 1 == 0


def test_out_of_turn_without_after_pass_refuses_a_passed_player() -> None:
    rules = RuleSet.preset("langvuichoi", four_pairs_after_pass=False)
    game = start(rules, "7s 2s", "8s", "9s", FOUR_PAIRS, seed=4)
    run(game, "0: 7s", "1: 8s", "2: 9s", "3: pass", "0: 2s")
    assert game.legal_actions(3) == []
    refused(game, "already_passed", "3: " + FOUR_PAIRS)


def test_an_out_of_turn_chop_must_beat_the_bomb_on_the_table() -> None:
    higher = "10s 10c Js Jc Qs Qc Ks Kc"
    game = start("langvuichoi", higher, "", "", FOUR_PAIRS, seed=4)
    run(game, "0: " + higher)
    assert game.legal_actions(3) == []
    refused(game, "does_not_beat", "3: " + FOUR_PAIRS)


def test_out_of_turn_is_only_for_chopping() -> None:
    game = start("langvuichoi", "7s", "", "", FOUR_PAIRS, seed=4)
    run(game, "0: 7s")
    assert game.legal_actions(3) == []
    refused(game, "not_your_turn", "3: " + FOUR_PAIRS)
    refused(game, "not_your_turn", "3: pass")


@pytest.mark.parametrize("preset", ["thapthanh", "b52", "bigfun"])
def test_no_out_of_turn_chop_where_the_option_is_off(preset: str) -> None:
    game = start(preset, "2s", "", "", FOUR_PAIRS, seed=4)
    run(game, "0: 2s")
    assert game.legal_actions(3) == []
    refused(game, "not_your_turn", "3: " + FOUR_PAIRS)


# --- time-outs and leaving ------------------------------------------------------------------
def test_timeout_plays_the_smallest_card_when_leading_and_passes_otherwise() -> None:
    game = start("thapthanh", "4c 9h", "", "", "", seed=6)
    smallest = game.hands[0] & -game.hands[0]
    run(game, "0: timeout")
    play = events_of(game, Play)[-1]
    assert (play.seat, play.cards, play.auto) == (0, smallest, True)
    run(game, "1: timeout")
    passed = events_of(game, Pass)[-1]
    assert (passed.seat, passed.auto) == (1, True)
    assert game.passed == 1 << 1
    assert [a.kind for a in game.history] == ["timeout", "timeout"]
    refused(game, "not_your_turn", "3: timeout")


def test_timeout_in_a_first_game_plays_three_of_spades() -> None:
    game = start("sanhrong", "", "3s", "", "", first_game=True)
    run(game, "1: timeout")
    assert game.events[-1] == Play(1, m("3s"), C.classify(m("3s")), None, False, True)


def test_two_players_leaving_hands_the_win_to_the_other() -> None:
    game = start("thapthanh", "", "")
    run(game, "1: leave")
    assert game.is_terminal()
    assert game.winner == 0 and game.ranking == (0, 1)
    assert isinstance(game.events[-1], GameOver) and game.events[-1].reason == "left"
    assert events_of(game, Left) == [Left(1)]


def test_a_leaver_is_skipped_and_ranked_below_everyone_still_playing() -> None:
    game = start("thapthanh", "3s", "4s", "", "")
    run(game, "0: 3s", "1: leave")
    assert game.current_player == 2  # the current player left: the turn moved on
    refused(game, "not_in_game", "1: pass")
    refused(game, "not_in_game", "1: leave")
    finish_greedily(game)
    assert game.ranking[-1] == 1


def test_everyone_but_one_leaving_ends_the_game() -> None:
    game = start("b52", "", "", "", "")
    run(game, "1: leave", "3: leave")
    assert not game.is_terminal()
    run(game, "0: leave")
    assert game.is_terminal()
    assert game.winner == 2 and game.ranking == (2, 0, 3, 1)


def test_the_three_of_spades_holder_leaving_frees_the_first_lead() -> None:
    game = start("sanhrong", "3s", "", "", "", first_game=True)
    run(game, "0: leave")
    assert game.current_player == 1 and game.leading
    assert game.legal_actions()  # anything may lead now


# --- illegal actions: a specific code, and nothing changes ---------------------------------------
def test_each_illegal_action_has_its_code_and_changes_nothing() -> None:
    game = start("thapthanh", "3s 5s 7c 7d", "6s 8h", "", "")
    refused(game, "not_your_turn", "1: 6s")
    refused(game, "not_in_game", "7: 3s")
    refused(game, "cards_not_in_hand", "0: 6s")
    refused(game, "not_a_combination", "0: 3s 5s")
    refused(game, "cannot_pass", "0: pass")
    run(game, "0: 7c 7d")
    refused(game, "does_not_beat", "1: 6s")
    refused(game, "not_a_combination", "1: 6s 8h")
    before = snapshot(game)
    with pytest.raises(E.NotACombination):
        game.play(0, 1)
    with pytest.raises(E.NotACombination):
        game.play(1 << 60, 1)
    assert snapshot(game) == before


def test_a_straight_shorter_than_the_table_allows_is_not_a_combination() -> None:
    game = start(RuleSet.preset("b52", min_straight=4), "3s 4c 5d")
    refused(game, "not_a_combination", "0: 3s 4c 5d")


def test_actions_after_the_end_are_refused() -> None:
    game = start("thapthanh", "", "")
    run(game, "0: leave")
    for step in ("1: pass", "1: leave", "1: timeout", "1: 3s", "0: pass"):
        error = refused(game, "game_over", step)
        assert isinstance(error, E.GameOverError)


def test_illegal_action_errors_are_value_errors() -> None:
    for cls in (E.NotYourTurn, E.DoesNotBeat, E.AlreadyPassed, E.CannotPass, E.MustContainCard):
        assert issubclass(cls, E.IllegalAction) and issubclass(cls, ValueError)


def test_bad_hands_are_refused() -> None:
    rules = RuleSet.preset("b52")
    a, b = deal("", "")
    with pytest.raises(ValueError, match="holds 12 cards"):
        Game(rules, [a & (a - 1), b])
    with pytest.raises(ValueError, match="dealt twice"):
        Game(rules, [a, a])
    with pytest.raises(ValueError, match="leader must be"):
        Game(rules, [a, b], first_game=False, leader=2)
    with pytest.raises(ValueError, match="2 to 4 players"):
        Game(rules, [a])
    with pytest.raises(ValueError, match="2 to 4 players"):
        Game.new(rules, 5)


# --- random whole games: the rules hold at every step -----------------------------------------
@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_games_keep_the_round_rules(preset: str) -> None:
    rules = RuleSet.preset(preset)
    rng = random.Random(preset)
    for game_number in range(12):
        players = 2 + game_number % 3
        game = Game.new(rules, players, seed=game_number, first_game=game_number % 2 == 0)
        passed_this_round: set[int] = set()
        for _ in range(600):
            if game.is_terminal():
                break
            seat = game.current_player
            actions = game.legal_actions()
            assert actions, "the current player must always have an action"
            assert (PASS in actions) is (not game.leading)
            others = [s for s in range(players) if s != seat and game.legal_actions(s)]
            if others and rng.random() < 0.5:
                chopper = rng.choice(others)
                game.play(rng.choice(game.legal_actions(chopper)), chopper)
                passed_this_round.discard(chopper)
                continue
            action = rng.choice(actions)
            rounds_before = len(events_of(game, RoundWon))
            if action == PASS:
                game.pass_turn(seat)
                passed_this_round.add(seat)
            else:
                # A passed player plays again this round only to chop with 4+ pairs.
                if seat in passed_this_round:
                    code = C.classify(action)
                    assert code >> 16 == C.PAIRS and C.length_of(code) >= 4
                game.play(action, seat)
                passed_this_round.discard(seat)
            if len(events_of(game, RoundWon)) > rounds_before:
                passed_this_round = set()
        assert game.is_terminal()
        assert sorted(game.ranking) == list(range(players))
        assert game.ranking[0] == game.winner
        over = game.events[-1]
        assert isinstance(over, GameOver) and over.ranking == game.ranking
        played = sum(e.cards.bit_count() for e in events_of(game, Play))
        assert played + sum(game.cards_left()) == 13 * players
