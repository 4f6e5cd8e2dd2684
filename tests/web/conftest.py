"""Fixtures for the browser tests: the real server with the built page, and Debian's Chromium
driven by Playwright for Python (never a downloaded browser).

The page must be built (``make test`` builds it; so does ``npm run build`` in ``web/``) and
``/usr/bin/chromium`` installed (``make test`` runs ``apt-get install -y chromium`` when it is
missing). Without them these tests are skipped with the reason, except under CI (``CI`` set),
where they fail. Screenshots go to ``test-output/web/`` (gitignored) for a person to look at.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from tienlen.server.app import create_app
from tienlen.server.page import BUILT_PAGE
from tienlen.server.serving import uvicorn_options
from tienlen.server.settings import Settings
from tienlen.server.table.seating import TableConfig

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "web"


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(reason + " (CI is set, so the browser tests must run)")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _no_tienlen_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("TIENLEN_"):
            monkeypatch.delenv(name)


class PageServer:
    """``tienlen serve``'s app under uvicorn on a free 127.0.0.1 port, in a thread, on a fresh
    SQLite database, with quick table clocks (the turn timers are the tables' own).

    The wait before a game starts without every seat filled is long: every test fills its
    table (people and the bots its owner adds from the page, one by one), and a full table
    starts at once. A short wait would start a game with whoever was ready while the owner
    was still adding bots."""

    def __init__(self, data_dir: Path, **settings_given: Any) -> None:
        self.data_dir = data_dir
        settings = Settings.model_validate(
            {
                "data_dir": data_dir,
                "argon2_time_cost": 1,
                "argon2_memory_kib": 1024,
                "argon2_parallelism": 1,
                **settings_given,
            }
        )
        config = TableConfig(start_wait_s=60.0, between_games_s=2.0, seed_window_s=1.0)
        # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets whose proto says TCP,
        # and without it every response waited ~40 ms for the client's delayed ACK.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        app = create_app(settings, table_config=config)
        served = uvicorn.Config(
            app, log_level="warning", lifespan="on", **uvicorn_options(settings)
        )
        self.server = uvicorn.Server(served)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


def page_built() -> None:
    """Skip (fail under CI) without a built page."""
    if not (BUILT_PAGE / "index.html").is_file():
        _missing(f"the page is not built in {BUILT_PAGE}: run npm ci && npm run build in web/")


@pytest.fixture
def page_server(tmp_path: Path) -> Iterator[PageServer]:
    """A server of the test's own (a fraction of a second to start): a table another test
    left waiting, with a person still seated, would otherwise be where "play now" seats the
    next test's guest, whose first deal then waits for that table's start."""
    page_built()
    # Every browser test makes its people from the one address (127.0.0.1), more of them
    # than the default sign-up limit allows an hour; the limit is tests/server's concern.
    (tmp_path / "web-data").mkdir()
    server = PageServer(tmp_path / "web-data", signup_limit=0)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one module's tests: Playwright's sync API runs an event loop in this
    thread while it is open, so it must close before other tests (asyncio.run) run."""
    if not CHROMIUM.exists():
        _missing(f"{CHROMIUM} is missing: apt-get install -y chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright for Python is not installed (pip install -e '.[dev]')")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield launched
        launched.close()


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Any:
    """``shots(page, "name")`` saves a full-page screenshot under test-output/web/."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = SHOTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
