"""Ledger load: game settlements per second on PostgreSQL, with one house row or several shards.

Run: ``.venv/bin/python benchmarks/ledger_load.py [--shards 1 64] [--clients 8] [--seconds 20]``
(``--help`` for the rest). Figures and the machine they were measured on are recorded in
docs/BENCHMARKS.md ("Ledger").

Every game's settlement locks its four players and the house (``store.ledger.settle_game``):
with one house row, every table of every server queues on that one lock, which caps the
settlements of the whole portal (docs/SERVER.md, "House shards"). This creates a fresh
PostgreSQL database (``--admin-url``, dropped at the end), migrates it, opens ``--shards``
house and issuance shards, grants ``--players`` players a large stake, and then has
``--processes`` processes of ``--clients`` concurrent sessions each settle games for
``--seconds``: four random players, a random winner taking what the three others pay, a 5 %
fee to the house, one database transaction each, as the lobby writes them. It reports
settlements per second, each settlement's latency (median, 99th percentile), how many were
retried after a deadlock or serialisation failure (none are expected: accounts are locked in
id order), and checks the ledger afterwards (``check_ledger``).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import platform
import random
import secrets
import statistics
import time
from datetime import UTC, datetime

import psycopg
from sqlalchemy import insert, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from tienlen.server.store import ledger
from tienlen.server.store.db import make_engine, make_sessions, migrate
from tienlen.server.store.models import User

NOW = datetime(2026, 12, 5, tzinfo=UTC)
STAKE = 10**12
"""What each player is granted: enough never to run short in a run."""


async def prepare(url: str, shards: int, players: int) -> list[int]:
    engine = make_engine(url)
    try:
        await migrate(engine)
        async with make_sessions(engine).begin() as db:
            await ledger.open_system_shards(db, shards)
            users = [
                {
                    "nickname": f"p{n}",
                    "nickname_key": f"p{n}",
                    "password_hash": "x",
                    "is_guest": False,
                    "created_at": NOW,
                }
                for n in range(players)
            ]
            ids = list(await db.scalars(insert(User).values(users).returning(User.id)))
            for user in await db.scalars(select(User).order_by(User.id)):
                await ledger.open_player_account(db, user, NOW, STAKE)
        return ids
    finally:
        await engine.dispose()


async def settle_for(
    url: str, ids: list[int], clients: int, seconds: float, seed: int
) -> tuple[list[float], int]:
    """Settle games with ``clients`` sessions until ``seconds`` are up; the latencies and the
    retries."""
    engine = make_engine(url, pool_size=clients, max_overflow=0)
    sessions = make_sessions(engine)
    rng = random.Random(seed)
    latencies: list[float] = []
    retries = 0
    deadline = time.perf_counter() + seconds

    async def client(n: int) -> None:
        nonlocal retries
        count = 0
        while time.perf_counter() < deadline:
            four = rng.sample(ids, 4)
            losses = [rng.randrange(1_000, 30_000) for _ in range(3)]
            fee = sum(losses) // 20
            deltas = {user: -loss for user, loss in zip(four[1:], losses, strict=True)}
            deltas[four[0]] = sum(losses) - fee
            game_id = f"s{seed}-{n}-{count}"
            count += 1
            started = time.perf_counter()
            while True:
                try:
                    async with sessions.begin() as db:
                        await ledger.settle_game(db, game_id, deltas, fee, NOW)
                    break
                except DBAPIError:  # a deadlock or serialisation failure: none expected
                    retries += 1
            latencies.append(time.perf_counter() - started)

    try:
        await asyncio.gather(*(client(n) for n in range(clients)))
    finally:
        await engine.dispose()
    return latencies, retries


def _worker(args: tuple[str, list[int], int, float, int]) -> tuple[list[float], int]:
    url, ids, clients, seconds, seed = args
    return asyncio.run(settle_for(url, ids, clients, seconds, seed))


async def check(url: str) -> ledger.LedgerReport:
    engine = make_engine(url)
    try:
        async with make_sessions(engine).begin() as db:
            return await ledger.check_ledger(db)
    finally:
        await engine.dispose()


def run(admin_url: str, shards: int, options: argparse.Namespace) -> dict[str, float]:
    name = f"tienlen_ledger_load_{secrets.token_hex(4)}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = make_url(admin_url).set(drivername="postgresql+psycopg", database=name)
    try:
        ids = asyncio.run(prepare(url.render_as_string(hide_password=False), shards,
                                  options.players))  # fmt: skip
        jobs = [
            (url.render_as_string(hide_password=False), ids, options.clients, options.seconds, p)
            for p in range(options.processes)
        ]
        started = time.perf_counter()
        with multiprocessing.get_context("spawn").Pool(options.processes) as pool:
            results = pool.map(_worker, jobs)
        elapsed = time.perf_counter() - started
        report = asyncio.run(check(url.render_as_string(hide_password=False)))
        if not report.ok:
            raise SystemExit(f"the ledger check failed: {report.violations[:5]}")
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    latencies = sorted(latency for found, _ in results for latency in found)
    settled = len(latencies)
    return {
        "shards": shards,
        "settled": settled,
        "per_second": settled / options.seconds,
        "elapsed": elapsed,
        "median_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[int(0.99 * (settled - 1))] * 1000,
        "retries": sum(retries for _, retries in results),
        "transactions": report.transactions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--admin-url", default=os.environ.get(
        "TIENLEN_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/postgres"),
        help="a PostgreSQL database to create and drop the benchmark's own from "
        "(TIENLEN_BENCH_PG)")  # fmt: skip
    parser.add_argument(
        "--shards",
        type=int,
        nargs="+",
        default=[1, 64],
        help="house shards to measure, one run each (default: 1 64)",
    )
    parser.add_argument(
        "--processes", type=int, default=2, help="processes settling, like servers (default 2)"
    )
    parser.add_argument(
        "--clients", type=int, default=8, help="concurrent sessions per process (default 8)"
    )
    parser.add_argument(
        "--players", type=int, default=2_000, help="players the games are drawn from (default 2000)"
    )
    parser.add_argument("--seconds", type=float, default=20.0)
    options = parser.parse_args()
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; {options.processes} processes × "
        f"{options.clients} sessions, {options.players} players, {options.seconds:g} s"
    )
    for shards in options.shards:
        figures = run(options.admin_url, shards, options)
        print(
            f"house shards {shards:>4}: {figures['per_second']:7.1f} settlements/s "
            f"({figures['settled']:.0f} in {options.seconds:g} s), latency median "
            f"{figures['median_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, "
            f"{figures['retries']:.0f} retried; ledger checked: {figures['transactions']:.0f} "
            "transactions, sound"
        )


if __name__ == "__main__":
    main()
