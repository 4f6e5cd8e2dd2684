"""The bots' process pool starts warm with the server, and analysis runs in a pool of its own."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from tienlen.server.botpool import (
    bot_workers,
    shared_analysis_pool,
    shared_bot_pool,
    shutdown_bot_pool,
)

from .conftest import LiveServer


def test_the_server_starts_its_bots_pool_warm(serve: Callable[..., LiveServer]) -> None:
    shutdown_bot_pool()  # as after a restart: no pool yet
    serve()
    pool = shared_bot_pool()
    # Every worker already running (spawned and imported) before the first decision.
    assert len(pool._processes) == bot_workers()
    assert pool.submit(os.getpid).result(timeout=5) in pool._processes


def test_analysis_runs_beside_the_bots_never_before_them(
    serve: Callable[..., LiveServer],
) -> None:
    shutdown_bot_pool()
    live = serve()
    analysis = shared_analysis_pool()
    assert analysis is live.app_server().analysis()
    assert analysis is not shared_bot_pool()
    assert analysis._max_workers == live.settings.analysis_workers == 1
    busy = analysis.submit(time.sleep, 5.0)  # a long analysis or scan holds its one worker
    try:
        pid = shared_bot_pool().submit(os.getpid).result(timeout=30)
        assert not busy.done()  # the bots' answer did not wait for it
        assert pid not in analysis._processes
    finally:
        shutdown_bot_pool()  # the sleeper is not waited for
