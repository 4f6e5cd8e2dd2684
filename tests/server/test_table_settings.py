"""The live tables' clocks come from the server's settings (``TIENLEN_GRACE_SECONDS`` …,
docs/SERVER.md), so operators and tests need not wait a minute for a lost player's seat."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from tienlen.server.settings import Settings
from tienlen.server.table.seating import TableConfig

from .conftest import FakeClock, LiveServer, make_settings

TIMERS = {
    "grace_seconds": ("grace_s", 61.5),
    "chop_seconds": ("chop_s", 4.5),
    "seed_window_seconds": ("seed_window_s", 0.0),
    "start_wait_seconds": ("start_wait_s", 7.0),
    "between_games_seconds": ("between_games_s", 2.5),
    "play_now_wait_seconds": ("play_now_wait_s", 9.0),
    "away_after_turns": ("away_after", 3),
    "bot_delay_seconds": ("bot_delay_s", 0.1),
    "bot_budget_seconds": ("bot_budget_s", 1.5),
}
"""Each table setting, the table's field it sets, and a value other than its default."""


def test_each_table_timer_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = TableConfig.of(Settings())
    assert defaults == TableConfig(), "the settings' defaults are the tables' defaults"
    for name, (_, value) in TIMERS.items():
        monkeypatch.setenv(f"TIENLEN_{name.upper()}", str(value))
    config = TableConfig.of(Settings())
    for name, (field, value) in TIMERS.items():
        assert getattr(config, field) == value, name
        assert getattr(defaults, field) != value, f"{name}: pick a value other than the default"
    untouched = {f.name for f in dataclasses.fields(TableConfig)} - {f for f, _ in TIMERS.values()}
    for field in untouched:  # seats, the turn timer, logs and rates are each table's own
        assert getattr(config, field) == getattr(defaults, field), field


@pytest.mark.parametrize("value", ["-1", "abc", "100000"])
def test_a_bad_table_timer_is_refused_by_name(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("TIENLEN_GRACE_SECONDS", value)
    with pytest.raises(ValueError, match="grace_seconds"):
        Settings()


def test_a_lost_player_keeps_the_seat_for_the_grace_the_settings_give(
    db_url: str, tmp_path: Path
) -> None:
    """No table config passed: the app's tables take the settings' (here two seconds of
    grace), and a player whose socket closes is stood up within it, not after 60 s."""
    settings = make_settings(tmp_path, db_url, grace_seconds=2, start_wait_seconds=30)
    server = LiveServer(settings, FakeClock()).start()
    try:
        client = server.client()
        assert client.post("/api/guest").status_code == 201
        token = client.cookies[settings.cookie_name]
        bet = {"room": "trainee", "preset": "bigfun", "bet": 1000}
        table = client.post("/api/tables", json=bet).json()["id"]

        def taken() -> int:
            listed = client.get("/api/tables").json()["tables"]
            return next(t["seats_taken"] for t in listed if t["id"] == table)

        async def sit_and_go() -> None:
            url = server.url.replace("http://", "ws://") + f"/ws/tables/{table}"
            headers = {"Cookie": f"{settings.cookie_name}={token}"}
            async with connect(url, origin=server.url, additional_headers=headers) as ws:  # type: ignore[arg-type]
                await ws.send(json.dumps({"type": "hello", "protocol": 1}))
                await ws.send(json.dumps({"type": "sit", "seat": 0, "ref": 1}))
                while json.loads(await ws.recv()).get("type") != "ack":
                    pass

        asyncio.run(sit_and_go())
        gone = time.monotonic()
        assert taken() == 1, "the seat is kept while the grace runs"
        while taken() == 1:
            assert time.monotonic() - gone < 10, "the seat was kept past the grace"
            time.sleep(0.05)
        assert time.monotonic() - gone >= 1.5, "stood up before the grace ran out"
    finally:
        server.stop()
