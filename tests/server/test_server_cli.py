"""``tienlen serve`` and ``tienlen admin check-ledger``."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from tienlen.cli import app

from .conftest import drop_postgres_database, fresh_database
from .test_server_ledger import execute, players, settle

runner = CliRunner()


def check_ledger(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["admin", "check-ledger", *args])
    return result.exit_code, result.output


def test_check_ledger_passes_a_sound_ledger(db_url: str) -> None:
    a, b = players(db_url, "a", "b")
    settle(db_url, "g1", {a: 95, b: -100}, 5)
    code, out = check_ledger("--database-url", db_url)
    assert code == 0, out
    assert out.startswith("ledger sound: 4 accounts, 3 transactions, 7 entries, 2000 chips issued")
    code, out = check_ledger("--database-url", db_url, "--json")
    assert code == 0 and json.loads(out)["ok"] is True


def test_check_ledger_lists_each_violation(db_url: str) -> None:
    a, _b = players(db_url, "a", "b")
    execute(db_url, "UPDATE ledger_accounts SET balance = 999 WHERE user_id = :a", a=a)
    code, out = check_ledger("--database-url", db_url)
    assert code == 1
    assert out.splitlines()[0].startswith("ledger NOT sound")
    assert f"(player of user {a}) has balance 999 but its entries sum to 1000" in out
    assert "balances_sum: the balances of all accounts sum to -1" in out
    report = json.loads(check_ledger("--database-url", db_url, "--json")[1])
    assert report["ok"] is False
    assert {v["code"] for v in report["violations"]} == {"balance_mismatch", "balances_sum"}


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_check_ledger_on_a_database_without_a_ledger(backend: str, tmp_path: Path) -> None:
    url = fresh_database(backend, tmp_path)
    try:
        if backend == "sqlite":
            Path(url.removeprefix("sqlite:///")).touch()
        code, out = check_ledger("--database-url", url)
    finally:
        if backend == "postgresql":
            drop_postgres_database(url)
    assert code == 2
    assert "has no ledger" in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--data-dir", "/nonexistent/data"], "no database at /nonexistent/data/tienlen.sqlite3"),
        (["--database-url", "mysql://u@h/db"], "'mysql' is not supported"),
        (["--database-url", "postgresql://nobody@127.0.0.1:1/x"], "error: postgresql://"),
    ],
)
def test_check_ledger_says_why_it_cannot_check(args: list[str], says: str) -> None:
    code, out = check_ledger(*args)
    assert code == 2, out
    assert says in out


def test_serve_refuses_bad_settings() -> None:
    result = runner.invoke(app, ["serve", "--port", "99999"])
    assert result.exit_code == 2
    assert "bad setting: port" in result.output
    result = runner.invoke(app, ["serve", "--database-url", "oracle://x"])
    assert result.exit_code == 2 and "'oracle' is not supported" in result.output


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_serve_runs_the_server_and_prints_its_address(tmp_path: Path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TIENLEN_")}
    process = subprocess.Popen(
        [sys.executable, "-c", "from tienlen.cli import app; app()", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
                break
            except httpx.TransportError:
                assert process.poll() is None, process.stdout.read() if process.stdout else ""
                assert time.monotonic() < deadline, "the server did not answer within 30 s"
                time.sleep(0.1)
        assert health.json() == {"status": "ok", "database": "sqlite"}
    finally:
        process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=30)
    assert process.returncode == 0, output
    assert f"Tiến Lên server on http://127.0.0.1:{port}" in output
    assert (tmp_path / "data" / "tienlen.sqlite3").is_file()
    assert (tmp_path / "data" / "secret_key").is_file()
