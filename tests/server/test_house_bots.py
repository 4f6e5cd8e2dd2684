"""House bots at the lobby's chip tables, "play now", empty tables closing and owners passing
on, through the real server: bots hold ledger accounts, are staked by the house (or issuance),
and every chip they win or lose is a ledger row that ``check_ledger`` proves."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from websockets.asyncio.client import ClientConnection

from tienlen.engine.cards import parse_mask
from tienlen.engine.game import Action, Game
from tienlen.engine.rules import RuleSet
from tienlen.money.settlement import settle
from tienlen.server.lobby.house_bots import HouseBots, stake_for
from tienlen.server.store import ledger
from tienlen.server.store.models import Account, Entry, Transaction, User
from tienlen.server.table.seating import TableConfig

from .conftest import START, FakeClock, LiveServer, make_settings
from .helpers import database, in_transaction, references, snapshot
from .test_lobby import GRANT, _guest, _open, _spend

QUICK = TableConfig(
    seed_window_s=0.5,
    start_wait_s=0.2,
    between_games_s=1.0,
    chop_s=1,
    grace_s=0.5,
    bot_delay_s=0,
    bot_budget_s=5,
    play_now_wait_s=0.3,
)
"""Tables that deal at once, with bots answering as soon as they have decided."""


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


async def _play(ws: ClientConnection, seat: int, games: int, seed: int) -> list[dict[str, Any]]:
    """Sit at ``seat`` and play ``games`` games at random from the seat's own view; stop being
    ready after the last. Returns every message received."""
    rng = random.Random(seed)
    await _send(ws, type="hello", protocol=1)
    await _send(ws, type="sit", seat=seat)
    await _send(ws, type="ready")
    seen: list[dict[str, Any]] = []
    settled = 0
    async for raw in ws:
        message = json.loads(raw)
        seen.append(message)
        kind = message["type"]
        if kind == "error":
            raise AssertionError(f"refused: {message}")
        if kind == "commitment" and seat in message["players"]:
            await _send(ws, type="client_seed", seed=rng.randbytes(16).hex())
        elif kind in ("game", "update") and not message["view"].get("over"):
            view = message["view"]
            if view.get("my_turn"):
                if view["legal"] and not (view["can_pass"] and rng.random() < 0.2):
                    await _send(ws, type="play", cards=rng.choice(view["legal"]))
                else:
                    await _send(ws, type="pass")
            elif view.get("chop_offer"):
                await _send(ws, type="decline_chop")
        elif kind == "settlement":
            settled += 1
            if settled == games:
                await _send(ws, type="ready", ready=False)
                return seen
    raise AssertionError("the socket closed mid-game")


def _until(check: Any, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


async def _rows(db: AsyncSession) -> list[tuple[str, str, int | None, bool | None, int]]:
    """(reference, account kind, user id, is bot, amount) of every entry."""
    rows = await db.execute(
        select(Transaction.reference, Account.kind, Account.user_id, User.is_bot, Entry.amount)
        .join(Entry, Entry.transaction_id == Transaction.id)
        .join(Account, Account.id == Entry.account_id)
        .outerjoin(User, User.id == Account.user_id)
        .order_by(Entry.id)
    )
    return [tuple(row) for row in rows]  # type: ignore[misc]


def test_a_person_plays_bots_for_chips_and_the_ledger_proves_every_chip(
    server: LiveServer, db_url: str
) -> None:
    client, user, token = _guest(server)
    r = client.post("/api/play-now")
    assert r.status_code == 201, r.text
    table = r.json()
    assert (table["room"], table["preset"], table["bet"], table["owner"]) == (
        "trainee",
        "thapthanh",
        1000,
        user,
    )
    assert (table["seat"], table["seats_taken"], table["seats"]) == (0, 3, 4)

    async def go() -> list[dict[str, Any]]:
        async with _open(server, token, table["id"]) as ws:
            return await asyncio.wait_for(_play(ws, 0, 2, seed=5), 120)

    seen = asyncio.run(go())
    first = next(m for m in seen if m["type"] == "table")
    bots = [s for s in first["seats"] if s is not None and s["bot"] is not None]
    assert [s["bot"] for s in bots] == ["strategic"] * 3
    assert all(s["name"].startswith("Bot ") and s["user"].isdigit() for s in bots)
    settlements = [m for m in seen if m["type"] == "settlement"]
    assert len(settlements) == 2
    _until(lambda: f"game:{table['id']}:2" in references(db_url))

    rows = in_transaction(db_url, _rows)
    stakes = [r for r in rows if r[0].startswith("stake:")]
    bot_ids = sorted(int(s["user"]) for s in bots)
    staked = {u: sum(r[4] for r in stakes if r[2] == u) for u in bot_ids}
    firsts = {r[0]: (r[1], r[4]) for r in stakes if r[0].endswith(":1") and r[1] != "player"}
    assert firsts == {  # each bot before its first game; a new server's house has no fees
        f"stake:{u}:1": ("issuance", -stake_for(RuleSet.preset("thapthanh"), 4, 1000))
        for u in bot_ids
    }
    for message in settlements:
        game = f"game:{table['id']}:{message['game']}"
        by_user = {r[2]: r[4] for r in rows if r[0] == game and r[1] == "player"}
        players = [int(first["seats"][seat]["user"]) for seat in message["seats"]]
        deltas = dict(zip(players, message["settlement"]["deltas"], strict=True))
        assert by_user == {u: d for u, d in deltas.items() if d}
        fee = sum(r[4] for r in rows if r[0] == game and r[1] == "house")
        assert fee == message["settlement"]["fee"]

    async def balances(db: AsyncSession) -> dict[str, int]:
        accounts = await db.execute(select(Account.kind, Account.user_id, Account.balance))
        return {f"{kind}:{owner}": balance for kind, owner, balance in accounts}

    chips = in_transaction(db_url, balances)
    # A stake comes from issuance, or from the house's fees once they cover it (a move, not
    # new chips): only the former adds to what there is.
    issued = -sum(r[4] for r in stakes if r[1] == "issuance")
    won = {u: sum(r[4] for r in rows if r[2] == u and r[0].startswith("game:")) for u in bot_ids}
    for bot in bot_ids:
        assert chips[f"player:{bot}"] == staked[bot] + won[bot]
    assert client.get("/api/me").json()["chips"] == chips[f"player:{user}"]
    assert (
        chips[f"player:{user}"] + sum(chips[f"player:{b}"] for b in bot_ids) + chips["house:None"]
        == GRANT + issued
    )  # every chip there is was issued, none lost
    report = in_transaction(db_url, ledger.check_ledger)
    assert report.ok, report.violations

    async def people(db: AsyncSession) -> dict[int, tuple[bool, bool, int, int]]:
        found = await db.execute(
            select(User.id, User.is_bot, User.is_guest, User.dkn, User.games_played)
        )
        return {row[0]: tuple(row[1:]) for row in found}  # type: ignore[misc]

    users = in_transaction(db_url, people)
    assert users[user][0] is False and users[user][3] == 2
    assert all(users[b] == (True, True, 0, 0) for b in bot_ids)  # no ĐKN, no games counted


def test_bots_are_staked_by_the_house_first_then_by_issuance(db_url: str) -> None:
    """A bot holding less than the most a game at its table can cost (thapthanh, 4 seats:
    226 bets) is brought up to it before a deal: from the house's fees while it has enough,
    else from issuance; one holding enough is not."""
    person: dict[str, int] = {}
    stake = stake_for(RuleSet.preset("thapthanh"), 4, 100)
    assert stake == 22_600

    async def go() -> list[tuple[str, str, int | None, bool | None, int]]:
        async with database(db_url) as sessions:
            server: Any = SimpleNamespace(sessions=sessions, clock=lambda: START)
            seated: list[str] = []
            bots = HouseBots(server, lambda: seated)
            first, name = await bots.take("greedy")
            assert name == "Bot 1"
            assert await bots.take("search") == (first, name)  # free again: reused
            seated.append(first)
            second, name = await bots.take("random")
            assert name == "Bot 2" and second != first
            async with sessions() as db, db.begin():
                from tienlen.server.auth import create_guest
                from tienlen.server.settings import Settings

                guest, _ = await create_guest(db, START, Settings(starting_grant=GRANT))
                person["id"] = guest.id
                await ledger.settle_game(db, "fees", {guest.id: -30_000}, 30_000, START)
            assert await bots.balance(first, stake) == 22_600  # from the house: 30000 → 7400
            assert await bots.balance(second, stake) == 22_600  # the house has 7400: issuance
            async with sessions() as db, db.begin():  # the first bot loses 11000 to the guest
                await ledger.settle_game(
                    db, "g1", {int(first): -11_000, guest.id: 11_000}, 0, START
                )
            assert await bots.balance(first, stake) == 22_600  # 11600: staked 11000
            async with sessions() as db, db.begin():
                await ledger.settle_game(db, "g2", {int(first): 5_000, guest.id: -5_000}, 0, START)
            assert await bots.balance(first, stake) == 27_600  # holds enough: no stake
            async with sessions() as db, db.begin():
                return await _rows(db)

    rows = asyncio.run(go())
    stakes = [(r[0], r[1], r[4]) for r in rows if r[0].startswith("stake:")]
    first, second = sorted({int(r[0].split(":")[1]) for r in stakes})
    assert stakes == [
        (f"stake:{first}:1", "house", -22_600),
        (f"stake:{first}:1", "player", 22_600),
        (f"stake:{second}:1", "issuance", -22_600),
        (f"stake:{second}:1", "player", 22_600),
        (f"stake:{first}:2", "issuance", -11_000),
        (f"stake:{first}:2", "player", 11_000),
    ]
    report = in_transaction(db_url, ledger.check_ledger)
    assert report.ok, report.violations

    async def stake_a_person(db: AsyncSession) -> None:
        guest = await db.get(User, person["id"])
        assert guest is not None
        await ledger.stake_bot(db, guest, 50_000, START)

    with pytest.raises(ledger.LedgerError, match="not a bot"):
        in_transaction(db_url, stake_a_person)


COSTLY = (
    "3s 4c 5s 6c 7s 8c 9s 10c Js Qc Ks Qd Qh",  # the person: a straight 3-K, then QQ
    "2s 2d 2h 3c 3d 4s 4d 5c 5h 6s 6h 7d 9c",  # a bot caught cóng with three 2s and 4 pairs
    "3h 5d 7c 8s 8h 9h 10d Jc Jh Kc Kh Ac Ah",
    "4h 6d 7h 8d 9d 10s 10h Jd Qs Kd As Ad 2c",
)


def _costly_game() -> Game:
    """Three bots passing while the person sheds every card: all three cóng, one holding
    26 + 25 + 10 = 61 bets, far over the 20 bets bots were once staked to."""
    rules = RuleSet.preset("thapthanh")
    game = Game(rules, [parse_mask(h) for h in COSTLY], first_game=False, leader=0)
    assert game.instant_win is None
    for cards in ("3s 4c 5s 6c 7s 8c 9s 10c Js Qc Ks", "Qd Qh"):
        game.apply(Action.play(0, parse_mask(cards)))
        while not game.is_terminal() and game.current != 0:
            for seat in game.chop_window():
                game.apply(Action.decline(seat))
            game.apply(Action.pass_turn(game.current))
    assert game.is_terminal()
    return game


def test_bots_staked_for_their_table_pay_a_costly_game_in_full(db_url: str) -> None:
    """Staked to the most a game at a thapthanh table of four can cost, three bots pay a game
    that costs them 61, 26 and 31 bets in full: no line is paid short (at the old 20 bets two
    were), and the ledger proves the books with the game written."""
    game = _costly_game()
    bet = 1000
    short_before = settle(game, bet, [GRANT, 20 * bet, 20 * bet, 20 * bet], 600)
    assert sum(item.owed > item.amount for item in short_before.items) >= 2

    async def go() -> Any:
        async with database(db_url) as sessions:
            server: Any = SimpleNamespace(sessions=sessions, clock=lambda: START)
            seated: list[str] = []
            bots = HouseBots(server, lambda: seated)
            users: list[int] = []
            async with sessions() as db, db.begin():
                from tienlen.server.auth import create_guest
                from tienlen.server.settings import Settings

                guest, _ = await create_guest(db, START, Settings(starting_grant=GRANT))
                users.append(guest.id)
            balances = [GRANT]
            stake = stake_for(game.rules, 4, bet)
            for level in ("strategic", "greedy", "random"):
                user, _ = await bots.take(level)
                seated.append(user)
                users.append(int(user))
                balances.append(await bots.balance(user, stake))
            result = settle(game, bet, balances, 600)
            async with sessions() as db, db.begin():
                deltas = dict(zip(users, result.deltas, strict=True))
                await ledger.settle_game(db, "costly", deltas, result.fee, START)
            return result, balances

    result, balances = asyncio.run(go())
    assert balances[1:] == [226 * 1000] * 3
    assert [item.amount for item in result.items if item.payer == 1] == [
        26_000,
        5_000,
        10_000,
        10_000,
        10_000,
    ]
    assert all(item.amount == item.owed for item in result.items)  # none paid short
    assert result.deltas[1:] == [-61_000, -26_000, -31_000]
    report = in_transaction(db_url, ledger.check_ledger)
    assert report.ok, report.violations


def test_a_bot_cannot_log_in_or_be_registered_and_is_not_ranked(
    server: LiveServer, db_url: str
) -> None:
    client, _, _ = _guest(server)
    assert client.post("/api/play-now").status_code == 201
    names = in_transaction(
        db_url, lambda db: db.scalars(select(User.nickname).where(User.is_bot.is_(True)))
    )
    assert sorted(names) == ["Bot 1", "Bot 2", "Bot 3"]
    anyone = server.client()
    r = anyone.post("/api/login", json={"nickname": "Bot 1", "password": "whatever1"})
    assert r.json()["error"]["code"] == "bad_credentials"
    r = anyone.post("/api/register", json={"nickname": "bot_4", "password": "whatever1"})
    assert r.json()["error"]["code"] == "bad_nickname" and "bots" in r.json()["error"]["message"]
    ranked = anyone.get("/api/leaderboard", params={"by": "chips"}).json()["entries"]
    assert all(not e["nickname"].startswith("Bot ") for e in ranked)


def test_play_now_reuses_the_players_table_and_refuses_clearly(
    server: LiveServer, db_url: str
) -> None:
    client, _, _ = _guest(server)
    first = client.post("/api/play-now", json={"preset": "bigfun"})
    assert first.status_code == 201 and first.json()["preset"] == "bigfun"
    again = client.post("/api/play-now", json={"preset": "bigfun"})
    assert again.status_code == 200 and again.json() == first.json()
    other, _, _ = _guest(server)
    theirs = other.post("/api/play-now", json={"preset": "bigfun"})  # not into my seat
    assert theirs.status_code == 201 and theirs.json()["id"] != first.json()["id"]

    poor, poor_id, _ = _guest(server)
    _spend(db_url, poor_id, GRANT - 9_999)  # 9999 chips: under 10 × the smallest bet
    before = snapshot(db_url)
    refusals = [
        (server.client().post("/api/play-now"), 401, "not_logged_in"),
        (poor.post("/api/play-now"), 409, "too_few_chips"),
        (client.post("/api/play-now", json={"preset": "poker"}), 422, "no_such_preset"),
        (client.post("/api/play-now", json={"room": "vip"}), 422, "bad_request"),
    ]
    for r, status, code in refusals:
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), r.text
    assert "10000 chips" in refusals[1][0].json()["error"]["message"]
    assert snapshot(db_url) == before
    assert len(_lobby(server).tables) == 2


def test_an_empty_table_closes_and_frees_its_bots(db_url: str, tmp_path: Path) -> None:
    clock = FakeClock()
    settings = make_settings(tmp_path, db_url, empty_table_seconds=60)
    server = LiveServer(settings, clock, table_config=QUICK).start()
    try:
        lobby = _lobby(server)
        lobby.sweep_seconds = 3600  # the test sweeps, as the clock moves: no waiting on one
        owner, _, token = _guest(server)
        bots_table = owner.post("/api/play-now").json()["id"]
        watched = owner.post(
            "/api/tables", json={"room": "trainee", "preset": "b52", "bet": 1000}
        ).json()["id"]
        loop = lobby.tables[watched].live._task.get_loop()

        def listed() -> set[str]:
            return {t["id"] for t in owner.get("/api/tables").json()["tables"]}

        async def sweep() -> None:
            await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(lobby.sweep(), loop))

        async def go() -> None:
            async with _open(server, token, watched) as ws:
                await _send(ws, type="hello", protocol=1)
                await ws.recv()
                await sweep()  # a sweep sees both tables
                clock.advance(seconds=59)
                await sweep()
                assert listed() == {bots_table, watched}
                clock.advance(seconds=2)  # the bots' table has been empty for 61 s
                await sweep()
                assert listed() == {watched}
                assert len(lobby._seated_bots()) == 0  # its bots are free again
                clock.advance(seconds=600)
                await sweep()
                assert listed() == {watched}  # someone is connected here
            table = lobby.tables[watched]
            await asyncio.to_thread(_until, lambda: lobby.deserted(table), 5)
            await sweep()  # a sweep sees it empty now
            clock.advance(seconds=61)
            await sweep()
            assert listed() == set()

        asyncio.run(go())
        again = owner.post("/api/play-now").json()["id"]
        names = {s.user for s in lobby.tables[again].live.seats if s is not None}
        assert len(names) == 3
        users = in_transaction(
            db_url, lambda db: db.scalars(select(User.id).where(User.is_bot.is_(True)))
        )
        assert {int(u) for u in names} == set(users)  # the same three bot users, reused
    finally:
        server.stop()


def test_ownership_passes_on_when_the_owner_leaves(server: LiveServer) -> None:
    (owner, owner_id, owner_token), (_, heir_id, heir_token) = _guest(server), _guest(server)
    table = owner.post(
        "/api/tables", json={"room": "trainee", "preset": "b52", "bet": 1000, "private": True}
    ).json()

    async def go() -> dict[str, Any]:
        heir = await _open(server, heir_token, table["id"], query=f"?invite={table['invite']}")
        await _send(heir, type="hello", protocol=1)
        async with _open(server, owner_token, table["id"]) as ws:
            await _send(ws, type="hello", protocol=1)
            await _send(ws, type="sit", seat=2)
            await _send(heir, type="sit", seat=3)
            await _send(ws, type="add_bot", seat=0, level="random", ref="bot")
            while json.loads(await ws.recv()).get("ref") != "bot":
                pass
        while True:  # the owner's grace period runs out
            message = json.loads(await heir.recv())
            if message["type"] == "table" and message["owner"] != str(owner_id):
                await heir.close()
                return message

    message = asyncio.run(asyncio.wait_for(go(), 20))
    assert message["owner"] == str(heir_id)  # the next person seated, not the bot at seat 0
    assert message["seats"][2] is None
    listed = server.client(httpx.Cookies({server.settings.cookie_name: heir_token}))
    [summary] = listed.get("/api/tables").json()["tables"]
    assert summary["owner"] == heir_id and summary["invite"] == table["invite"]
