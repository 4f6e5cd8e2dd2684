"""Chip dumping: a scripted pair (one always passes what it could beat and loses to the same
opponent) is flagged with its evidence; an honest pair of equal record is not. The analysis is
pure (games played by the engine here); the scan reads stored games through the real server,
and moderators see and review the flags."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from tienlen.engine.actions import PASS
from tienlen.engine.game import Game
from tienlen.engine.record import record_of
from tienlen.engine.rules import RuleSet
from tienlen.server.botpool import shared_analysis_pool
from tienlen.server.conduct.collusion import PlayedGame, after_game, find_dumping, played_game
from tienlen.server.store.db import make_engine, make_sessions
from tienlen.server.store.models import (
    AuditEntry,
    FairPlayFlag,
    GamePlayer,
    GameRow,
    TableRow,
    User,
)

from .conftest import START, FakeClock, LiveServer, make_settings
from .helpers import in_transaction
from .test_conduct_api import admin, error, moderator, player, rows

Policy = Callable[[Game, list[int]], int]
BET = 1000


def honest(game: Game, legal: list[int]) -> int:
    """The lowest play there is (never a pass that could have beaten)."""
    plays = [m for m in legal if m != PASS]
    return min(plays) if plays else PASS


def dumper(game: Game, legal: list[int]) -> int:
    """Pass whenever passing is allowed; else the lowest play."""
    return PASS if PASS in legal else honest(game, legal)


def play(seed: int, policies: list[Policy]) -> Game:
    game = Game.new(RuleSet.preset("bigfun"), len(policies), seed=seed)
    while not game.over:
        for seat in game.chop_window():
            game.decline_chop(seat)
        legal = game.legal_actions()
        game.apply_action(policies[game.current](game, legal))
    return game


def games(pairs: int, first: Policy, second: Policy) -> list[tuple[Game, list[int]]]:
    """``pairs`` × 2 games of users 1 and 2, changing seats each game; each game with its
    users by game seat."""
    out = []
    for seed in range(pairs * 2):
        users = [1, 2] if seed % 2 == 0 else [2, 1]
        policies = [first, second] if seed % 2 == 0 else [second, first]
        out.append((play(seed, policies), users))
    return out


def summary(number: int, game: Game, users: list[int]) -> PlayedGame:
    assert game.winner is not None
    deltas = [10 * BET if k == game.winner else -10 * BET for k in range(game.n)]
    record = record_of(game, bet=BET).to_dict()
    return played_game(f"t1:{number}", record, list[int | None](users), deltas)


def test_a_scripted_dumping_pair_is_flagged_with_the_evidence() -> None:
    played = [summary(i, g, u) for i, (g, u) in enumerate(games(5, dumper, honest), 1)]
    [flag] = find_dumping(played)
    assert (flag.loser, flag.winner) == (1, 2)
    assert set(flag.reasons) == {"losses", "soft_passes"}
    evidence = flag.evidence
    assert evidence["games_together"] == 10 and len(evidence["games_lost"]) >= 8
    assert evidence["soft_passes_back"] == 0 and len(evidence["soft_passes"]) >= 3
    first = evidence["soft_passes"][0]
    game = next(g for g in played if g.game_id == first["game"])
    assert any(action == first["action"] for _, _, action in game.soft)


def test_an_honest_pair_of_equal_record_is_not_flagged() -> None:
    played = [summary(i, g, u) for i, (g, u) in enumerate(games(10, honest, honest), 1)]
    wins = {1: 0, 2: 0}
    even: list[PlayedGame] = []
    for game in played:  # as many wins each
        assert game.winner is not None
        winner = game.users[game.winner]
        assert winner is not None
        if wins[winner] < 6:
            wins[winner] += 1
            even.append(game)
    assert wins == {1: 6, 2: 6}
    assert all(not g.soft for g in even)  # the honest play never passes what it could beat
    assert find_dumping(even) == []


def test_soft_passes_alone_flag_a_pair() -> None:
    """A dumper who wins now and then (a strong deal) is still seen passing on purpose."""
    played = [summary(i, g, u) for i, (g, u) in enumerate(games(3, dumper, honest), 1)]
    tweaked = [
        PlayedGame(g.game_id, g.users, tuple(-d for d in g.deltas), g.winner, g.bet, g.soft)
        if i % 2
        else g
        for i, g in enumerate(played)
    ]
    flags = find_dumping(tweaked)
    assert [(f.loser, f.winner) for f in flags] == [(1, 2)]
    assert "soft_passes" in flags[0].reasons


def _store(db_url: str, users: list[int], played: list[tuple[Game, list[int]]]) -> None:
    """The games as the server stores them, at a table of the first user's."""

    async def write(db: AsyncSession) -> None:
        table = {"room": "trainee", "preset": "bigfun", "bet": BET, "turn_seconds": 10}
        table |= {"seats": 2, "private": False, "invite": None, "opened_at": START}
        db.add(TableRow(id="t1", owner_id=users[0], **table))
        await db.flush()
        for number, (game, seats) in enumerate(played, 1):
            game_id, at = f"t1:{number}", START + timedelta(minutes=number)
            record: dict[str, Any] = record_of(game, bet=BET).to_dict()
            row = {"start": {}, "status": "finished", "record": record, "winner": game.winner}
            db.add(GameRow(id=game_id, table_id="t1", number=number, dealt_at=at, settled_at=at,
                           **row))  # fmt: skip
            await db.flush()
            for k, user in enumerate(seats):
                delta = 10 * BET if k == game.winner else -10 * BET
                person = {"user_id": users[user - 1], "name": str(user), "bot": None}
                db.add(GamePlayer(game_id=game_id, seat=k, table_seat=k, balance=10**6,
                                  delta=delta, **person))  # fmt: skip

    in_transaction(db_url, write)


def test_the_scan_flags_stored_games_for_review(
    live: LiveServer, db_url: str, clock: FakeClock
) -> None:
    mod, _ = moderator(live, db_url)
    _, lan = player(live, "Lan")
    _, minh = player(live, "Minh")
    _store(db_url, [lan, minh], games(5, dumper, honest))
    assert mod.get("/api/mod/flags").json()["flags"] == []
    r = mod.post("/api/mod/flags/scan", json={"user_id": minh})
    assert r.status_code == 200, r.text
    [flag] = r.json()["flags"]
    assert (flag["kind"], flag["user_id"], flag["other_id"]) == ("dumping", lan, minh)
    assert set(flag["evidence"]["reasons"]) == {"losses", "soft_passes"}
    again = mod.post("/api/mod/flags/scan", json={"user_id": lan}).json()["flags"]
    assert [f["id"] for f in again] == [flag["id"]]  # the open flag, not a second one
    assert [f["id"] for f in mod.get("/api/mod/flags").json()["flags"]] == [flag["id"]]
    review = {"outcome": "dismissed", "note": "friends testing"}
    r = mod.post(f"/api/mod/flags/{flag['id']}/review", json=review)
    assert r.status_code == 200 and r.json()["status"] == "dismissed"
    assert mod.get("/api/mod/flags").json()["flags"] == []
    assert error(mod.post(f"/api/mod/flags/{flag['id']}/review", json=review)) == "bad_request"
    assert error(mod.post("/api/mod/flags/999/review", json=review)) == "no_such_flag"
    assert rows(db_url, AuditEntry)[-1].action == "review_flag"
    plain, _ = player(live, "Bảo")
    assert error(plain.get("/api/mod/flags")) == "forbidden"
    assert clock() == START

    code, out = admin(db_url, "flags", "--status", "all")
    assert code == 0 and out.startswith(f"#{flag['id']} dismissed dumping: user {lan} loses")
    code, out = admin(db_url, "flags", "--scan", "Minh")  # a new flag: the old one is closed
    assert code == 0 and "open dumping" in out and "soft_passes" in out


def test_the_scan_after_a_game_writes_flags(db_url: str, tmp_path: Path) -> None:
    async def users(db: AsyncSession) -> list[int]:
        made = [User(nickname=n, nickname_key=n, password_hash=None, is_guest=True,
                     created_at=START) for n in ("a", "b")]  # fmt: skip
        db.add_all(made)
        await db.flush()
        return [u.id for u in made]

    lan, minh = in_transaction(db_url, users)
    _store(db_url, [lan, minh], games(5, dumper, honest))

    async def go(scan_games: int) -> None:
        engine = make_engine(db_url)
        settings = make_settings(tmp_path, db_url, dumping_scan_games=scan_games)
        server = SimpleNamespace(
            settings=settings,
            sessions=make_sessions(engine),
            clock=FakeClock(),
            analysis=shared_analysis_pool,
        )
        try:
            await after_game(server, [lan])  # type: ignore[arg-type]
        finally:
            await engine.dispose()

    asyncio.run(go(0))
    assert rows(db_url, FairPlayFlag) == []
    asyncio.run(go(20))
    [flag] = rows(db_url, FairPlayFlag)
    assert (flag.user_id, flag.other_id, flag.status) == (lan, minh, "open")
