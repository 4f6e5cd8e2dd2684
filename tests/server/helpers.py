"""Helpers for the server tests: direct database access beside the live server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tienlen.server.store.db import make_engine, make_sessions
from tienlen.server.store.models import Account, ChatMessage, Entry, Session, Transaction, User

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


@asynccontextmanager
async def database(url: str) -> AsyncIterator[Callable[[], AsyncSession]]:
    """A session factory on ``url`` for the length of the block."""
    engine = make_engine(url)
    try:
        yield make_sessions(engine)
    finally:
        await engine.dispose()


def in_transaction(url: str, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
    """Run ``work`` in one committed transaction on ``url``."""

    async def go() -> T:
        async with database(url) as sessions, sessions() as db, db.begin():
            return await work(db)

    return run(go())


def snapshot(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, to prove that a refused request changed nothing."""

    async def read(db: AsyncSession) -> dict[str, list[tuple[Any, ...]]]:
        tables: dict[str, list[tuple[Any, ...]]] = {}
        for model in (User, Session, Account, Transaction, Entry, ChatMessage):
            columns = list(model.__table__.columns)
            rows = await db.execute(select(*columns).order_by(columns[0]))
            tables[model.__tablename__] = [tuple(row) for row in rows]
        return tables

    return in_transaction(url, read)


def references(url: str) -> list[str]:
    async def read(db: AsyncSession) -> list[str]:
        return list(await db.scalars(select(Transaction.reference).order_by(Transaction.id)))

    return in_transaction(url, read)
