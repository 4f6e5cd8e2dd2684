"""Database connections: one async engine per server, one session per unit of work.

Async SQLAlchemy (aiosqlite for the embedded SQLite file, psycopg 3 for PostgreSQL) so that
requests and, later, one asyncio task per live table share one event loop without threads for
every query. docs/SERVER.md explains the choice.

SQLite needs care to be solid under concurrent writers: every transaction starts with
``BEGIN IMMEDIATE`` (it takes the write lock at once, so two read-then-write transactions
cannot deadlock on upgrading their locks), waits up to ``busy_timeout`` for the lock, runs in
WAL mode (readers do not block the writer) and enforces foreign keys.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic.config import Config
from sqlalchemy import Connection, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

__all__ = [
    "DatabaseUrlError",
    "alembic_config",
    "async_url",
    "make_engine",
    "make_sessions",
    "migrate",
    "redacted",
]

SQLITE_BUSY_TIMEOUT_MS = 10_000
ASYNC_DRIVERS = {
    "sqlite": ("aiosqlite", ("", "aiosqlite", "pysqlite")),
    "postgresql": ("psycopg", ("", "psycopg", "psycopg_async")),
}
"""Per backend: the async driver used, and the driver names a URL may give for it."""


class DatabaseUrlError(ValueError):
    """The database URL names a backend or driver this server does not run on."""


def async_url(url: str | URL) -> URL:
    """The URL with the async driver this server uses: ``sqlite+aiosqlite`` or
    ``postgresql+psycopg`` (plain ``sqlite://``, ``postgresql://`` and ``postgres://`` are
    accepted and mapped)."""
    if isinstance(url, str) and url.startswith("postgres://"):
        url = "postgresql://" + url.removeprefix("postgres://")
    try:
        parsed = make_url(url)
    except Exception as exc:  # sqlalchemy raises ArgumentError with a generic message
        raise DatabaseUrlError(f"not a database URL: {url!r}") from exc
    backend, _, driver = parsed.drivername.partition("+")
    if backend not in ASYNC_DRIVERS:
        raise DatabaseUrlError(
            f"database backend {backend!r} is not supported: use sqlite or postgresql"
        )
    wanted, accepted = ASYNC_DRIVERS[backend]
    if driver not in accepted:
        raise DatabaseUrlError(f"use {backend}+{wanted} (or plain {backend}), not {driver!r}")
    return parsed.set(drivername=f"{backend}+{wanted}")


def redacted(url: str | URL) -> str:
    """The URL with any password hidden, for logs and messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "<unreadable database URL>"


def _sqlite_file(url: URL) -> Path | None:
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def make_engine(url: str | URL, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url``; for a SQLite file, its folder is created if missing."""
    parsed = async_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_async_engine(parsed, pool_pre_ping=True, **kwargs)

    path = _sqlite_file(parsed)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(parsed, **kwargs)

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the sqlite3 module, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        if path is not None:
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


async def migrate(engine: AsyncEngine) -> None:
    """Bring the database's tables up to the newest migration (a no-op when they are).

    Alembic runs on this engine's connection, inside one transaction, so a failed migration
    leaves the database as it was (PostgreSQL and SQLite both have transactional DDL).

    SQLite changes a table's constraints by rebuilding it (Alembic's batch mode: copy, drop,
    rename), which foreign keys would refuse while other tables refer to its rows. So, as
    SQLite's documentation prescribes, foreign keys are off for the migration and every
    reference is checked (``PRAGMA foreign_key_check``) before it commits.
    """
    async with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:  # before the transaction begins: inside one the pragma does nothing
            await connection.run_sync(_foreign_keys, False)
        try:
            async with connection.begin():
                await connection.run_sync(_upgrade_to_head)
                if sqlite:
                    broken = (await connection.exec_driver_sql("PRAGMA foreign_key_check")).all()
                    if broken:
                        raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
        finally:
            if sqlite:
                await connection.run_sync(_foreign_keys, True)


def _foreign_keys(connection: Connection, on: bool) -> None:
    """Turn SQLite's foreign keys on or off on the driver's connection, outside a transaction."""
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(f"PRAGMA foreign_keys = {'ON' if on else 'OFF'}")
    finally:
        cursor.close()


def _upgrade_to_head(connection: Connection) -> None:
    from alembic import command

    command.upgrade(alembic_config(connection), "head")


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration for the packaged migrations (no alembic.ini needed)."""
    from . import migrations

    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def make_sessions(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit (no lazy reload in async code)."""
    return async_sessionmaker(engine, expire_on_commit=False)
