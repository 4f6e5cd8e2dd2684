"""A server asked to stop (SIGTERM, Ctrl-C) drains first: it opens no table and deals no game,
says it is not ready, and lets the games in progress finish and be settled, within
``TIENLEN_DRAIN_SECONDS`` (issue 19, §2)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection

from tienlen.server.store.models import GameRow

from .conftest import FakeClock, LiveServer, make_settings
from .helpers import in_transaction
from .test_lobby import _guest, _open
from .test_restart import CONFIG, _act, _app

UNHURRIED = dataclasses.replace(CONFIG, rate=1000.0, burst=1000.0)
"""The restart tests' quick tables, with no rate limit: the scripted players answer at once."""
NEW_TABLE = {"room": "trainee", "preset": "bigfun", "bet": 1000, "seats": 2}


def _on_loop(server: LiveServer, table: str, coroutine: Any) -> Any:
    """Run ``coroutine`` on the server's event loop (the one its tables run on)."""
    loop = _app(server).state.lobby.tables[table].live._task.get_loop()
    return asyncio.run_coroutine_threadsafe(coroutine, loop)


async def _seated(server: LiveServer, guests: list[Any], table: str) -> list[ClientConnection]:
    sockets = [await _open(server, token, table) for _, _, token in guests]
    for seat, ws in enumerate(sockets):
        for message in ({"type": "hello", "protocol": 1}, {"type": "sit", "seat": seat},
                        {"type": "ready"}):  # fmt: skip
            await ws.send(json.dumps(message))
    return sockets


async def _moves(sockets: list[ClientConnection], moves: int) -> None:
    """Each player makes ``moves`` plays or passes (a game dealt to its end at once, a tới
    trắng, is followed by the next)."""
    await asyncio.gather(*(_act(ws, s, random.Random(s), moves) for s, ws in enumerate(sockets)))


def test_a_drain_lets_the_game_in_progress_finish_and_deals_no_other(
    db_url: str, tmp_path: Path
) -> None:
    server = LiveServer(make_settings(tmp_path, db_url), FakeClock(), table_config=UNHURRIED)
    server.start()
    try:
        guests = [_guest(server) for _ in range(2)]
        owner = guests[0][0]
        r = owner.post("/api/tables", json=NEW_TABLE)
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        lobby = _app(server).state.lobby
        live = lobby.tables[table].live

        async def play() -> tuple[list[Any], list[str]]:
            sockets = await _seated(server, guests, table)
            await asyncio.gather(
                *(_act(ws, s, random.Random(s), 2) for s, ws in enumerate(sockets))
            )
            assert live.phase == "playing"
            drained = asyncio.wrap_future(_on_loop(server, table, lobby.drain(60)))
            await asyncio.sleep(0)  # (the drain starts on the server's loop)
            while not lobby.draining:
                await asyncio.sleep(0.01)
            refused = await asyncio.to_thread(owner.post, "/api/tables", json=NEW_TABLE)
            ready = await asyncio.to_thread(owner.get, "/api/health/ready")
            assert not drained.done()  # the game is still on: the drain waits for it
            settlements = await asyncio.gather(
                *(_act(ws, s, random.Random(10 + s), None) for s, ws in enumerate(sockets))
            )
            left = await asyncio.wait_for(drained, 30)
            for ws in sockets:
                await ws.close()
            return [refused, ready, *settlements], left

        (refused, ready, settlement, _), left = asyncio.run(play())
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "draining"
        assert ready.status_code == 503
        assert "the server is stopping" in " ".join(ready.json()["reasons"])
        assert left == []  # the game finished within the drain
        game_id = f"{table}:{settlement['game']}"
        row = in_transaction(db_url, lambda db: db.get(GameRow, game_id))
        assert row is not None and row.status == "finished"
        # Both are still seated and ready, and the pause between games is over: no deal.
        _on_loop(server, table, live._maybe_start(force=True)).result(10)
        assert (live.phase, live.game_no) == ("waiting", settlement["game"])
    finally:
        server.stop()


def test_a_drain_gives_up_on_a_game_at_its_deadline(db_url: str, tmp_path: Path) -> None:
    """Nobody plays: the drain ends at its bound, naming the table (its game resumes from the
    journal at the next start: tests/server/test_restart.py)."""
    server = LiveServer(make_settings(tmp_path, db_url), FakeClock(), table_config=UNHURRIED)
    server.start()
    try:
        guests = [_guest(server) for _ in range(2)]
        r = guests[0][0].post("/api/tables", json=NEW_TABLE)
        table = r.json()["id"]
        lobby = _app(server).state.lobby

        async def deal_then_drain() -> list[str]:
            sockets = await _seated(server, guests, table)
            await asyncio.gather(
                *(_act(ws, s, random.Random(s), 1) for s, ws in enumerate(sockets))
            )
            left: list[str] = await asyncio.wrap_future(_on_loop(server, table, lobby.drain(0.3)))
            for ws in sockets:
                await ws.close()
            return left

        assert asyncio.run(deal_then_drain()) == [table]
    finally:
        server.stop()
