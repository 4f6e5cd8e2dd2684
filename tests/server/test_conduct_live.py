"""Sanctions reaching the open sockets, through the real server: flooding the chat is the
policy's ``flooding`` offence (a warning, then a mute), applied automatically and told to the
player; a mute made by a moderator or the console is told at once, and so is its lift; a ban
closes the player's table and lobby sockets saying why and until when, and their seat leaves
the game at once; and
what the server keeps in memory about people is forgotten once it can no longer matter."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tienlen.server.conduct.chat_guard import ChatGuard
from tienlen.server.store.models import AuditEntry, Sanction
from tienlen.server.table.seating import TableConfig

from .conftest import START, FakeClock, LiveServer, make_settings
from .test_chat import _next, _open, _send, _table
from .test_chat_conduct import _say, _token, closed
from .test_conduct_api import admin, moderator, player, rows
from .test_lobby import Player

CONFIG = TableConfig(seed_window_s=1, start_wait_s=0.2, between_games_s=30, chop_s=1, grace_s=60)
"""Quick to deal; a lost connection keeps its seat for a minute (longer than any test)."""


@pytest.fixture
def live(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    settings = make_settings(
        tmp_path,
        db_url,
        chat_limit=2,
        chat_window_seconds=10,
        flood_limit=3,
        flood_window_minutes=10,
        silence_refresh_seconds=3600,  # no test waits on it: each reloads (_reload)
    )
    server = LiveServer(settings, FakeClock(), table_config=CONFIG).start()
    yield server
    server.stop()


def _app(live: LiveServer) -> Any:
    return live.server.config.app  # type: ignore[union-attr]


async def _reload(live: LiveServer, table: str) -> None:
    """The chat guard's periodic reload, run now on the server's loop (the fixture's period is
    an hour: no test waits on it)."""
    loop = _app(live).state.lobby.tables[table].live._task.get_loop()
    reload = _app(live).state.server.chat.guard.reload()
    await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(reload, loop))


async def _hello(ws: Any, lobby: Any) -> None:
    await _send(ws, type="hello", protocol=1)
    await _next(ws, "state")
    await _send(lobby, type="hello", protocol=1)
    await _next(lobby, "lobby", lobby=True)


def test_flooding_the_chat_is_warned_then_muted_by_the_policy(
    live: LiveServer, db_url: str
) -> None:
    client, user = player(live, "Lan")
    token = _token(live, client)
    table = _table(client)
    guard = _app(live).state.server.chat.guard

    async def flood(ws: Any, ref: int) -> list[dict[str, Any]]:
        """Two lines heard, three refused as too fast: the third refusal is an offence."""
        return [await _say(ws, f"spam {ref + i}", ref + i) for i in range(5)]

    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with (
            _open(live, token, f"/ws/tables/{table}") as ws,
            _open(live, token, "/ws/lobby") as lobby,
        ):
            await _hello(ws, lobby)
            out["first"] = await flood(ws, 1)
            out["warned"] = await _next(ws, "sanction")
            out["warned_lobby"] = await _next(lobby, "sanction", lobby=True)
            assert len(guard.flooding) == 0  # the count starts again
            live.clock.advance(seconds=11)  # the chat's window is past: two more lines
            out["second"] = await flood(ws, 10)
            out["muted"] = await _next(ws, "sanction")
            live.clock.advance(seconds=11)
            out["after"] = await _say(ws, "vẫn mở", 20)  # the socket stays open: refused
        return out

    out = asyncio.run(go())
    for said in (out["first"], out["second"]):
        assert [a["type"] for a in said] == ["chat", "chat", "error", "error", "error"]
        assert {a["code"] for a in said[2:]} == {"chat_too_fast"}
    reason = "automatic (flood control): 3 chat lines refused as too fast within 10 minutes"
    assert out["warned"] == {
        "type": "sanction",
        "kind": "warn",
        "until": None,
        "reason": reason,
        "offence": "flooding",
        "offence_en": "Flooding a chat",
        "offence_vi": "Spam kênh chat",
        "message": f"you are warned for Spam kênh chat: {reason}",
    }
    assert out["warned_lobby"] == out["warned"]
    mute_ends = START + timedelta(seconds=11, hours=1)
    assert out["muted"]["kind"] == "mute" and out["muted"]["until"] == mute_ends.isoformat()
    assert out["muted"]["message"].startswith(
        f"you are muted until {mute_ends:%Y-%m-%d %H:%M} UTC for Spam kênh chat: {reason}"
    )
    assert out["after"]["code"] == "muted"

    sanctions = rows(db_url, Sanction)
    assert [(s.user_id, s.kind, s.offence, s.by_user_id) for s in sanctions] == [
        (user, "warn", "flooding", None),
        (user, "mute", "flooding", None),
    ]
    assert sanctions[0].evidence["automatic"] is True
    assert sanctions[0].evidence["refused"] == 3
    assert sanctions[0].evidence["channel"] == f"table:{table}"
    assert [s.evidence["policy_step"] for s in sanctions] == [1, 2]
    audit = [e for e in rows(db_url, AuditEntry) if e.action in ("warn", "mute")]
    assert [(e.action, e.actor_id, e.reason) for e in audit] == [
        ("warn", None, reason),
        ("mute", None, reason),
    ]


def test_a_mute_is_told_at_once_and_a_ban_by_the_console_closes_every_socket(
    live: LiveServer, db_url: str
) -> None:
    mod, _ = moderator(live, db_url)
    client, user = player(live, "Minh")
    token = _token(live, client)
    table = _table(client)

    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with (
            _open(live, token, f"/ws/tables/{table}") as ws,
            _open(live, token, "/ws/lobby") as lobby,
        ):
            await _hello(ws, lobby)
            body = {"user_id": user, "duration": "2h", "reason": "spam links"}
            assert mod.post("/api/mod/mute", json=body).status_code == 200
            out["muted"] = await _next(ws, "sanction")
            out["muted_lobby"] = await _next(lobby, "sanction", lobby=True)
            out["refused"] = await _say(lobby, "xin chào", 1, lobby=True)
            # The console is another process, on the system's clock: the server finds its ban
            # when it reads again (its own clock is put a minute after the console's). That
            # read is the guard's periodic reload (every TIENLEN_SILENCE_REFRESH_SECONDS: see
            # the last test of this file), run here at once.
            live.clock.now = datetime.now(UTC) + timedelta(minutes=1)
            ban = ["ban", "Minh", "7d", "--reason", "selling chips"]
            assert (await asyncio.to_thread(admin, db_url, *ban))[0] == 0
            await _reload(live, table)
            out["banned"] = await _next(ws, "sanction")
            out["banned_lobby"] = await _next(lobby, "sanction", lobby=True)
            out["closed"] = await closed(ws)
            out["closed_lobby"] = await closed(lobby)
        return out

    out = asyncio.run(go())
    until = START + timedelta(hours=2)
    assert (
        out["muted"]
        == out["muted_lobby"]
        == {
            "type": "sanction",
            "kind": "mute",
            "until": until.isoformat(),
            "reason": "spam links",
            "offence": None,
            "offence_en": None,
            "offence_vi": None,
            "message": f"you are muted until {until:%Y-%m-%d %H:%M} UTC: spam links",
        }
    )
    assert out["refused"]["code"] == "muted"
    ends = rows(db_url, Sanction)[-1].ends_at.replace(tzinfo=UTC)
    assert out["banned"] == out["banned_lobby"]
    assert out["banned"]["kind"] == "ban" and out["banned"]["until"] == ends.isoformat()
    assert out["banned"]["message"] == (
        f"you are banned until {ends:%Y-%m-%d %H:%M} UTC: selling chips"
    )
    reason = f"banned until {ends:%Y-%m-%d %H:%M} UTC"
    assert out["closed"] == out["closed_lobby"] == {"code": 1008, "reason": reason}
    lobby = _app(live).state.lobby
    assert not lobby.feed.watchers and str(user) not in lobby.tables[table].queues


async def _heard_until_chat(ws: Any, text: str, ref: int) -> list[dict[str, Any]]:
    """Say ``text`` at a table: the sanctions told, then the line heard (or the error)."""
    await _send(ws, type="chat", text=text, ref=ref)
    heard = [await _next(ws, "chat", "error", "sanction")]
    while heard[-1]["type"] == "sanction":
        heard.append(await _next(ws, "chat", "error", "sanction"))
    return heard


def test_a_lifted_mute_or_ban_is_told_at_once_and_the_chat_takes_the_players_lines_again(
    live: LiveServer, db_url: str
) -> None:
    mod, _ = moderator(live, db_url)
    client, user = player(live, "Minh")
    token = _token(live, client)
    table = _table(client)
    guard = _app(live).state.server.chat.guard
    heard: list[Any] = []
    guard.listeners.append(heard.append)
    mute = {"user_id": user, "duration": "2h", "reason": "spam links"}

    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with (
            _open(live, token, f"/ws/tables/{table}") as ws,
            _open(live, token, "/ws/lobby") as lobby,
        ):
            await _hello(ws, lobby)
            assert mod.post("/api/mod/mute", json=mute).status_code == 200
            await _next(ws, "sanction")
            await _next(lobby, "sanction", lobby=True)
            lift = {"user_id": user, "reason": "appeal accepted"}
            assert mod.post("/api/mod/unmute", json=lift).status_code == 200
            out["lifted"] = await _next(ws, "sanction")
            out["lifted_lobby"] = await _next(lobby, "sanction", lobby=True)
            out["said"] = await _say(lobby, "cảm ơn", 1, lobby=True)
            # A mute that runs out is not lifted: nothing is told when it ends.
            assert mod.post("/api/mod/mute", json=mute).status_code == 200
            await _next(ws, "sanction")
            live.clock.advance(hours=3)
            # The guard reads the sanctions again (its periodic reload, run now): the expired
            # mute is dropped, and nothing is told.
            await _reload(live, table)
            out["after_expiry"] = await _heard_until_chat(ws, "hết hạn rồi", 2)
        # A ban lifted is told too (no socket of the player is open by then: the ban closed
        # them, and a new one is refused until the lift).
        ban = {"user_id": user, "duration": "1d", "reason": "selling chips"}
        assert mod.post("/api/mod/ban", json=ban).status_code == 200
        unban = {"user_id": user, "reason": "paid"}
        assert mod.post("/api/mod/unban", json=unban).status_code == 200
        async with _open(live, token, "/ws/lobby") as lobby:
            await _send(lobby, type="hello", protocol=1)
            await _next(lobby, "lobby", lobby=True)
            # The console (another process, on the system's clock): its lift is told when the
            # server reads again (the periodic reload, run now), as its new sanctions are.
            live.clock.now = datetime.now(UTC) + timedelta(minutes=1)
            console = ["mute", "Minh", "1h", "--reason", "spam"]
            assert (await asyncio.to_thread(admin, db_url, *console))[0] == 0
            await _reload(live, table)
            out["console_muted"] = await _next(lobby, "sanction", lobby=True)
            console = ["unmute", "Minh", "--reason", "a mistake"]
            assert (await asyncio.to_thread(admin, db_url, *console))[0] == 0
            await _reload(live, table)
            out["console_lifted"] = await _next(lobby, "sanction", lobby=True)
        return out

    out = asyncio.run(go())
    assert (
        out["lifted"]
        == out["lifted_lobby"]
        == {
            "type": "sanction",
            "kind": "unmute",
            "until": None,
            "reason": "appeal accepted",
            "offence": None,
            "offence_en": None,
            "offence_vi": None,
            "message": "your mute is lifted: appeal accepted",
        }
    )
    assert out["said"]["type"] == "chat" and out["said"]["text"] == "cảm ơn"
    assert [m["type"] for m in out["after_expiry"]] == ["chat"]
    assert out["console_muted"]["kind"] == "mute"
    assert out["console_lifted"]["kind"] == "unmute"
    assert out["console_lifted"]["message"] == "your mute is lifted: a mistake"
    assert [(n.kind, n.message) for n in heard] == [
        ("mute", "you are muted until 2026-03-14 11:00 UTC: spam links"),
        ("unmute", "your mute is lifted: appeal accepted"),
        ("mute", "you are muted until 2026-03-14 11:00 UTC: spam links"),
        ("ban", heard[3].message),
        ("unban", "your ban is lifted: paid"),
        ("mute", heard[5].message),
        ("unmute", "your mute is lifted: a mistake"),
    ]


def test_a_player_banned_mid_game_is_closed_out_and_leaves_the_game_at_once(
    live: LiveServer, db_url: str
) -> None:
    mod, _ = moderator(live, db_url)
    stayer, stayer_id = player(live, "Hoa")
    banned, banned_id = player(live, "Tuấn")
    r = stayer.post(
        "/api/tables", json={"room": "trainee", "preset": "bigfun", "bet": 1000, "seats": 2}
    )
    table = r.json()["id"]

    async def go() -> tuple[Player, list[dict[str, Any]], dict[str, Any]]:
        ws = await _open(live, _token(live, stayer), f"/ws/tables/{table}")
        staying = Player(stayer_id, 0, ws, seed=3)
        heard: list[dict[str, Any]] = []
        async with _open(live, _token(live, banned), f"/ws/tables/{table}") as gone:
            for message in ({"type": "hello", "protocol": 1}, {"type": "sit", "seat": 1}):
                await gone.send(json.dumps(message))
            await gone.send(json.dumps({"type": "ready"}))
            playing = asyncio.create_task(staying.play())
            while (message := await _next(gone, "game", "sanction"))["type"] != "game":
                pass
            body = {"user_id": banned_id, "duration": "1d", "reason": "hacking"}
            r = await asyncio.to_thread(mod.post, "/api/mod/ban", json=body)
            assert r.status_code == 200, r.text
            heard.append(await _next(gone, "sanction"))
            close = await closed(gone)
        await asyncio.wait_for(playing, 30)  # the grace period is a minute: the ban did this
        await ws.close()
        return staying, heard, close

    staying, heard, close = asyncio.run(go())
    assert heard[0]["kind"] == "ban" and heard[0]["message"].endswith(": hacking")
    assert close["code"] == 1008 and close["reason"].startswith("banned until ")
    live_table = _app(live).state.lobby.tables[table].live
    # The ban reached the table as an item of its queue: let it be handled (after a dealt tới
    # trắng the stayer's game was over before the ban, and nothing else waited for it).
    loop = live_table._task.get_loop()
    asyncio.run_coroutine_threadsafe(live_table.idle(), loop).result(10)
    game = live_table.game
    assert live_table.seats[1] is None  # the seat is free
    assert str(banned_id) not in live_table.recipients.members
    assert staying.settlement is not None
    if game.instant_win is None:  # not dealt a tới trắng: the banned seat left the game
        assert game.left >> 1 & 1 and game.winner == 0
        deltas = staying.settlement["settlement"]["deltas"]
        assert deltas[0] > 0 > deltas[1]


def test_where_people_connected_from_is_forgotten_once_they_have_gone(
    live: LiveServer, db_url: str
) -> None:
    client, user = player(live, "Lan")
    token = _token(live, client)
    table = _table(client)
    lobby = _app(live).state.lobby
    lobby_table = lobby.tables[table]
    lobby_table.live.config = dataclasses.replace(lobby_table.live.config, grace_s=0.2)

    async def go() -> None:
        async with _open(live, token, f"/ws/tables/{table}") as ws:
            await _send(ws, type="hello", protocol=1)
            await _next(ws, "state")
            assert str(user) in lobby.presence.at
            lobby.prune()
            assert str(user) in lobby.presence.at  # connected: the seating rule asks
        deadline = time.monotonic() + 10
        while str(user) in lobby_table.live.recipients.members:  # the grace period ends
            assert time.monotonic() < deadline, "the grace period did not end"
            await asyncio.sleep(0.02)
        loop = lobby_table.live._task.get_loop()  # then a sweep prunes (the one due, at once)
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(lobby.sweep(), loop))

    asyncio.run(go())
    assert str(user) not in lobby.presence.at
    assert str(user) not in lobby_table.live.recipients.members
    assert str(user) not in lobby_table.live._connections


def test_the_chat_guard_forgets_counts_a_window_old() -> None:
    guard = ChatGuard(limit=3, window_s=600.0, flood_limit=2, flood_window_s=60.0)
    assert guard.swearing.tally("1", 0.0, 11) is None
    assert guard.swearing.tally("2", 100.0, 12) is None
    assert len(guard.swearing) == 2
    assert guard.swearing.tally("3", 650.0, 13) is None  # user 1's line is a window old
    assert len(guard.swearing) == 2
    assert guard.swearing.tally("2", 690.0, 14) is None  # 2's first line still counts
    assert guard.swearing.tally("2", 695.0, 15) == [12, 14, 15]
    assert guard.flooding.tally("1", 0.0, 0) is None
    assert guard.flooding.tally("1", 61.0, 61) is None  # the first refusal fell out
    assert guard.flooding.tally("1", 62.0, 62) == [61, 62]
    assert len(guard.flooding) == 0


def test_the_guard_reads_the_sanctions_again_every_period_even_after_a_failed_read() -> None:
    """What finds a sanction made by another process (the console): a reload at start, then
    one every ``refresh_s``; a read that fails (the database is down) does not stop them."""

    async def main() -> list[str]:
        guard = ChatGuard(sessions=object(), refresh_s=0.001)  # type: ignore[arg-type]
        reads: list[str] = []
        fourth = asyncio.Event()

        async def reload() -> None:
            reads.append("failed" if len(reads) == 1 else "read")
            if len(reads) == 4:
                fourth.set()
            if reads[-1] == "failed":
                raise OSError("the database is down")

        guard.reload = reload  # type: ignore[method-assign]
        await guard.start()
        assert reads == ["read"]  # the first, before the server takes anyone
        await asyncio.wait_for(fourth.wait(), 10)
        await guard.close()
        return reads[:4]

    assert asyncio.run(main()) == ["read", "failed", "read", "read"]
