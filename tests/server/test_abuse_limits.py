"""Abuse limits of the account routes, through the real server on a moving clock: sign-ups
per address, log-ins per address, and the lockout of a nickname after failed log-ins; and the
limit classes themselves."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from tienlen.server.limits import Lockout, Window

from .conftest import START, FakeClock, LiveServer, make_settings
from .helpers import snapshot

PASSWORD = "mật khẩu dài"


def _code(r: httpx.Response) -> str:
    code: str = r.json()["error"]["code"] if r.status_code >= 400 else "ok"
    return code


def test_a_nickname_is_locked_after_failed_log_ins_until_the_time_it_names(
    serve: Callable[..., LiveServer], tmp_path: Path, db_url: str, clock: FakeClock
) -> None:
    live = serve(
        make_settings(tmp_path, db_url, login_lockout_failures=3, login_lockout_minutes=15)
    )
    client = live.client()
    r = client.post("/api/register", json={"nickname": "Lan Anh", "password": PASSWORD})
    assert r.status_code == 201
    wrong = {"nickname": "Lan Anh", "password": "not the password"}
    right = {"nickname": "lan_anh", "password": PASSWORD}  # the same key

    answers = [client.post("/api/login", json=wrong) for _ in range(3)]
    assert [_code(r) for r in answers] == ["bad_credentials"] * 3
    until = (START + timedelta(minutes=15)).isoformat()
    assert f"locked until {until}" in answers[-1].json()["error"]["message"]
    before = snapshot(db_url)
    r = client.post("/api/login", json=right)  # the right password too is refused now
    assert (r.status_code, _code(r)) == (429, "login_locked")
    assert until in r.json()["error"]["message"]
    assert r.json()["error"]["retry_after"] == until  # for the page to say in local time
    assert snapshot(db_url) == before
    assert _code(client.post("/api/login", json={"nickname": "Đức", "password": "x"})) == (
        "bad_credentials"  # other nicknames are not locked
    )

    clock.advance(minutes=14, seconds=59)
    assert _code(client.post("/api/login", json=right)) == "login_locked"
    clock.advance(seconds=1)
    assert _code(client.post("/api/login", json=right)) == "ok"
    # A success clears the count: two more failures do not lock it.
    for _ in range(2):
        assert _code(client.post("/api/login", json=wrong)) == "bad_credentials"
    assert _code(client.post("/api/login", json=right)) == "ok"


def test_sign_ups_and_log_ins_are_limited_per_address(
    serve: Callable[..., LiveServer], tmp_path: Path, db_url: str, clock: FakeClock
) -> None:
    settings = make_settings(
        tmp_path, db_url, signup_limit=3, signup_window_minutes=60, login_limit=4
    )
    live = serve(settings)
    guest = live.client()
    assert guest.post("/api/guest").status_code == 201
    register = live.client().post("/api/register", json={"nickname": "An", "password": "x"})
    assert _code(register) == "bad_nickname"  # refused, but it counted
    assert live.client().post("/api/guest").status_code == 201
    before = snapshot(db_url)
    for r in (
        live.client().post("/api/guest"),
        live.client().post("/api/register", json={"nickname": "Bình", "password": PASSWORD}),
    ):
        assert (r.status_code, _code(r)) == (429, "too_many_signups")
        signups_until = (START + timedelta(minutes=60)).isoformat()
        assert signups_until in r.json()["error"]["message"]
        assert r.json()["error"]["retry_after"] == signups_until
    assert snapshot(db_url) == before
    assert guest.post("/api/guest").status_code == 200  # a returning guest is no sign-up

    logins = [live.client().post("/api/login", json={"nickname": "Ai", "password": "x" * 8})]
    logins += [live.client().post("/api/login", json={"nickname": "Ai", "password": "y" * 8})]
    logins += [live.client().post("/api/login", json={"nickname": "Ai", "password": "z" * 8})]
    logins += [live.client().post("/api/login", json={"nickname": "Ba", "password": "z" * 8})]
    assert [_code(r) for r in logins] == ["bad_credentials"] * 4
    r = live.client().post("/api/login", json={"nickname": "Ba", "password": "z" * 8})
    assert (r.status_code, _code(r)) == (429, "too_many_logins")
    logins_until = datetime.fromisoformat(r.json()["error"]["retry_after"])
    assert logins_until > START and logins_until.utcoffset() == timedelta(0)
    assert "retry_after" not in logins[0].json()["error"]  # only on the time-limited refusals

    clock.advance(minutes=60)
    assert live.client().post("/api/guest").status_code == 201


def test_a_window_counts_per_key_and_forgets_with_time() -> None:
    window = Window(2, 10.0)
    assert [window.hit("a", 0.0), window.hit("a", 1.0)] == [0.0, 0.0]
    assert window.hit("a", 2.0) == 8.0  # the first hit leaves the window at 10
    assert window.hit("b", 2.0) == 0.0
    assert window.hit("a", 10.0) == 0.0 and window.hit("a", 10.5) == 0.5
    unlimited = Window(0, 10.0)
    assert all(unlimited.hit("a", 0.0) == 0.0 for _ in range(100))


def test_a_lockout_needs_its_failures_within_its_time() -> None:
    lockout = Lockout(3, 60.0)
    assert lockout.fail("k", 0.0) is None and lockout.fail("k", 30.0) is None
    assert lockout.fail("k", 61.0) is None  # the first failure is out of the window
    assert lockout.fail("k", 62.0) == 122.0
    assert lockout.locked_until("k", 121.0) == 122.0
    assert lockout.locked_until("k", 122.0) is None
    assert lockout.fail("k", 123.0) is None  # the lock's failures are forgotten
    lockout.clear("k")
    assert Lockout(0, 60.0).fail("k", 0.0) is None


def test_a_window_drops_the_keys_that_no_longer_matter() -> None:
    window = Window(2, 10.0)
    for key in ("a", "b", "c"):
        window.hit(key, 0.0)
    window.hit("a", 6.0)
    assert len(window) == 3
    window.hit("d", 9.9)  # within the window of the first hits: nothing is dropped yet
    assert len(window) == 4
    window.hit("d", 15.0)  # b and c last hit at 0: a window old, they wait for nothing
    assert len(window) == 2 and window.wait("a", 15.0) == 0.0
    assert window.hit("a", 15.5) == 0.0  # a still counts its hit at 6: one more, then a wait
    assert window.hit("a", 15.8) == pytest.approx(0.2)
    window.prune(100.0)
    assert len(window) == 0


def test_a_lockout_drops_the_keys_that_no_longer_matter() -> None:
    lockout = Lockout(2, 60.0)
    lockout.fail("old", 0.0)
    lockout.fail("locked", 50.0)
    assert lockout.fail("locked", 55.0) == 115.0
    lockout.fail("new", 61.0)  # a minute after "old" failed: "old" neither counts nor locks
    assert len(lockout) == 2 and lockout.locked_until("locked", 61.0) == 115.0
    lockout.fail("new", 130.0)
    assert len(lockout) == 1  # "locked"'s lock ended at 115 and its failures are stale


def test_the_servers_limits_forget_old_addresses_nicknames_and_speakers(
    serve: Callable[..., LiveServer], tmp_path: Path, db_url: str, clock: FakeClock
) -> None:
    settings = make_settings(
        tmp_path, db_url, signup_limit=5, login_limit=5, login_lockout_failures=3
    )
    live = serve(settings)
    app: Any = live.server.config.app  # type: ignore[union-attr]
    server = app.state.server
    assert live.client().post("/api/guest").status_code == 201
    for nickname in ("Ai", "Ba", "Chi"):
        r = live.client().post("/api/login", json={"nickname": nickname, "password": "x" * 8})
        assert _code(r) == "bad_credentials"
    guards = server.guards
    assert (len(guards.signups), len(guards.logins), len(guards.lockout)) == (1, 1, 3)
    clock.advance(hours=2)  # past every window (an hour at most) and every lock
    r = live.client().post("/api/login", json={"nickname": "Dũng", "password": "x" * 8})
    assert _code(r) == "bad_credentials"
    assert (len(guards.logins), len(guards.lockout)) == (1, 1)  # the new attempt only
    assert live.client().post("/api/guest").status_code == 201
    assert len(guards.signups) == 1
