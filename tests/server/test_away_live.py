"""Away is not playing, through the real server on both databases (issue 17 §2): a person who
stops acting at a play-now table is marked sitting out by the turn timer, is not dealt in
again, and so loses at most the game in progress and one more — never their whole balance.
The tables' clock runs twenty times fast, so a 10 s turn times out in half a second."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tienlen.engine.rules import RuleSet
from tienlen.money.limits import most_a_game_costs
from tienlen.server.table.timers import Cancellable, SystemTableClock

from .conftest import FakeClock, LiveServer, make_settings
from .test_lobby import GRANT, _guest, _open
from .test_seats_live import QUICK, _lobby, _send, _until_type

SPEED = 20.0


class FastClock(SystemTableClock):
    """The real time, ``SPEED`` times fast, from the moment it is made."""

    def __init__(self, speed: float = SPEED) -> None:
        self.start, self.speed = time.time(), speed

    def now(self) -> float:
        return self.start + (time.time() - self.start) * self.speed

    async def sleep_until(self, when: float) -> None:
        delay = (when - self.now()) / self.speed
        if delay > 0:
            await asyncio.sleep(delay)

    def call_at(self, when: float, callback: Callable[[], None]) -> Cancellable:
        delay = max(0.0, (when - self.now()) / self.speed)
        return asyncio.get_running_loop().call_later(delay, callback)


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(
        make_settings(tmp_path, db_url), FakeClock(), table_config=QUICK, table_clock=FastClock()
    ).start()
    yield live
    live.stop()


@pytest.mark.parametrize("how", ["silent", "tab_closed"])
def test_a_person_who_stops_acting_is_sat_out_and_loses_at_most_one_more_game(
    server: LiveServer, how: str
) -> None:
    client, user, token = _guest(server)
    answer = client.post("/api/play-now").json()  # three bots, seat 0
    table_id, seat = answer["id"], answer["seat"]
    live = _lobby(server).tables[table_id].live

    async def go() -> list[dict[str, Any]]:
        seen: list[dict[str, Any]] = []
        async with _open(server, token, table_id) as ws:
            await _send(ws, type="hello", protocol=1)
            await _send(ws, type="sit", seat=seat)
            await _send(ws, type="ready")
            async for raw in ws:  # the first deal: from here on the person does nothing
                seen.append(json.loads(raw))
                if seen[-1]["type"] == "game":
                    break
            if how == "silent":  # connected, reading, never acting
                deadline = time.monotonic() + 60
                async for raw in ws:
                    seen.append(message := json.loads(raw))
                    if _sat_out(message, seat) and live.phase == "waiting":
                        break
                    assert time.monotonic() < deadline, "never sat out"
        return seen

    seen = asyncio.run(go())
    if how == "tab_closed":  # gone: the grace runs out and the timer plays the seat
        _until(lambda: live.phase == "waiting" and live.games >= 1, 60)
    else:
        assert any(_sat_out(m, seat) for m in seen)
    dealt = live.games
    time.sleep(3 * QUICK.between_games_s / SPEED + 1)  # time for further deals: none come
    assert live.games == dealt <= 2  # the game on, and at most one more
    me = client.get("/api/me").json()
    assert me["games_played"] == dealt
    most = dealt * most_a_game_costs(RuleSet.preset("thapthanh"), 4) * 1000
    assert GRANT - most <= me["chips"] and me["chips"] > 0  # never the whole balance
    assert live.seats.seat_of(str(user)) not in live._dealable()  # not dealt the next game
    if how == "silent":  # what everyone saw of the seat, while the person was still there
        info = [m for m in seen if m["type"] == "table"][-1]["seats"][seat]
        assert info is not None and (info["away"], info["ready"]) == (True, False)


GRACE = dataclasses.replace(QUICK, grace_s=3600, away_after=1000, between_games_s=10)
"""A lost connection keeps its seat for an hour; the timer never sits anyone out."""


@pytest.fixture
def graceful(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(
        make_settings(tmp_path, db_url), FakeClock(), table_config=GRACE, table_clock=FastClock(50)
    ).start()
    yield live
    live.stop()


def test_a_player_whose_connection_is_lost_keeps_the_seat_but_is_not_dealt_until_back(
    graceful: LiveServer,
) -> None:
    """The tab of one of two people closes mid-game: within the grace period the seat stays
    theirs, shown away and not connected, the timer finishes their game, the next is dealt
    without them (the other plays on with a bot), and once they are back they are dealt in."""
    server = graceful
    (owner, owner_id, owner_token), (_, other_id, other_token) = _guest(server), _guest(server)
    table_id = owner.post(
        "/api/tables", json={"room": "trainee", "preset": "thapthanh", "bet": 1000, "seats": 3}
    ).json()["id"]
    live = _lobby(server).tables[table_id].live
    live._server_seeds = lambda: bytes(32)  # no tới trắng at 3 seats: the first game goes on
    me, other = str(owner_id), str(other_id)

    async def go() -> tuple[Any, dict[str, Any], list[str]]:
        async with _open(server, other_token, table_id) as stays:
            await _send(stays, type="hello", protocol=1)
            await _send(stays, type="sit", seat=1)
            await _send(stays, type="ready")
            ws = await _open(server, owner_token, table_id)
            await _send(ws, type="hello", protocol=1)
            await _send(ws, type="sit", seat=0)
            await _send(ws, type="ready")
            await _send(ws, type="add_bot", seat=2, level="random")
            await _until_type(ws, "game", [])
            assert live.games == 1 and live.lineup is not None and me in live.lineup.users
            await ws.close()  # the tab closes in the first game
            seen: list[dict[str, Any]] = []
            while live.games < 2 or live.phase != "playing":  # reading what the other sees
                await asyncio.wait_for(_until_type(stays, "table", seen), 60)
            second = list(live.lineup.users)
            gone = [m for m in seen if m["type"] == "table"][-1]["seats"][0]
            async with _open(server, owner_token, table_id) as back:  # back within the grace
                await _send(back, type="hello", protocol=1)
                while live.games < 3 or live.phase != "playing":
                    await asyncio.wait_for(_until_type(back, "table", []), 60)
                return live.lineup.users, gone, second

    third, gone, second = asyncio.run(go())
    assert gone is not None and gone["user"] == me
    assert (gone["connected"], gone["away"], gone["ready"]) == (False, True, False)
    assert me not in second and other in second  # not dealt while gone, the other plays on
    assert me in third  # dealt in again once back, as ready as before


def _sat_out(message: dict[str, Any], seat: int) -> bool:
    if message["type"] != "table":
        return False
    info = message["seats"][seat]
    return info is not None and bool(info["away"])


def _until(check: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
