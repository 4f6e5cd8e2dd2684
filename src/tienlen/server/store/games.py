"""Tables and games in the database: what the journal writes, what a restart reads back, and
the players' hand histories.

Every function takes the caller's ``AsyncSession`` and never commits, like the ledger's: the
journal's writer batches its writes in one transaction, and a game's settlement writes its
record in the transaction that moves its chips (``lobby.Lobby.settle``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .models import GameAction, GamePlayer, GameRow, TableRow

__all__ = [
    "HistoryEntry",
    "StoredGame",
    "actions_of",
    "finish_game",
    "history_of",
    "last_game_number",
    "open_tables",
    "players_of",
    "unfinished_games",
    "void_game",
]


@dataclass(frozen=True)
class StoredGame:
    """A game as stored: its row, its players by game seat and its actions so far."""

    row: GameRow
    players: list[GamePlayer]
    actions: list[dict[str, Any]]


async def open_tables(db: AsyncSession) -> list[TableRow]:
    """The tables not closed, oldest first."""
    rows = await db.scalars(
        select(TableRow).where(TableRow.closed_at.is_(None)).order_by(TableRow.opened_at)
    )
    return list(rows)


async def last_game_number(db: AsyncSession, table_id: str) -> int:
    """The number of the table's latest game dealt (0: none yet)."""
    number = await db.scalar(select(func.max(GameRow.number)).where(GameRow.table_id == table_id))
    return int(number or 0)


async def players_of(db: AsyncSession, game_ids: list[str]) -> dict[str, list[GamePlayer]]:
    """The players of each game, by game seat."""
    out: dict[str, list[GamePlayer]] = {g: [] for g in game_ids}
    if game_ids:
        rows = await db.scalars(
            select(GamePlayer)
            .where(GamePlayer.game_id.in_(game_ids))
            .order_by(GamePlayer.game_id, GamePlayer.seat)
        )
        for player in rows:
            out[player.game_id].append(player)
    return out


async def actions_of(db: AsyncSession, game_id: str) -> list[dict[str, Any]]:
    """The game's stored actions, in order. Numbers with a gap end the list at the gap (only
    a prefix of what happened can be replayed)."""
    rows = await db.scalars(
        select(GameAction).where(GameAction.game_id == game_id).order_by(GameAction.number)
    )
    out: list[dict[str, Any]] = []
    for row in rows:
        if row.number != len(out):
            break
        out.append(row.action)
    return out


async def unfinished_games(db: AsyncSession, table_id: str) -> list[StoredGame]:
    """The table's games still ``playing`` (dealt, never settled nor voided), oldest first."""
    rows = list(
        await db.scalars(
            select(GameRow)
            .where(GameRow.table_id == table_id, GameRow.status == "playing")
            .order_by(GameRow.number)
        )
    )
    players = await players_of(db, [row.id for row in rows])
    return [StoredGame(row, players[row.id], await actions_of(db, row.id)) for row in rows]


async def finish_game(
    db: AsyncSession,
    game_id: str,
    record: dict[str, Any],
    deltas: list[int],
    winner: int | None,
    now: datetime,
) -> bool:
    """Mark a game settled, with its record and each seat's chips won or lost. False when
    the game was never stored (the writer lost its deal) or is no longer ``playing``."""
    done = await db.execute(
        update(GameRow)
        .where(GameRow.id == game_id, GameRow.status == "playing")
        .values(status="finished", record=record, winner=winner, settled_at=now)
    )
    if getattr(done, "rowcount", 0) != 1:
        return False
    for seat, delta in enumerate(deltas):
        await db.execute(
            update(GamePlayer)
            .where(GamePlayer.game_id == game_id, GamePlayer.seat == seat)
            .values(delta=delta)
        )
    return True


async def void_game(db: AsyncSession, game_id: str, reason: str, now: datetime) -> bool:
    """Give up a game that cannot be played on: no chip moves (chips move only when a game
    is settled). False when it is not ``playing``."""
    done = await db.execute(
        update(GameRow)
        .where(GameRow.id == game_id, GameRow.status == "playing")
        .values(status="void", void_reason=reason[:300], settled_at=now)
    )
    return getattr(done, "rowcount", 0) == 1


@dataclass(frozen=True)
class HistoryEntry:
    """One finished game of a player's history."""

    game: GameRow
    table: TableRow
    seat: int
    players: list[GamePlayer]


async def history_of(
    db: AsyncSession, user_id: int, limit: int, offset: int
) -> tuple[list[HistoryEntry], int]:
    """A player's finished games, newest first (a page of them), and how many there are."""
    mine = (
        select(GamePlayer.game_id, GamePlayer.seat)
        .join(GameRow, GameRow.id == GamePlayer.game_id)
        .where(GamePlayer.user_id == user_id, GameRow.status == "finished")
    )
    total = await db.scalar(select(func.count()).select_from(mine.subquery()))
    rows = (
        await db.execute(
            select(GameRow, TableRow, GamePlayer.seat)
            .join(GamePlayer, GamePlayer.game_id == GameRow.id)
            .join(TableRow, TableRow.id == GameRow.table_id)
            .where(GamePlayer.user_id == user_id, GameRow.status == "finished")
            .order_by(GameRow.settled_at.desc(), GameRow.id.desc())
            .limit(limit)
            .offset(offset)
        )
    ).all()
    players = await players_of(db, [game.id for game, _, _ in rows])
    entries = [HistoryEntry(game, table, seat, players[game.id]) for game, table, seat in rows]
    return entries, int(total or 0)
