"""Accounts through the real app over HTTP: register, log in and out, guests, upgrade, errors.

Every test runs on SQLite and on PostgreSQL (the ``db_url`` fixture).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tienlen.server.settings import Settings
from tienlen.server.store import ledger
from tienlen.server.store.models import Session, User

from .conftest import FakeClock, LiveServer
from .helpers import in_transaction, snapshot

PASSWORD = "mật khẩu 123"


def register(client: httpx.Client, nickname: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/register", json={"nickname": nickname, "password": password})


def error_of(response: httpx.Response) -> str:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["message"], "an error must say what was wrong"
    return str(body["error"]["code"])


def session_cookie(response: httpx.Response) -> str:
    (header,) = [h for h in response.headers.get_list("set-cookie") if "tienlen_session" in h]
    return header


def test_register_logs_in_with_an_httponly_session_cookie(
    client: httpx.Client, db_url: str, settings: Settings
) -> None:
    r = register(client, "Đức Anh")
    assert r.status_code == 201, r.text
    profile = r.json()
    assert profile["nickname"] == "Đức Anh"
    assert profile["is_guest"] is False
    assert profile["chips"] == settings.starting_grant
    assert (profile["dkn"], profile["vip_points"]) == (0, 0)
    assert (profile["games_played"], profile["games_won"]) == (0, 0)

    cookie = session_cookie(r)
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    assert {"httponly", "path", "max-age", "samesite"} <= attributes
    assert "samesite=lax" in cookie.lower()
    assert "secure" not in attributes
    assert f"Max-Age={settings.session_days * 86400}" in cookie

    token = client.cookies["tienlen_session"]
    stored = snapshot(db_url)["sessions"]
    assert len(stored) == 1
    assert token not in repr(stored), "the token itself must never be stored"
    assert hashlib.sha256(token.encode()).hexdigest() in repr(stored)

    me = client.get("/api/me")
    assert me.status_code == 200
    assert me.json()["id"] == profile["id"]


def test_secure_cookies_when_configured(
    serve: Callable[..., LiveServer], settings: Settings
) -> None:
    live = serve(settings.model_copy(update={"cookie_secure": True}))
    r = register(live.client(), "Minh")
    assert r.status_code == 201
    assert "secure" in {p.strip().lower() for p in session_cookie(r).split(";")}


def test_log_out_then_log_in_ignoring_case_and_diacritics(
    client: httpx.Client, db_url: str
) -> None:
    user_id = register(client, "Đức Anh").json()["id"]
    r = client.post("/api/logout")
    assert r.status_code == 200 and r.json() == {"ok": True}
    assert "tienlen_session" not in client.cookies
    assert snapshot(db_url)["sessions"] == []
    r = client.get("/api/me")
    assert r.status_code == 401 and error_of(r) == "not_logged_in"

    for typed in ("Đức Anh", "duc anh", "ĐỨC_ANH"):
        r = client.post("/api/login", json={"nickname": typed, "password": PASSWORD})
        assert r.status_code == 200, r.text
        assert r.json()["id"] == user_id
        assert r.json()["nickname"] == "Đức Anh"
        assert client.get("/api/me").json()["id"] == user_id
    assert len(snapshot(db_url)["sessions"]) == 1, "each log-in replaces the client's session"

    # Logging out twice, or without a session, is harmless.
    assert client.post("/api/logout").status_code == 200
    assert client.post("/api/logout").status_code == 200


@pytest.mark.parametrize(
    "credentials",
    [
        {"nickname": "Đức Anh", "password": "wrong password"},
        {"nickname": "Nobody", "password": PASSWORD},
        {"nickname": "Đức Anh", "password": ""},
        {"nickname": "x" * 100, "password": PASSWORD},
    ],
    ids=["wrong-password", "unknown-nickname", "empty-password", "long-nickname"],
)
def test_bad_credentials_change_nothing(
    client: httpx.Client, db_url: str, credentials: dict[str, str]
) -> None:
    register(client, "Đức Anh")
    client.post("/api/logout")
    before = snapshot(db_url)
    r = client.post("/api/login", json=credentials)
    assert r.status_code == 401 and error_of(r) == "bad_credentials"
    assert "tienlen_session" not in client.cookies
    assert snapshot(db_url) == before


def test_nicknames_are_unique_ignoring_case_and_diacritics(
    client: httpx.Client, db_url: str
) -> None:
    assert register(client, "Đức").status_code == 201
    before = snapshot(db_url)
    for other in ("duc", "DUC", "Dưc", "Đúc", "đỨc", "Duc"):
        r = register(httpx.Client(base_url=str(client.base_url)), other)
        assert r.status_code == 409, other
        assert error_of(r) == "nickname_taken"
        assert (
            f"'{other}' is taken: 'Đức' differs from it only in case"
            in r.json()["error"]["message"]
        )
    assert snapshot(db_url) == before
    r = register(client, "Đức")
    assert r.json()["error"]["message"] == "the nickname 'Đức' is taken"
    assert register(client, "Đức_Anh").status_code == 201
    r = register(client, "duc anh")
    assert r.status_code == 409 and error_of(r) == "nickname_taken", "_ and space are one"


BAD_REGISTRATIONS: list[tuple[str, Any, int, str, str]] = [
    ("too-short", {"nickname": "ab", "password": PASSWORD}, 422, "bad_nickname", "3 to 20"),
    ("too-long", {"nickname": "a" * 21, "password": PASSWORD}, 422, "bad_nickname", "not 21"),
    ("symbol", {"nickname": "Đức!", "password": PASSWORD}, 422, "bad_nickname", "'!'"),
    ("emoji", {"nickname": "Đức 🂡", "password": PASSWORD}, 422, "bad_nickname", "not allowed"),
    ("han", {"nickname": "李小龍", "password": PASSWORD}, 422, "bad_nickname", "not allowed"),
    ("edge-space", {"nickname": " Đức", "password": PASSWORD}, 422, "bad_nickname", "end"),
    ("two-spaces", {"nickname": "Đức  Anh", "password": PASSWORD}, 422, "bad_nickname", "row"),
    ("digits-only", {"nickname": "1234", "password": PASSWORD}, 422, "bad_nickname", "letter"),
    ("guest-form", {"nickname": "Khach 1234", "password": PASSWORD}, 422, "bad_nickname", "guest"),
    ("short-password", {"nickname": "Đức", "password": "1234567"}, 422, "weak_password", "8"),
    ("password-is-name", {"nickname": "Đức Anh 99", "password": "duc anh 99"}, 422,
     "weak_password", "nickname"),
    ("blank-password", {"nickname": "Đức", "password": " " * 9}, 422, "weak_password", "spaces"),
    ("huge-password", {"nickname": "Đức", "password": "p" * 300}, 422, "weak_password", "256"),
    ("no-password", {"nickname": "Đức"}, 422, "bad_request", "password"),
    ("extra-field", {"nickname": "Đức", "password": PASSWORD, "chips": 10**9}, 422,
     "bad_request", "chips"),
    ("number", {"nickname": 12345, "password": PASSWORD}, 422, "bad_request", "nickname"),
    ("list", ["Đức", PASSWORD], 422, "bad_request", "body"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "status", "code", "says"),
    [case[1:] for case in BAD_REGISTRATIONS],
    ids=[case[0] for case in BAD_REGISTRATIONS],
)
def test_bad_registrations_get_their_code_and_change_nothing(
    client: httpx.Client, db_url: str, body: Any, status: int, code: str, says: str
) -> None:
    before = snapshot(db_url)
    r = client.post("/api/register", json=body)
    assert r.status_code == status, r.text
    assert error_of(r) == code
    assert says in r.json()["error"]["message"]
    assert "set-cookie" not in r.headers
    assert snapshot(db_url) == before


def test_malformed_and_oversized_bodies(
    client: httpx.Client, db_url: str, settings: Settings
) -> None:
    before = snapshot(db_url)
    r = client.post(
        "/api/register",
        content=b'{"nickname": "Minh"',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 422 and error_of(r) == "bad_request"
    assert "JSON" in r.json()["error"]["message"]
    for headers in ({}, {"content-type": "text/plain"}):
        r = client.post("/api/register", content=b'{"nickname": "Minh"}', headers=headers)
        assert r.status_code == 422 and error_of(r) == "bad_request"
        assert "Content-Type: application/json" in r.json()["error"]["message"]
    r = client.post("/api/register")
    assert r.status_code == 422 and error_of(r) == "bad_request"

    huge = {"nickname": "Minh", "password": "x" * settings.max_body_bytes}
    r = client.post("/api/register", json=huge)
    assert r.status_code == 413 and error_of(r) == "body_too_large"

    def chunks() -> Any:
        for _ in range(settings.max_body_bytes // 1000 + 2):
            yield b" " * 1000

    r = client.post("/api/register", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and error_of(r) == "body_too_large"
    assert snapshot(db_url) == before


def test_unknown_routes_and_methods_answer_in_the_error_shape(client: httpx.Client) -> None:
    r = client.get("/api/nowhere")
    assert r.status_code == 404 and error_of(r) == "not_found"
    r = client.get("/api/register")
    assert r.status_code == 405 and error_of(r) == "method_not_allowed"


def test_guest_in_one_click(client: httpx.Client, db_url: str, settings: Settings) -> None:
    r = client.post("/api/guest")
    assert r.status_code == 201, r.text
    guest = r.json()
    assert guest["is_guest"] is True
    assert guest["nickname"].startswith("Khách ") and guest["nickname"][6:].isdigit()
    assert guest["chips"] == settings.starting_grant
    assert client.get("/api/me").json()["id"] == guest["id"]
    # A second click with the guest's cookie is the same guest, not a new one.
    again = client.post("/api/guest")
    assert again.status_code == 200 and again.json()["id"] == guest["id"]
    assert len(snapshot(db_url)["users"]) == 1
    # A guest has no password, so nobody can log in as one.
    r = client.post("/api/login", json={"nickname": guest["nickname"], "password": PASSWORD})
    assert r.status_code == 401 and error_of(r) == "bad_credentials"


def _play_a_game(db_url: str, winner: int, loser: int, game_id: str) -> None:
    async def work(db: AsyncSession) -> None:
        await ledger.settle_game(db, game_id, {winner: 9_000, loser: -10_000}, 1_000, FakeClock()())
        for user_id, won in ((winner, 1), (loser, 0)):
            await db.execute(
                update(User)
                .where(User.id == user_id)
                .values(
                    games_played=User.games_played + 1,
                    games_won=User.games_won + won,
                    dkn=User.dkn + (3 if won else 1),
                )
            )

    in_transaction(db_url, work)


def test_upgrade_keeps_the_player_chips_and_history(
    live: LiveServer, db_url: str, settings: Settings
) -> None:
    guest_client, other_client = live.client(), live.client()
    guest = guest_client.post("/api/guest").json()
    other = register(other_client, "Lan").json()
    _play_a_game(db_url, guest["id"], other["id"], "upgrade-1")
    old_token = guest_client.cookies["tienlen_session"]

    r = guest_client.post("/api/upgrade", json={"nickname": "Phượng", "password": PASSWORD})
    assert r.status_code == 200, r.text
    upgraded = r.json()
    assert upgraded["id"] == guest["id"]
    assert upgraded["is_guest"] is False and upgraded["nickname"] == "Phượng"
    assert upgraded["chips"] == settings.starting_grant + 9_000
    assert (upgraded["games_played"], upgraded["games_won"], upgraded["dkn"]) == (1, 1, 3)
    assert guest_client.cookies["tienlen_session"] != old_token, "the session is renewed"
    stale = live.client(httpx.Cookies({"tienlen_session": old_token}))
    assert stale.get("/api/me").status_code == 401

    guest_client.post("/api/logout")
    r = guest_client.post("/api/login", json={"nickname": "phuong", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["id"] == guest["id"]


def test_upgrade_refusals_change_nothing(live: LiveServer, db_url: str) -> None:
    registered, guest, anonymous = live.client(), live.client(), live.client()
    register(registered, "Lan")
    guest.post("/api/guest")
    cases = [
        (anonymous, {"nickname": "Hoa", "password": PASSWORD}, 401, "not_logged_in"),
        (registered, {"nickname": "Hoa", "password": PASSWORD}, 409, "not_a_guest"),
        (guest, {"nickname": "LAN", "password": PASSWORD}, 409, "nickname_taken"),
        (guest, {"nickname": "H", "password": PASSWORD}, 422, "bad_nickname"),
        (guest, {"nickname": "Hoa", "password": "short"}, 422, "weak_password"),
        (guest, {"nickname": "Hoa"}, 422, "bad_request"),
    ]
    for client, body, status, code in cases:
        before = snapshot(db_url)
        r = client.post("/api/upgrade", json=body)
        assert (r.status_code, error_of(r)) == (status, code), body
        assert snapshot(db_url) == before


def test_sessions_expire(live: LiveServer, clock: FakeClock, settings: Settings) -> None:
    client = live.client()
    register(client, "Lan")
    clock.advance(days=settings.session_days, seconds=-1)
    assert client.get("/api/me").status_code == 200
    clock.advance(seconds=1)
    r = client.get("/api/me")
    assert r.status_code == 401 and error_of(r) == "not_logged_in"


def test_garbage_cookies_are_not_sessions(live: LiveServer) -> None:
    for token in ("", "nonsense", "x" * 5000):
        client = live.client(httpx.Cookies({"tienlen_session": token}))
        r = client.get("/api/me")
        assert r.status_code == 401 and error_of(r) == "not_logged_in"


def test_restart_keeps_accounts_sessions_and_balances(
    serve: Callable[..., LiveServer], db_url: str, settings: Settings
) -> None:
    first = serve()
    member, guest = first.client(), first.client()
    member_id = register(member, "Đức Anh").json()["id"]
    guest_id = guest.post("/api/guest").json()["id"]
    _play_a_game(db_url, member_id, guest_id, "before-restart")
    profiles = {member_id: member.get("/api/me").json(), guest_id: guest.get("/api/me").json()}
    cookies = {member_id: member.cookies, guest_id: guest.cookies}
    key = settings.secret_key_path.read_bytes()
    first.stop()

    second = serve()
    for user_id, jar in cookies.items():
        r = second.client(jar).get("/api/me")
        assert r.status_code == 200, "a session survives a restart"
        assert r.json() == profiles[user_id]
    assert profiles[member_id]["chips"] == settings.starting_grant + 9_000
    assert profiles[guest_id]["chips"] == settings.starting_grant - 10_000
    r = second.client().post("/api/login", json={"nickname": "duc anh", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["id"] == member_id
    assert settings.secret_key_path.read_bytes() == key, "the secret key is made only once"


def test_concurrent_registrations_of_one_nickname(live: LiveServer, db_url: str) -> None:
    names = ["Đức", "duc", "DUC", "Dúc", "đức", "Duc"]
    with ThreadPoolExecutor(len(names)) as pool:
        statuses = list(pool.map(lambda name: register(live.client(), name).status_code, names))
    assert sorted(statuses) == [201] + [409] * (len(names) - 1)
    assert len(snapshot(db_url)["users"]) == 1


def test_the_database_keeps_only_token_hashes(client: httpx.Client, db_url: str) -> None:
    register(client, "Lan")

    async def tokens(db: AsyncSession) -> list[str]:
        return list(await db.scalars(select(Session.token_hash)))

    (stored,) = in_transaction(db_url, tokens)
    assert len(stored) == 64 and stored != client.cookies["tienlen_session"]


def test_log_in_rehashes_when_the_argon2_cost_changes(
    serve: Callable[..., LiveServer], db_url: str, settings: Settings
) -> None:
    register(serve().client(), "Lan")

    async def stored_hash(db: AsyncSession) -> str | None:
        return await db.scalar(select(User.password_hash))

    assert ",t=1," in str(in_transaction(db_url, stored_hash))
    stronger = serve(settings.model_copy(update={"argon2_time_cost": 2}))
    r = stronger.client().post("/api/login", json={"nickname": "lan", "password": PASSWORD})
    assert r.status_code == 200
    rehashed = str(in_transaction(db_url, stored_hash))
    assert rehashed.startswith("$argon2id$") and ",t=2," in rehashed
    assert (
        stronger.client()
        .post("/api/login", json={"nickname": "Lan", "password": PASSWORD})
        .status_code
        == 200
    )
