"""Play seeded random games under every preset and print everything that happened, as JSON.

tests/test_compiled.py runs this script twice, in fresh processes, once on the pure Python
engine (``TIENLEN_PURE=1``) and once on the engine as installed, and compares the two outputs:
the compiled engine must be indistinguishable from the pure one.

Half the deals are stacked so that bombs meet 2s. Each step sends one command through
``Game.apply``, drawn among every action the rules give any seat (out-of-turn chops by 4
consecutive pairs included; those, declines of a chop offer, 2s and bombs are preferred when
there are some, or they would rarely happen), with a time-out, a player leaving, or a random
command from a random seat (mostly refused) now and then, and in some games a seat that always
lets its timer run out; a refusal is recorded by its error
class and message. For each game: its record and what it replays to, its events (and those of a
copy of the game restored from its snapshot), its summary, a seat's view of the end, and a
digest of every list of legal actions and chop window it offered.

Run: ``python tests/seeded_games.py [--games N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from typing import Any

from tienlen.engine.actions import Action
from tienlen.engine.codec import (
    event_to_dict,
    restore_snapshot,
    seat_view_to_dict,
    snapshot_of,
    summary_of,
)
from tienlen.engine.combos import category, classify
from tienlen.engine.errors import IllegalAction
from tienlen.engine.game import Game
from tienlen.engine.record import parse_record, record_of, replay
from tienlen.engine.rules import PRESETS
from tienlen.engine.series import next_game
from tienlen.engine.views import view_of


def compiled_modules() -> list[str]:
    """Names of the engine modules this process runs compiled."""
    return sorted(
        name.rsplit(".", 1)[1]
        for name, module in sys.modules.items()
        if name.startswith("tienlen.engine.")
        and not name.endswith("__mypyc")
        and not str(getattr(module, "__file__", "")).endswith(".py")
    )


def stacked_deal(players: int, rng: random.Random) -> list[int]:
    """A deal where bombs meet 2s: one seat holds 4 consecutive pairs, another a four of a kind
    or 3 consecutive pairs, a third two 2s; the rest is dealt at random."""
    deck = set(range(52))
    hands = [0] * players

    def give(seat: int, cards: list[int]) -> None:
        for card in cards:
            if card in deck and hands[seat].bit_count() < 13:
                deck.discard(card)
                hands[seat] |= 1 << card

    start = rng.randrange(9)
    give(0, [4 * r + s for r in range(start, start + 4) for s in rng.sample(range(4), 2)])
    rank = rng.randrange(12)
    if rng.random() < 0.5:
        give(1, [4 * rank + s for s in range(4)])
    else:
        give(
            1, [4 * r + s for r in range(rank % 10, rank % 10 + 3) for s in rng.sample(range(4), 2)]
        )
    give(players - 1, [48 + s for s in rng.sample(range(4), 2)])
    rest = sorted(deck)
    rng.shuffle(rest)
    for seat in range(players):
        give(seat, rest[: 13 - hands[seat].bit_count()])
        rest = [c for c in rest if c in deck]
    rng.shuffle(hands)
    return hands


def play(game: Game, rng: random.Random, digest: Any, sleepy: int = -1) -> list[dict[str, Any]]:
    """Play a game to its end with random commands; returns the refusals met on the way.

    The ``sleepy`` seat lets its timer run out at every turn, so it is often caught cóng."""
    refused: list[dict[str, Any]] = []
    while not game.over:
        seat = game.current_player
        window = game.chop_window()
        choices = [
            Action.play(seat, a) if a else Action.pass_turn(seat) for a in game.legal_actions()
        ]
        chops = [
            Action.play(s, a) for s in range(game.n) if s != seat for a in game.legal_actions(s)
        ]
        digest.update(repr((window, choices, chops)).encode())
        # 2s and bombs, played more often than at random so that chops happen.
        heavy = [a for a in choices if a.cards and category(classify(a.cards))]
        roll = rng.random()
        try:
            if roll < 0.03 or seat == sleepy:
                action = Action.timeout(seat)
            elif roll < 0.035:
                action = Action.leave(
                    rng.choice([s for s in range(game.n) if game.in_game >> s & 1])
                )
            elif roll < 0.10:
                # Any command from any seat, with any handful of its cards: most are refused.
                other = rng.randrange(game.n)
                attempt = game.hands[other] & rng.getrandbits(52) & rng.getrandbits(52)
                kind = rng.choice(("play", "play", "pass", "decline", "timeout"))
                action = Action(other, kind, attempt if kind == "play" else 0)  # type: ignore[arg-type]
            elif window and rng.random() < 0.3:
                action = Action.decline(rng.choice(window))
            elif chops and rng.random() < 0.5:
                action = rng.choice(chops)
            elif heavy and rng.random() < 0.4:
                action = rng.choice(heavy)
            else:
                action = rng.choice(choices)
            game.apply(action)
        except IllegalAction as exc:
            refused.append({"error": type(exc).__name__, "code": exc.code, "message": str(exc)})
    return refused


def games(count: int, seed: int) -> list[dict[str, Any]]:
    out = []
    rng = random.Random(seed)
    for index in range(count):
        preset = list(PRESETS)[index % len(PRESETS)]
        rules = PRESETS[preset]
        if index % 7 == 3:
            rules = rules.replace(full_ranking=not rules.full_ranking)
        players = 2 + index % 3
        if index % 2:
            game = Game(rules, stacked_deal(players, rng))
        else:
            game = Game.new(rules, players, rng=rng)
        digest = hashlib.sha256()
        refused = play(game, rng, digest, sleepy=index % players if index % 4 == 1 else -1)
        # The next game at the table: not a first game (unless instant win or all left).
        follow = Game.new(rules, players, rng=rng, **next_game(game).kwargs())
        refused += play(follow, rng, digest)
        for finished in (game, follow):
            record = record_of(finished).to_dict()
            replayed = replay(parse_record(json.loads(json.dumps(record))))
            restored = restore_snapshot(json.loads(json.dumps(snapshot_of(finished))))
            out.append(
                {
                    "preset": preset,
                    "record": record,
                    "events": [event_to_dict(e) for e in finished.events],
                    "summary": summary_of(finished),
                    "replayed_summary": summary_of(replayed),
                    "restored_events": [event_to_dict(e) for e in restored.copy().events],
                    "view": seat_view_to_dict(view_of(finished, index % players)),
                }
            )
        out[-1]["refused"] = refused
        out[-1]["legal_actions_sha256"] = digest.hexdigest()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=100, help="pairs of games (a game and the next)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    played = games(args.games, args.seed)
    json.dump({"compiled": compiled_modules(), "games": played}, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
