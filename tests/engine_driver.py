"""Shared helpers for the command, view and snapshot tests: hand-built tables, random deals rich
in chop offers, and a random driver that sends every kind of :class:`Action` through
:meth:`Game.apply` — plays, passes, time-outs, leaves, out-of-turn chops and declines.

Test modules import these directly (``from engine_driver import ...``), like ``conftest``.
"""

from __future__ import annotations

import copy
import random
from typing import Any, cast

from conftest import deal

from tienlen.engine import combos as C
from tienlen.engine.cards import mask_ascii
from tienlen.engine.game import PASS, Action, Game
from tienlen.engine.rules import PRESETS, RuleSet

PRESET_NAMES = sorted(PRESETS)
OUT_OF_TURN_PRESETS = sorted(name for name, r in PRESETS.items() if r.four_pairs_out_of_turn)
IN_TURN_PRESETS = sorted(name for name, r in PRESETS.items() if not r.four_pairs_out_of_turn)

FOUR_PAIRS = "3s 3c 4s 4c 5d 5h 6s 6c"
OTHER_FOUR_PAIRS = "8s 8c 9s 9c 10s 10c Js Jc"
THIRD_FOUR_PAIRS = "7d 7h 8d 8h 9d 9h 10d 10h"


def start(
    rules: str | RuleSet,
    *given: str,
    players: int | None = None,
    leader: int = 0,
    seed: int = 0,
) -> Game:
    """A later game (not a first one) led by ``leader``, with seat ``i`` holding ``given[i]``
    topped up from a fixed shuffle; one hand given means a 4-player table."""
    if players is None and len(given) < 2:
        players = 4
    ruleset = RuleSet.preset(rules) if isinstance(rules, str) else rules
    hands = deal(*given, players=players, seed=seed)
    game = Game(ruleset, hands, first_game=False, leader=leader)
    assert game.instant_win is None, "the filler dealt an instant win: pick another seed"
    return game


def state_of(game: Game) -> dict[str, Any]:
    """Everything in the game object except the legal-actions cache, deep-copied.

    ``__getstate__`` rather than ``vars``: a game compiled by mypyc has no ``__dict__``."""
    state = cast(dict[str, Any], game.__getstate__())
    return copy.deepcopy({k: v for k, v in state.items() if not k.startswith("_cache")})


def crafted_deal(rng: random.Random, n: int) -> list[int]:
    """A deal where one or two seats hold 4 consecutive pairs and another seat some 2s, so
    out-of-turn chop windows (with more than one seat in them) are common."""
    seats = rng.sample(range(n), min(n, 3))
    heo, choppers = seats[0], seats[1:]
    if len(choppers) > 1 and rng.random() < 0.3:
        choppers = choppers[:1]
    given = ["" for _ in range(n)]
    start_rank = rng.randrange(0, 3)
    for k, seat in enumerate(choppers):
        cards = []
        for rank in range(start_rank + 5 * k, start_rank + 5 * k + 4):
            cards += [4 * rank + s for s in rng.sample(range(4), 2)]
        given[seat] = mask_ascii(sum(1 << c for c in cards))
    twos = rng.sample(range(4), rng.randint(2, 3))
    given[heo] = mask_ascii(sum(1 << (48 + s) for s in twos))
    return deal(*given, seed=rng.randrange(1 << 30))


def new_game(preset: str | RuleSet, n: int, seed: int) -> Game:
    """A seeded first game, or (two times in three) a crafted deal, maybe not a first game.

    Crafted deals are often won at the deal (six pairs): deal again a few times; the result
    may still be an instant win, which callers either use or skip.
    """
    rules = RuleSet.preset(preset) if isinstance(preset, str) else preset
    rng = random.Random(seed)
    if rng.random() < 1 / 3:
        return Game.new(rules, n, seed=seed)
    game = None
    for _ in range(20):
        first = rng.random() < 0.3
        game = Game(rules, crafted_deal(rng, n), first_game=first, leader=rng.randrange(n))
        if not game.over:
            break
    assert game is not None
    return game


def seats_in_game(game: Game) -> list[int]:
    return [s for s in range(game.n) if game.in_game >> s & 1]


def bomb_cards(hand: int) -> int:
    """The cards of ``hand`` in runs of 4 or more consecutive pairs (3 to A)."""
    kept = 0
    run = 0
    length = 0
    for rank in range(13):
        cards = hand >> (4 * rank) & 0xF
        if rank < 12 and cards.bit_count() >= 2:
            run |= cards << (4 * rank)
            length += 1
            continue
        if length >= 4:
            kept |= run
        run = 0
        length = 0
    return kept


def random_command(game: Game, rng: random.Random) -> Action:
    """A random legal command for the game as it stands (it must not be over).

    The chop window is asked first, in its order, as a table does: each offered seat chops,
    declines, or (sometimes) is not heard from; then the current player plays, passes or
    times out; rarely a seat leaves.
    """
    assert not game.over
    for seat in game.chop_window():
        roll = rng.random()
        if roll < 0.3:
            return Action.play(seat, rng.choice(game.legal_actions(seat)))
        if roll < 0.8:
            return Action.decline(seat)
    roll = rng.random()
    if roll < (0.1 if not game.history else 0.006):
        seats = seats_in_game(game)
        return Action.leave(game.current if roll < 0.05 else rng.choice(seats))
    seat = game.current
    if roll < 0.06:
        return Action.timeout(seat)
    actions = game.legal_actions()
    roll = rng.random()
    if actions[0] == PASS and roll < 0.35:
        return Action.pass_turn(seat)
    heavy = [a for a in actions if a and C.category(C.classify(a))]
    kept = bomb_cards(game.hands[seat])
    if kept and rng.random() < 0.8:  # keep 4 consecutive pairs whole, to chop with later
        actions = [a for a in actions if not a & kept] or actions
    choice = rng.choice(heavy if heavy and roll > 0.6 else actions)
    return Action.play(seat, choice) if choice != PASS else Action.pass_turn(seat)


def play_random(game: Game, rng: random.Random, limit: int | None = None) -> list[Action]:
    """Apply random commands until the game ends (or ``limit`` commands); the commands."""
    done: list[Action] = []
    bound = 13 * game.n * (2 * game.n - 1) + 3 * game.n * 13 + game.n
    while not game.over and (limit is None or len(done) < limit):
        assert len(done) <= bound, "the game does not end"
        action = random_command(game, rng)
        game.apply(action)
        done.append(action)
    return done
