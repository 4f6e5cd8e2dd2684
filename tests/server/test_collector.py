"""The garbage collector's policy under `tienlen serve` (server/collector.py)."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from tienlen.cli import app
from tienlen.server import collector

from .conftest import FakeClock, LiveServer, make_settings


@pytest.fixture
def restored_collector() -> Iterator[None]:
    """Whatever a test does to the collector, the rest of the suite gets Python's back."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def old_cycle() -> weakref.ref[Node]:
    """A cycle that has lived through the young and middle collections, then is dropped."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    gc.collect(1)  # both move up to the oldest generation
    return weakref.ref(a)


def test_configure_leaves_full_collections_to_the_server(restored_collector: None) -> None:
    assert not collector.full_collections_off()
    collector.configure()
    assert collector.full_collections_off()
    assert gc.get_threshold() == (10_000, 10, collector.NO_AUTOMATIC_FULL)
    assert gc.get_freeze_count() > 0  # what was loaded is out of every walk
    cycle = old_cycle()
    for _ in range(30):  # many middle collections: none of them goes on to a full one
        gc.collect(1)
    assert cycle() is not None
    found, millis = collector.collect_fully()
    assert cycle() is None and found >= 2 and millis >= 0


def test_the_periodic_full_collection_frees_old_cycles(restored_collector: None) -> None:
    collector.configure()
    cycle = old_cycle()

    waits: list[tuple[float, bool]] = []  # each period, and whether the cycle was alive then

    async def period(seconds: float) -> None:  # each period passes at once
        waits.append((seconds, cycle() is not None))
        if len(waits) == 3:
            raise asyncio.CancelledError  # the server stops, in the third period

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(collector.full_collections(0.05, sleep=period))
    # Alive through the first period; the collection at its end freed it.
    assert waits == [(0.05, True), (0.05, False), (0.05, False)]


def test_serve_configures_the_collector_before_running(
    restored_collector: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: list[tuple[int, int, int]] = []

    def fake_run(server: uvicorn.Server, *args: Any) -> None:
        seen.append(gc.get_threshold())
        server.started = True

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    monkeypatch.setenv("TIENLEN_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 0, result.output
    assert seen == [(10_000, 10, collector.NO_AUTOMATIC_FULL)]


def test_the_app_runs_the_full_collections_only_when_python_does_not(
    restored_collector: None, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="tienlen.server.collector")
    every_tenth_of_a_second = 0.1 / 60
    for configured in (False, True):
        if configured:
            # The stopped server's thread hands its greenlets (SQLAlchemy's) to this thread to
            # destroy, as a pending call, a moment after it ends: let that run now, not inside
            # the collection below (where a gc callback's Python code would run it, mid-
            # collection: CI once spun there for an hour).
            time.sleep(0.2)
            sum(range(1000))
            collector.configure()
        settings = make_settings(
            tmp_path / str(configured), None, gc_full_collection_minutes=every_tenth_of_a_second
        )
        live = LiveServer(settings, FakeClock()).start()

        def ran() -> list[logging.LogRecord]:
            return [
                r for r in caplog.records if r.getMessage().startswith("full garbage collection")
            ]

        try:
            app: Any = live.server.config.app  # type: ignore[union-attr]
            assert (app.state.collections is not None) == configured
            deadline = time.monotonic() + 10
            while configured and not ran():  # the first collection, a tenth of a second in
                assert time.monotonic() < deadline, "no full collection ran"
                time.sleep(0.01)
        finally:
            live.stop()
        assert bool(ran()) == configured
