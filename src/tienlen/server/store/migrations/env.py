"""Alembic's entry point for the server's migrations.

At run time the server hands Alembic an open connection (``config.attributes["connection"]``,
see ``store.db.migrate``). From the ``alembic`` command line (docs/SERVER.md, "Migrations") the
database comes from the ``TIENLEN_*`` settings instead.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from alembic import context
from sqlalchemy import Connection, text

from tienlen.server.store.models import Base, UTCDateTime

MIGRATION_LOCK = 0x7469656E6C656E
"""PostgreSQL advisory lock key ("tienlen"): two servers starting at once migrate one by one."""


def render_item(kind: str, obj: Any, _autogen: Any) -> str | Literal[False]:
    """Write the models' UTCDateTime as the plain column type it stores."""
    if kind == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def run_migrations(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=True,
        compare_type=True,
        render_item=render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_from_settings() -> None:
    from tienlen.server.settings import Settings
    from tienlen.server.store.db import make_engine

    engine = make_engine(Settings().resolved_database_url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(run_migrations)
    finally:
        await engine.dispose()


given = context.config.attributes.get("connection")
if given is not None:
    run_migrations(given)
else:
    asyncio.run(run_from_settings())
