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


def _serve(folder: Path, port: int, output: int | None) -> subprocess.Popen[str]:
    """``tienlen serve --port PORT`` started in ``folder``, without the TIENLEN_ environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TIENLEN_")}
    return subprocess.Popen(
        [sys.executable, "-c", "from tienlen.cli import app; app()", "serve", "--port", str(port)],
        cwd=folder,
        env=env,
        stdout=output,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _health(process: subprocess.Popen[str], port: int) -> httpx.Response:
    """The server's health, once it answers (within 30 s)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
        except httpx.TransportError:
            assert process.poll() is None, process.stdout.read() if process.stdout else ""
            assert time.monotonic() < deadline, "the server did not answer within 30 s"
            time.sleep(0.1)


def test_serve_runs_the_server_and_prints_its_address(tmp_path: Path) -> None:
    port = _free_port()
    process = _serve(tmp_path, port, subprocess.PIPE)
    try:
        health = _health(process, port)
        assert health.json() == {"status": "ok", "database": "sqlite"}
    finally:
        process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=30)
    assert process.returncode == 0, output
    assert f"Tiến Lên server on http://127.0.0.1:{port}" in output
    assert "draining for up to 30 s: no new table or game" in output  # no game on: at once
    assert (tmp_path / "data" / "tienlen.sqlite3").is_file()
    assert (tmp_path / "data" / "secret_key").is_file()


def _children_of(pid: int) -> set[int]:
    """Every process descended from ``pid`` now (read from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
@pytest.mark.parametrize(
    "stop", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=lambda s: str(s.name)
)
def test_no_process_of_the_server_outlives_it(tmp_path: Path, stop: signal.Signals) -> None:
    """The bots' and the analysis' pool workers (and multiprocessing's resource tracker) end
    within a few seconds of the server, however it stops: they were left running, adopted by
    init, after every stop."""
    port = _free_port()
    process = _serve(tmp_path, port, subprocess.DEVNULL)
    try:
        _health(process, port)
        children = _children_of(process.pid)
        assert len(children) >= 2, "the server starts its pools' workers as it starts"
        process.send_signal(stop)
        process.wait(timeout=30)
        deadline = time.monotonic() + 8
        while (left := {pid for pid in children if _alive(pid)}) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not left, f"still running {stop.name} after the server: {sorted(left)}"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
