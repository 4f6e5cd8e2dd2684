"""Replays: a finished game step by step, for the page's replay viewer.

The page must not re-implement the rules, so the steps are computed here by the engine: the
stored record is played again action by action (:mod:`tienlen.engine.record`), and each event
becomes a step carrying every hand after it (the game is over, so all hands are face up), the
cards left, the play on the table and whose turn it is. Only the game's players may ask, with
the same errors as the record's download (:mod:`.histories`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request

from ...engine.cards import mask_ascii
from ...engine.codec import combination_fields, event_to_dict
from ...engine.game import Game
from ...engine.record import GameRecord, RecordError, ReplayError, apply_record_action
from ...engine.record import parse_record as parse_game_record
from ...money.settlement import settle
from ..errors import ApiError, responses
from ..protocol import GameReplay, PlayShown, ReplayStep
from .histories import finished_game

__all__ = ["replay_steps", "router"]

router = APIRouter(prefix="/api", tags=["histories"])


def _on_table(game: Game) -> PlayShown | None:
    if game.last_code == 0:
        return None
    return PlayShown(
        seat=game.last_seat, cards=mask_ascii(game.last_mask), **combination_fields(game.last_code)
    )


def _step(game: Game, event: Mapping[str, Any] | None, action: int | None) -> ReplayStep:
    kind: Any = "deal" if event is None else event["type"]  # the engine's event types (or ours)
    to_beat = _on_table(game)
    cards = None
    if event is not None and kind in ("play", "chop"):
        cards = event["cards"]
        # What the next player must beat is this play, even when it also ended the round.
        combination = event if "combination" in event else combination_fields(game.last_code)
        to_beat = PlayShown(
            seat=event["seat"],
            cards=cards,
            combination=combination["combination"],
            kind=combination["kind"],
            length=combination["length"],
        )
    seat = None if event is None else event.get("seat", event.get("winner"))
    return ReplayStep(
        kind=kind,
        seat=seat,
        cards=cards,
        place=None if event is None else event.get("place"),
        auto=bool(event is not None and event.get("auto")),
        seats=[] if event is None else list(event.get("seats", [])),
        action=action,
        hands=[mask_ascii(h) for h in game.hands],
        cards_left=[h.bit_count() for h in game.hands],
        to_beat=to_beat,
        turn=None if game.over else game.current,
    )


def replay_steps(record: GameRecord, seat: int | None = None) -> tuple[list[ReplayStep], Game]:
    """The deal, then one step per engine event, and a ``decline`` step for each chop offer
    ``seat`` declined (a decline makes no event: it is private to its seat); and the game at
    its end."""
    game = record.new_game()
    steps = [_step(game, None, None)]
    seen = 0

    def drain(action: int | None) -> None:
        nonlocal seen
        for event in game.events[seen:]:
            steps.append(_step(game, event_to_dict(event), action))
        seen = len(game.events)

    drain(None)  # an instant win is decided at the deal
    for index, action in enumerate(record.actions):
        apply_record_action(game, index, action)
        if isinstance(action, dict) and action.get("decline") and action.get("seat") == seat:
            steps.append(_step(game, {"type": "decline", "seat": seat}, index))
        drain(index)
    return steps, game


def game_replay(game_id: str, stored: dict[str, Any], seat: int) -> GameReplay:
    """The replay of a stored record (a record that no longer replays is a server fault)."""
    try:
        record = parse_game_record(stored)
        steps, game = replay_steps(record, seat)
        balances = record.extra.get("balances")
        settlement = settle(game, record.bet, balances, int(record.extra.get("house_fee_bp", 0)))
    except (RecordError, ReplayError) as exc:
        raise ApiError("internal_error", f"the game's record does not replay: {exc}") from None
    preset = record.ruleset if isinstance(record.ruleset, str) else record.rules.name
    return GameReplay(
        id=game_id,
        preset=preset,
        bet=record.bet,
        players=record.players,
        seat=seat,
        steps=steps,
        settlement=settlement.to_dict(),
    )


@router.get(
    "/games/{game_id}/replay",
    response_model=GameReplay,
    responses=responses("not_logged_in", "no_such_game", "not_your_game"),
)
async def replay_of_game(
    request: Request, game_id: Annotated[str, Path(max_length=100)]
) -> GameReplay:
    """A finished game step by step, all hands face up, for its players only."""
    row, seat = await finished_game(request, game_id, "replay it")
    assert row.record is not None
    return game_replay(game_id, row.record, seat)
