"""``GET /api/rules``: every preset's options and a worked example, for the page's rules.

The options are the engine's own :class:`~tienlen.engine.rules.RuleSet` (one source: the page
words each field, and a test there fails on a field it cannot word), and the example is a
small game played out by the engine and settled by the server's money code for each preset,
so its numbers are the ones a table would pay, never numbers typed into the page.
"""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter

from ...engine import combos as C
from ...engine.actions import Action
from ...engine.cards import mask_ascii, parse_mask
from ...engine.game import PASS, Game
from ...engine.rules import INSTANT_WIN_HANDS, PRESETS, RuleSet
from ...money.rooms import ROOMS
from ...money.settlement import settle
from ..errors import responses
from ..protocol import (
    PresetRules,
    RuleExample,
    RuleExampleLine,
    RuleExamplePlay,
    RuleExampleSeat,
    RuleNames,
    RulesInfo,
)

__all__ = ["EXAMPLE_HANDS", "example_game", "router", "rules_info"]

router = APIRouter(prefix="/api", tags=["rules"])

EXAMPLE_ROOM = "trainee"
"""The example is settled at the cheapest room's lowest bet, with its house fee."""

EXAMPLE_HANDS = (
    "3s 2h 9h 5d 6c 7d 8c 9d 10c Jd Qc Kd Ac",
    "3c 4s 4c 5h 5s 7h 8s 10s Jh Js Kh As 2d",
    "3d 3h 4d 6d 7c 8d 9c 10d Qs Qh Ks Ad 2s",
)
"""Three hands with no instant win in any preset. Seat 0 leads 3♠, seat 1 answers with 3♣,
seat 2 passes; seat 0 takes the round with 2♥, leads 9♥ and goes out with the straight 5 to
A (no 4: no dragon straight): seat 1
is left with 12 cards and the 2♦, seat 2 never played (cóng) and holds the 2♠."""
_WINNER_PLAYS = ("3s", "2h", "9h", "5d 6c 7d 8c 9d 10c Jd Qc Kd Ac")


def example_game(rules: RuleSet) -> tuple[Game, list[RuleExamplePlay]]:
    """The example played out: seat 0 as scripted, seat 1 plays its lowest single once and
    then passes, seat 2 always passes; whoever must lead plays their lowest card (a full
    ranking plays on after the first is out)."""
    game = Game(rules, list(EXAMPLE_HANDS))
    script = [parse_mask(p) for p in _WINNER_PLAYS]
    plays: list[RuleExamplePlay] = []
    answered = False
    while not game.is_terminal():
        for seat in game.chop_window():
            game.apply(Action.decline(seat))
        seat = game.current
        legal = game.legal_actions(seat)
        if seat == 0 and script:
            choice = script.pop(0)
        elif PASS in legal and (seat == 2 or answered):
            choice = PASS
        else:
            choice = min((m for m in legal if m != PASS), key=lambda m: (m.bit_count(), m))
            answered = answered or seat == 1
        game.apply(Action.pass_turn(seat) if choice == PASS else Action.play(seat, choice))
        plays.append(RuleExamplePlay(seat=seat, cards="" if choice == PASS else mask_ascii(choice)))
    return game, plays


def _example(rules: RuleSet) -> RuleExample:
    game, plays = example_game(rules)
    room = ROOMS[EXAMPLE_ROOM]
    settlement = settle(game, room.min_bet, fee_bp=room.fee_bp)
    return RuleExample(
        bet=room.min_bet,
        room=room.key,
        room_name=RuleNames(en=room.name_en, vi=room.name_vi),
        fee_bp=room.fee_bp,
        plays=plays,
        seats=[
            RuleExampleSeat(
                seat=seat,
                dealt=mask_ascii(game.initial_hands[seat]),
                left=mask_ascii(game.hands[seat]),
                cong=seat in game.cong,
                delta=settlement.deltas[seat],
            )
            for seat in range(game.n)
        ],
        winner=game.ranking[0],
        lines=[
            RuleExampleLine(
                payer=item.payer,
                payee=item.payee,
                amount=item.amount,
                kind=item.kind,
                reason_en=item.reason_en,
                reason_vi=item.reason_vi,
            )
            for item in settlement.items
        ],
        fee=settlement.fee,
    )


@cache
def rules_info() -> RulesInfo:
    """Every preset (computed once: the presets never change while the server runs)."""
    return RulesInfo(
        presets=[
            PresetRules(key=key, rules=rules, example=_example(rules))
            for key, rules in PRESETS.items()
        ],
        instant_hands={k: RuleNames(en=en, vi=vi) for k, (en, vi) in INSTANT_WIN_HANDS.items()},
        categories={k: RuleNames(en=en, vi=vi) for k, (en, vi) in C.CATEGORY_NAMES.items()},
    )


@router.get("/rules", response_model=RulesInfo, responses=responses())
async def rules() -> RulesInfo:
    """Every rule preset's options, the names the page words them with, and each preset's
    worked example: no login needed."""
    return rules_info()
