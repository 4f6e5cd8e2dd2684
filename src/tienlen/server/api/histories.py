"""Hand histories: a player's finished games, and each game's record to download.

A record is the ``tienlen-record/1`` the table wrote when the game ended, stored with its
settlement: the deal with its server seed revealed, every action, the players, balances and
house fee — ``tienlen replay`` gives the same settlement and ``tienlen verify`` checks the
deal. Only a game's players may list or download it; a game still being played (whose server
seed is secret) or a void one has no record.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy import select

from .. import auth
from ..deps import server_of
from ..errors import ApiError, responses
from ..protocol import MAX_INT, GameHistory, GamePlayerInfo, GameSummary
from ..store import games as stored
from ..store.models import GamePlayer, GameRow, User

__all__ = ["finished_game", "router"]

router = APIRouter(prefix="/api", tags=["histories"])


async def _logged_in(request: Request) -> User:
    server = server_of(request)
    async with server.sessions() as db:
        user = await auth.user_for_token(
            db, request.cookies.get(server.settings.cookie_name), server.clock()
        )
    if user is None:
        raise ApiError("not_logged_in", "log in, register or play as a guest first")
    return user


@router.get(
    "/me/games", response_model=GameHistory, responses=responses("bad_request", "not_logged_in")
)
async def my_games(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
) -> GameHistory:
    """The logged-in player's finished games, newest first, ``limit`` at a time."""
    user = await _logged_in(request)
    async with server_of(request).sessions() as db:
        entries, total = await stored.history_of(db, user.id, limit, offset)
    games = []
    for entry in entries:
        game, mine = entry.game, entry.players[entry.seat]
        games.append(
            GameSummary(
                id=game.id,
                table=game.table_id,
                number=game.number,
                room=entry.table.room,
                preset=entry.table.preset,
                bet=entry.table.bet,
                settled_at=game.settled_at or game.dealt_at,
                players=[
                    GamePlayerInfo(
                        seat=p.seat,
                        table_seat=p.table_seat,
                        name=p.name,
                        user=p.user_id,
                        bot=p.bot,
                        delta=p.delta,
                    )
                    for p in entry.players
                ],
                seat=entry.seat,
                delta=mine.delta or 0,
                won=game.winner == entry.seat,
                balance=None if mine.balance is None else mine.balance + (mine.delta or 0),
            )
        )
    more = offset + len(games) < total and bool(games)
    return GameHistory(games=games, total=total, next_offset=offset + len(games) if more else None)


@router.get(
    "/games/{game_id}/record",
    response_model=dict[str, Any],
    responses=responses("not_logged_in", "no_such_game", "not_your_game"),
)
async def game_record(
    request: Request, game_id: Annotated[str, Path(max_length=100)]
) -> JSONResponse:
    """A finished game's record (``tienlen-record/1``), for its players only."""
    game, _ = await finished_game(request, game_id, "download its record")
    filename = f"tienlen-{game_id.replace(':', '-')}.json"
    return JSONResponse(
        game.record, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )


async def finished_game(request: Request, game_id: str, what: str) -> tuple[GameRow, int]:
    """A finished game with its record and the logged-in player's game seat in it; refused
    (``no_such_game``, ``not_your_game``) unless the player played it."""
    user = await _logged_in(request)
    async with server_of(request).sessions() as db:
        game = await db.get(GameRow, game_id)
        played = await db.scalar(
            select(GamePlayer.seat).where(
                GamePlayer.game_id == game_id, GamePlayer.user_id == user.id
            )
        )
    if game is None or game.status != "finished" or game.record is None:
        raise ApiError("no_such_game", f"no finished game has the id {game_id!r}")
    if played is None:
        raise ApiError("not_your_game", f"only the game's players may {what}")
    return game, played
