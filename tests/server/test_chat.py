"""Chat and the lobby's socket, through the real server: table chat stored and replayed to
whoever joins, refused lines (empty, too long, too fast) neither sent nor stored, the live list
of tables pushed to the lobby, and the lobby's chat (kept across a restart)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tienlen.server.lobby import protocol as L
from tienlen.server.store.models import ChatMessage
from tienlen.server.table import messages as M

from .conftest import START, FakeClock, LiveServer, make_settings
from .helpers import in_transaction


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(make_settings(tmp_path, db_url), FakeClock()).start()
    yield live
    live.stop()


def _guest(server: LiveServer) -> tuple[httpx.Client, int, str]:
    client = server.client()
    r = client.post("/api/guest")
    assert r.status_code == 201, r.text
    return client, r.json()["id"], client.cookies[server.settings.cookie_name]


def _open(server: LiveServer, token: str, path: str, origin: str | None = None) -> Any:
    return connect(
        server.url.replace("http://", "ws://") + path,
        origin=origin or server.url,  # type: ignore[arg-type]
        additional_headers={"Cookie": f"{server.settings.cookie_name}={token}"},
        open_timeout=10,
    )


def _table(client: httpx.Client, **extra: Any) -> str:
    body = {"room": "trainee", "preset": "bigfun", "bet": 1000} | extra
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table: str = r.json()["id"]
    return table


async def _send(ws: ClientConnection, **message: Any) -> None:
    await ws.send(json.dumps(message, ensure_ascii=False))


async def _next(ws: ClientConnection, *types: str, lobby: bool = False) -> dict[str, Any]:
    """The next message of one of ``types`` (checked against its protocol's schema)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        (L if lobby else M).server_adapter().validate_python(message)
        if message["type"] in types:
            return message


async def _drain(ws: ClientConnection) -> None:
    """Read everything until the socket closes."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            await ws.recv()


def _stored(db_url: str, channel: str, count: int) -> list[ChatMessage]:
    """The channel's stored lines, once there are ``count`` of them (the writer is behind)."""

    async def read(db: Any) -> list[ChatMessage]:
        rows = await db.scalars(
            select(ChatMessage).where(ChatMessage.channel == channel).order_by(ChatMessage.id)
        )
        return list(rows)

    deadline = time.monotonic() + 10
    while len(rows := in_transaction(db_url, read)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return rows


def test_table_chat_is_stored_and_shown_to_whoever_joins(server: LiveServer, db_url: str) -> None:
    owner, owner_id, owner_token = _guest(server)
    _, _, other_token = _guest(server)
    nickname = owner.get("/api/me").json()["nickname"]
    table = _table(owner)

    async def go() -> dict[str, Any]:
        async with _open(server, owner_token, f"/ws/tables/{table}") as ws:
            await _send(ws, type="hello", protocol=1)
            assert (await _next(ws, "state"))["chat"] == []
            await _send(ws, type="sit", seat=0)
            await _send(ws, type="chat", text="  chặt hay lắm!  ", ref=1)
            line = await _next(ws, "chat")
            assert (await _next(ws, "ack")) == {"type": "ack", "ref": 1}
            async with _open(server, other_token, f"/ws/tables/{table}") as other:
                await _send(other, type="hello", protocol=1)
                state = await _next(other, "state")
        return {"line": line, "state": state}

    seen = asyncio.run(go())
    said = {"user": str(owner_id), "name": nickname, "seat": 0, "text": "chặt hay lắm!"}
    said |= {"at": START.timestamp(), "id": seen["line"]["id"]}
    assert seen["line"] == {"type": "chat", "n": seen["line"]["n"], **said}
    assert seen["state"]["chat"] == [said]
    [row] = _stored(db_url, f"table:{table}", 1)
    assert (row.user_id, row.nickname, row.seat, row.text) == (owner_id, nickname, 0, said["text"])
    assert row.id == said["id"] and row.original is None
    assert row.created_at == START


def test_refused_chat_lines_are_neither_sent_nor_stored(server: LiveServer, db_url: str) -> None:
    owner, _, owner_token = _guest(server)
    _, _, other_token = _guest(server)
    table = _table(owner)
    limit = server.settings.chat_limit

    async def go() -> tuple[list[str], list[str]]:
        async with (
            _open(server, owner_token, f"/ws/tables/{table}") as ws,
            _open(server, other_token, f"/ws/tables/{table}") as other,
        ):
            for sock in (ws, other):
                await _send(sock, type="hello", protocol=1)
                await _next(sock, "state")
            codes = []
            lines = [" \t ", "ư" * 201, *(f"line {i}" for i in range(limit + 1))]
            for ref, text in enumerate(lines):
                await _send(ws, type="chat", text=text, ref=ref)
                codes.append((await _next(ws, "ack", "error")).get("code", "ok"))
            server.clock.advance(seconds=server.settings.chat_window_seconds)
            await _send(ws, type="chat", text="last", ref="last")
            codes.append((await _next(ws, "ack", "error")).get("code", "ok"))
            heard = []
            while not heard or heard[-1] != "last":
                heard.append((await _next(other, "chat"))["text"])
        return codes, heard

    codes, heard = asyncio.run(go())
    assert codes == ["chat_empty", "chat_too_long"] + ["ok"] * limit + ["chat_too_fast", "ok"]
    assert heard == [f"line {i}" for i in range(limit)] + ["last"]
    stored = _stored(db_url, f"table:{table}", limit + 1)
    assert [row.text for row in stored] == heard


def test_the_lobby_socket_lists_tables_live_and_carries_the_lobby_chat(
    server: LiveServer, db_url: str
) -> None:
    owner, owner_id, owner_token = _guest(server)
    _, watcher_id, watcher_token = _guest(server)
    app: Any = server.server.config.app  # type: ignore[union-attr]

    async def go() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with (
            _open(server, watcher_token, "/ws/lobby") as lobby,
            _open(server, owner_token, "/ws/lobby") as own,
        ):
            await _send(lobby, type="watch", room="vip")
            assert (await _next(lobby, "error", lobby=True))["code"] == "hello_first"
            await _send(lobby, type="hello", protocol=1, room="trainee", ref="h")
            seen["snapshot"] = await _next(lobby, "lobby", lobby=True)
            await _send(own, type="hello", protocol=1)
            await _next(own, "lobby", lobby=True)
            private = _table(owner, private=True)
            assert (await _next(own, "table", lobby=True))["table"]["id"] == private
            table = _table(owner, seats=2)
            seen["opened"] = await _next(lobby, "table", lobby=True)  # not the private one
            async with _open(server, owner_token, f"/ws/tables/{table}") as ws:
                await _send(ws, type="hello", protocol=1)
                await _send(ws, type="sit", seat=1)
                seen["sat"] = await _next(lobby, "table", lobby=True)
            await _send(lobby, type="chat", text="ai vào bàn 1000 không?", ref=7)
            seen["chat"] = await _next(own, "chat", lobby=True)
            assert (await _next(lobby, "ack", lobby=True))["ref"] == 7
            lobby_table = app.state.lobby.tables[table]
            done = asyncio.run_coroutine_threadsafe(
                app.state.lobby.close_table(lobby_table), lobby_table.live._task.get_loop()
            )
            await asyncio.wrap_future(done)
            seen["closed"] = await _next(lobby, "table_closed", lobby=True)
            await _send(lobby, type="watch", room=None)
            seen["all"] = await _next(lobby, "lobby", lobby=True)
            await _send(lobby, type="hello", protocol=1, room="vip", ref="again")
            seen["again"] = await _next(lobby, "lobby", lobby=True)  # a second hello: a snapshot
        return seen

    seen = asyncio.run(go())
    assert seen["snapshot"]["ref"] == "h" and seen["snapshot"]["tables"] == []
    assert seen["snapshot"]["user"] == str(watcher_id) and seen["snapshot"]["chat"] == []
    opened = seen["opened"]["table"]
    assert (opened["seats_taken"], opened["seats"], opened["phase"]) == (0, 2, "waiting")
    assert opened["owner"] == owner_id and opened["invite"] is None
    assert seen["sat"]["table"] == opened | {"seats_taken": 1}
    assert seen["chat"]["text"] == "ai vào bàn 1000 không?" and seen["chat"]["seat"] is None
    assert seen["closed"] == {"type": "table_closed", "id": opened["id"]}
    assert seen["all"]["tables"] == []  # the private table is its owner's alone
    assert (seen["again"]["ref"], seen["again"]["room"]) == ("again", "vip")
    [row] = _stored(db_url, "lobby", 1)
    assert (row.user_id, row.text) == (watcher_id, "ai vào bàn 1000 không?")

    # The lobby's recent chat is read back from the database by the next server.
    server.stop()
    server.start()

    async def again() -> dict[str, Any]:
        async with _open(server, watcher_token, "/ws/lobby") as lobby:
            await _send(lobby, type="hello", protocol=1)
            return await _next(lobby, "lobby", lobby=True)

    [line] = asyncio.run(again())["chat"]
    assert line == {k: seen["chat"][k] for k in ("id", "user", "name", "seat", "text", "at")}


def test_the_lobby_socket_has_the_table_socket_checks(server: LiveServer) -> None:
    _, _, token = _guest(server)

    async def refused(token: str, origin: str | None = None) -> int:
        with pytest.raises(InvalidStatus) as caught:
            async with _open(server, token, "/ws/lobby", origin):
                pass
        return caught.value.response.status_code

    async def go() -> None:
        assert await refused(token, "http://evil.example") == 403
        assert await refused("not-a-session") == 403
        async with _open(server, token, "/ws/lobby") as ws:
            await ws.send("x" * (server.settings.ws_max_bytes + 1))
            await ws.wait_closed()
            assert ws.close_code == 1009
        async with _open(server, token, "/ws/lobby") as ws:
            await _send(ws, type="hello", protocol=1, room="casino")
            error = await _next(ws, "error", lobby=True)
            assert error["code"] == "bad_field" and "room" in error["message"]
            reader = asyncio.create_task(_drain(ws))  # else the close is never read
            with contextlib.suppress(ConnectionClosed):  # until the server closes
                for _ in range(5000):
                    if reader.done():
                        break
                    await ws.send("{")
            await asyncio.wait_for(reader, 30)
            assert ws.close_code == 1008

    asyncio.run(go())
