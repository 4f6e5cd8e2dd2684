"""The database goes away under a running server (PostgreSQL behind a fault proxy): the journal
and the settlement of a finished game wait it out and lose nothing; only what the database
refuses for its data is given up (issue 19, §0)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError

from tienlen.server.store import ledger
from tienlen.server.store.db import make_engine, make_sessions
from tienlen.server.store.models import GameAction, GameRow, TableRow, User
from tienlen.server.store.retry import Backoff, retrying, transient
from tienlen.server.table.journal import Writer

from .conftest import (
    POSTGRES_ADMIN_URL,
    START,
    FakeClock,
    LiveServer,
    make_settings,
)
from .faultproxy import FaultProxy
from .helpers import in_transaction, references
from .test_lobby import _guest, _open
from .test_restart import CONFIG, _act, _app

UNHURRIED = dataclasses.replace(CONFIG, rate=1000.0, burst=1000.0)
"""The restart tests' quick tables, with no rate limit: the scripted players answer at once."""
QUICK = Backoff(first_s=0.01, most_s=0.05)
"""Tries again at once, so that a test counts tries rather than waits for them."""
LEDGER_POST = b"INSERT INTO ledger_transactions"
"""The statement of every movement of chips: during a game, only its settlement."""


@pytest.fixture
def proxied(pg_url: str) -> Iterator[tuple[FaultProxy, str]]:
    proxy, through = FaultProxy.before(pg_url)
    yield proxy, through
    proxy.close()


async def _open_table(db: Any) -> None:
    """A write storing table ``t`` and its owner (before its games: foreign keys)."""
    db.add(User(id=7, nickname="o", nickname_key="o", is_guest=True, created_at=START))
    await db.flush()
    db.add(TableRow(id="t", room="trainee", preset="thapthanh", bet=0, turn_seconds=20,
                    seats=4, private=False, owner_id=7, opened_at=START))  # fmt: skip
    await db.flush()


def _deal(game: str) -> Any:
    """A write storing game ``game`` of table ``t``."""

    async def work(db: Any) -> None:
        number = int(game.split(":")[1])
        db.add(GameRow(id=game, table_id="t", number=number, start={}, status="playing",
                       dealt_at=START))  # fmt: skip
        await db.flush()

    return work


def _action(game: str, number: int) -> dict[str, Any]:
    return {"game_id": game, "number": number, "action": {"type": "pass"}, "at": START}


def _stored_actions(url: str) -> list[tuple[str, int]]:
    async def read(db: Any) -> list[tuple[str, int]]:
        rows = await db.execute(
            select(GameAction.game_id, GameAction.number).order_by("game_id", "number")
        )
        return [tuple(row) for row in rows]

    return in_transaction(url, read)


def test_only_a_lost_connection_is_worth_trying_again() -> None:
    lost = OperationalError("INSERT", {}, ConnectionError("server closed the connection"))
    assert transient(lost) and transient(InterfaceError("SELECT", {}, OSError()))
    assert transient(ConnectionRefusedError()) and transient(TimeoutError())
    assert not transient(IntegrityError("INSERT", {}, ValueError("duplicate key")))
    assert not transient(ledger.InsufficientChips("cannot pay"))
    assert not transient(RuntimeError("a bug"))

    tries: list[int] = []

    async def flaky() -> str:
        tries.append(len(tries))
        if len(tries) < 4:
            raise ConnectionResetError("reset by peer")
        return "written"

    assert asyncio.run(retrying(flaky, "test", QUICK)) == "written" and len(tries) == 4
    assert list(zip(range(5), Backoff(0.1, 0.5).pauses(), strict=False)) == [
        (0, 0.1), (1, 0.2), (2, 0.4), (3, 0.5), (4, 0.5)
    ]  # fmt: skip

    async def refused() -> None:
        raise IntegrityError("INSERT", {}, ValueError("duplicate key"))

    with pytest.raises(IntegrityError):  # at once: trying again would not help
        asyncio.run(retrying(refused, "test", Backoff(60, 60)))


def test_the_journal_waits_out_a_database_outage_and_loses_no_write(
    proxied: tuple[FaultProxy, str], pg_url: str
) -> None:
    """Before: the writer tried a batch 4 times over 2.6 s, then each write once, and then
    gave up the game (every game in progress broke in a short outage)."""
    proxy, through = proxied

    async def go() -> Writer:
        engine = make_engine(through)
        writer = Writer(make_sessions(engine), lambda: START, backoff=QUICK)
        try:
            writer.put(_open_table)
            writer.put(_deal("t:1"), "t:1")
            for n in range(3):
                writer.put_action("t:1", _action("t:1", n))
            await writer.flush()
            proxy.refuse()  # PostgreSQL goes away: open connections cut, new ones refused
            writer.put(_deal("t:2"), "t:2")
            for n in range(3, 6):
                writer.put_action("t:1", _action("t:1", n))
            writer.put_action("t:2", _action("t:2", 0))
            await asyncio.to_thread(proxy.wait_refused, 12)  # it tried, and tried again
            proxy.heal()
            await writer.flush()
            await writer.close()
        finally:
            await engine.dispose()
        return writer

    writer = asyncio.run(go())
    assert writer.broken == set() and writer.dropped == 0
    assert _stored_actions(pg_url) == [("t:1", n) for n in range(6)] + [("t:2", 0)]


def test_a_full_journal_queue_drops_a_game_not_the_server(db_url: str) -> None:
    """The queue is bounded: past ``max_queue`` writes (the database away too long) a game's
    later writes are dropped, with what was queued of it (what is stored of a game is a
    prefix); the other games go on."""

    async def go() -> Writer:
        engine = make_engine(db_url)
        writer = Writer(make_sessions(engine), lambda: START, max_queue=5)
        try:
            writer.put(_open_table)
            writer.put(_deal("t:1"), "t:1")
            writer.put_action("t:1", _action("t:1", 0))
            writer.put(_deal("t:2"), "t:2")
            writer.put_action("t:2", _action("t:2", 0))
            writer.put_action("t:1", _action("t:1", 1))  # the fifth: dropped, t:1 broken
            assert (writer.dropped, writer.broken) == (1, {"t:1"})
            await writer.flush()
            writer.put_action("t:1", _action("t:1", 2))  # room again, but t:1 stays a prefix
            writer.put_action("t:2", _action("t:2", 1))
            await writer.close()
        finally:
            await engine.dispose()
        return writer

    writer = asyncio.run(go())
    assert writer.broken == {"t:1"}
    assert _stored_actions(db_url) == [("t:2", 0), ("t:2", 1)]


def test_a_settlement_that_loses_its_connection_is_written_once_the_database_is_back(
    proxied: tuple[FaultProxy, str], pg_url: str, tmp_path: Path
) -> None:
    """Before: the settlement's failure voided the game, the void failed too (the database
    was still away), and the game stayed ``playing``, its winner never paid."""
    proxy, through = proxied
    server = LiveServer(make_settings(tmp_path, through), FakeClock(), table_config=UNHURRIED)
    server.start()
    try:
        lobby = _app(server).state.lobby
        lobby.backoff = lobby.writer.backoff = QUICK
        guests = [_guest(server) for _ in range(2)]
        r = guests[0][0].post(
            "/api/tables", json={"room": "trainee", "preset": "bigfun", "bet": 1000, "seats": 2}
        )
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        before = [client.get("/api/me").json()["chips"] for client, _, _ in guests]
        # The settlement's ledger post never reaches PostgreSQL, and the next 5 connections are
        # refused (the database is away a while), then it is back.
        proxy.cut_on(LEDGER_POST, then_refuse=5)

        async def play() -> list[Any]:
            sockets = [await _open(server, token, table) for _, _, token in guests]
            for seat, ws in enumerate(sockets):
                for message in (
                    {"type": "hello", "protocol": 1},
                    {"type": "sit", "seat": seat},
                    {"type": "ready"},
                ):
                    await ws.send(json.dumps(message))
            done = await asyncio.gather(
                *(_act(ws, seat, random.Random(seat), None) for seat, ws in enumerate(sockets))
            )
            for ws in sockets:
                await ws.close()
            return list(done)

        settlements = asyncio.run(play())
        assert proxy.refused == 5  # the settlement waited the outage out
        game_id = f"{table}:{settlements[0]['game']}"
        result = settlements[0]["settlement"]
        row = in_transaction(pg_url, lambda db: db.get(GameRow, game_id))
        assert row is not None and row.status == "finished", row and row.status
        assert references(pg_url).count(f"game:{game_id}") == 1
        chips = [client.get("/api/me").json()["chips"] for client, _, _ in guests]
        assert chips == [b + d for b, d in zip(before, result["deltas"], strict=True)]
        report = in_transaction(pg_url, ledger.check_ledger)
        assert report.ok, report.violations
        metrics = guests[0][0].get("/metrics").text  # what an operator saw of it
        assert 'tienlen_settlements_total{result="finished"} 1.0' in metrics
        assert 'tienlen_settlements_total{result="void"}' not in metrics
    finally:
        server.stop()


def _terminate_backends(url: str) -> int:
    """``pg_terminate_backend`` on every connection to ``url``'s database (as an operator or a
    failover would): how many were cut."""
    name = make_url(url).database
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True, connect_timeout=3) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        ).fetchall()
    return len(rows)


def test_backends_terminated_mid_game_change_nothing_the_players_see(
    pg_url: str, tmp_path: Path
) -> None:
    """Every server connection is cut twice in a game: the journal keeps every action and
    the game is settled, once, with the chips right. (The pool checks a connection before it
    lends it: a cut between two writes is never seen; the retries cover one mid-write.)"""
    server = LiveServer(make_settings(tmp_path, pg_url), FakeClock(), table_config=UNHURRIED)
    server.start()
    try:
        lobby = _app(server).state.lobby
        lobby.backoff = lobby.writer.backoff = QUICK
        guests = [_guest(server) for _ in range(2)]
        r = guests[0][0].post(
            "/api/tables", json={"room": "trainee", "preset": "bigfun", "bet": 1000, "seats": 2}
        )
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        before = [client.get("/api/me").json()["chips"] for client, _, _ in guests]
        cut: list[int] = []

        async def play() -> list[Any]:
            sockets = [await _open(server, token, table) for _, _, token in guests]
            for seat, ws in enumerate(sockets):
                for message in (
                    {"type": "hello", "protocol": 1},
                    {"type": "sit", "seat": seat},
                    {"type": "ready"},
                ):
                    await ws.send(json.dumps(message))
            for moves in (2, 1):
                await asyncio.gather(
                    *(_act(ws, s, random.Random(s), moves) for s, ws in enumerate(sockets))
                )
                cut.append(await asyncio.to_thread(_terminate_backends, pg_url))
            done = await asyncio.gather(
                *(_act(ws, s, random.Random(5 + s), None) for s, ws in enumerate(sockets))
            )
            for ws in sockets:
                await ws.close()
            return list(done)

        settlements = asyncio.run(play())
        assert cut[0] >= 1, cut  # the server's pooled connections were cut (the second time
        # the pool may hold none yet: the first cut's were dropped on their next use)
        game_id = f"{table}:{settlements[0]['game']}"
        result = settlements[0]["settlement"]
        row = in_transaction(pg_url, lambda db: db.get(GameRow, game_id))
        assert row is not None and row.status == "finished" and row.record is not None
        stored = in_transaction(
            pg_url,
            lambda db: db.scalars(
                select(GameAction.action)
                .where(GameAction.game_id == game_id)
                .order_by(GameAction.number)
            ),
        )
        assert list(stored) == row.record["actions"]  # no action lost to the cuts
        assert references(pg_url).count(f"game:{game_id}") == 1
        chips = [client.get("/api/me").json()["chips"] for client, _, _ in guests]
        assert chips == [b + d for b, d in zip(before, result["deltas"], strict=True)]
        report = in_transaction(pg_url, ledger.check_ledger)
        assert report.ok, report.violations
    finally:
        server.stop()
