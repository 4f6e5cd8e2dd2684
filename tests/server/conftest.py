"""Fixtures for the server tests: a database per backend, a fake clock, a live server.

Every test that takes ``db_url`` runs twice, on SQLite and on PostgreSQL. The PostgreSQL
database is created fresh for the test session at 127.0.0.1:5432 (or the server named by
``TIENLEN_TEST_POSTGRES_URL``) and dropped at the end; when it cannot be reached the
PostgreSQL half is skipped with the reason, except under CI (``CI`` set), where it fails.
Between tests every table is emptied, so each test starts from a freshly migrated database.
"""

from __future__ import annotations

import asyncio
import functools
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import psycopg
import pytest
import uvicorn
from sqlalchemy import delete, update
from sqlalchemy.engine import make_url

from tienlen.server.app import create_app
from tienlen.server.deps import Server
from tienlen.server.serving import uvicorn_options
from tienlen.server.settings import Settings
from tienlen.server.store.db import make_engine, migrate
from tienlen.server.store.models import Account, Base
from tienlen.server.table.seating import TableConfig
from tienlen.server.table.timers import TableClock

POSTGRES_ADMIN_URL = os.environ.get(
    "TIENLEN_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
START = datetime(2026, 3, 14, 9, 0, tzinfo=UTC)
"""The fake clock's first reading: 16:00 in Vietnam."""


class FakeClock:
    """A clock that stands still until a test moves it."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture(autouse=True)
def _no_tienlen_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings read TIENLEN_* variables: none from the developer's shell may leak in."""
    for name in list(os.environ):
        if name.startswith("TIENLEN_") and name != "TIENLEN_TEST_POSTGRES_URL":
            monkeypatch.delenv(name)


def _postgres_unreachable(reason: str) -> None:
    message = (
        f"PostgreSQL at {make_url(POSTGRES_ADMIN_URL).render_as_string()} unreachable: {reason}"
    )
    if os.environ.get("CI"):
        pytest.fail(message + " (CI is set, so the PostgreSQL tests must run)")
    pytest.skip(message)


@functools.cache
def _postgres_problem() -> str | None:
    """Why PostgreSQL cannot be used, or None; asked once per test session."""
    try:
        with psycopg.connect(POSTGRES_ADMIN_URL, connect_timeout=3) as admin:
            admin.execute("SELECT 1")
    except psycopg.OperationalError as exc:
        return str(exc).strip().splitlines()[0]
    return None


def create_postgres_database() -> str:
    """A new empty PostgreSQL database; returns its URL."""
    problem = _postgres_problem()
    if problem is not None:
        _postgres_unreachable(problem)
    name = f"tienlen_test_{secrets.token_hex(6)}"
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True, connect_timeout=3) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return make_url(POSTGRES_ADMIN_URL).set(database=name).render_as_string(hide_password=False)


def drop_postgres_database(url: str) -> None:
    name = make_url(url).database
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True, connect_timeout=3) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def fresh_database(backend: str, folder: Path) -> str:
    """An empty database of ``backend`` (the caller drops a PostgreSQL one)."""
    if backend == "sqlite":
        return f"sqlite:///{folder / f'fresh-{secrets.token_hex(4)}.sqlite3'}"
    return create_postgres_database()


async def _migrate(url: str) -> None:
    engine = make_engine(url)
    try:
        await migrate(engine)
    finally:
        await engine.dispose()


async def _empty(url: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            # Every table, children first; the ledger's system accounts stay, at zero, one
            # shard of each (a test that opens more gets them back to one).
            for table in reversed(Base.metadata.sorted_tables):
                if table is Account.__table__:
                    await connection.execute(
                        delete(Account).where(Account.user_id.is_not(None) | (Account.shard > 0))
                    )
                    await connection.execute(update(Account).values(balance=0))
                else:
                    await connection.execute(delete(table))
    finally:
        await engine.dispose()


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def backend_database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """One migrated database per backend for the whole test session."""
    backend: str = request.param
    url = fresh_database(backend, tmp_path_factory.mktemp("sqlite"))
    try:
        asyncio.run(_migrate(url))
        yield url
    finally:
        if backend == "postgresql":
            drop_postgres_database(url)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A migrated PostgreSQL database of the test's own (for what SQLite has not: a connection
    to lose, tests/server/faultproxy.py)."""
    url = create_postgres_database()
    try:
        asyncio.run(_migrate(url))
        yield url
    finally:
        drop_postgres_database(url)


@pytest.fixture
def db_url(backend_database: str) -> str:
    """The backend's database, emptied of everything but the system accounts."""
    asyncio.run(_empty(backend_database))
    return backend_database


def make_settings(data_dir: Path, database_url: str | None, **overrides: object) -> Settings:
    """Settings for a test: cheap argon2 so that the suite stays fast, and no limits on
    sign-ups and log-ins (tests/server/test_abuse_limits.py sets them)."""
    values: dict[str, object] = {
        "data_dir": data_dir,
        "database_url": database_url,
        "argon2_time_cost": 1,
        "argon2_memory_kib": 1024,
        "argon2_parallelism": 1,
        "signup_limit": 0,  # every test comes from 127.0.0.1: the abuse tests set their own
        "login_limit": 0,
        "login_lockout_failures": 0,
        **overrides,
    }
    return Settings.model_validate(values)


@dataclass
class LiveServer:
    """The real app under uvicorn on a free 127.0.0.1 port, in a background thread."""

    settings: Settings
    clock: FakeClock
    url: str = ""
    server: uvicorn.Server | None = None
    thread: threading.Thread | None = None
    clients: list[httpx.Client] = field(default_factory=list)
    table_config: TableConfig | None = None
    table_clock: TableClock | None = None

    def start(self) -> LiveServer:
        # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets whose proto says TCP,
        # and without it every response waited ~40 ms for the client's delayed ACK.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = uvicorn.Config(
            create_app(
                self.settings,
                clock=self.clock,
                table_config=self.table_config,
                table_clock=self.table_clock,
            ),
            log_level="warning",
            access_log=False,
            lifespan="on",
            **uvicorn_options(self.settings),
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the server stopped while starting (see the log above)")
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start within 20 s")
            time.sleep(0.01)
        self.url = f"http://127.0.0.1:{port}"
        return self

    def close_clients(self) -> None:
        for client in self.clients:
            client.close()
        self.clients.clear()

    def stop(self) -> None:
        self.close_clients()
        if self.server is not None and self.thread is not None:
            self.server.should_exit = True
            self.thread.join(timeout=20)
            assert not self.thread.is_alive(), "the server did not stop"
        self.server = None

    def app_server(self) -> Server:
        """The running app's :class:`~tienlen.server.app.Server`."""
        assert self.server is not None
        server: Server = self.server.config.app.state.server
        return server

    def client(self, cookies: httpx.Cookies | None = None) -> httpx.Client:
        client = httpx.Client(base_url=self.url, cookies=cookies, timeout=20)
        self.clients.append(client)
        return client


@pytest.fixture(scope="session")
def shared_server(
    backend_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """One live server per backend, shared by the tests that need no settings of their own
    (starting a server is quick, stopping one takes uvicorn a fifth of a second)."""
    settings = make_settings(tmp_path_factory.mktemp("data"), backend_database)
    live = LiveServer(settings, FakeClock()).start()
    yield live
    live.stop()


@pytest.fixture
def clock(shared_server: LiveServer) -> FakeClock:
    """The servers' clock, set back to :data:`START`."""
    shared_server.clock.now = START
    return shared_server.clock


@pytest.fixture
def settings(shared_server: LiveServer) -> Settings:
    return shared_server.settings


@pytest.fixture
def live(shared_server: LiveServer, db_url: str, clock: FakeClock) -> Iterator[LiveServer]:
    """The backend's live server on an emptied database; clients made by the test are closed
    after it."""
    yield shared_server
    shared_server.close_clients()


@pytest.fixture
def serve(db_url: str, settings: Settings, clock: FakeClock) -> Iterator[Callable[..., LiveServer]]:
    """Start more live servers (on the test's database unless other settings are given); all
    are stopped at the end of the test."""
    started: list[LiveServer] = []

    def start(custom: Settings | None = None) -> LiveServer:
        live = LiveServer(custom or settings, clock).start()
        started.append(live)
        return live

    yield start
    for live in started:
        live.stop()


@pytest.fixture
def client(live: LiveServer) -> httpx.Client:
    return live.client()
