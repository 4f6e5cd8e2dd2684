"""What an operator watches: the health probes (live, ready), the metrics at /metrics and the
JSON logs (issue 19, §4)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import logging.config
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from sqlalchemy import text
from typer.testing import CliRunner

from tienlen.cli.app import app as cli
from tienlen.server import collector
from tienlen.server.api.health import newest_migration
from tienlen.server.observe import JsonFormatter, Metrics, json_log_config, watch_the_loop

from .conftest import FakeClock, LiveServer, make_settings
from .faultproxy import FaultProxy
from .helpers import in_transaction


def _metric(body: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", body, re.MULTILINE)
    assert found, f"{name} is not in /metrics"
    return float(found.group(1))


def test_the_probes_and_the_metrics_of_a_running_server(
    client: httpx.Client, live: LiveServer, db_url: str
) -> None:
    assert client.get("/api/health/live").json()["status"] == "ok"
    assert client.get("/api/health/ready").json() == {"status": "ready", "reasons": []}
    metrics = client.get("/metrics")
    assert metrics.status_code == 200 and metrics.headers["content-type"].startswith("text/plain")
    body = metrics.text  # (the server is shared: earlier tests' tables may still be open)
    tables, writes = _metric(body, "tienlen_tables"), _metric(body, "tienlen_journal_writes_total")
    assert _metric(body, "tienlen_journal_dropped_writes_total") == 0
    assert _metric(body, "process_cpu_seconds_total") > 0
    # A table opened, and its row committed by the journal.
    guest = client.post("/api/guest")
    assert guest.status_code == 201
    r = client.post("/api/tables", json={"room": "trainee", "preset": "thapthanh", "bet": 1000})
    assert r.status_code == 201, r.text
    deadline = time.monotonic() + 10
    while _metric(body := client.get("/metrics").text, "tienlen_journal_writes_total") == writes:
        assert time.monotonic() < deadline, "the table's row was never committed"
        time.sleep(0.05)
    assert _metric(body, "tienlen_tables") == tables + 1
    assert _metric(body, "tienlen_journal_commit_seconds_count") >= 1
    assert "tienlen_settle_seconds" in body  # (no game settled yet: test_database_faults)


def test_a_stalled_loop_is_not_live(client: httpx.Client, live: LiveServer) -> None:
    app: Any = live.server.config.app  # type: ignore[union-attr]
    metrics: Metrics = app.state.server.metrics
    lag = metrics.loop_lag_s
    try:
        metrics.loop_lag_s = 2.5
        r = client.get("/api/health/live")
        assert r.status_code == 503 and r.json() == {"status": "stalled", "loop_lag_s": 2.5}
    finally:
        metrics.loop_lag_s = lag


def test_the_loop_watch_measures_how_late_the_loop_wakes() -> None:
    async def main() -> float:
        metrics = Metrics()
        task = asyncio.create_task(watch_the_loop(metrics, every_s=0.01))
        await asyncio.sleep(0.005)
        time.sleep(0.3)  # the loop held up, as a blocking call would
        while metrics.loop_lag_s == 0:
            await asyncio.sleep(0.001)
        task.cancel()
        return metrics.loop_lag_s

    assert asyncio.run(main()) >= 0.25


def test_a_database_behind_on_its_migrations_is_not_ready(
    client: httpx.Client, live: LiveServer, db_url: str
) -> None:
    newest = newest_migration()
    assert newest is not None
    in_transaction(
        db_url, lambda db: db.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    )
    try:
        r = client.get("/api/health/ready")
        assert r.status_code == 503
        assert r.json() == {
            "status": "not_ready",
            "reasons": [f"the database is at migration 0001, not {newest}"],
        }
    finally:
        in_transaction(
            db_url,
            lambda db: db.execute(
                text("UPDATE alembic_version SET version_num = :v"), {"v": newest}
            ),
        )
    assert client.get("/api/health/ready").status_code == 200


def test_a_server_whose_database_is_away_is_not_ready(pg_url: str, tmp_path: Path) -> None:
    proxy, through = FaultProxy.before(pg_url)
    server = LiveServer(make_settings(tmp_path, through), FakeClock()).start()
    try:
        client = server.client()
        assert client.get("/api/health/ready").status_code == 200
        proxy.refuse()
        r = client.get("/api/health/ready")
        assert r.status_code == 503
        assert r.json()["reasons"][0].startswith("the database does not answer")
        assert client.get("/api/health/live").status_code == 200  # alive all the same
        proxy.heal()
        assert client.get("/api/health/ready").status_code == 200
    finally:
        server.stop()
        proxy.close()


def test_json_logs_carry_the_ids_a_line_names() -> None:
    formatter = JsonFormatter()
    record = logging.LogRecord("tienlen.server", logging.WARNING, __file__, 1,
                               "game %s voided", ("t1:3",), None)  # fmt: skip
    record.table, record.game = "t1", "t1:3"
    line = json.loads(formatter.format(record))
    assert line.pop("ts").endswith("Z")
    assert line == {"level": "warning", "logger": "tienlen.server", "msg": "game t1:3 voided",
                    "table": "t1", "game": "t1:3"}  # fmt: skip
    try:
        raise RuntimeError("the disk is full")
    except RuntimeError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "lost", (), sys.exc_info())
    assert "RuntimeError: the disk is full" in json.loads(formatter.format(record))["exc"]


def test_serve_writes_json_logs_when_asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    def fake_run(server: uvicorn.Server, *args: Any) -> None:
        seen["log_config"] = server.config.log_config
        server.started = True

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    monkeypatch.setattr(collector, "configure", lambda: None)  # the suite keeps Python's
    monkeypatch.setenv("TIENLEN_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("TIENLEN_LOG_FORMAT", "json")
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 0, result.output
    assert seen["log_config"] == json_log_config()
    # That configuration writes uvicorn's access log as JSON too.
    config = json_log_config()
    stream = io.StringIO()
    config["handlers"]["stderr"]["stream"] = stream
    del config["handlers"]["stderr"]["class"]
    config["handlers"]["stderr"]["()"] = lambda stream: logging.StreamHandler(stream)
    config["handlers"]["stderr"]["stream"] = stream
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        logging.config.dictConfig(config)
        logging.getLogger("uvicorn.access").info(
            '%s - "%s %s HTTP/%s" %d', "127.0.0.1:5", "GET", "/api/me", "1.1", 200
        )
    finally:
        root.handlers[:], root.level = saved[0], saved[1]
    line = json.loads(stream.getvalue().splitlines()[-1])
    assert line["logger"] == "uvicorn.access" and "GET /api/me" in line["msg"]
    monkeypatch.delenv("TIENLEN_LOG_FORMAT")
    assert CliRunner().invoke(cli, ["serve"]).exit_code == 0
    assert seen["log_config"] != json_log_config()  # uvicorn's own text logs
