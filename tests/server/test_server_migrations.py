"""Migrations and the embedded default: the tables the migrations make are the models' tables,
they go down and up again, and a bare data folder becomes a working server."""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, inspect

from tienlen.server.store.db import alembic_config, make_engine, migrate
from tienlen.server.store.models import Base

from .conftest import FakeClock, LiveServer, drop_postgres_database, fresh_database, make_settings
from .helpers import run

ROOT = Path(__file__).resolve().parents[2]


def _differences(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


def test_the_migrations_make_exactly_the_models_tables(backend_database: str) -> None:
    async def compare() -> list[Any]:
        engine = make_engine(backend_database)
        try:
            async with engine.connect() as connection:
                return await connection.run_sync(_differences)
        finally:
            await engine.dispose()

    assert run(compare()) == []


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


def _downgrade_to_base(connection: Connection) -> None:
    command.downgrade(alembic_config(connection), "base")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migrations_go_down_and_up_again(backend: str, tmp_path: Path) -> None:
    url = fresh_database(backend, tmp_path)

    async def cycle() -> list[set[str]]:
        engine = make_engine(url)
        seen = []
        try:
            for _ in range(2):
                await migrate(engine)
                await migrate(engine)  # a no-op when up to date
                async with engine.begin() as connection:
                    seen.append(await connection.run_sync(_tables))
                    await connection.run_sync(_downgrade_to_base)
                    seen.append(await connection.run_sync(_tables))
        finally:
            await engine.dispose()
        return seen

    try:
        seen = run(cycle())
    finally:
        if backend == "postgresql":
            drop_postgres_database(url)
    tables = set(Base.metadata.tables)
    assert {"users", "sessions", "ledger_accounts", "ledger_transactions"} <= tables
    assert seen[0] == seen[2] == tables | {"alembic_version"}
    assert seen[1] == seen[3] == {"alembic_version"}


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_migration_rebuilds_tables_that_hold_rows(backend: str, tmp_path: Path) -> None:
    """0004 rebuilds ``users`` and ``ledger_transactions`` on SQLite (new CHECK constraints)
    while sessions, accounts and entries refer to their rows: foreign keys must not refuse it,
    and every row and reference must survive."""
    url = fresh_database(backend, tmp_path)
    rows = [
        "INSERT INTO users (id, nickname, nickname_key, password_hash, is_guest, created_at)"
        " VALUES (7, 'An', 'an', 'h', false, '2026-01-01')",
        "INSERT INTO sessions (token_hash, user_id, created_at, expires_at)"
        " VALUES ('t', 7, '2026-01-01', '2027-01-01')",
        "INSERT INTO ledger_accounts (kind, user_id, balance) VALUES ('player', 7, 5)",
        "UPDATE ledger_accounts SET balance = -5 WHERE kind = 'issuance'",
        "INSERT INTO ledger_transactions (id, kind, reference, created_at)"
        " VALUES (1, 'grant', 'grant:7', '2026-01-01')",
        "INSERT INTO ledger_entries (transaction_id, account_id, amount)"
        " SELECT 1, id, balance FROM ledger_accounts WHERE balance <> 0",
    ]

    async def go() -> list[Any]:
        engine = make_engine(url)
        try:
            async with engine.begin() as connection:
                await connection.run_sync(lambda c: command.upgrade(alembic_config(c), "0003"))
                for sql in rows:
                    await connection.exec_driver_sql(sql)
            await migrate(engine)
            async with engine.connect() as connection:
                found = []
                for table in ("users", "sessions", "ledger_entries"):
                    result = await connection.exec_driver_sql(f"SELECT count(*) FROM {table}")
                    found.append(result.scalar())
                bot = await connection.exec_driver_sql("SELECT is_bot FROM users")
                found.append(bot.scalar())
                accounts = await connection.exec_driver_sql(
                    "SELECT kind, shard, balance FROM ledger_accounts ORDER BY id"
                )
                found.append([tuple(row) for row in accounts])  # 0007: shard 0, balances kept
                if backend == "sqlite":  # foreign keys are enforced again afterwards
                    on = await connection.exec_driver_sql("PRAGMA foreign_keys")
                    found.append(on.scalar())
            return found
        finally:
            await engine.dispose()

    try:
        found = run(go())
    finally:
        if backend == "postgresql":
            drop_postgres_database(url)
    assert found[:4] == [1, 1, 2, False]
    assert found[4] == [("issuance", 0, -5), ("house", 0, 0), ("player", 0, 5)]
    assert found[5:] == ([1] if backend == "sqlite" else [])


def test_a_bare_data_folder_becomes_a_working_server(tmp_path: Path) -> None:
    """The embedded default: no database URL, nothing installed; the SQLite file and the secret
    key appear in the data folder at first start, and stay."""
    data = tmp_path / "nothing-here-yet" / "data"
    settings = make_settings(data, None)
    live = LiveServer(settings, FakeClock()).start()
    try:
        client = live.client()
        r = client.post("/api/register", json={"nickname": "Minh", "password": "12345678"})
        assert r.status_code == 201
        assert client.get("/api/health").json()["database"] == "sqlite"
    finally:
        live.stop()
    assert sorted(p.name for p in data.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [
        "secret_key",
        "tienlen.sqlite3",
    ]
    assert stat.S_IMODE((data / "secret_key").stat().st_mode) == 0o600
    key = (data / "secret_key").read_bytes()

    again = LiveServer(settings, FakeClock()).start()
    try:
        r = again.client().post("/api/login", json={"nickname": "minh", "password": "12345678"})
        assert r.status_code == 200
        assert again.client(httpx.Cookies(r.cookies)).get("/api/me").json()["nickname"] == "Minh"
    finally:
        again.stop()
    assert (data / "secret_key").read_bytes() == key


def test_the_migrations_ship_with_the_package() -> None:
    """Alembic's files that are not Python modules must be package data to be installed."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = pyproject["tool"]["setuptools"]["package-data"]["tienlen"]
    folder = ROOT / "src" / "tienlen" / "server" / "store" / "migrations"
    for name in ("alembic.ini", "script.py.mako"):
        assert (folder / name).is_file()
        assert f"server/store/migrations/{name}" in data
    for package in (folder, folder / "versions"):
        assert (package / "__init__.py").is_file(), f"{package} must be a package to be installed"
