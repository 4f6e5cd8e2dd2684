"""How `tienlen serve` runs Python's garbage collector, so that its pauses stay short.

CPython 3.11's collector stops the event loop, every table with it, while it walks a
generation. A full collection walks the whole heap: at 500 tables (2,000 sockets, about 600,000
tracked objects) it took 0.1-0.6 s, and under that load Python started one every 15-20 s, each
delaying the broadcasts of every table (docs/BENCHMARKS.md, "Server load"). They found almost
nothing: a full collection run by hand after 45 s of play met a few hundred unreachable objects,
since reference counting frees nearly everything and the young collections catch the cycles of
short-lived objects (SQLAlchemy's statements, mostly). So the server keeps the young and middle
collections (every 10,000 allocations, and every 10th of those), never starts a full one by
itself, and runs one on the event loop every `TIENLEN_GC_FULL_COLLECTION_MINUTES`.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Awaitable, Callable

logger = logging.getLogger(__name__)

YOUNG_THRESHOLD = 10_000
"""Allocations (less deallocations) between two young collections; Python's default is 700."""
MIDDLE_THRESHOLD = 10
"""Young collections between two middle ones, Python's default."""
NO_AUTOMATIC_FULL = 1_000_000_000
"""Middle collections between two full ones: never, in the life of a server."""


def configure() -> None:
    """Set the collector up for a long-running server, once everything is imported.

    What is loaded by now (modules, classes, schemas) lives as long as the process: it is moved
    out of every collection's walk (`gc.freeze`)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, NO_AUTOMATIC_FULL)


def full_collections_off() -> bool:
    """True when Python starts no full collection by itself (after `configure`)."""
    return gc.get_threshold()[2] >= NO_AUTOMATIC_FULL


def collect_fully() -> tuple[int, float]:
    """One full collection now: (unreachable objects found, milliseconds it took)."""
    started = time.perf_counter()
    found = gc.collect()
    return found, (time.perf_counter() - started) * 1000


async def full_collections(
    every_s: float, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
) -> None:
    """Run a full collection every ``every_s`` seconds, on the event loop, until cancelled;
    each is logged with what it found and how long the loop stood still. (``sleep`` waits
    out each period: a test's steps through them without waiting.)"""
    while True:
        await sleep(every_s)
        found, millis = collect_fully()
        logger.info("full garbage collection: %d unreachable objects, %.0f ms", found, millis)
