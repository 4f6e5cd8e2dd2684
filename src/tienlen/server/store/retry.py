"""Trying a database write again while the database cannot be reached.

A PostgreSQL that restarts, a backend terminated by an operator, a network cut or a pool that
timed out all fail a write that would pass a moment later; an error in the data (a broken
constraint, a ledger refusal) fails it every time. The journal's writer and the settlement of a
finished game retry the first kind (:func:`transient`) with growing pauses (:class:`Backoff`)
until the write goes through, and act on the second at once: a settlement is not voided, and a
game's journal not broken, because PostgreSQL was away for a few seconds (docs/SERVER.md,
"When the database goes away").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import exc as sa

__all__ = ["PATIENT", "Backoff", "retrying", "transient"]

logger = logging.getLogger(__name__)

T = TypeVar("T")


def transient(error: BaseException) -> bool:
    """Whether ``error`` may pass if the write is tried again: the connection could not be made
    or was lost, the pool had none to give, or SQLite's lock stayed busy (all of them
    ``OperationalError``, ``InterfaceError``, an invalidated connection or an OS-level error)
    — not an error in the data or the statement (``IntegrityError``, ``DataError``, a
    ``LedgerError``)."""
    if isinstance(error, sa.DBAPIError):
        return error.connection_invalidated or isinstance(
            error, sa.OperationalError | sa.InterfaceError
        )
    return isinstance(error, sa.TimeoutError | sa.DisconnectionError | OSError | TimeoutError)


@dataclass(frozen=True)
class Backoff:
    """Pauses between tries: ``first_s``, doubling up to ``most_s``, for as long as it takes."""

    first_s: float = 0.1
    most_s: float = 5.0

    def pauses(self) -> Iterator[float]:
        pause = self.first_s
        while True:
            yield pause
            pause = min(pause * 2, self.most_s)


PATIENT = Backoff()
"""The server's pauses: from a tenth of a second up to five, for as long as it takes."""


async def retrying(
    write: Callable[[], Awaitable[T]],
    what: str,
    backoff: Backoff = PATIENT,
    give_up: Callable[[], bool] = lambda: False,
) -> T:
    """Run ``write`` until it returns, trying again after each :func:`transient` error (logged
    once, as ``what``, and once more when it passes); any other error is raised at once, and a
    transient one too once ``give_up()`` says so (the server is stopping)."""
    pauses = backoff.pauses()
    failures = 0
    while True:
        try:
            result = await write()
        except Exception as error:
            if not transient(error) or give_up():
                raise
            failures += 1
            if failures == 1:
                logger.warning("%s: the database cannot be reached, trying again: %s", what, error)
            await asyncio.sleep(next(pauses))
            continue
        if failures:
            logger.warning("%s: written after %d failed tries", what, failures)
        return result
