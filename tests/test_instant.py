"""Instant wins (tới trắng): every hand of RULES.md §2 per preset and scope, ties, the
no-twice-in-a-row rule of seed 000, and seed 004's redeal of four 2s."""

from __future__ import annotations

import random

import pytest
from conftest import deal, m

from tienlen.engine.cards import TWOS_MASK
from tienlen.engine.deal import random_deal as shuffle_deal
from tienlen.engine.events import GameOver, InstantWin
from tienlen.engine.game import Game
from tienlen.engine.instant import DETECTORS, Shape, instant_hands
from tienlen.engine.rules import INSTANT_WIN_HANDS, PRESETS, RuleSet
from tienlen.engine.series import next_game

PRESET_ORDER = ("thapthanh", "langvuichoi", "b52", "sanhrong", "bigfun")

# RULES.md §2, column by column (None: not an instant win under that preset).
TABLE: dict[str, tuple[str | None, ...]] = {
    "dragon": ("all", "all", "all", "all", "other"),
    "dragon_flush": (None, None, None, None, "other"),
    "four_twos": ("all", "all", "all", "all", "other"),
    "five_consecutive_pairs": ("all", "all", "all", "all", "other"),
    "six_consecutive_pairs": (None, None, None, None, "other"),
    "six_pairs": ("all", "all", "all", "all", "other"),
    "two_quads": ("all", None, None, None, None),
    "twelve_one_colour": ("all", "all", None, None, "other"),
    "four_triples": (None, None, None, "all", "first"),
    "four_threes": ("first", "first", "first", None, "first"),
    "three_pairs_with_3s": ("first", "first", "first", None, "first"),
    "four_pairs_with_3s": (None, "first", "first", None, "first"),
    "three_triples": (None, None, None, None, "first"),
    "three_quads": (None, None, None, None, "first"),
    "five_pairs_one_triple": (None, None, None, None, "first"),
    "five_consecutive_pairs_one_triple": (None, None, None, None, "first"),
}

# One 13-card example of each hand (seed 004's examples where it gives one).
EXAMPLES: dict[str, str] = {
    "dragon": "3h 4c 5d 6h 7h 8s 9d 10s Jc Qd Kc Ah 5s",
    "dragon_flush": "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2h",
    "four_twos": "2s 2c 2d 2h 3s 5c 7d 9h Jc Kd 4h 6s 8c",
    "five_consecutive_pairs": "5h 5s 6d 6h 7d 7c 8h 8c 9h 9d Jc Ks 2d",
    "six_consecutive_pairs": "9d 9h 10d 10c Jh Jc Qh Qd Kh Kd Ac As 3c",
    "six_pairs": "3h 3c 5d 5h 6h 6s 8c 8s 9c 9d Qc Qs Kh",
    "two_quads": "7s 7c 7d 7h Js Jc Jd Jh 3c 5d 9h Kc Ad",
    "twelve_one_colour": "3d 4h 5d 6h 7d 8h 9d 10h Jd Qh 2d 2h 5s",
    "four_triples": "4s 4c 4d 5s 5c 5d 6s 6c 6d 7s 7c 7h Kd",
    "four_threes": "3s 3c 3d 3h 5c 7d 9h Jc Kd 4h 6s 8c 2d",
    "three_pairs_with_3s": "3s 3d 4c 4h 5s 5d 7c 9h Jd Kc Ah 2s 8d",
    "four_pairs_with_3s": "3s 3d 4c 4h 5s 5d 6c 6h 8d 10c Qh As 2d",
    "three_triples": "4s 4c 4d 5s 5c 5h 6s 6d 6h 8c 10d Qh As",
    "three_quads": "4s 4c 4d 4h 5s 5c 5d 5h 6s 6c 6d 6h 9d",
    "five_pairs_one_triple": "3s 3c 6d 6h 8s 8d 9c 9h Jd Js As Ac Ad",
    "five_consecutive_pairs_one_triple": "4s 4c 5d 5h 6s 6d 7c 7h 8s 8h Js Jc Jd",
}

# The other hands each example also holds (a dragon flush is a dragon, and so on).
ALSO: dict[str, set[str]] = {
    "dragon_flush": {"dragon", "twelve_one_colour"},
    "six_consecutive_pairs": {"six_pairs", "five_consecutive_pairs"},
    "four_triples": {"three_triples"},
    "four_pairs_with_3s": {"three_pairs_with_3s"},
    "three_quads": {"two_quads", "six_pairs", "three_triples"},
    "five_pairs_one_triple": {"six_pairs"},
    "five_consecutive_pairs_one_triple": {
        "five_consecutive_pairs",
        "six_pairs",
        "five_pairs_one_triple",
    },
}


def test_the_table_names_every_known_hand() -> None:
    assert set(TABLE) == set(INSTANT_WIN_HANDS) == set(DETECTORS) == set(EXAMPLES)


@pytest.mark.parametrize("column", range(5), ids=PRESET_ORDER)
def test_each_preset_lists_the_hands_of_its_seed(column: int) -> None:
    expected = {name: scopes[column] for name, scopes in TABLE.items() if scopes[column]}
    assert PRESETS[PRESET_ORDER[column]].instant_scope() == expected


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_each_example_holds_exactly_its_hands(name: str) -> None:
    hand = m(EXAMPLES[name])
    assert hand.bit_count() == 13
    loose = RuleSet.preset("thapthanh")  # sets need not be consecutive
    found = {other for other, detect in DETECTORS.items() if detect(Shape(hand), loose)}
    assert found == {name} | ALSO.get(name, set())


@pytest.mark.parametrize("preset", PRESET_ORDER)
@pytest.mark.parametrize("name", list(EXAMPLES))
@pytest.mark.parametrize("first_game", [True, False], ids=["first game", "other game"])
def test_instant_win_scope_per_preset(preset: str, name: str, first_game: bool) -> None:
    rules = RuleSet.preset(preset)
    scope = TABLE[name][PRESET_ORDER.index(preset)]
    counts = scope == "all" or scope == ("first" if first_game else "other")
    assert (name in instant_hands(m(EXAMPLES[name]), rules, first_game)) is counts


def test_bigfun_first_game_has_no_dragon_instant_win() -> None:
    """Seed 004's lists taken literally: the dragon is in the "other games" list only."""
    rules = RuleSet.preset("bigfun")
    assert instant_hands(m(EXAMPLES["dragon"]), rules, first_game=True) == ()
    assert instant_hands(m(EXAMPLES["dragon"]), rules, first_game=False) == ("dragon",)


# --- readings of the open questions ----------------------------------------------------------
def test_six_pairs_counts_a_quad_as_two_pairs_and_a_triple_as_one() -> None:
    seed_004_quads = m("3h 3d 3c 3s 5h 5d 5c 5s 8h 8c 10d 10s Kh")
    rules = RuleSet.preset("b52")
    assert "six_pairs" in instant_hands(seed_004_quads, rules, first_game=False)
    strict = rules.replace(six_pairs_quad_counts_two=False)
    assert instant_hands(seed_004_quads, strict, first_game=False) == ()

    triple_and_five_pairs = m("3s 3c 3d 5d 5h 7s 7c 9d 9h Js Jc Kd Kh")
    assert "six_pairs" in instant_hands(triple_and_five_pairs, rules, first_game=False)
    five_pairs = m("3s 3c 4d 5d 5h 7s 7c 9d 9h Js Jc Kd Ah")
    assert "six_pairs" not in instant_hands(five_pairs, rules, first_game=False)


def test_six_pairs_counts_a_pair_of_twos() -> None:
    hand = m("2s 2h 3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd")
    assert DETECTORS["six_pairs"](Shape(hand), RuleSet.preset("sanhrong"))


def test_triples_and_quads_need_consecutive_ranks_only_under_bigfun() -> None:
    spread_triples = m("4s 4c 4d 6s 6c 6d 9s 9c 9d Js Jc Jh Kd")
    assert "four_triples" in instant_hands(spread_triples, RuleSet.preset("sanhrong"), True)
    assert instant_hands(spread_triples, RuleSet.preset("bigfun"), True) == ()
    loose_bigfun = RuleSet.preset("bigfun", instant_sets_consecutive=False)
    assert instant_hands(spread_triples, loose_bigfun, True) == ("three_triples", "four_triples")

    spread_quads = m("4s 4c 4d 4h 6s 6c 6d 6h 9s 9c 9d 9h Kd")
    assert "three_quads" not in instant_hands(spread_quads, RuleSet.preset("bigfun"), True)
    assert "three_quads" in instant_hands(spread_quads, loose_bigfun, True)


def test_twos_count_where_ranks_need_not_be_consecutive() -> None:
    with_twos = m("2s 2c 2d 4s 4c 4d 8s 8c 8d Js Jc Jh Kd")
    assert "four_triples" in instant_hands(with_twos, RuleSet.preset("sanhrong"), True)
    runs_through_two = m("Js Jc Jd Qs Qc Qd Ks Kc Kd As Ac Ad 2h")
    assert "four_triples" in instant_hands(runs_through_two, RuleSet.preset("bigfun"), True)
    kings_aces_twos = m("Ks Kc Kd As Ac Ad 2s 2c 2d 3s 5c 7d 9h")
    assert "three_triples" not in instant_hands(kings_aces_twos, RuleSet.preset("bigfun"), True)


def test_three_pairs_need_the_three_of_spades() -> None:
    without = m("3c 3d 4c 4h 5s 5d 7c 9h Jd Kc Ah 2s 8d")
    assert instant_hands(without, RuleSet.preset("thapthanh"), True) == ()


def test_twelve_of_one_colour_either_colour() -> None:
    black = m("3s 4c 5s 6c 7s 8c 9s 10c Js Qc 2s 2c 5h")
    rules = RuleSet.preset("langvuichoi")
    assert instant_hands(black, rules, first_game=False) == ("twelve_one_colour",)
    eleven = m("3s 4c 5s 6c 7s 8c 9s 10c Js Qc 2s 2h 5h")
    assert instant_hands(eleven, rules, first_game=False) == ()


# --- in a game: who wins, ties, and what follows -------------------------------------------------
FOUR_TWOS = "2s 2c 2d 2h 4d 6c 7s 8h 10d Js Qc Kh As"
PAIRS_WITH_3S = "3s 3c 4s 4c 5s 5d 7d 9c 10h Jd Qd Kd Ac"
DRAGON = "3h 4h 5h 6h 7h 8c 9d 10c Jc Qh Ks Ad 6d"
PLAIN_3S = "3s 5c 7c 9s Jh Kc 6s 8d 10s Qs 5s 9h Ah"
"""3♠ in a hand with no instant win."""


def start(
    preset: str | RuleSet,
    *hands: str,
    first_game: bool,
    leader: int | None = None,
    barred_instant_winner: int | None = None,
) -> Game:
    rules = RuleSet.preset(preset) if isinstance(preset, str) else preset
    return Game(
        rules,
        deal(*hands, players=4, seed=1),
        first_game=first_game,
        leader=leader,
        barred_instant_winner=barred_instant_winner,
    )


def test_an_instant_win_ends_the_game_at_the_deal() -> None:
    game = start("b52", "", "", FOUR_TWOS, first_game=False, leader=1)
    assert game.is_terminal() and game.winner == 2
    win = game.events[0]
    assert isinstance(win, InstantWin)
    assert win.seats == (2,) and win.hands == (("four_twos",),) and not win.shared
    assert win.cards == (m(FOUR_TWOS),)
    over = game.events[-1]
    assert isinstance(over, GameOver) and over.reason == "instant_win"
    assert game.ranking == (2, 1, 3, 0)  # losers in play order from the leader
    assert game.legal_actions() == []


def test_first_game_tie_goes_to_the_three_of_spades_holder() -> None:
    game = start("b52", "", FOUR_TWOS, "", PAIRS_WITH_3S, first_game=True)
    assert game.leader == 3
    assert game.instant_win is not None and game.instant_win.seats == (3,)


def test_first_game_tie_without_three_of_spades_goes_first_in_play_order() -> None:
    # Seat 2 holds 3♠ and leads but has no instant hand; seats 0 and 3 both have one.
    game = start("thapthanh", FOUR_TWOS, "", PLAIN_3S, DRAGON, first_game=True)
    assert game.leader == 2
    assert game.instant_win is not None and game.instant_win.seats == (3,)


@pytest.mark.parametrize(("leader", "winner"), [(1, 3), (3, 3), (0, 0), (2, 3)])
def test_later_game_tie_goes_to_the_nearest_to_the_leader(leader: int, winner: int) -> None:
    game = start("thapthanh", FOUR_TWOS, "", "", DRAGON, first_game=False, leader=leader)
    assert game.instant_win is not None and game.instant_win.seats == (winner,)
    assert not game.instant_win.shared


def test_langvuichoi_shares_a_tie_in_later_games() -> None:
    game = start("langvuichoi", FOUR_TWOS, "", "", DRAGON, first_game=False, leader=1)
    assert game.instant_win is not None
    assert game.instant_win.seats == (3, 0) and game.instant_win.shared
    assert game.instant_win.hands == (("dragon",), ("four_twos",))
    assert game.ranking[:2] == (3, 0)
    assert next_game(game).barred_instant_winner is None


def test_langvuichoi_does_not_share_in_a_first_game() -> None:
    game = start("langvuichoi", FOUR_TWOS, PLAIN_3S, "", DRAGON, first_game=True)
    assert game.leader == 1
    assert game.instant_win is not None
    assert game.instant_win.seats == (3,) and not game.instant_win.shared


def test_first_game_only_hands_do_not_count_later() -> None:
    game = start("thapthanh", EXAMPLES["four_threes"], first_game=False, leader=0)
    assert game.instant_win is None
    game = start("thapthanh", EXAMPLES["four_threes"], first_game=True)
    assert game.instant_win is not None and game.instant_win.hands == (("four_threes",),)


def test_nobody_wins_instantly_twice_in_a_row_under_thapthanh() -> None:
    """Seed 000: after an instant win the next game is a first game, and only the others may
    claim an instant win in it."""
    first = start("thapthanh", "", FOUR_TWOS, first_game=False, leader=0)
    follow = next_game(first)
    assert (follow.first_game, follow.leader, follow.barred_instant_winner) == (True, None, 1)

    again = start("thapthanh", "", FOUR_TWOS, PLAIN_3S, **follow.kwargs())
    assert again.instant_win is None and not again.is_terminal()

    # Another seat may still win instantly in that game.
    other = start("thapthanh", DRAGON, FOUR_TWOS, PLAIN_3S, **follow.kwargs())
    assert other.instant_win is not None and other.instant_win.seats == (0,)


def test_other_presets_let_the_same_player_win_instantly_again() -> None:
    first = start("b52", "", FOUR_TWOS, first_game=False, leader=0)
    assert next_game(first).barred_instant_winner is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_redeal_four_twos_option(players: int) -> None:
    seed = next(
        s
        for s in range(10_000)
        if any(h & TWOS_MASK == TWOS_MASK for h in shuffle_deal(players, seed=s))
    )
    plain = Game.new(RuleSet.preset("thapthanh"), players, seed=seed)
    assert any(h & TWOS_MASK == TWOS_MASK for h in plain.initial_hands)
    assert plain.instant_win is not None
    assert "four_twos" in plain.instant_win.hands[0]

    rules = RuleSet.preset("bigfun", redeal_four_twos=True)
    redealt = Game.new(rules, players, seed=seed, first_game=False)
    assert not any(h & TWOS_MASK == TWOS_MASK for h in redealt.initial_hands)
    assert redealt.initial_hands != plain.initial_hands


# --- the detectors against a plain reading, rank by rank ---------------------------------------
def reference(name: str, hand: int, rules: RuleSet) -> bool:
    """RULES.md §2 read literally from the count of cards of each rank (slow, obviously right)."""
    counts = [(hand >> (4 * r) & 15).bit_count() for r in range(13)]
    no_twos = counts[:12]

    def run_of(flags: list[bool], length: int) -> bool:
        return any(all(flags[i : i + length]) for i in range(len(flags) - length + 1))

    def sets(size: int, how_many: int) -> bool:
        if rules.instant_sets_consecutive:
            return run_of([c >= size for c in no_twos], how_many)
        return sum(c >= size for c in counts) >= how_many

    three_spades = bool(hand & 1)
    checks = {
        "dragon": lambda: all(no_twos),
        "dragon_flush": lambda: any(
            all(hand >> (4 * r + s) & 1 for r in range(12)) for s in range(4)
        ),
        "four_twos": lambda: counts[12] == 4,
        "five_consecutive_pairs": lambda: run_of([c >= 2 for c in no_twos], 5),
        "six_consecutive_pairs": lambda: run_of([c >= 2 for c in no_twos], 6),
        "six_pairs": lambda: (
            sum(2 if c == 4 and rules.six_pairs_quad_counts_two else min(c // 2, 1) for c in counts)
            >= 6
        ),
        "two_quads": lambda: counts.count(4) >= 2,
        "twelve_one_colour": lambda: (
            max(
                sum(hand >> (4 * r + s) & 1 for r in range(13) for s in suits)
                for suits in ((0, 1), (2, 3))
            )
            >= 12
        ),
        "four_triples": lambda: sets(3, 4),
        "three_triples": lambda: sets(3, 3),
        "three_quads": lambda: sets(4, 3),
        "four_threes": lambda: counts[0] == 4,
        "three_pairs_with_3s": lambda: three_spades and all(c >= 2 for c in counts[:3]),
        "four_pairs_with_3s": lambda: three_spades and all(c >= 2 for c in counts[:4]),
        "five_pairs_one_triple": lambda: any(
            c >= 3 and sum(d >= 2 for r, d in enumerate(counts) if r != t) >= 5
            for t, c in enumerate(counts)
        ),
        "five_consecutive_pairs_one_triple": lambda: any(
            all(c >= 2 for c in no_twos[i : i + 5])
            and any(c >= 3 for r, c in enumerate(counts) if not i <= r < i + 5)
            for i in range(8)
        ),
    }
    return bool(checks[name]())


def clumped_hand(rng: random.Random) -> int:
    """13 cards in few ranks (pairs, triples, quads, runs of them), where instant wins live."""
    hand = 0
    ranks = list(range(13))
    start = rng.randrange(9)
    while hand.bit_count() < 13:
        rank = rng.choice(ranks) if rng.random() < 0.5 else min(12, start + rng.randrange(6))
        suits = rng.sample(range(4), rng.choice((1, 2, 2, 3, 4)))
        for suit in suits[: 13 - hand.bit_count()]:
            hand |= 1 << (4 * rank + suit)
    return hand


@pytest.mark.parametrize("preset", ["thapthanh", "bigfun", "bigfun loose"])
def test_detectors_agree_with_the_plain_reading(preset: str) -> None:
    rules = RuleSet.preset(preset.split()[0])
    if preset.endswith("loose"):
        rules = rules.replace(instant_sets_consecutive=False, six_pairs_quad_counts_two=False)
    rng = random.Random(preset)
    held = dict.fromkeys(DETECTORS, 0)
    for _ in range(3000):
        hand = (
            clumped_hand(rng)
            if rng.random() < 0.9
            else m("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2h")
        )
        shape = Shape(hand)
        for name, detect in DETECTORS.items():
            expected = reference(name, hand, rules)
            assert detect(shape, rules) == expected, (name, hand)
            held[name] += expected
    assert all(held.values()), held  # every hand came up, so every detector was put to the test
