"""The seat rules through the real server, on SQLite and PostgreSQL: everyone leaving a game of
3 or 4 (by ``stand`` and by losing the connection), a person who cannot pay stood up and told
of the daily top-up, rooms and "play now" for a player with no chips, and "play now" never
seating anyone into a game in progress."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession
from websockets.asyncio.client import ClientConnection

from tienlen.server.store import ledger
from tienlen.server.store.models import User
from tienlen.server.table.seating import TableConfig

from .conftest import START, FakeClock, LiveServer, make_settings
from .helpers import in_transaction, references
from .test_lobby import GRANT, _guest, _open, _spend

QUICK = TableConfig(
    seed_window_s=0.3,
    start_wait_s=0.2,
    between_games_s=30,
    chop_s=1,
    grace_s=0.5,
    bot_delay_s=0,
    bot_budget_s=5,
    play_now_wait_s=1.0,
)
"""Deals at once, rests long after a game (each test ends first), lets a lost player go after
half a second, and holds a play-now table's first deal for a second."""


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    settings = make_settings(tmp_path, db_url, empty_table_seconds=30)
    live = LiveServer(settings, FakeClock(), table_config=QUICK).start()
    yield live
    live.stop()


def _lobby(server: LiveServer) -> Any:
    app: Any = server.server.config.app  # type: ignore[union-attr]
    return app.state.lobby


async def _send(ws: ClientConnection, **message: Any) -> None:
    await ws.send(json.dumps(message))


async def _until_type(ws: ClientConnection, kind: str, seen: list[dict[str, Any]]) -> Any:
    async for raw in ws:
        message = json.loads(raw)
        seen.append(message)
        if message["type"] == "error":
            raise AssertionError(f"refused: {message}")
        if message["type"] == kind:
            return message
    raise AssertionError(f"the socket closed before a {kind}")


def _until(check: Any, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _spend_again(db_url: str, user: int, amount: int) -> None:
    """Like test_lobby's ``_spend``, a second time (its own reference)."""

    async def work(db: AsyncSession) -> None:
        await ledger.settle_game(db, f"spent-again-{user}", {user: -amount}, amount, START)

    in_transaction(db_url, work)


def _set_dkn(db_url: str, users: list[int], dkn: int) -> None:
    async def work(db: AsyncSession) -> None:
        await db.execute(update(User).where(User.id.in_(users)).values(dkn=dkn))

    in_transaction(db_url, work)


@pytest.mark.parametrize("seats", [3, 4])
def test_everyone_leaving_a_game_of_three_or_four_moves_no_chip_and_costs_all_dkn(
    server: LiveServer, db_url: str, seats: int
) -> None:
    guests = [_guest(server) for _ in range(seats)]
    _set_dkn(db_url, [user for _, user, _ in guests], 5)
    r = guests[0][0].post(
        "/api/tables", json={"room": "trainee", "preset": "thapthanh", "bet": 1000, "seats": seats}
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    # A fixed server seed whose deal is no tới trắng at 3 or 4 seats: the game stays on.
    _lobby(server).tables[table_id].live._server_seeds = lambda: bytes(32)

    async def go() -> dict[str, Any]:
        sockets = [await _open(server, token, table_id) for _, _, token in guests]
        for seat, ws in enumerate(sockets):
            await _send(ws, type="hello", protocol=1)
            await _send(ws, type="sit", seat=seat)
            await _send(ws, type="ready")
        seen: list[dict[str, Any]] = []
        games = [await _until_type(ws, "game", seen) for ws in sockets]
        assert not games[0]["view"]["over"]  # no tới trắng: someone may leave
        # All but the last leave: by standing up, and the second by losing the connection
        # for good (past the grace period).
        for k, ws in enumerate(sockets[:-1]):
            if k == 1:
                await ws.close()
            else:
                await _send(ws, type="stand")
        last: list[dict[str, Any]] = []
        settlement = await asyncio.wait_for(_until_type(sockets[-1], "settlement", last), 20)
        for ws in sockets:
            await ws.close()
        return dict(settlement)

    settlement = asyncio.run(go())["settlement"]
    assert settlement["void"] is True
    assert settlement["deltas"] == [0] * seats and settlement["fee"] == 0
    _until(lambda: f"game:{table_id}:1" in references(db_url))
    _until(lambda: guests[0][0].get("/api/me").json()["games_played"] == 1)
    for client, _, _ in guests:
        me = client.get("/api/me").json()
        assert me["chips"] == GRANT  # no chip moved
        assert (me["dkn"], me["games_won"], me["games_played"]) == (4, 0, 1)  # each loses ĐKN
        assert me["vip_points"] == 0
    report = in_transaction(db_url, ledger.check_ledger)
    assert report.ok, report.violations


def test_a_person_who_cannot_pay_is_refused_a_seat_or_stood_up_and_told_of_the_top_up(
    server: LiveServer, db_url: str
) -> None:
    owner, _, owner_token = _guest(server)
    short, short_id, short_token = _guest(server)
    _, poor_id, poor_token = _guest(server)
    _spend(db_url, poor_id, GRANT - 500)  # 500 chips: under one bet of 1000
    table_id = owner.post(
        "/api/tables", json={"room": "trainee", "preset": "thapthanh", "bet": 1000, "seats": 2}
    ).json()["id"]

    async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        async with (
            _open(server, owner_token, table_id) as mine,
            _open(server, poor_token, table_id) as broke,
            _open(server, short_token, table_id) as ws,
        ):
            await _send(broke, type="hello", protocol=1)
            await _send(broke, type="sit", seat=0, ref="sit")
            refused: dict[str, Any] = {}
            async for raw in broke:
                refused = json.loads(raw)
                if refused["type"] == "error":
                    break
            await _send(ws, type="hello", protocol=1)
            await _send(ws, type="sit", seat=0)
            seen: list[dict[str, Any]] = []
            await _until_type(ws, "table", seen)
            while not any(s and s["user"] == str(short_id) for s in seen[-1]["seats"]):
                await _until_type(ws, "table", seen)
            await asyncio.to_thread(_spend, db_url, short_id, GRANT - 999)  # 999 before the deal
            await _send(mine, type="hello", protocol=1)
            await _send(mine, type="add_bot", seat=1, level="random")
            await _send(ws, type="ready")
            stood = await asyncio.wait_for(_until_type(ws, "stood_up", seen), 20)
            after = await _until_type(ws, "table", seen)
            return refused, stood, after

    refused, stood, after = asyncio.run(go())
    assert (refused["code"], refused["ref"]) == ("not_enough_chips", "sit")
    assert "500 chips" in refused["message"] and "1000" in refused["message"]
    assert {k: v for k, v in stood.items() if k != "n"} == {
        "type": "stood_up",
        "seat": 0,
        "reason": "no_chips",
        "chips": 999,
        "needs": 1000,
        "top_up": {"chips": 10_000, "at": START.isoformat()},  # not claimed today: now
    }
    assert after["seats"][0] is None and after["games"] == 0  # no game was dealt
    assert short.get("/api/me").json()["chips"] == 999 + 10_000  # claimed, as it said


def test_rooms_and_play_now_agree_with_the_table_for_a_player_with_no_chips(
    server: LiveServer, db_url: str
) -> None:
    client, user, _ = _guest(server)
    _spend(db_url, user, GRANT)  # 0 chips, today's top-up not yet claimed

    def rooms() -> dict[str, Any]:
        return {r["key"]: r for r in client.get("/api/rooms").json()}

    trainee = rooms()["trainee"]
    assert (trainee["may_enter"], trainee["lacks"], trainee["held"]) == (False, "chips", 0)
    assert trainee["min_chips"] == 1000 and trainee["min_balance"] == 0
    assert trainee["why_not"] == "Trainee needs 1000 chips; you hold 0"
    r = client.post("/api/play-now")
    assert r.status_code == 409 and r.json()["error"]["code"] == "too_few_chips"
    error = r.json()["error"]
    assert error["retry_after"] == START.isoformat()
    assert "top-up of 10000 chips" in error["message"] and "profile" in error["message"]
    assert client.get("/api/me").json()["chips"] == 10_000  # the profile claims it
    assert rooms()["trainee"]["may_enter"] is True
    assert client.post("/api/play-now").status_code == 201
    _spend_again(db_url, user, 10_000)
    r = client.post("/api/play-now")
    # Claimed today: the next one comes at midnight in Vietnam (UTC+7), 17:00 UTC.
    assert r.json()["error"]["retry_after"] == "2026-03-14T17:00:00+00:00"
    assert rooms()["trainee"]["may_enter"] is False


def test_a_player_who_may_sit_but_not_open_a_table_is_seated_by_play_now_where_one_waits(
    server: LiveServer, db_url: str
) -> None:
    """5,000 chips: the room list says Tập sự is open (a seat at its 1,000 bet), opening a
    table there needs 10,000. Play-now agrees with both: a free seat beside a person, else a
    refusal that says why."""
    poor, poor_id, _ = _guest(server)
    _spend(db_url, poor_id, GRANT - 5_000)
    trainee = {r["key"]: r for r in poor.get("/api/rooms").json()}["trainee"]
    assert trainee["may_enter"] is True and trainee["min_chips"] == 1000
    r = poor.post("/api/play-now")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "too_few_chips"), r.text
    assert r.json()["error"]["message"].startswith(
        "no Trainee table at 1000 has a free seat beside a person now, and opening one needs "
        "10000 chips (10 × the smallest bet, 1000); you hold 5000"
    )
    assert len(_lobby(server).tables) == 0  # nothing opened for them
    host, _, host_token = _guest(server)
    table_id = host.post(
        "/api/tables", json={"room": "trainee", "preset": "thapthanh", "bet": 1000, "seats": 4}
    ).json()["id"]

    async def go() -> dict[str, Any]:
        async with _open(server, host_token, table_id) as ws:
            await _send(ws, type="hello", protocol=1)
            await _send(ws, type="sit", seat=0)
            seen: list[dict[str, Any]] = []
            while True:  # until the table says the host sits at seat 0
                table = await _until_type(ws, "table", seen)
                if table["seats"][0] is not None:
                    break
            answer = await asyncio.to_thread(poor.post, "/api/play-now")
            assert answer.status_code == 200, answer.text
            return dict(answer.json())

    answer = asyncio.run(go())
    assert (answer["id"], answer["seat"]) == (table_id, 1)


def test_play_now_never_seats_into_a_game_and_its_first_deal_waits_visibly(
    server: LiveServer,
) -> None:
    (first, first_id, first_token), (_, _, second_token) = _guest(server), _guest(server)
    newcomer, _, newcomer_token = _guest(server)
    table_id = first.post(
        "/api/tables", json={"room": "trainee", "preset": "thapthanh", "bet": 1000, "seats": 4}
    ).json()["id"]
    live = _lobby(server).tables[table_id].live
    live._server_seeds = lambda: bytes(32)  # a deal with no tới trắng: the game stays on

    async def go() -> tuple[dict[str, Any], list[dict[str, Any]], float, float]:
        async with (
            _open(server, first_token, table_id) as a,
            _open(server, second_token, table_id) as b,
        ):
            seen: list[dict[str, Any]] = []
            for seat, ws in enumerate((a, b)):
                await _send(ws, type="hello", protocol=1)
                await _send(ws, type="sit", seat=seat)
                await _send(ws, type="ready")
            await _until_type(a, "game", seen)  # two of four seats, dealt: a game is on
            assert live.game.instant_win is None and live.phase == "playing"
            r = newcomer.post("/api/play-now")  # thapthanh, trainee, 1000: the same kind
            assert r.status_code == 201, r.text  # a new table, not the free seats of that one
            answer = r.json()
            assert answer["id"] != table_id
            async with _open(server, newcomer_token, answer["id"]) as ws:
                await _send(ws, type="hello", protocol=1)
                await _send(ws, type="sit", seat=answer["seat"])
                ready_at = time.monotonic()
                await _send(ws, type="ready")
                mine: list[dict[str, Any]] = []
                await _until_type(ws, "commitment", mine)
                return answer, mine, ready_at, time.monotonic()

    answer, seen, ready_at, dealt_at = asyncio.run(go())
    assert dealt_at - ready_at >= QUICK.play_now_wait_s - 0.05
    tables = [m for m in seen if m["type"] == "table"]
    due = [m["next_game"] for m in tables if m["next_game"] is not None]
    assert due and due[-1]["seconds"] == QUICK.play_now_wait_s
    full = tables[-1]["seats"]
    assert all(s is not None and s["ready"] for s in full)  # full and ready, yet it waited
    assert _lobby(server).tables[table_id].live.seats.seat_of(str(first_id)) == 0
    assert answer["seat"] == 0
