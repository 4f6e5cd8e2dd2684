"""Game analysis: for each of the asking player's decisions in a finished game, what the search
bot would have played from the same seat view and the estimated chips difference
(:mod:`tienlen.bots.analysis`). The work takes up to a second of Python, so it runs in the
analysis process pool (``Server.analysis_pool``, :func:`~..botpool.shared_analysis_pool`): in a
thread it would hold the GIL and delay every table's timers and messages meanwhile, and in the
bots' pool the live tables' bots would wait behind it and overrun their budget. Each (game,
seat) is computed once and kept (a finished game never changes), the last :data:`KEPT` of them.
"""

from __future__ import annotations

import asyncio
import zlib
from collections import OrderedDict
from concurrent.futures import Executor
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request

from ...bots.analysis import review_seat
from ...engine.cards import mask_ascii
from ...engine.record import RecordError, parse_record
from ..errors import ApiError, responses
from ..protocol import DecisionReviewInfo, GameAnalysis
from .histories import finished_game

__all__ = ["KEPT", "router"]

router = APIRouter(prefix="/api", tags=["histories"])

KEPT = 256
"""Analyses kept in memory (per server)."""
SAMPLES = 16
"""Sampled deals per decision: the bot's look-ahead and the chips estimate."""


def analyse(game_id: str, stored: dict[str, Any], seat: int) -> GameAnalysis | str:
    """The analysis of one seat of a stored record (in a pool process), or why the record does
    not replay (a string: a plain value crosses the process boundary safely)."""
    try:
        record = parse_record(stored)
        reviews = review_seat(record, seat, samples=SAMPLES, seed=zlib.crc32(game_id.encode()))
    except (RecordError, ValueError) as exc:
        return str(exc)
    return GameAnalysis(
        id=game_id,
        seat=seat,
        decisions=[
            DecisionReviewInfo(
                action=r.action,
                kind=r.kind,
                played=mask_ascii(r.played),
                bot=mask_ascii(r.bot),
                same=r.played == r.bot,
                chips_difference=r.chips_difference,
                samples=r.samples,
            )
            for r in reviews
        ],
    )


async def _analysed(
    pool: Executor, game_id: str, record: dict[str, Any], seat: int
) -> GameAnalysis:
    loop = asyncio.get_running_loop()
    result = await loop.run_in_executor(pool, analyse, game_id, record, seat)
    if isinstance(result, str):
        raise ApiError("internal_error", f"the game's record does not replay: {result}")
    return result


def _cache(request: Request) -> OrderedDict[tuple[str, int], asyncio.Future[GameAnalysis]]:
    state = request.app.state
    if not hasattr(state, "analyses"):
        state.analyses = OrderedDict()
    cache: OrderedDict[tuple[str, int], asyncio.Future[GameAnalysis]] = state.analyses
    return cache


@router.get(
    "/games/{game_id}/analysis",
    response_model=GameAnalysis,
    responses=responses("not_logged_in", "no_such_game", "not_your_game"),
)
async def analysis_of_game(
    request: Request, game_id: Annotated[str, Path(max_length=100)]
) -> GameAnalysis:
    """What the search bot would have played at each of the asker's decisions, and the
    estimated chips difference; for the game's players only."""
    row, seat = await finished_game(request, game_id, "analyse it")
    assert row.record is not None
    cache, key = _cache(request), (game_id, seat)
    future = cache.get(key)
    if future is None:
        record = row.record
        pool = request.app.state.server.analysis()
        future = asyncio.ensure_future(_analysed(pool, game_id, record, seat))  # once per key
        cache[key] = future
        while len(cache) > KEPT:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    try:
        return await asyncio.shield(future)
    except Exception:
        if cache.get(key) is future:
            del cache[key]
        raise
