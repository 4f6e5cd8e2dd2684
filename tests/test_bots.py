"""Bots: the seat view hides what the seat may not know; every level answers legally."""

from __future__ import annotations

import gc
import pickle
import random
import time

import pytest
from conftest import deal, m

import tienlen.bots.search as search_module
from tienlen.bots import (
    DEFAULT_LEVEL,
    LEVELS,
    BotError,
    GreedyBot,
    PublicLog,
    RandomBot,
    SearchBot,
    SeatView,
    StrategicBot,
    Table,
    UnknownLevel,
    make_bot,
    play_turn,
    view_of,
)
from tienlen.bots.inference import Inference, past_choices, surprises
from tienlen.bots.planner import best_split, counts_key, hand_cost, part_masks
from tienlen.bots.search import sample_world, world_from
from tienlen.bots.strategic import Situation, StrategicPolicy, can_be_beaten
from tienlen.engine.cards import FULL_DECK, cards_of, mask_of
from tienlen.engine.combos import classify
from tienlen.engine.events import Pass
from tienlen.engine.game import PASS, Game
from tienlen.engine.rules import PRESETS, RuleSet

THAPTHANH = RuleSet.preset("thapthanh")


def advance(game: Game, steps: int, seed: int = 0) -> Table:
    """Play ``steps`` actions with random bots (stopping early if the game ends)."""
    table = Table(game, [RandomBot(seed + s) for s in range(game.n)])
    for _ in range(steps):
        if table.step() is None:
            break
    return table


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through references (what a bot could reach)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


# --- the view --------------------------------------------------------------------------------


def test_view_reaches_neither_the_game_nor_another_hand() -> None:
    game = Game.new(THAPTHANH, 4, seed=11)
    advance(game, 25)
    view = view_of(game, 1)
    objects = reachable(view)
    assert not any(isinstance(o, Game) for o in objects)
    assert not any(o is game.hands or o is game.initial_hands or o is game.events for o in objects)
    for seat in (0, 2, 3):
        hidden = game.hands[seat]
        assert hidden and hidden & view.hand == 0
        assert hidden & view.unseen == hidden  # unseen to seat 1, not known
    # A pickled view round-trips and carries no Game class.
    data = pickle.dumps(view)
    assert b"tienlen.engine.game\nGame" not in data and b"Game\x94" not in data
    assert pickle.loads(data) == view


def test_view_is_the_same_whatever_the_hidden_cards() -> None:
    """Two deals that differ only in cards seat 0 cannot see give seat 0 equal views."""
    compared = 0
    for seed in range(40):
        game = Game.new(THAPTHANH, 4, seed=seed, first_game=False, leader=0)
        if game.over:
            continue
        advance(game, 18, seed)
        if game.over:
            continue
        rng = random.Random(seed)
        pool = cards_of(sum(game.hands[s] for s in (1, 2, 3)))
        rng.shuffle(pool)
        hands = [game.initial_hands[0]]
        for s in (1, 2, 3):
            take, pool = pool[: game.hands[s].bit_count()], pool[game.hands[s].bit_count() :]
            hands.append(mask_of(take) | (game.initial_hands[s] & ~game.hands[s]))
        if hands[1:] == list(game.initial_hands[1:]):
            continue
        twin = Game(THAPTHANH, hands, first_game=False, leader=0)
        try:
            for action in game.history:
                twin.apply_action(action.cards, action.seat)
        except ValueError:
            continue  # the reshuffle changed what the history allows
        assert twin.hands != game.hands
        assert view_of(twin, 0) == view_of(game, 0)
        compared += 1
    assert compared >= 10


def test_view_redacts_could_beat_and_copies_events() -> None:
    game = Game(THAPTHANH, deal("3s", "4s", "2h", "5s"), first_game=False, leader=0)
    game.play(m("3s"), 0)
    game.pass_turn(1)  # could beat with 4s, but nobody else may know it
    assert game.events[-1] == Pass(1, True)
    view = view_of(game, 0)
    assert all(e.could_beat is None for e in view.events if isinstance(e, Pass))
    first = view.events[0]
    first.seat = 99  # type: ignore[union-attr]
    assert game.events[0].seat != 99  # type: ignore[union-attr]
    with pytest.raises(AttributeError):
        view.hand = FULL_DECK  # type: ignore[misc]


def test_view_facts() -> None:
    game = Game.new(THAPTHANH, 4, seed=9, first_game=False, leader=2)
    table = advance(game, 12)
    view = table.view(3)
    assert view.seat == 3 and view.n_players == 4
    assert view.hand == game.hands[3]
    assert view.cards_left == tuple(h.bit_count() for h in game.hands)
    assert view.initial_hand == game.initial_hands[3]
    for seat in range(4):
        assert view.played_by[seat] == game.initial_hands[seat] & ~game.hands[seat]
    assert view.unseen == FULL_DECK & ~game.hands[3] & ~sum(view.played_by)
    assert view.actions == tuple(game.history)
    assert view.leader == 2 and not view.first_game
    assert view.my_turn == (game.current == 3)
    assert view.leading == (game.last_code == 0)
    if view.my_turn:
        assert list(view.legal) == game.legal_actions()
    else:
        assert view.legal == ()
    # An incremental log gives the same view as one built from scratch.
    assert table.view(0) == view_of(game, 0)


def test_public_log_follows_one_game_incrementally() -> None:
    game = Game.new(THAPTHANH, 4, seed=2)
    log = PublicLog(4)
    seen = []
    table = Table(game, [GreedyBot() for _ in range(4)])
    while table.step() is not None:
        seen.append(log.view(game, game.current_player if not game.over else 0))
    assert log.n_events == len(game.events)
    assert seen[-1].events == view_of(game, 0).events


# --- the loop --------------------------------------------------------------------------------


class _Cheat:
    name = "cheat"

    def act(self, view: SeatView) -> int:
        return view.unseen & -view.unseen  # a card it does not hold


def test_an_illegal_bot_answer_is_refused_and_changes_nothing() -> None:
    game = Game.new(THAPTHANH, 4, seed=1)
    before = (tuple(game.hands), len(game.history))
    with pytest.raises(BotError, match="illegal action"):
        play_turn(game, [_Cheat() for _ in range(4)])
    assert (tuple(game.hands), len(game.history)) == before


def test_table_stops_at_a_person_and_checks_its_seats() -> None:
    game = Game.new(THAPTHANH, 4, seed=3, first_game=False, leader=0)
    table = Table(game, [None, GreedyBot(), GreedyBot(), GreedyBot()])
    assert table.step() is None and table.run() == []
    with pytest.raises(ValueError, match="4 seats"):
        Table(game, [GreedyBot()])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_level_plays_whole_games_legally(preset: str) -> None:
    rules = RuleSet.preset(preset)
    for seed in range(3):
        for n in (2, 3, 4):
            game = Game.new(rules, n, seed=seed * 7 + n)
            levels = [LEVELS[(seed + s) % 4] for s in range(n)]
            bots = [
                SearchBot(seed, samples=2) if level == "search" else make_bot(level, seed)
                for level in levels
            ]
            decisions = Table(game, bots).run()
            assert game.over
            assert all(d.seconds >= 0 for d in decisions)


def test_bots_chop_out_of_turn() -> None:
    """langvuichoi: 4 consecutive pairs chop a 2 at once, before the next player."""
    rules = RuleSet.preset("langvuichoi")
    hands = deal("2h 3s", "4s", "5s 5c 6s 6c 7s 7c 8s 8c", "9s")
    for bot in (StrategicBot(), SearchBot(0, samples=2), GreedyBot(), RandomBot(1)):
        game = Game(rules, hands, first_game=False, leader=0)
        game.play(m("2h"), 0)
        assert game.legal_actions(2)
        decision = Table(game, [None, None, bot, None]).step()
        if isinstance(bot, GreedyBot):
            assert decision is None  # greedy keeps its bombs
        elif isinstance(bot, (StrategicBot, SearchBot)):
            assert decision is not None and decision.out_of_turn and decision.seat == 2
            assert game.last_seat == 2


# --- levels ----------------------------------------------------------------------------------


def _view(rules: RuleSet, hands: list[int], plays: list[tuple[int, str]], seat: int) -> SeatView:
    game = Game(rules, hands, first_game=False, leader=plays[0][0] if plays else seat)
    for who, cards in plays:
        if cards == "pass":
            game.pass_turn(who)
        else:
            game.play(m(cards), who)
    return view_of(game, seat)


def test_greedy_leads_its_lowest_combination_and_keeps_2s() -> None:
    hands = deal("3c 4d 5h 9s 9c 2h", "3s", "3d")
    view = _view(THAPTHANH, hands, [], 0)
    assert GreedyBot().act(view) == m("3c 4d 5h")
    hands = deal("4d 2h 5h", "Ah 3s")
    view = _view(THAPTHANH, hands, [(1, "Ah")], 0)
    assert GreedyBot().act(view) == PASS
    view = _view(THAPTHANH, hands, [(1, "3s")], 0)
    assert GreedyBot().act(view) == 1 << min(cards_of(view.hand))  # its lowest card


def situation(
    hand: str,
    table: str = "",
    *,
    table_seat: int = 1,
    cards_left: tuple[int, ...] = (0, 10, 10, 10),
    played_any: bool = True,
    rules: RuleSet = THAPTHANH,
) -> Situation:
    """Seat 0 deciding with ``hand``, on ``table`` (empty: leading); the rest unseen."""
    from tienlen.engine.moves import beating_plays, leading_plays

    mask = m(hand)
    code = classify(m(table)) if table else 0
    legal = [PASS, *beating_plays(mask, code, rules)] if code else leading_plays(mask, rules)
    left = (mask.bit_count(), *cards_left[1:])
    return Situation(
        seat=0,
        hand=mask,
        legal=legal,
        my_turn=True,
        table_code=code,
        table_seat=table_seat if code else -1,
        unseen=FULL_DECK & ~mask & ~(m(table) if table else 0),
        cards_left=left,
        in_game=0b1111,
        played_any=played_any,
        rules=rules,
        required=0,
    )


def test_strategic_chops_a_2() -> None:
    policy = StrategicPolicy()
    assert policy.choose(situation("5s 5c 6s 6c 7s 7c 9h Jd", "2h")) == m("5s 5c 6s 6c 7s 7c")


def test_strategic_goes_out_when_it_can() -> None:
    policy = StrategicPolicy()
    assert policy.choose(situation("3s 3c")) == m("3s 3c")
    assert policy.choose(situation("9s 9c", "4d 4h")) in (m("9s 9c"),)
    # Two parts, one unbeatable: lead the 2♥ first, then the last part.
    assert policy.choose(situation("2h 4s")) == m("2h")


def test_strategic_keeps_its_plan_and_its_2s_early() -> None:
    policy = StrategicPolicy()
    hand = "4h 5h 6h 7d 8d 9s 10s Js Qs Kc 2s Ad 3c"
    # On a low single it answers with a loose card, not a card from its long straight.
    choice = policy.choose(situation(hand, "3d"))
    assert choice in (m("Kc"), m("Ad"), PASS)
    # It does not spend its 2 on a low single this early.
    assert policy.choose(situation("3c 4h 7d 9s Jc Kd 2s", "5d")) != m("2s")


def test_strategic_blocks_a_player_about_to_go_out() -> None:
    policy = StrategicPolicy()
    sit = situation("3c 4h 7d 9s Jc Kd 2s", "Qd", cards_left=(0, 1, 10, 10))
    assert policy.choose(sit) != PASS
    # Leading against a player on their last card: no low single.
    sit = situation("3c 5d 5h 9s", cards_left=(0, 1, 10, 10))
    assert policy.choose(sit) == m("5d 5h")


def test_strategic_plays_rather_than_be_cong() -> None:
    policy = StrategicPolicy()
    # A pair it would rather keep, but it has played nothing and a player is nearly out.
    calm = situation("10s 10c 3h 6d", "9d 9h", played_any=True)
    scared = situation("10s 10c 3h 6d", "9d 9h", played_any=False, cards_left=(0, 4, 10, 10))
    assert policy.choose(scared) == m("10s 10c")
    assert policy.choose(calm) in (PASS, m("10s 10c"))


def test_strategic_takes_an_out_of_turn_chop() -> None:
    policy = StrategicPolicy()
    sit = situation("5s 5c 6s 6c 7s 7c 8s 8c", "2h")
    sit.my_turn = False
    sit.legal = [m("5s 5c 6s 6c 7s 7c 8s 8c")]
    assert policy.choose(sit) == m("5s 5c 6s 6c 7s 7c 8s 8c")


def test_planner_finds_the_fewest_parts() -> None:
    hand = m("3s 4c 5d 6h 7s 9s 9c 9d Jh Jd Qs Ks 2h")
    cost, parts, _ = best_split(counts_key(hand))
    masks = part_masks(hand, parts)
    assert sum(masks) == hand and sum(x.bit_count() for x in masks) == hand.bit_count()
    assert cost == hand_cost(hand)
    assert all(classify(x) for x in masks)
    assert len(masks) <= 5
    assert hand_cost(0) == 0
    assert hand_cost(m("3s 4c 5d")) < hand_cost(m("3s 4c 6d"))


def test_boss_detection() -> None:
    assert not can_be_beaten(classify(m("2h")), m("3s 2s"), 13)
    assert can_be_beaten(classify(m("2s")), m("2h"), 13)
    assert not can_be_beaten(classify(m("As Ah")), m("2h 3s"), 13)
    assert can_be_beaten(classify(m("Ks Kh")), m("As Ad"), 13)
    assert not can_be_beaten(classify(m("Ks Kh")), m("As Ad"), 1)


def test_search_samples_are_consistent_and_reproducible() -> None:
    game = Game.new(THAPTHANH, 4, seed=21)
    advance(game, 20, 3)
    seat = game.current
    view = view_of(game, seat)
    rng = random.Random(0)
    for _ in range(5):
        world = sample_world(view, rng)
        assert world is not None
        assert world.hands[seat] == game.hands[seat]
        assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in game.hands]
        assert world.current == game.current and world.last_mask == game.last_mask
        assert world.passed == game.passed
    for inference in (True, False):
        a = SearchBot(7, samples=3, inference=inference).act(view)
        b = SearchBot(7, samples=3, inference=inference).act(view)
        assert a == b and a in view.legal


def test_sampled_deals_follow_time_outs_and_leavers() -> None:
    game = Game.new(THAPTHANH, 4, seed=30, first_game=False, leader=0)
    game.timeout(0)  # leads its smallest card
    game.leave(1)
    game.timeout(2)  # passes
    view = view_of(game, game.current)
    world = sample_world(view, random.Random(1))
    assert world is not None
    assert [a.kind for a in world.history] == ["timeout", "leave", "timeout"]
    assert world.in_game == game.in_game and world.current == game.current
    assert world.hands[1].bit_count() == 13  # left holding its whole hand, unseen


def test_a_contradicting_deal_is_refused() -> None:
    game = Game.new(THAPTHANH, 4, seed=31, first_game=False, leader=0)
    advance(game, 8, 31)
    view = view_of(game, game.current)
    hands = [view.played_by[s] for s in range(4)]
    assert world_from(view, hands) is None  # not 13 cards each


def test_copy_is_independent() -> None:
    game = Game.new(THAPTHANH, 4, seed=4)
    twin = game.copy()
    twin.apply_action(twin.legal_actions()[-1])
    assert len(game.history) == 0 and len(twin.history) == 1
    assert game.hands != twin.hands


def test_search_stops_at_its_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its deadline search stops looking ahead, whatever its sample budget. A fake clock
    that jumps a second at each reading keeps the test independent of the machine's speed."""
    ticks = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))
    rollouts = []
    real_rollout = search_module.rollout

    def counting_rollout(game: Game, policy: StrategicPolicy) -> None:
        rollouts.append(game)
        real_rollout(game, policy)

    monkeypatch.setattr(search_module, "rollout", counting_rollout)
    game = Game.new(THAPTHANH, 4, seed=8)
    advance(game, 6, 8)
    bot = SearchBot(1, samples=50, time_limit_s=0.05)
    view = view_of(game, game.current)
    assert bot.act(view) in view.legal
    # One sampled deal looked ahead on (each candidate once), not fifty.
    assert 0 < len(rollouts) <= bot.candidates


def test_make_bot() -> None:
    assert [make_bot(level, 1).name for level in LEVELS] == list(LEVELS)
    assert DEFAULT_LEVEL in LEVELS
    with pytest.raises(UnknownLevel, match="unknown bot level 'genius'"):
        make_bot("genius")
    with pytest.raises(TypeError, match="no options"):
        make_bot("greedy", samples=3)
    with pytest.raises(ValueError, match="at least 1"):
        SearchBot(samples=0)


def test_strategic_beats_greedy_on_duplicate_deals() -> None:
    wins = games = 0
    for d in range(15):
        hands = Game.new(THAPTHANH, 4, seed=1000 + d).initial_hands
        for hero in range(4):
            game = Game(THAPTHANH, hands)
            bots = [StrategicBot() if s == hero else GreedyBot() for s in range(4)]
            Table(game, bots).run()
            games += 1
            wins += game.winner == hero
    assert wins / games > 0.3


# --- inference -------------------------------------------------------------------------------


def _strategic_game(seed: int, steps: int) -> Game:
    game = Game.new(THAPTHANH, 4, seed=seed)
    table = Table(game, [StrategicBot() for _ in range(4)])
    for _ in range(steps):
        if table.step() is None:
            break
    return game


def test_the_true_deal_never_surprises_the_judge() -> None:
    """Strategic players' choices are exactly what the judge predicts from their real hands."""
    policy = StrategicPolicy()
    judged = 0
    for seed in range(6):
        game = _strategic_game(seed, 24)
        view = view_of(game, 0)
        choices = past_choices(view)
        judged += len(choices)
        for seat in (1, 2, 3):
            mine = [c for c in choices if c.seat == seat]
            assert all(c.action & ~game.initial_hands[seat] == 0 for c in mine)
            count, misses = surprises(mine, game.hands[seat], THAPTHANH, policy)
            assert (count, misses) == (0, [])
    assert judged > 50


def test_a_wrong_deal_surprises_the_judge() -> None:
    policy = StrategicPolicy()
    total = 0
    for seed in range(6):
        game = _strategic_game(seed, 24)
        choices = past_choices(view_of(game, 0))
        for seat, other in ((1, 2), (2, 3), (3, 1)):
            mine = [c for c in choices if c.seat == seat]
            wrong = game.hands[other]
            if wrong.bit_count() == game.hands[seat].bit_count():
                total += surprises(mine, wrong, THAPTHANH, policy)[0]
    assert total > 0


def test_inference_deals_keep_the_hard_facts() -> None:
    for seed in range(4):
        game = _strategic_game(seed, 16)
        if game.over:
            continue
        view = view_of(game, 0)
        reading = Inference(view, StrategicPolicy(), random.Random(seed))
        reading.update(view, 8)
        reading.improve(40)
        table = Table(game, [StrategicBot() for _ in range(4)])
        for _ in range(6):
            table.step()
        if game.over:
            continue
        later = view_of(game, 0)
        assert reading.follows(later)
        reading.update(later, 8)
        assert len(reading.deals) == 8
        for sampled in reading.deals:
            assert sum(sampled.hands) == later.unseen
            assert sum(h.bit_count() for h in sampled.hands) == later.unseen.bit_count()
            for seat in (1, 2, 3):
                assert sampled.hands[seat].bit_count() == later.cards_left[seat]
            if later.first_game and later.unseen & 1:
                assert sampled.hands[later.leader] & 1  # the 3♠ holder led
            energy = sum(
                surprises(
                    [c for c in past_choices(later) if c.seat == s],
                    sampled.hands[s],
                    THAPTHANH,
                    StrategicPolicy(),
                )[0]
                for s in (1, 2, 3)
            )
            assert sampled.energy == energy
            hands = reading.initial_hands(sampled)
            assert all(hands[s].bit_count() == 13 for s in (1, 2, 3))
        assert not reading.follows(view_of(Game.new(THAPTHANH, 4, seed=99), 0))
