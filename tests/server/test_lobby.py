"""The lobby and the table WebSockets, through the real server: rooms, opening and listing
tables, the socket's checks, and whole games played by WebSocket clients to their settlement
in the ledger."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tienlen.server.store import ledger
from tienlen.server.table.seating import TableConfig

from .conftest import FakeClock, LiveServer, make_settings
from .helpers import in_transaction
from .table_driver import cards_written

GRANT = 100_000
FAST = TableConfig(seed_window_s=2, start_wait_s=0.2, between_games_s=30, chop_s=1, grace_s=0.5)
"""Seed 000's table, starting at once, resting long after a game (the test ends first), and
letting a lost player go after half a second."""


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(make_settings(tmp_path, db_url), FakeClock(), table_config=FAST).start()
    yield live
    live.stop()


def _guest(server: LiveServer) -> tuple[httpx.Client, int, str]:
    client = server.client()
    r = client.post("/api/guest")
    assert r.status_code == 201, r.text
    token = client.cookies[server.settings.cookie_name]
    return client, r.json()["id"], token


def _ws_url(server: LiveServer, table: str, query: str = "") -> str:
    return server.url.replace("http://", "ws://") + f"/ws/tables/{table}" + query


def _open(
    server: LiveServer, token: str, table: str, origin: str | None = None, query: str = ""
) -> Any:
    headers = {"Cookie": f"{server.settings.cookie_name}={token}"} if token else {}
    return connect(
        _ws_url(server, table, query),
        origin=origin or server.url,  # type: ignore[arg-type]
        additional_headers=headers,
        open_timeout=10,
    )


def _unnamed(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _unnamed(v) for k, v in data.items() if k not in ("name", "players")}
    if isinstance(data, list):
        return [_unnamed(v) for v in data]
    return data


class Player:
    """A WebSocket client that answers from its own seat view only, at random."""

    def __init__(self, user: int, seat: int, ws: ClientConnection, seed: int) -> None:
        self.user, self.seat, self.ws = user, seat, ws
        self.rng = random.Random(seed)
        self.messages: list[dict[str, Any]] = []
        self.settlement: dict[str, Any] | None = None

    async def send(self, **message: Any) -> None:
        # At a person's pace at most: the server allows a connection 10 messages a second
        # (limits.RateLimit), which four clients answering at once on loopback go past.
        await asyncio.sleep(0.11)
        await self.ws.send(json.dumps(message))

    def leaks(self, others: int) -> list[str]:
        """Messages naming a card another seat still held unplayed when it was sent. Left out:
        names ("Khách" reads as K♥). ``required``, the card a first game's leader must play
        (with two or three players their lowest), is in the leader's view alone."""
        public, found = 0, []
        for message in self.messages:
            view = message.get("view") or {}
            if view.get("over") or message["type"] == "settlement":
                break
            public |= cards_written(message.get("events", []))
            leaked = cards_written(_unnamed(message)) & others & ~public
            if leaked:
                found.append(f"{message['type']} names {leaked:#x}: {message}")
        return found

    async def play(self) -> None:
        await self.send(type="hello", protocol=1)
        await self.send(type="sit", seat=self.seat)
        await self.send(type="ready")
        async for raw in self.ws:
            message = json.loads(raw)
            self.messages.append(message)
            kind = message["type"]
            if kind == "commitment" and self.seat in message["players"]:
                await self.send(type="client_seed", seed=self.rng.randbytes(16).hex())
            elif kind in ("game", "update"):
                view = message["view"]
                if view.get("over"):
                    continue
                if view.get("my_turn"):
                    if view["legal"] and not (view["can_pass"] and self.rng.random() < 0.2):
                        await self.send(type="play", cards=self.rng.choice(view["legal"]))
                    else:
                        await self.send(type="pass")
                elif view.get("chop_offer"):
                    await self.send(type="decline_chop")
            elif kind == "settlement":
                self.settlement = message
                return
            elif kind == "error":
                raise AssertionError(f"refused: {message}")


def _chips(client: httpx.Client) -> int:
    r = client.get("/api/me")
    assert r.status_code == 200
    chips: int = r.json()["chips"]
    return chips


@pytest.mark.parametrize("seats", [2, 4])
def test_people_play_a_whole_game_settled_into_the_ledger(
    server: LiveServer, db_url: str, seats: int
) -> None:
    guests = [_guest(server) for _ in range(seats)]
    owner = guests[0][0]
    r = owner.post(
        "/api/tables",
        json={"room": "trainee", "preset": "bigfun", "bet": 1000, "seats": seats},
    )
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    assert r.json()["seats"] == seats and r.json()["fee_bp"] == 600

    async def play() -> list[Player]:
        sockets = [await _open(server, token, table) for _, _, token in guests]
        players = [
            Player(user, seat, ws, seed=seat)
            for seat, ((_, user, _), ws) in enumerate(zip(guests, sockets, strict=True))
        ]
        try:
            await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 60)
        finally:
            for ws in sockets:
                await ws.close()
        return players

    players = asyncio.run(play())
    app: Any = server.server.config.app  # type: ignore[union-attr]
    game = app.state.lobby.tables[table].live.game
    assert game is not None and game.over
    for player, (client, _, _) in zip(players, guests, strict=True):
        settlement = player.settlement
        assert settlement is not None and settlement["game"] == 1
        k = settlement["seats"].index(player.seat)
        others = 0
        for j, hand in enumerate(game.initial_hands):
            others |= 0 if j == k else hand
        assert player.leaks(others) == []
        delta = settlement["settlement"]["deltas"][k]
        assert _chips(client) == GRANT + delta
    deltas = players[0].settlement["settlement"]["deltas"]  # type: ignore[index]
    assert sum(deltas) + players[0].settlement["settlement"]["fee"] == 0  # type: ignore[index]
    # (Not that some chips moved: in about 0.4 % of 2-player bigfun deals a chop's payment
    # cancels the last place's, and every delta is 0.)
    report = in_transaction(db_url, ledger.check_ledger)
    assert report.ok, report.violations
    assert not app.state.lobby.busy_at(table)  # its players are free to play anywhere
    assert f"game:{table}:1" in _references(db_url)
    profiles = [client.get("/api/me").json() for client, _, _ in guests]
    assert all(p["games_played"] == 1 for p in profiles)
    assert sum(p["games_won"] for p in profiles) == 1
    assert sorted(p["dkn"] for p in profiles) == [1] * (seats - 1) + [3]
    fees = players[0].settlement["settlement"]["fees"]  # type: ignore[index]
    for player, profile in zip(players, profiles, strict=True):
        k = players[0].settlement["seats"].index(player.seat)  # type: ignore[index]
        assert profile["vip_points"] == 1 + fees[k] // 1000  # finished, and fees paid


def _references(db_url: str) -> list[str]:
    from .helpers import references

    return references(db_url)


def test_a_socket_needs_an_allowed_origin_and_a_session(server: LiveServer) -> None:
    client, _, token = _guest(server)
    table = client.post("/api/tables", json={"room": "trainee", "preset": "bigfun", "bet": 1000})
    table_id = table.json()["id"]

    async def refused(token: str, origin: str | None = None, table: str = table_id) -> int:
        with pytest.raises(InvalidStatus) as caught:
            async with _open(server, token, table, origin):
                pass
        return caught.value.response.status_code

    async def go() -> None:
        assert await refused(token, "http://evil.example") == 403
        assert await refused(token, server.url.replace("http:", "ftp:")) == 403
        with pytest.raises(InvalidStatus):  # no Origin header at all
            async with connect(
                _ws_url(server, table_id),
                additional_headers={"Cookie": f"{server.settings.cookie_name}={token}"},
            ):
                pass
        assert await refused("") == 403
        assert await refused("not-a-session") == 403
        assert await refused(token, table="tnosuchtable") == 403
        async with _open(server, token, table_id) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1}))
            welcome = json.loads(await ws.recv())
            assert welcome["type"] == "welcome" and welcome["table"] == table_id
            await ws.send(json.dumps({"type": "add_bot", "seat": 1, "ref": 1}))
            answer = json.loads(await ws.recv())
            while answer["type"] not in ("ack", "error"):
                answer = json.loads(await ws.recv())
            assert answer == {
                "type": "ack",
                "ref": 1,
            }  # a house bot (tests/server/test_house_bots.py)

    asyncio.run(go())


def test_an_oversized_frame_or_a_flood_closes_the_socket(server: LiveServer) -> None:
    client, _, token = _guest(server)
    table_id = client.post(
        "/api/tables", json={"room": "trainee", "preset": "bigfun", "bet": 1000}
    ).json()["id"]

    async def go() -> None:
        async with _open(server, token, table_id) as ws:
            await ws.send("x" * (server.settings.ws_max_bytes + 1))
            await ws.wait_closed()
            assert ws.close_code == 1009
        async with _open(server, token, table_id) as ws:
            # The answers are read as they come: left unread, they filled the client's queue,
            # which then stopped reading and saw the close only after two 10 s timeouts.
            reader = asyncio.create_task(_read_until_closed(ws))
            # Past the burst and the strikes; a slow machine refills the bucket as it goes,
            # so keep sending until the server closes (a bounded number of frames).
            with contextlib.suppress(ConnectionClosed):
                for _ in range(5000):
                    if reader.done():
                        break
                    await ws.send("{")
            await asyncio.wait_for(reader, 30)
            assert ws.close_code == 1008

    asyncio.run(go())


async def _read_until_closed(ws: ClientConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        while True:
            await ws.recv()


def test_rooms_say_who_may_enter(server: LiveServer) -> None:
    anonymous = server.client().get("/api/rooms").json()
    assert [r["key"] for r in anonymous] == ["trainee", "tycoon", "vip"]
    assert all(r["may_enter"] is None for r in anonymous)
    client, _, _ = _guest(server)
    rooms = {r["key"]: r for r in client.get("/api/rooms").json()}
    assert rooms["trainee"]["may_enter"] is True and rooms["trainee"]["why_not"] is None
    assert rooms["trainee"]["lacks"] is None and rooms["trainee"]["held"] is None
    assert rooms["tycoon"]["may_enter"] is False
    assert rooms["tycoon"]["why_not"] == "Tycoon needs 200000 chips; you hold 100000"
    # What keeps the player out, as data a page says in its own words and numbers.
    assert (rooms["tycoon"]["lacks"], rooms["tycoon"]["held"]) == ("chips", 100_000)
    assert rooms["vip"]["may_enter"] is False and "VIP" in rooms["vip"]["why_not"]
    assert (rooms["vip"]["lacks"], rooms["vip"]["held"]) == ("vip_points", 0)
    names = [(r["name_en"], r["name_vi"]) for r in anonymous]
    assert names == [("Trainee", "Tập sự"), ("Tycoon", "Đại gia"), ("VIP", "VIP")]
    assert all(r["lacks"] is None and r["held"] is None for r in anonymous)
    assert rooms["trainee"]["fee_bp"] == 600 and rooms["trainee"]["min_bet"] == 1000


REFUSALS = [
    ({"room": "casino"}, "no_such_room", 422),
    ({"preset": "poker"}, "no_such_preset", 422),
    ({"bet": 999}, "bad_bet", 422),
    ({"bet": 5001}, "bad_bet", 422),
    ({"turn_seconds": 12}, "bad_turn_seconds", 422),
    ({"seats": 5}, "bad_seats", 422),
    ({"seats": 1}, "bad_seats", 422),
    ({"room": "tycoon", "bet": 5000}, "room_closed", 403),
    ({"color": "red"}, "bad_request", 422),
]


def test_each_refusal_to_open_a_table_has_its_code(server: LiveServer) -> None:
    client, _, _ = _guest(server)
    good = {"room": "trainee", "preset": "bigfun", "bet": 1000}
    for change, code, status in REFUSALS:
        r = client.post("/api/tables", json=good | change)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), change
    r = server.client().post("/api/tables", json=good)
    assert (r.status_code, r.json()["error"]["code"]) == (401, "not_logged_in")
    assert client.get("/api/tables").json() == {"tables": []}


def test_bets_are_capped_by_the_owner_balance(server: LiveServer, db_url: str) -> None:
    client, user, _ = _guest(server)
    _spend(db_url, user, GRANT - 30_000)  # 30000 left: bets up to 3000, invites up to 2000
    good = {"room": "trainee", "preset": "bigfun"}
    r = client.post("/api/tables", json=good | {"bet": 3001})
    assert r.json()["error"]["code"] == "bet_over_balance"
    r = client.post("/api/tables", json=good | {"bet": 3000, "private": True})
    assert r.json()["error"]["code"] == "cannot_invite"
    assert client.post("/api/tables", json=good | {"bet": 3000}).status_code == 201


def _spend(db_url: str, user: int, amount: int) -> None:
    """Move chips to the house through a game against nobody, keeping the ledger sound."""

    async def work(db: Any) -> None:
        from .conftest import START

        await ledger.settle_game(db, f"spend-{user}", {user: -amount}, amount, START)

    in_transaction(db_url, work)


def test_tables_are_listed_by_room_and_private_ones_only_to_the_invited(
    server: LiveServer,
) -> None:
    owner, owner_id, _ = _guest(server)
    other, _, _ = _guest(server)
    public = owner.post(
        "/api/tables",
        json={"room": "trainee", "preset": "bigfun", "bet": 1000, "turn_seconds": 15},
    ).json()
    private = owner.post(
        "/api/tables",
        json={"room": "trainee", "preset": "thapthanh", "bet": 2000, "private": True},
    ).json()
    assert public["invite"] is None and private["invite"]
    mine = owner.get("/api/tables", params={"room": "trainee"}).json()["tables"]
    assert {t["id"] for t in mine} == {public["id"], private["id"]}
    seen = other.get("/api/tables").json()["tables"]
    assert seen == [
        {
            "id": public["id"],
            "room": "trainee",
            "preset": "bigfun",
            "bet": 1000,
            "fee_bp": 600,
            "seats_taken": 0,
            "seats": 4,
            "turn_seconds": 15,
            "phase": "waiting",
            "private": False,
            "owner": owner_id,
            "invite": None,
        }
    ]
    invited = other.get("/api/tables", params={"invite": private["invite"]}).json()["tables"]
    assert {t["id"] for t in invited} == {public["id"], private["id"]}
    assert all(t["invite"] is None for t in invited)
    assert other.get("/api/tables", params={"room": "vip"}).json() == {"tables": []}
    r = other.get("/api/tables", params={"room": "casino"})
    assert r.json()["error"]["code"] == "no_such_room"


def _move(db_url: str, game_id: str, deltas: dict[int, int]) -> None:
    async def work(db: Any) -> None:
        from .conftest import START

        await ledger.settle_game(db, game_id, deltas, 0, START)

    in_transaction(db_url, work)


def test_private_tables_and_rooms_let_in_only_who_may_enter(
    server: LiveServer, db_url: str
) -> None:
    rich, rich_id, rich_token = _guest(server)
    _, poor_id, poor_token = _guest(server)
    _move(db_url, "gift", {rich_id: GRANT, poor_id: -GRANT})  # 200000 and 0 chips
    tycoon = rich.post("/api/tables", json={"room": "tycoon", "preset": "b52", "bet": 5000}).json()
    private = rich.post(
        "/api/tables",
        json={"room": "trainee", "preset": "b52", "bet": 1000, "private": True},
    ).json()

    async def status(token: str, table: str, query: str = "") -> int:
        try:
            async with _open(server, token, table, query=query) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": 1}))
                assert json.loads(await ws.recv())["type"] == "welcome"
        except InvalidStatus as refused:
            return refused.response.status_code
        return 101

    async def go() -> None:
        assert await status(rich_token, tycoon["id"]) == 101
        assert await status(poor_token, tycoon["id"]) == 403
        assert await status(rich_token, private["id"]) == 101
        assert await status(poor_token, private["id"]) == 403
        assert await status(poor_token, private["id"], "?invite=wrong") == 403
        assert await status(poor_token, private["id"], f"?invite={private['invite']}") == 101

    asyncio.run(go())


def test_a_new_socket_replaces_the_old_one(server: LiveServer) -> None:
    client, _, token = _guest(server)
    table_id = client.post(
        "/api/tables", json={"room": "trainee", "preset": "bigfun", "bet": 1000}
    ).json()["id"]

    async def go() -> None:
        async with _open(server, token, table_id) as first:
            await first.send(json.dumps({"type": "hello", "protocol": 1}))
            assert json.loads(await first.recv())["type"] == "welcome"
            async with _open(server, token, table_id) as second:
                await first.wait_closed()
                await second.send(json.dumps({"type": "hello", "protocol": 1, "ref": 7}))
                welcome = json.loads(await second.recv())
                assert (welcome["type"], welcome["ref"]) == ("welcome", 7)

    asyncio.run(go())


def test_a_socket_that_cannot_keep_up_is_closed_without_blocking_the_table() -> None:
    from tienlen.server.lobby.registry import send_to
    from tienlen.server.sockets import SendQueue

    queue: SendQueue = asyncio.Queue(3)
    queues = {"1": queue}
    for n in range(5):
        send_to(queues, "1", {"n": n})
    send_to(queues, "2", {"n": 0})  # nobody: dropped
    assert "1" not in queues
    drained = [queue.get_nowait() for _ in range(queue.qsize())]
    assert drained == [{"n": 1}, {"n": 2}, None]


def test_an_allowed_origin_may_connect(db_url: str, tmp_path: Path) -> None:
    other = "https://tienlen.example"
    settings = make_settings(tmp_path, db_url, allowed_origins=[other])
    live = LiveServer(settings, FakeClock(), table_config=FAST).start()
    try:
        client, _, token = _guest(live)
        table_id = client.post(
            "/api/tables", json={"room": "trainee", "preset": "bigfun", "bet": 1000}
        ).json()["id"]

        async def go() -> None:
            async with _open(live, token, table_id, origin=other) as ws:
                await ws.send(b'{"type": "hello", "protocol": 1}')  # a binary frame reads too
                assert json.loads(await ws.recv())["type"] == "welcome"

        asyncio.run(go())
    finally:
        live.stop()


def test_a_player_who_leaves_mid_game_pays_and_loses_dkn(server: LiveServer, db_url: str) -> None:
    (stayer, stayer_id, stayer_token), (leaver, _, leaver_token) = (_guest(server), _guest(server))
    table_id = stayer.post(
        "/api/tables", json={"room": "trainee", "preset": "bigfun", "bet": 1000, "seats": 2}
    ).json()["id"]

    async def go() -> Player:
        ws = await _open(server, stayer_token, table_id)
        player = Player(stayer_id, 0, ws, seed=1)
        async with _open(server, leaver_token, table_id) as gone:
            for message in ({"type": "hello", "protocol": 1}, {"type": "sit", "seat": 1}):
                await gone.send(json.dumps(message))
            await gone.send(json.dumps({"type": "ready"}))
            playing = asyncio.create_task(player.play())
            async for raw in gone:
                if json.loads(raw)["type"] == "game":
                    break  # dealt in: now lose the connection for good
        await asyncio.wait_for(playing, 30)
        await ws.close()
        return player

    player = asyncio.run(go())
    assert player.settlement is not None
    deltas = player.settlement["settlement"]["deltas"]
    app: Any = server.server.config.app  # type: ignore[union-attr]
    game = app.state.lobby.tables[table_id].live.game
    if game.instant_win is not None:  # dealt a tới trắng: over before anyone could leave
        assert game.left == 0
        return
    assert deltas[0] > 0 > deltas[1]
    assert _chips(stayer) == GRANT + deltas[0] and _chips(leaver) == GRANT + deltas[1]
    won, left = stayer.get("/api/me").json(), leaver.get("/api/me").json()
    assert (won["dkn"], won["games_won"], won["games_played"]) == (3, 1, 1)
    assert (left["dkn"], left["games_won"], left["games_played"]) == (0, 0, 1)
    fee = player.settlement["settlement"]["fees"][0]
    assert (won["vip_points"], left["vip_points"]) == (1 + fee // 1000, 0)  # leaving earns none
    report = in_transaction(db_url, ledger.check_ledger)
    assert report.ok, report.violations


def test_a_player_is_dealt_at_one_table_at_a_time(server: LiveServer) -> None:
    """Each game is dealt with a player's whole balance, so a player in a game at one table
    sits out the deals of another until it is over."""
    (x, x_id, x_token), (_, _, y_token), (_, z_id, z_token) = (_guest(server) for _ in range(3))
    new = {"room": "trainee", "preset": "bigfun", "bet": 1000, "seats": 2}
    first, second = (x.post("/api/tables", json=new).json()["id"] for _ in range(2))

    async def seat(token: str, table: str, seat: int) -> ClientConnection:
        ws: ClientConnection = await _open(server, token, table)
        for message in ({"type": "hello", "protocol": 1}, {"type": "sit", "seat": seat}):
            await ws.send(json.dumps(message))
        await ws.send(json.dumps({"type": "ready"}))
        return ws

    async def until(ws: ClientConnection, kind: str, seconds: float) -> dict[str, Any] | None:
        try:
            async with asyncio.timeout(seconds):
                while True:
                    message = json.loads(await ws.recv())
                    if message["type"] == kind:
                        return message
        except TimeoutError:
            return None

    async def go() -> None:
        a = [await seat(x_token, first, 0), await seat(z_token, first, 1)]
        assert await until(a[0], "commitment", 5) is not None  # x is dealt in at the first
        b = [await seat(x_token, second, 0), await seat(y_token, second, 1)]
        assert await until(b[1], "commitment", 1.5) is None  # x sits out: no game there
        info = app.state.lobby.tables[second].live.table_info()
        assert info["seats"][0]["ready"] is False and info["phase"] == "waiting"
        lobby = app.state.lobby
        assert lobby.claims[str(x_id)] == first and lobby.claims[str(z_id)] == first
        assert lobby.busy_at(first) and not lobby.busy_at(second)
        assert lobby.busy_at(first, str(x_id))
        for ws in a + b:
            await ws.close()

    app: Any = server.server.config.app  # type: ignore[union-attr]
    asyncio.run(go())
