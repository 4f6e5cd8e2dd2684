"""After a restart: the tables that were open are opened again, and each unfinished game is
resumed from its deal and stored actions or, when it cannot be rebuilt, voided.

The rule (docs/SERVER.md, "Restarts"): a table's latest game still ``playing`` is rebuilt by
dealing its stored start again (its seeds must deal its hands) and replaying its stored
actions with the engine; its players get their seats back, not connected, for the grace
period, and the table plays on from there (a game already over is settled at once). Anything
that fails — a preset or room that no longer exists, a start that does not read or verify, an
action the engine refuses, a player who cannot be seated — voids that game: it is marked
``void`` with the reason and no chip moves (chips move only at settlement, so none are lost).
Older games still ``playing`` (never the case unless the database was edited) are voided too.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete

from ...bots import LEVELS, make_bot
from ...engine.game import Game
from ...engine.record import parse_record, replay
from ...engine.rules import PRESETS
from ...engine.verify import verify_record
from ...money.rooms import ROOMS
from ..store import games as stored
from ..store.models import GameAction, TableRow
from ..table.protocol import BotLevel
from ..table.seating import Lineup, Occupant

if TYPE_CHECKING:
    from .registry import Lobby

__all__ = ["Restored", "reopen_tables"]

log = logging.getLogger("tienlen.server")


class CannotResume(Exception):
    """Why a stored game cannot be taken up again (it is voided with this reason)."""


@dataclass
class Restored:
    """What a start found: tables opened again, games resumed and games voided (with why)."""

    tables: list[str] = field(default_factory=list)
    resumed: list[str] = field(default_factory=list)
    voided: dict[str, str] = field(default_factory=dict)


async def reopen_tables(lobby: Lobby) -> Restored:
    """Open the stored open tables in ``lobby`` under their ids, and resume or void their
    unfinished games (see the module docstring)."""
    server = lobby.server
    done = Restored()
    async with server.sessions() as db:
        rows = await stored.open_tables(db)
        plans = [
            (
                row,
                await stored.last_game_number(db, row.id),
                await stored.unfinished_games(db, row.id),
            )
            for row in rows
        ]
    for row, last, unfinished in plans:
        if row.room not in ROOMS or row.preset not in PRESETS:
            gone = "room" if row.room not in ROOMS else "preset"
            await _close(lobby, row, unfinished, done, f"its {gone} no longer exists")
            continue
        try:
            table = lobby.open(
                row.owner_id,
                ROOMS[row.room],
                row.preset,
                row.bet,
                row.turn_seconds,
                row.seats,
                row.private,
                table_id=row.id,
                invite=row.invite,
            )
        except ValueError as exc:  # settings this server refuses (seats, timers)
            await _close(lobby, row, unfinished, done, f"it cannot be opened: {exc}")
            continue
        table.live.games = last
        done.tables.append(row.id)
        for old in unfinished[:-1]:
            await _void(lobby, old.row.id, "a later game was dealt at its table", done)
        if unfinished:
            game = unfinished[-1]
            try:
                _resume(lobby, table.id, game)
            except CannotResume as exc:
                await _void(lobby, game.row.id, str(exc), done)
            else:
                await _trim(lobby, game)
                done.resumed.append(game.row.id)
    if done.tables:
        log.info(
            "reopened %d tables; resumed games %s; voided %s",
            len(done.tables),
            done.resumed,
            done.voided,
        )
    return done


def rebuild(game: stored.StoredGame) -> Game:
    """The game a stored start and its actions describe; :class:`CannotResume` says why not."""
    start: dict[str, Any] = dict(game.row.start)
    try:
        record = parse_record(start | {"actions": game.actions})
        if "deal" in start and not verify_record(start).ok:
            raise CannotResume("its seeds do not deal its hands")
        rebuilt = replay(record)
    except ValueError as exc:  # RecordError, ReplayError
        raise CannotResume(f"its record does not replay: {exc}") from None
    if len(game.players) != rebuilt.n or [p.seat for p in game.players] != list(range(rebuilt.n)):
        raise CannotResume("its players do not match its hands")
    return rebuilt


def _resume(lobby: Lobby, table_id: str, stored_game: stored.StoredGame) -> None:
    game = rebuild(stored_game)
    table = lobby.tables[table_id]
    live, players = table.live, stored_game.players
    start = stored_game.row.start
    written = start.get("users")
    users = [str(p.user_id) if p.user_id is not None else f"bot-{p.seat + 1}" for p in players]
    if isinstance(written, list) and len(written) == len(users):
        pairs = zip(users, written, players, strict=True)
        users = [u if p.user_id is not None else str(w) for u, w, p in pairs]
    if written is not None and written != users:
        raise CannotResume("its players do not match its start")
    seats = [p.table_seat for p in players]
    if len(set(seats)) != len(seats) or not all(0 <= s < len(live.seats) for s in seats):
        raise CannotResume("its players' seats do not fit the table")
    if any(p.bot is not None and p.bot not in LEVELS for p in players):
        raise CannotResume("a bot of an unknown level played it")
    levels: list[BotLevel | None] = [p.bot for p in players]  # type: ignore[misc]
    balances = start.get("balances")
    lineup = Lineup(
        seats=seats,
        users=users,
        names=[p.name for p in players],
        bots=[p.bot is not None for p in players],
        balances=list(balances) if isinstance(balances, list) else None,
        levels=levels,
    )
    people: list[Occupant] = []
    for k, player in enumerate(players):
        if game.left >> k & 1:
            lineup.present[k] = False  # they left before the restart
            continue
        level = levels[k]
        occupant = Occupant(users[k], player.name, level, None, ready=True)
        if level is not None:
            occupant.bot = make_bot(level, seed=player.seat)
        else:
            people.append(occupant)
            lobby.claims[users[k]] = table_id
        live.seats[seats[k]] = occupant
    live.resume(stored_game.row.number, game, lineup, people)


async def _trim(lobby: Lobby, game: stored.StoredGame) -> None:
    """Drop stored actions past the prefix that was replayed (there are none unless a write
    was lost), so the actions played from now on are stored under their numbers."""
    async with lobby.server.sessions() as db, db.begin():
        await db.execute(
            delete(GameAction).where(
                GameAction.game_id == game.row.id, GameAction.number >= len(game.actions)
            )
        )


async def _void(lobby: Lobby, game_id: str, reason: str, done: Restored) -> None:
    log.warning("game %s voided after the restart: %s", game_id, reason)
    async with lobby.server.sessions() as db, db.begin():
        await stored.void_game(db, game_id, reason, lobby.server.clock())
    done.voided[game_id] = reason


async def _close(
    lobby: Lobby, row: TableRow, unfinished: list[stored.StoredGame], done: Restored, why: str
) -> None:
    """A table that cannot be opened again is closed for good, its games voided."""
    log.warning("table %s closed after the restart: %s", row.id, why)
    for game in unfinished:
        await _void(lobby, game.row.id, why, done)
    async with lobby.server.sessions() as db, db.begin():
        table = await db.get(TableRow, row.id)
        if table is not None:
            table.closed_at = lobby.server.clock()
