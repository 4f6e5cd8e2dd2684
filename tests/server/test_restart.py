"""Games survive a restart: deals and actions are stored as they happen, a stopped server's
tables open again under their ids, an unfinished game resumes (or is voided when it cannot
be rebuilt) with no chip lost, and every finished game is a record its players can list and
download — one that ``tienlen replay`` and ``tienlen verify`` accept."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import delete, select, update
from typer.testing import CliRunner
from websockets.asyncio.client import ClientConnection

from tienlen.cli.app import app as cli
from tienlen.engine.codec import action_to_dict
from tienlen.server.store import ledger
from tienlen.server.store.models import GameAction, GamePlayer, GameRow, TableRow
from tienlen.server.table.seating import TableConfig

from .conftest import FakeClock, LiveServer, make_settings
from .helpers import in_transaction, references
from .test_lobby import GRANT, _guest, _open

CONFIG = TableConfig(seed_window_s=2, start_wait_s=0.2, between_games_s=0.5, chop_s=1, grace_s=30)
"""Quick deals and a grace period long enough for the players to come back after a restart."""


def _app(server: LiveServer) -> Any:
    return server.server.config.app  # type: ignore[union-attr]


async def _act(ws: ClientConnection, seat: int, rng: random.Random, moves: int | None) -> Any:
    """Answer from this seat's own view: ``moves`` plays or passes (None: until the game's
    settlement, which is returned)."""
    made = 0
    while moves is None or made < moves:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        kind = message["type"]
        if kind == "commitment" and seat in message["players"]:
            await ws.send(json.dumps({"type": "client_seed", "seed": rng.randbytes(8).hex()}))
        elif kind == "settlement" and moves is None:
            return message
        elif kind == "error":
            raise AssertionError(f"refused: {message}")
        if kind == "state":
            view = (message["game"] or {}).get("view") or {}
        elif kind in ("game", "update"):
            view = message["view"]
        else:
            continue
        if view.get("over"):
            continue
        if view.get("my_turn"):
            if view["legal"] and not (view["can_pass"] and rng.random() < 0.2):
                await ws.send(json.dumps({"type": "play", "cards": rng.choice(view["legal"])}))
            else:
                await ws.send(json.dumps({"type": "pass"}))
            made += 1
        elif view.get("chop_offer"):
            await ws.send(json.dumps({"type": "decline_chop"}))
    return None


def _stored(db_url: str, table: str) -> tuple[list[GameRow], dict[str, list[dict[str, Any]]]]:
    async def read(db: Any) -> tuple[list[GameRow], dict[str, list[dict[str, Any]]]]:
        rows = list(
            await db.scalars(select(GameRow).where(GameRow.table_id == table).order_by("number"))
        )
        actions: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            found = await db.scalars(
                select(GameAction).where(GameAction.game_id == row.id).order_by(GameAction.number)
            )
            actions[row.id] = [a.action for a in found]
        return rows, actions

    return in_transaction(db_url, read)


def _start_mid_game(db_url: str, tmp_path: Path) -> tuple[list[Any], str, Any, list[Any]]:
    """Two guests sit at a table and make two moves each; the server is stopped mid-game.
    Returns the guests, the table, the game as it stood and what was stored of it."""
    server = LiveServer(make_settings(tmp_path, db_url), FakeClock(), table_config=CONFIG).start()
    try:
        guests = [_guest(server) for _ in range(2)]
        r = guests[0][0].post(
            "/api/tables", json={"room": "trainee", "preset": "bigfun", "bet": 1000, "seats": 2}
        )
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        stored_table = in_transaction(db_url, lambda db: db.get(TableRow, table))
        assert stored_table is not None and stored_table.closed_at is None

        async def play() -> None:
            sockets = [await _open(server, token, table) for _, _, token in guests]
            for seat, ws in enumerate(sockets):
                for message in ({"type": "hello", "protocol": 1}, {"type": "sit", "seat": seat}):
                    await ws.send(json.dumps(message))
                await ws.send(json.dumps({"type": "ready"}))
            await asyncio.gather(
                *(_act(ws, seat, random.Random(seat), 2) for seat, ws in enumerate(sockets))
            )
            for ws in sockets:
                await ws.close()

        asyncio.run(play())
        live = _app(server).state.lobby.tables[table].live
        deadline = time.monotonic() + 10
        while len(_stored(db_url, table)[1].get(f"{table}:{live.game_no}", [])) < len(
            live.game.history
        ):
            assert time.monotonic() < deadline, "the actions were not stored"
            time.sleep(0.05)
        rows, actions = _stored(db_url, table)
        game_id = f"{table}:{live.game_no}"
        # Stored as they happened: the deal and every action so far, in order.
        assert rows[-1].id == game_id and rows[-1].status == "playing"
        assert actions[game_id][: len(live.game.history)] == [
            action_to_dict(a) for a in live.game.history
        ]
        assert len(live.game.history) >= 4
    finally:
        server.stop()  # the tables close with a game half played: as a crash leaves them
    game = live.game
    return guests, table, game, _stored(db_url, table)[1][game_id]


def _restart(db_url: str, tmp_path: Path, guests: list[Any]) -> tuple[LiveServer, list[Any]]:
    """A new server on the same database; the guests come back with their cookies."""
    server = LiveServer(make_settings(tmp_path, db_url), FakeClock(), table_config=CONFIG).start()
    cookie = server.settings.cookie_name
    back = []
    for _, user, token in guests:
        client = server.client(httpx.Cookies({cookie: token}))
        back.append((client, user, token))
    return server, back


def test_a_restart_resumes_the_game_and_settles_it_with_no_chip_lost(
    db_url: str, tmp_path: Path
) -> None:
    guests, table, before, stored_actions = _start_mid_game(db_url, tmp_path)
    game_id = f"{table}:{len(_stored(db_url, table)[0])}"
    # A crash loses the last write: only a prefix of what happened was stored.
    in_transaction(
        db_url,
        lambda db: db.execute(
            delete(GameAction).where(
                GameAction.game_id == game_id, GameAction.number == len(stored_actions) - 1
            )
        ),
    )
    server, guests = _restart(db_url, tmp_path, guests)
    try:
        app = _app(server)
        assert app.state.restored.resumed == [game_id] and app.state.restored.voided == {}
        lobby = app.state.lobby
        live = lobby.tables[table].live
        assert live.game.initial_hands == before.initial_hands
        assert live.game.deal == before.deal
        assert [action_to_dict(a) for a in live.game.history] == stored_actions[:-1]
        assert lobby.busy_at(table, str(guests[0][1])) and live.phase == "playing"
        listed = guests[1][0].get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [table] and listed[0]["seats_taken"] == 2

        async def finish() -> list[Any]:
            sockets = [await _open(server, token, table) for _, _, token in guests]
            for ws in sockets:
                await ws.send(json.dumps({"type": "hello", "protocol": 1}))
            done = await asyncio.gather(
                *(_act(ws, seat, random.Random(10 + seat), None) for seat, ws in enumerate(sockets))
            )
            for ws in sockets:
                await ws.close()
            return done

        settlements = asyncio.run(finish())
        result = settlements[0]["settlement"]
        assert settlements[0]["game"] == int(game_id.split(":")[1])
        deadline = time.monotonic() + 10  # settled just after the settlement is sent
        while (rows_actions := _stored(db_url, table))[0][-1].status == "playing":
            assert time.monotonic() < deadline, "the game was not settled"
            time.sleep(0.05)
        rows, actions = rows_actions
        finished = rows[-1]
        assert (finished.id, finished.status) == (game_id, "finished")
        assert finished.record is not None and finished.record["actions"] == actions[game_id]
        before = finished.record["balances"]  # a game before it (a tới trắng) may have moved some
        chips = [client.get("/api/me").json()["chips"] for client, _, _ in guests]
        assert chips == [b + d for b, d in zip(before, result["deltas"], strict=True)]
        assert sum(chips) + result["fee"] == sum(before) <= 2 * GRANT
        report = in_transaction(db_url, ledger.check_ledger)
        assert report.ok, report.violations
        assert references(db_url).count(f"game:{game_id}") == 1
        assert actions[game_id][: len(stored_actions) - 1] == stored_actions[:-1]
        assert finished.winner is not None
        _check_histories(server, guests, game_id, result["deltas"], finished.winner, tmp_path)
    finally:
        server.stop()


def _check_histories(
    server: LiveServer,
    guests: list[Any],
    game_id: str,
    deltas: list[int],
    winner: int,
    tmp_path: Path,
) -> None:
    for seat, (client, user, _) in enumerate(guests):
        page = client.get("/api/me/games").json()
        mine = [g for g in page["games"] if g["id"] == game_id]
        assert len(mine) == 1 and page["total"] == len(page["games"]) >= 1
        entry = mine[0]
        assert (entry["seat"], entry["delta"], entry["preset"], entry["bet"]) == (
            seat,
            deltas[seat],
            "bigfun",
            1000,
        )
        assert [p["user"] for p in entry["players"]] == [guests[0][1], guests[1][1]]
        # Won is finishing first: a winner chopped (chặt) often enough can still lose chips.
        assert entry["won"] == (seat == winner)
        assert entry["balance"] == client.get("/api/me").json()["chips"]  # the chart's point
        assert user == entry["players"][seat]["user"]
    one = guests[0][0].get("/api/me/games", params={"limit": 1}).json()
    assert len(one["games"]) == 1 and one["next_offset"] == (1 if one["total"] > 1 else None)
    r = guests[0][0].get(f"/api/games/{game_id}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = r.json()
    assert record["format"] == "tienlen-record/1" and record["deal"]["server_seed"]
    path = tmp_path / "game.json"
    path.write_text(r.text, encoding="utf-8")
    runner = CliRunner()
    replayed = runner.invoke(cli, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output)["deltas"] == deltas
    verified = runner.invoke(cli, ["verify", str(path)])
    assert verified.exit_code == 0, verified.output
    other, _, _ = _guest(server)
    for client, path_, code in [
        (other, f"/api/games/{game_id}/record", "not_your_game"),
        (other, "/api/games/tnothing:1/record", "no_such_game"),
        (server.client(), f"/api/games/{game_id}/record", "not_logged_in"),
        (server.client(), "/api/me/games", "not_logged_in"),
    ]:
        assert client.get(path_).json()["error"]["code"] == code
    assert other.get("/api/me/games").json() == {"games": [], "total": 0, "next_offset": None}
    assert other.get("/api/me/games", params={"limit": 0}).json()["error"]["code"] == (
        "bad_request"
    )


@pytest.mark.parametrize("damage", ["illegal_action", "seeds", "seat"])
def test_a_game_that_cannot_be_rebuilt_is_voided_with_no_chip_moved(
    db_url: str, tmp_path: Path, damage: str
) -> None:
    guests, table, _, stored_actions = _start_mid_game(db_url, tmp_path)
    game_id = f"{table}:{len(_stored(db_url, table)[0])}"

    async def spoil(db: Any) -> None:
        if damage == "illegal_action":  # the second action played again by the wrong seat
            first = stored_actions[1]
            await db.execute(
                update(GameAction)
                .where(GameAction.game_id == game_id, GameAction.number == 1)
                .values(action=first | {"seat": 1 - first["seat"]})
            )
        elif damage == "seeds":  # the hands are no longer what the seeds deal
            row = await db.get(GameRow, game_id)
            start = dict(row.start)
            start["deal"] = start["deal"] | {"server_seed": "00" * 32}
            row.start = start
        else:  # a player's seat outside the table
            await db.execute(
                update(GamePlayer)
                .where(GamePlayer.game_id == game_id, GamePlayer.seat == 0)
                .values(table_seat=7)
            )

    in_transaction(db_url, spoil)
    # What they held before this game (a dealt tới trắng may have settled an earlier one).
    before = [
        in_transaction(db_url, lambda db, u=u: ledger.balance_of(db, u)) for _, u, _ in guests
    ]
    finished = sum(row.status == "finished" for row in _stored(db_url, table)[0])
    server, guests = _restart(db_url, tmp_path, guests)
    try:
        app = _app(server)
        assert list(app.state.restored.voided) == [game_id]
        assert app.state.restored.resumed == [] and app.state.restored.tables == [table]
        lobby = app.state.lobby
        assert not lobby.busy_at(table) and lobby.tables[table].live.phase == "waiting"
        assert lobby.tables[table].live.games == int(game_id.split(":")[1])
        row = _stored(db_url, table)[0][-1]
        assert row.status == "void" and row.void_reason and row.record is None
        assert f"game:{game_id}" not in references(db_url)
        assert [c.get("/api/me").json()["chips"] for c, _, _ in guests] == before
        report = in_transaction(db_url, ledger.check_ledger)
        assert report.ok, report.violations
        assert guests[0][0].get("/api/me/games").json()["total"] == finished
        r = guests[0][0].get(f"/api/games/{game_id}/record")
        assert r.json()["error"]["code"] == "no_such_game"
    finally:
        server.stop()


def test_a_table_whose_preset_is_gone_is_closed_and_its_game_voided(
    db_url: str, tmp_path: Path, serve: Any
) -> None:
    server = serve()
    client, user, _ = _guest(server)
    now = server.clock()

    async def store(db: Any) -> None:
        db.add(
            TableRow(id="tgone", room="trainee", preset="gone", bet=1000, turn_seconds=10,
                     seats=2, private=False, invite=None, owner_id=user, opened_at=now)
        )  # fmt: skip
        await db.flush()
        db.add(
            GameRow(id="tgone:1", table_id="tgone", number=1, start={}, status="playing",
                    dealt_at=now)
        )  # fmt: skip

    in_transaction(db_url, store)
    again = serve()
    restored = _app(again).state.restored
    assert restored.tables == [] and list(restored.voided) == ["tgone:1"]
    assert "preset" in restored.voided["tgone:1"]
    rows, _ = _stored(db_url, "tgone")
    assert rows[0].status == "void"
    table = in_transaction(db_url, lambda db: db.get(TableRow, "tgone"))
    assert table.closed_at is not None
    assert client.get("/api/me").json()["chips"] == GRANT
    third = _app(serve()).state.restored  # closed: not opened again
    assert third.tables == [] and third.voided == {}


def test_the_writer_keeps_a_prefix_when_a_write_is_lost(db_url: str) -> None:
    from tienlen.server.store.db import make_engine, make_sessions
    from tienlen.server.table import journal

    from .conftest import START

    written: list[int] = []

    def write(n: int, fail: bool = False) -> Any:
        async def work(db: Any) -> None:
            if fail:
                raise RuntimeError("the disk is full")
            written.append(n)

        return work

    async def go() -> None:
        engine = make_engine(db_url)
        writer = journal.Writer(make_sessions(engine), lambda: START)
        try:
            writer.put(write(0), "g")
            await writer.flush()
            writer.put(write(1, fail=True), "g")
            writer.put(write(2), "g")
            writer.put(write(10), "h")  # another game's writes go on
            await writer.flush()
            writer.put(write(3), "g")
            await writer.close()
        finally:
            await engine.dispose()
        assert writer.broken == {"g"}

    asyncio.run(go())  # a write refused for its data is not tried again: no pause
    assert [n for n in written if n < 10] == [0] and 10 in written


def test_the_writer_inserts_a_batch_of_actions_in_order_and_loses_only_a_bad_game(
    db_url: str,
) -> None:
    """Actions queued together are written in one insert after the deal queued before them;
    a row that cannot be stored (a game never dealt: its foreign key) stops that game's
    later rows only, and the other games' rows in the same batch are stored."""
    from tienlen.server.store.db import make_engine, make_sessions
    from tienlen.server.store.models import User
    from tienlen.server.table import journal

    from .conftest import START

    def deal(game: str) -> Any:
        async def work(db: Any) -> None:
            if game == "t:1":
                db.add(User(id=7, nickname="o", nickname_key="o", is_guest=True, created_at=START))
                await db.flush()
                db.add(
                    TableRow(
                        id="t",
                        room="trainee",
                        preset="thapthanh",
                        bet=0,
                        turn_seconds=20,
                        seats=4,
                        private=False,
                        owner_id=7,
                        opened_at=START,
                    )
                )
                await db.flush()
            number = int(game[-1])
            db.add(
                GameRow(
                    id=game, table_id="t", number=number, start={}, status="playing", dealt_at=START
                )
            )
            await db.flush()

        return work

    def action(game: str, number: int) -> dict[str, Any]:
        return {"game_id": game, "number": number, "action": {"type": "pass"}, "at": START}

    async def go() -> None:
        engine = make_engine(db_url)
        writer = journal.Writer(make_sessions(engine), lambda: START)
        try:
            writer.put(deal("t:1"), "t:1")
            for n in range(3):
                writer.put_action("t:1", action("t:1", n))
            writer.put(deal("t:2"), "t:2")
            writer.put_action("t:2", action("t:2", 0))
            writer.put_action("t:9", action("t:9", 0))  # never dealt
            writer.put_action("t:1", action("t:1", 3))
            writer.put_action("t:9", action("t:9", 1))
            await writer.close()
        finally:
            await engine.dispose()
        assert writer.broken == {"t:9"}

    asyncio.run(go())  # a write refused for its data is not tried again: no pause

    async def read(db: Any) -> list[tuple[str, int]]:
        rows = await db.execute(
            select(GameAction.game_id, GameAction.number).order_by("game_id", "number")
        )
        return [tuple(row) for row in rows]

    stored = in_transaction(db_url, read)
    assert stored == [("t:1", 0), ("t:1", 1), ("t:1", 2), ("t:1", 3), ("t:2", 0)]


def test_the_writer_lets_writes_pile_up_unless_flushed(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writes queued a moment apart go in one transaction; a flush does not wait for more."""
    from tienlen.server.store.db import make_engine, make_sessions
    from tienlen.server.table import journal

    from .conftest import START

    batches: list[int] = []
    apply = journal._apply

    async def counted(db: Any, writes: list[Any]) -> None:
        batches.append(len(writes))
        await apply(db, writes)

    async def nothing(db: Any) -> None:
        pass

    monkeypatch.setattr(journal, "_apply", counted)
    monkeypatch.setattr(journal, "LINGER_S", 30.0)

    async def go() -> None:
        engine = make_engine(db_url)
        writer = journal.Writer(make_sessions(engine), lambda: START)
        try:
            writer.put(nothing)
            for _ in range(5):
                await asyncio.sleep(0)
            writer.put(nothing)
            await asyncio.wait_for(writer.flush(), 10)
            writer.put(nothing)
            await asyncio.wait_for(writer.close(), 10)
        finally:
            await engine.dispose()

    asyncio.run(go())
    assert batches == [2, 1]
