"""Invariants of the engine, checked on random hands, tables and whole random games.

Each property compares the engine with something it cannot share a bug with: the brute-force
reference of tests/data/reference.py (every subset of a hand classified one by one), the game
itself applied to a copy, or plain bookkeeping (52 cards, one GameOver, a replayed record).
Random games mix legal actions with time-outs, players leaving and out-of-turn chops.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from conftest import deal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tienlen.engine import combos as C
from tienlen.engine.cards import FULL_DECK, mask_ascii
from tienlen.engine.codec import event_to_dict, summary_of
from tienlen.engine.deal import random_deal as deal_hands
from tienlen.engine.errors import GameOverError, IllegalAction
from tienlen.engine.events import GameOver, Play
from tienlen.engine.game import PASS, Game
from tienlen.engine.moves import beating_plays, leading_plays
from tienlen.engine.record import parse_record, record_of, replay
from tienlen.engine.rules import PRESETS, RuleSet


def _load_reference() -> ModuleType:
    path = Path(__file__).resolve().parent / "data" / "reference.py"
    spec = importlib.util.spec_from_file_location("tienlen_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


R = _load_reference()

PRESET_NAMES = sorted(PRESETS)
presets = st.sampled_from(PRESET_NAMES)
player_counts = st.integers(2, 4)
seeds = st.integers(0, 2**32 - 1)
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=False,
)

# --- random hands and games --------------------------------------------------------------


def clustered_hand(rng: random.Random, size: int, exclude: int = 0) -> int:
    """``size`` cards from a window of a few ranks, so pairs, runs and bombs are common."""
    low = rng.randrange(0, 10)
    window = [c for c in range(4 * low, min(52, 4 * (low + 5))) if not exclude >> c & 1]
    spread = [c for c in range(52) if not exclude >> c & 1]
    hand = 0
    while hand.bit_count() < size:
        pool = window if rng.random() < 0.85 else spread
        hand |= 1 << rng.choice(pool)
    return hand


def bomb_deal(rng: random.Random, n: int) -> list[int]:
    """A deal where one seat holds 4 consecutive pairs and another seat some 2s.

    Random deals hardly ever let 4 consecutive pairs chop, after passing or out of turn.
    """
    start = rng.randrange(0, 8)
    chopper, heo = rng.sample(range(n), 2)
    cards = []
    for rank in range(start, start + 4):
        cards += [4 * rank + s for s in rng.sample(range(4), 2)]
    given = ["" for _ in range(n)]
    given[chopper] = mask_ascii(sum(1 << c for c in cards))
    given[heo] = mask_ascii(sum(1 << (48 + s) for s in rng.sample(range(4), 2)))
    return deal(*given, seed=rng.randrange(1 << 30))


def new_game(preset: str, n: int, seed: int) -> Game:
    """A first game from a seeded deal, or (one time in two) a crafted deal, maybe not first."""
    rules = RuleSet.preset(preset)
    rng = random.Random(seed)
    if rng.random() < 0.5:
        return Game.new(rules, n, seed=seed)
    for _ in range(20):  # a crafted deal is often an instant win (6 pairs): deal again
        game = Game(
            rules, bomb_deal(rng, n), first_game=rng.random() < 0.5, leader=rng.randrange(n)
        )
        if not game.is_terminal():
            break
    return game


def seats_in_game(game: Game) -> list[int]:
    return [s for s in range(game.n) if game.in_game >> s & 1]


def random_step(game: Game, rng: random.Random, chaos: bool) -> str:
    """One random action; with ``chaos``, also out-of-turn chops, time-outs and leaving."""
    if chaos:
        for seat in rng.sample(range(game.n), game.n):
            if seat == game.current_player:
                continue
            chops = game.legal_actions(seat)
            if chops and rng.random() < 0.6:
                game.play(rng.choice(chops), seat)
                return "chop"
        roll = rng.random()
        # Leaving is rare, except before the first play, where it tests who leads instead.
        if roll < (0.1 if not game.history else 0.006):
            seat = game.current_player if roll < 0.05 else rng.choice(seats_in_game(game))
            game.leave(seat)
            return "leave"
        if roll < 0.06:
            game.timeout()
            return "timeout"
    actions = game.legal_actions()
    assert actions, f"seat {game.current_player} has no legal action: {game!r}"
    roll = rng.random()
    if actions[0] == PASS and roll < 0.35:
        game.apply_action(PASS)
        return "pass"
    heavy = [a for a in actions if a and C.category(C.classify(a))]
    game.apply_action(rng.choice(heavy if heavy and roll > 0.75 else actions))
    return "action"


def play_out(
    game: Game, rng: random.Random, chaos: bool, each: Callable[[Game], None] | None = None
) -> list[str]:
    """Random actions until the game ends, failing if it takes longer than the rules allow."""
    n = game.n
    # Each play sheds a card; after each play, every other seat passes at most twice (once
    # more when a heo or bomb gives 4 consecutive pairs their turn back); n - 1 may leave.
    bound = 13 * n * (2 * n - 1) + n
    kinds = []
    while not game.is_terminal():
        assert len(game.history) <= bound, f"no end after {bound} actions"
        kinds.append(random_step(game, rng, chaos))
        if each is not None:
            each(game)
    return kinds


def reach_state(preset: str, n: int, seed: int, steps: int, chaos: bool = True) -> Game:
    game = new_game(preset, n, seed)
    rng = random.Random(seed ^ 0x5EED)
    for _ in range(steps):
        if game.is_terminal():
            break
        random_step(game, rng, chaos)
    return game


def state_of(game: Game) -> dict[str, Any]:
    """Everything in the game object except the legal-actions cache, deep-copied.

    ``__getstate__`` rather than ``vars``: a game compiled by mypyc has no ``__dict__``."""
    state = cast(dict[str, Any], game.__getstate__())
    return copy.deepcopy({k: v for k, v in state.items() if not k.startswith("_cache")})


def accepted(game: Game, action: Callable[[Game], object]) -> bool:
    """Whether the game accepts an action, tried on a copy; a refusal must change nothing."""
    trial = copy.deepcopy(game)
    before = state_of(trial)
    try:
        action(trial)
    except IllegalAction as exc:
        assert isinstance(exc.code, str) and exc.code != "illegal", exc
        assert str(exc)
        assert state_of(trial) == before, f"refused {exc.code} but changed the game"
        return False
    return True


# --- the reference agrees with combos -------------------------------------------------------

_KINDS = {
    "single": C.SINGLE,
    "pair": C.PAIR,
    "triple": C.TRIPLE,
    "quad": C.QUAD,
    "straight": C.STRAIGHT,
    "pairs": C.PAIRS,
}


@SETTINGS
@given(seed=seeds, size=st.integers(1, 12))
def test_classify_agrees_with_the_reference(seed: int, size: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        mask = clustered_hand(rng, rng.randint(1, size))
        combo = R.classify(R.cards_in(mask))
        code = C.classify(mask)
        if combo is None:
            assert code == 0, mask_ascii(mask)
        else:
            assert (C.kind_of(code), C.length_of(code), C.top_of(code)) == (
                _KINDS[combo.kind],
                combo.length,
                combo.top,
            ), mask_ascii(mask)
            assert C.category(code) == R.chop_category(combo)


# --- generated plays are exactly the legal subsets --------------------------------------------


@SETTINGS
@given(preset=presets, seed=seeds, size=st.integers(6, 9))
def test_leading_plays_are_exactly_the_legal_subsets(preset: str, seed: int, size: int) -> None:
    rules = RuleSet.preset(preset)
    hand = clustered_hand(random.Random(seed), size)
    plays = leading_plays(hand, rules)
    assert len(plays) == len(set(plays)), "a play is listed twice"
    legal = set(plays)
    for mask in R.subsets(hand):
        assert (mask in legal) == R.may_play(mask, hand, rules), mask_ascii(mask)


@SETTINGS
@given(preset=presets, seed=seeds, size=st.integers(6, 9), bomb_on_table=st.booleans())
def test_beating_plays_are_exactly_the_legal_subsets(
    preset: str, seed: int, size: int, bomb_on_table: bool
) -> None:
    rules = RuleSet.preset(preset)
    rng = random.Random(seed)
    hand = clustered_hand(rng, size)
    others = clustered_hand(rng, 13, exclude=hand)
    candidates = leading_plays(others, rules)
    heavy = [p for p in candidates if C.category(C.classify(p))]
    table = rng.choice(heavy if bomb_on_table and heavy else candidates)
    code = C.classify(table)
    plays = beating_plays(hand, code, rules)
    assert len(plays) == len(set(plays)), "a play is listed twice"
    legal = set(plays)
    for mask in R.subsets(hand):
        expected = R.may_play(mask, hand, rules, table)
        assert (mask in legal) == expected, f"{mask_ascii(mask)} on {mask_ascii(table)}"
        if expected:
            assert rules.beats(C.classify(mask), code)


def _candidate_masks(hand: int, legal: set[int], rng: random.Random) -> list[int]:
    """All subsets of a small hand; for a big one, the legal plays and random subsets."""
    if hand.bit_count() <= 9:
        return R.subsets(hand)
    cards = R.cards_in(hand)
    sample = {
        sum(1 << c for c in rng.sample(cards, rng.randint(1, len(cards)))) for _ in range(300)
    }
    return sorted(sample | legal)


@settings(SETTINGS, max_examples=120)
@given(preset=presets, n=player_counts, seed=seeds, steps=st.integers(0, 60))
def test_legal_actions_are_exactly_what_the_game_accepts(
    preset: str, n: int, seed: int, steps: int
) -> None:
    game = reach_state(preset, n, seed, steps)
    if game.is_terminal():
        assert game.legal_actions() == []
        assert all(game.legal_actions(s) == [] for s in range(n))
        return
    rng = random.Random(seed)
    seat = game.current_player
    hand = game.hands[seat]
    actions = game.legal_actions()
    assert len(actions) == len(set(actions)), "an action is listed twice"
    assert (PASS in actions) == (not game.leading)
    assert PASS not in actions[1:], "PASS comes first"
    plays = set(actions) - {PASS}
    revived = bool(game.revived >> seat & 1)
    for mask in _candidate_masks(hand, plays, rng):
        expected = R.may_play(mask, hand, game.rules, game.last_mask, game.required, revived)
        assert (mask in plays) == expected, f"{mask_ascii(mask)} on {game!r}"

    # The game itself agrees, tried on copies: the legal plays, and some refused subsets.
    refused = [m for m in _candidate_masks(hand, set(), rng) if m not in plays]
    for mask in rng.sample(sorted(plays), min(8, len(plays))):
        assert accepted(game, lambda g, m=mask: g.play(m, seat)), mask_ascii(mask)
    for mask in rng.sample(refused, min(8, len(refused))):
        assert not accepted(game, lambda g, m=mask: g.play(m, seat)), mask_ascii(mask)
    assert accepted(game, lambda g: g.pass_turn(seat)) == (PASS in actions)

    # Other seats: exactly the out-of-turn chops the game accepts from them.
    for other in range(n):
        if other == seat:
            continue
        chops = game.legal_actions(other)
        assert len(chops) == len(set(chops))
        for mask in chops:
            assert R.is_four_pairs(R.classify(R.cards_in(mask)))
            assert accepted(game, lambda g, m=mask, s=other: g.play(m, s)), mask_ascii(mask)
        if game.in_game >> other & 1:
            runs = _four_pair_runs(game.hands[other])
            for mask in runs - set(chops):
                assert not accepted(game, lambda g, m=mask, s=other: g.play(m, s))


def _four_pair_runs(hand: int) -> set[int]:
    """Every run of 4 or more consecutive pairs in a hand, by brute force over its pairs."""
    out: set[int] = set()
    for start in range(12):
        partial = {0}
        for rank in range(start, 12):
            suits = [4 * rank + s for s in range(4) if hand >> (4 * rank + s) & 1]
            pairs = [(1 << a) | (1 << b) for i, a in enumerate(suits) for b in suits[i + 1 :]]
            if not pairs:
                break
            partial = {p | q for p in partial for q in pairs}
            if rank - start + 1 >= 4:
                out |= partial
    return out


# --- whole random games -------------------------------------------------------------------


def _check_cards_conserved(game: Game) -> None:
    dealt = 0
    for hand in game.initial_hands:
        assert not dealt & hand
        dealt |= hand
    assert dealt.bit_count() == 13 * game.n and not dealt & ~FULL_DECK
    seen = 0
    total = 0
    for mask in [*game.hands, *(e.cards for e in game.events if isinstance(e, Play))]:
        assert not seen & mask, f"{mask_ascii(seen & mask)} twice"
        seen |= mask
        total += mask.bit_count()
    assert seen == dealt and total == 13 * game.n


@settings(SETTINGS, max_examples=120)
@given(preset=presets, n=player_counts, seed=seeds, chaos=st.booleans())
def test_cards_are_conserved_at_every_step(preset: str, n: int, seed: int, chaos: bool) -> None:
    game = new_game(preset, n, seed)
    _check_cards_conserved(game)
    play_out(game, random.Random(seed), chaos, _check_cards_conserved)


@settings(SETTINGS, max_examples=200)
@given(preset=presets, n=player_counts, seed=seeds)
def test_every_game_ends_with_one_game_over(preset: str, n: int, seed: int) -> None:
    game = new_game(preset, n, seed)
    kinds = play_out(game, random.Random(seed), chaos=True)
    assert game.is_terminal() and game.current_player < 0
    overs = [e for e in game.events if isinstance(e, GameOver)]
    assert len(overs) == 1 and game.events[-1] is overs[0]
    assert sorted(game.ranking) == list(range(n))
    assert overs[0].ranking == game.ranking
    assert game.winner == overs[0].winner
    if game.winner is not None:
        assert game.ranking[0] == game.winner
    assert [h.bit_count() for h in game.hands] == game.cards_left()
    assert kinds.count("leave") < n
    assert game.legal_actions() == []
    for seat in range(n):
        assert game.legal_actions(seat) == []
        assert not accepted(game, lambda g, s=seat: g.pass_turn(s))
        assert not accepted(game, lambda g, s=seat: g.leave(s))
    try:
        game.timeout()
    except GameOverError as exc:
        assert exc.code == "game_over"
    else:
        raise AssertionError("a time-out after the end was accepted")


def test_random_games_do_chop_out_of_turn_leave_and_time_out() -> None:
    """The random driver above really exercises the rare actions (else the properties are thin)."""
    seen: dict[str, int] = {}
    for seed in range(60):
        preset = ("langvuichoi", "sanhrong")[seed % 2]
        game = new_game(preset, 2 + seed % 3, seed)
        for kind in play_out(game, random.Random(seed), chaos=True):
            seen[kind] = seen.get(kind, 0) + 1
    assert seen.get("chop", 0) >= 3, seen
    assert seen.get("leave", 0) >= 3, seen
    assert seen.get("timeout", 0) >= 10, seen


def _events(game: Game) -> list[dict[str, Any]]:
    return [event_to_dict(e) for e in game.events]


@settings(SETTINGS, max_examples=100)
@given(
    preset=presets,
    n=player_counts,
    seed=seeds,
    stop=st.none() | st.integers(0, 40),
    chaos=st.booleans(),
)
def test_replaying_a_record_reproduces_the_game(
    preset: str, n: int, seed: int, stop: int | None, chaos: bool
) -> None:
    if stop is None:
        game = new_game(preset, n, seed)
        play_out(game, random.Random(seed), chaos)
    else:
        game = reach_state(preset, n, seed, stop, chaos)
    record = record_of(game, bet=3, extra={"room": "Tập sự", "table": 7})
    again = replay(record)
    assert _events(again) == _events(game)
    assert again.ranking == game.ranking and again.winner == game.winner
    assert again.hands == game.hands and again.is_terminal() == game.is_terminal()

    data = json.loads(json.dumps(record.to_dict(), ensure_ascii=False))
    assert data["room"] == "Tập sự" and data["bet"] == 3
    parsed = parse_record(data)
    assert parsed.extra == {"room": "Tập sự", "table": 7}
    assert parsed.to_dict() == data
    replayed = replay(parsed)
    assert _events(replayed) == _events(game)
    assert replayed.ranking == game.ranking and replayed.hands == game.hands
    assert summary_of(replayed) == summary_of(game)


@SETTINGS
@given(n=player_counts, seed=seeds, other=seeds)
def test_the_same_seed_deals_the_same_cards(n: int, seed: int, other: int) -> None:
    rules = RuleSet.preset("thapthanh")
    hands = deal_hands(n, seed=seed)
    assert hands == deal_hands(n, seed=seed)
    assert Game.new(rules, n, seed=seed).initial_hands == tuple(hands)
    assert Game.new(rules, n, rng=random.Random(seed)).initial_hands == tuple(hands)
    assert all(h.bit_count() == 13 for h in hands)
    union = 0
    for hand in hands:
        assert not union & hand
        union |= hand
    if other != seed:
        assert deal_hands(n, seed=other) != hands


# --- illegal actions change nothing ----------------------------------------------------------


@settings(SETTINGS, max_examples=100)
@given(preset=presets, n=player_counts, seed=seeds, steps=st.integers(0, 60))
def test_illegal_actions_change_nothing(preset: str, n: int, seed: int, steps: int) -> None:
    game = reach_state(preset, n, seed, steps)
    rng = random.Random(seed)
    attempts: list[Callable[[Game], object]] = []
    if game.is_terminal():
        attempts += [
            lambda g: g.play(g.initial_hands[0] & -g.initial_hands[0], 0),
            lambda g: g.pass_turn(1),
            lambda g: g.timeout(0),
            lambda g: g.leave(0),
            lambda g: g.apply_action(PASS),
        ]
    else:
        seat = game.current_player
        hand = game.hands[seat]
        legal = set(game.legal_actions())
        foreign = FULL_DECK & ~hand
        attempts += [
            lambda g: g.play(0, seat),
            lambda g: g.play(-1, seat),
            lambda g: g.play(1 << 52, seat),
            lambda g: g.play(foreign & -foreign, seat),
            lambda g: g.play(hand | (foreign & -foreign), seat),
            lambda g: g.play(hand & -hand, n),
            lambda g: g.pass_turn(-1),
            lambda g: g.leave(n + 3),
            lambda g: g.timeout(99),
        ]
        cards = R.cards_in(hand)
        for _ in range(20):
            mask = sum(1 << c for c in rng.sample(cards, rng.randint(1, len(cards))))
            if mask not in legal:
                attempts.append(lambda g, m=mask: g.play(m, seat))
                attempts.append(lambda g, m=mask: g.apply_action(m))
        if game.leading:
            attempts += [lambda g: g.pass_turn(seat), lambda g: g.apply_action(PASS)]
        for other in range(n):
            if other == seat:
                continue
            attempts += [lambda g, s=other: g.timeout(s)]
            if not game.in_game >> other & 1:
                attempts += [
                    lambda g, s=other: g.leave(s),
                    lambda g, s=other: g.pass_turn(s),
                    lambda g, s=other: g.play(g.hands[s] & -g.hands[s] or 1, s),
                ]
                continue
            attempts += [lambda g, s=other: g.pass_turn(s)]
            chops = set(game.legal_actions(other))
            other_hand = game.hands[other]
            for _ in range(5):
                sub = R.cards_in(other_hand)
                mask = sum(1 << c for c in rng.sample(sub, rng.randint(1, len(sub))))
                if mask not in chops:
                    attempts.append(lambda g, m=mask, s=other: g.play(m, s))
    for attempt in attempts:
        assert not accepted(game, attempt)
    # And on the game itself, not a copy: still the same state, still the same legal actions.
    before = state_of(game)
    legal_before = game.legal_actions()
    for attempt in attempts:
        try:
            attempt(game)
        except IllegalAction:
            pass
        else:
            raise AssertionError("an illegal action was accepted")
    assert state_of(game) == before
    assert game.legal_actions() == legal_before


def test_a_seat_given_its_turn_back_may_only_chop_with_four_pairs() -> None:
    """After a heo or bomb, a seat that passed but holds 4 consecutive pairs gets the turn back
    (four_pairs_after_pass); its legal actions are then PASS and those chops, nothing else.
    Random games rarely reach that state, so this walks seeded games until it has seen enough."""
    seen = 0
    for seed in range(4000):
        preset = ("thapthanh", "b52")[seed % 2]
        game = new_game(preset, 2 + seed % 3, seed)
        rng = random.Random(seed)
        while not game.is_terminal() and seen < 12:
            seat = game.current_player
            if game.revived >> seat & 1:
                seen += 1
                hand = game.hands[seat]
                actions = game.legal_actions()
                assert actions[0] == PASS
                plays = set(actions[1:])
                for mask in _candidate_masks(hand, plays, rng):
                    expected = R.may_play(mask, hand, game.rules, game.last_mask, 0, True)
                    assert (mask in plays) == expected, mask_ascii(mask)
                for mask in plays:
                    assert accepted(game, lambda g, m=mask, s=seat: g.play(m, s))
            random_step(game, rng, chaos=False)
        if seen >= 12:
            return
    raise AssertionError(f"only {seen} seats were given their turn back")
