"""Settling a finished game into the database, in one transaction: the chips through the
ledger first (it locks the accounts), the game's record and result, then each person's ĐKN,
games played and won, and VIP points.

Seed 000's ĐKN: +3 for the winner, +1 for finishing a game, -1 for leaving one (never below
0); a game that everyone left before it was decided (3 or more players: "toàn bộ sẽ bị trừ
ĐKN") moves no chip and costs each of them the ĐKN of leaving. VIP points come from the fees
paid (:func:`~tienlen.money.rooms.vip_points_earned`). House bots earn neither.
"""

from __future__ import annotations

from sqlalchemy import select

from ...engine.game import Game
from ...engine.record import GameRecord
from ...money.rooms import vip_points_earned
from ...money.settlement import Settlement
from ..deps import Server
from ..store import games as stored
from ..store import ledger
from ..store.models import GameRow, User
from ..store.retry import PATIENT, Backoff, retrying

__all__ = ["DKN_FINISHED", "DKN_LEFT", "DKN_WIN", "settle_durably", "write_settlement"]

DKN_WIN, DKN_FINISHED, DKN_LEFT = 3, 1, -1
"""ĐKN for winning a game, finishing it otherwise, and leaving it (never below 0)."""


async def settle_durably(
    server: Server,
    table_id: str,
    game: Game,
    record: GameRecord,
    result: Settlement,
    backoff: Backoff = PATIENT,
) -> None:
    """:func:`write_settlement`, tried again for as long as the database cannot be reached. A
    try whose commit went through but whose answer was lost is seen by the next (the ledger
    refuses the game's reference a second time: ``AlreadyDone``) and is done: one transaction
    holds the whole settlement, so the game was settled exactly once."""

    async def write() -> None:
        try:
            await write_settlement(server, table_id, game, record, result)
        except ledger.AlreadyDone:
            if not await _settled(server, f"{table_id}:{record.extra['game']}"):
                raise

    await retrying(write, f"settling game {table_id}:{record.extra['game']}", backoff)


async def _settled(server: Server, game_id: str) -> bool:
    async with server.sessions() as db:
        row = await db.get(GameRow, game_id)
        return row is not None and row.status == "finished"


async def write_settlement(
    server: Server, table_id: str, game: Game, record: GameRecord, result: Settlement
) -> None:
    """Write ``game``, finished at table ``table_id`` with ``record`` and ``result``."""
    users = [int(u) for u in record.extra["users"]]
    game_id = f"{table_id}:{record.extra['game']}"
    deltas = dict(zip(users, result.deltas, strict=True))
    now = server.clock()
    async with server.sessions() as db, db.begin():
        await ledger.settle_game(db, game_id, deltas, result.fee, now)
        winner = None if result.void else game.winner
        await stored.finish_game(db, game_id, record.to_dict(), result.deltas, winner, now)
        rows = await db.execute(
            select(User).where(User.id.in_(users)).order_by(User.id).with_for_update()
        )
        by_id = {user.id: user for user in rows.scalars()}
        for seat, user_id in enumerate(users):
            user = by_id[user_id]
            if user.is_bot:
                continue  # bots earn no ĐKN and are never ranked
            user.games_played += 1
            left = bool(game.left >> seat & 1)
            if left or result.void:  # seed 000: all left, "toàn bộ sẽ bị trừ ĐKN"
                user.dkn = max(0, user.dkn + DKN_LEFT)
            elif seat == game.winner and not result.void:
                user.dkn += DKN_WIN
                user.games_won += 1
            else:
                user.dkn += DKN_FINISHED
            finished = not left and not result.void
            user.vip_points += vip_points_earned(result.fees[seat], finished=finished)
