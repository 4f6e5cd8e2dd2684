"""Chip dumping: a pair of accounts where one keeps losing to the other on purpose.

Seed 000 bans "đánh cặp" (playing as a pair) and "chuyển chip" (passing chips between nicks);
at a table, chips pass from one nick to another by one losing to the other on purpose. Two
signs, both read from the stored finished games (docs/CONDUCT.md, "Chip dumping"):

- **losses**: A lost chips in most of the games that A and B played together and B won, far
  more than B ever lost to A;
- **soft passes**: A passed while holding a play that beat B's (the engine's private
  ``Pass.could_beat``, found again by replaying each record), in games B went on to win, far
  more often than B did so against A.

:func:`find_dumping` is pure; :func:`scan` reads a bounded window of recent games and stores a
flag for a moderator's review (never a sanction: a moderator decides).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Iterable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ...engine.events import Chop, Pass, Play, RoundWon
from ...engine.game import Game
from ...engine.record import parse_record, replay
from ..botpool import shared_analysis_pool
from ..store.models import FairPlayFlag, GamePlayer, GameRow

if TYPE_CHECKING:
    from ..deps import Server

__all__ = [
    "Flag",
    "PlayedGame",
    "Thresholds",
    "after_game",
    "find_dumping",
    "played_game",
    "scan",
    "soft_passes",
]

log = logging.getLogger("tienlen.server")

WINDOW = 50
"""Recent finished games of each account scanned on demand (after a game: the setting
``dumping_scan_games``)."""


@dataclass(frozen=True, slots=True)
class Thresholds:
    """When a pair is flagged (docs/CONDUCT.md). A's numbers against B, B's against A."""

    min_games: int = 5
    """Games played together before anything is read into them."""
    min_losses: int = 5
    loss_share: float = 0.8
    """A lost in at least this share of the games together, B winning."""
    net_bets: int = 10
    """…and lost to B at least this many bets more than B lost to A."""
    min_soft: int = 3
    soft_ratio: int = 2
    """Soft passes: at least ``min_soft`` more than ``soft_ratio`` × B's against A."""


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """What the analysis needs of one finished game; users by game seat (None: a bot)."""

    game_id: str
    users: tuple[int | None, ...]
    deltas: tuple[int, ...]
    winner: int | None
    bet: int
    soft: tuple[tuple[int, int, int], ...] = ()
    """(passer, the seat whose play it could beat, action number) of each soft pass."""


def soft_passes(game: Game) -> list[tuple[int, int, int]]:
    """Each pass made while holding a play that beat the play on the table: (passer, who
    made that play, the action's number)."""
    found = []
    on_table: int | None = None
    for event in game.events:
        if isinstance(event, Play | Chop):
            on_table = event.seat
        elif isinstance(event, RoundWon):
            on_table = None
        elif isinstance(event, Pass) and event.could_beat and on_table not in (None, event.seat):
            assert on_table is not None
            found.append((event.seat, on_table, event.action))
    return found


def played_game(
    game_id: str, record: dict[str, Any], users: list[int | None], deltas: list[int]
) -> PlayedGame:
    """A stored game's record, replayed by the engine to find its soft passes."""
    game = replay(parse_record(record))
    return PlayedGame(
        game_id,
        tuple(users),
        tuple(deltas),
        game.winner,
        int(record.get("bet", 1)),
        tuple(soft_passes(game)),
    )


@dataclass
class _Side:
    together: int = 0
    losses: list[str] = field(default_factory=list)
    lost: int = 0
    soft: list[dict[str, Any]] = field(default_factory=list)
    bet: int = 1


@dataclass(frozen=True)
class Flag:
    """A suspected dumping pair: ``loser`` keeps losing to ``winner``; why, with evidence."""

    loser: int
    winner: int
    reasons: tuple[str, ...]
    evidence: dict[str, Any]


def _tally(games: Iterable[PlayedGame]) -> dict[tuple[int, int], _Side]:
    sides: dict[tuple[int, int], _Side] = {}
    for game in games:
        people = [(k, u) for k, u in enumerate(game.users) if u is not None]
        for (a, user_a), (b, user_b) in itertools.permutations(people, 2):
            side = sides.setdefault((user_a, user_b), _Side())
            side.together += 1
            side.bet = max(side.bet, game.bet)
            if game.winner != b:
                continue
            if game.deltas[a] < 0:
                side.losses.append(game.game_id)
                side.lost -= game.deltas[a]
            side.soft.extend(
                {"game": game.game_id, "action": action}
                for passer, against, action in game.soft
                if passer == a and against == b
            )
    return sides


def find_dumping(games: Iterable[PlayedGame], limits: Thresholds | None = None) -> list[Flag]:
    """The pairs whose games look like one losing to the other on purpose."""
    limits = limits or Thresholds()
    sides = _tally(games)
    flags = []
    for (a, b), mine in sorted(sides.items()):
        theirs = sides.get((b, a), _Side())
        if mine.together < limits.min_games:
            continue
        reasons = []
        if (
            len(mine.losses) >= limits.min_losses
            and len(mine.losses) >= limits.loss_share * mine.together
            and mine.lost - theirs.lost >= limits.net_bets * mine.bet
        ):
            reasons.append("losses")
        if len(mine.soft) >= limits.min_soft + limits.soft_ratio * len(theirs.soft):
            reasons.append("soft_passes")
        if reasons:
            evidence = {
                "games_together": mine.together,
                "games_lost": mine.losses,
                "chips_lost": mine.lost,
                "games_lost_back": len(theirs.losses),
                "chips_lost_back": theirs.lost,
                "soft_passes": mine.soft,
                "soft_passes_back": len(theirs.soft),
            }
            flags.append(Flag(a, b, tuple(reasons), evidence))
    return flags


Stored = tuple[str, dict[str, Any], list[int | None], list[int]]
"""A stored game as read: id, record, users by game seat (None: a bot), deltas."""


async def _recent(db: AsyncSession, user_ids: Iterable[int], window: int) -> list[Stored]:
    ids: set[str] = set()
    for user in user_ids:
        rows = await db.scalars(
            select(GameRow.id)
            .join(GamePlayer, GamePlayer.game_id == GameRow.id)
            .where(GamePlayer.user_id == user, GameRow.status == "finished")
            .order_by(GameRow.settled_at.desc())
            .limit(window)
        )
        ids.update(rows)
    stored: list[Stored] = []
    for row in await db.scalars(select(GameRow).where(GameRow.id.in_(ids)).order_by(GameRow.id)):
        players = list(
            await db.scalars(
                select(GamePlayer).where(GamePlayer.game_id == row.id).order_by(GamePlayer.seat)
            )
        )
        if row.record is not None:
            users = [p.user_id if p.bot is None else None for p in players]
            stored.append((row.id, row.record, users, [p.delta or 0 for p in players]))
    return stored


def _analyse(stored: list[Stored], limits: Thresholds | None) -> list[Flag]:
    """Replay and analyse (CPU only: run in the bots' process pool)."""
    games = []
    for game_id, record, users, deltas in stored:
        try:
            games.append(played_game(game_id, record, users, deltas))
        except ValueError:  # a record the engine cannot replay is not evidence
            continue
    return find_dumping(games, limits)


async def scan(
    db: AsyncSession,
    user_ids: Iterable[int],
    now: datetime,
    *,
    window: int = WINDOW,
    limits: Thresholds | None = None,
    pool: Executor | None = None,
) -> list[FairPlayFlag]:
    """Look at the recent games of ``user_ids`` and store a flag (or refresh the open one)
    for each dumping pair involving them; returns the flags written. The replaying runs in
    ``pool`` (the server's analysis pool; by default :func:`~..botpool.shared_analysis_pool`)."""
    wanted = set(user_ids)
    stored = await _recent(db, wanted, window)
    written = []
    # in a process (a thread would hold the GIL and delay the live tables), never the bots'
    executor = pool or shared_analysis_pool()
    flags = await asyncio.get_running_loop().run_in_executor(executor, _analyse, stored, limits)
    for flag in flags:
        if not {flag.loser, flag.winner} & wanted:
            continue
        row = await db.scalar(
            select(FairPlayFlag).where(
                FairPlayFlag.kind == "dumping",
                FairPlayFlag.user_id == flag.loser,
                FairPlayFlag.other_id == flag.winner,
                FairPlayFlag.status == "open",
            )
        )
        evidence = {"reasons": list(flag.reasons), **flag.evidence}
        if row is None:
            row = FairPlayFlag(
                kind="dumping",
                user_id=flag.loser,
                other_id=flag.winner,
                created_at=now,
                updated_at=now,
                evidence=evidence,
                status="open",
            )
            db.add(row)
        elif row.evidence != evidence:
            row.evidence = evidence
            row.updated_at = now
        written.append(row)
    await db.flush()
    return written


async def after_game(server: Server, user_ids: list[int]) -> None:
    """The scan run after each settled game for its players (in the background; a failure
    is logged): their last ``dumping_scan_games`` games."""
    window = server.settings.dumping_scan_games
    if window <= 0 or not user_ids:
        return
    try:
        async with server.sessions() as db, db.begin():
            await scan(db, user_ids, server.clock(), window=window, pool=server.analysis())
    except Exception:
        log.exception("the dumping scan of users %s failed", user_ids)
