"""The chip ledger: grants, top-ups and game settlements as balanced rows, written exactly once,
and check_ledger proving every invariant (and catching tampering).

Ledger functions are called directly on the test's database (SQLite and PostgreSQL); grants and
top-ups are also driven through the live server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from tienlen.server.settings import Settings
from tienlen.server.store import ledger
from tienlen.server.store.ledger import AlreadyDone, InsufficientChips, LedgerError
from tienlen.server.store.models import Account, Entry, Transaction, User

from .conftest import START, FakeClock, LiveServer, _empty
from .helpers import database, in_transaction, references, run, snapshot

GRANT = 1_000


async def _new_player(db: AsyncSession, name: str, grant: int = GRANT) -> int:
    user = User(nickname=name, nickname_key=name.lower(), password_hash="x", is_guest=False,
                created_at=START)  # fmt: skip
    db.add(user)
    await db.flush()
    await ledger.open_player_account(db, user, START, grant)
    return user.id


def players(url: str, *names: str, grant: int = GRANT) -> list[int]:
    async def work(db: AsyncSession) -> list[int]:
        return [await _new_player(db, name, grant) for name in names]

    return in_transaction(url, work)


def balances(url: str) -> dict[str, int]:
    """Balance per account: ``house`` and ``issuance`` (each the sum of its shards) and the
    user ids as strings."""

    async def read(db: AsyncSession) -> dict[str, int]:
        rows = await db.execute(select(Account.kind, Account.user_id, Account.balance))
        found: dict[str, int] = {}
        for kind, user_id, balance in rows:
            key = str(user_id) if user_id else kind
            found[key] = found.get(key, 0) + balance
        return found

    return in_transaction(url, read)


def settle(url: str, game_id: str, deltas: dict[int, int], fee: int) -> None:
    in_transaction(url, lambda db: ledger.settle_game(db, game_id, deltas, fee, START))


def check(url: str) -> ledger.LedgerReport:
    return in_transaction(url, ledger.check_ledger)


def execute(url: str, sql: str, **params: Any) -> None:
    async def work(db: AsyncSession) -> None:
        await db.execute(text(sql), params)

    in_transaction(url, work)


def test_the_starting_grant_is_a_pair_of_ledger_rows(db_url: str) -> None:
    (lan,) = players(db_url, "lan")
    tables = snapshot(db_url)
    (tx,) = tables["ledger_transactions"]
    assert tx[1:3] == ("grant", f"grant:{lan}")
    accounts = {row[0]: row for row in tables["ledger_accounts"]}
    amounts = sorted((accounts[e[2]][1], e[3]) for e in tables["ledger_entries"])
    assert amounts == [("issuance", -GRANT), ("player", GRANT)]
    assert balances(db_url) == {"issuance": -GRANT, "house": 0, str(lan): GRANT}
    report = check(db_url)
    assert report.ok, report.violations
    assert (report.accounts, report.transactions, report.entries, report.issued) == (3, 1, 2, GRANT)


def test_a_grant_is_written_once(db_url: str) -> None:
    (lan,) = players(db_url, "lan")
    before = snapshot(db_url)

    async def again(db: AsyncSession) -> None:
        user = await db.get(User, lan)
        assert user is not None
        await ledger.grant_starting_chips(db, user, GRANT, START)

    with pytest.raises(AlreadyDone, match=f"grant:{lan} has already been written"):
        in_transaction(db_url, again)
    assert snapshot(db_url) == before


def test_a_game_is_settled_once_with_its_fee_to_the_house(db_url: str) -> None:
    a, b, c = players(db_url, "a", "b", "c")
    settle(db_url, "table-7:game-1", {a: 570, b: -200, c: -400}, 30)
    assert balances(db_url) == {"issuance": -3 * GRANT, "house": 30, str(a): GRANT + 570,
                                str(b): GRANT - 200, str(c): GRANT - 400}  # fmt: skip
    assert references(db_url)[-1] == "game:table-7:game-1"
    before = snapshot(db_url)
    with pytest.raises(AlreadyDone, match="game:table-7:game-1"):
        settle(db_url, "table-7:game-1", {a: 570, b: -200, c: -400}, 30)
    with pytest.raises(AlreadyDone):
        settle(db_url, "table-7:game-1", {a: 1, b: -1}, 0)
    assert snapshot(db_url) == before
    assert check(db_url).ok


def test_a_void_game_moves_nothing_but_is_settled(db_url: str) -> None:
    a, b = players(db_url, "a", "b")
    before = snapshot(db_url)
    settle(db_url, "void", {a: 0, b: 0}, 0)
    after = snapshot(db_url)
    assert after["ledger_entries"] == before["ledger_entries"]
    assert after["ledger_accounts"] == before["ledger_accounts"]
    assert references(db_url)[-1] == "game:void"
    with pytest.raises(AlreadyDone):
        settle(db_url, "void", {a: 0, b: 0}, 0)
    assert check(db_url).ok


@pytest.mark.parametrize(
    ("game_id", "deltas", "fee", "error", "says"),
    [
        ("g", {0: 1010, 1: -1010}, 0, InsufficientChips, "holds 1000 chips, cannot pay 1010"),
        ("g", {0: 10, 1: -5}, 0, LedgerError, "sum to 0"),
        ("g", {0: 10, 1: -20}, 0, LedgerError, "sum to 0"),
        ("g", {0: 10, 1: -10}, -1, LedgerError, "fee"),
        ("g", {0: 10, 1: -10}, 1.5, LedgerError, "fee"),
        ("g", {0: 10.0, 1: -10}, 0, LedgerError, "whole number"),
        ("g", {0: True, 1: -1}, 0, LedgerError, "whole number"),
        ("g", {0: 10, 99: -10}, 0, LedgerError, "no chip account"),
        ("g", {}, 0, LedgerError, "empty"),
        ("", {0: 10, 1: -10}, 0, LedgerError, "game id"),
        ("a b", {0: 10, 1: -10}, 0, LedgerError, "game id"),
        ("x" * 101, {0: 10, 1: -10}, 0, LedgerError, "game id"),
    ],
    ids=["insufficient", "creates", "destroys", "negative-fee", "float-fee", "float-delta",
         "bool-delta", "unknown-user", "no-players", "empty-id", "space-id", "long-id"],
)  # fmt: skip
def test_bad_settlements_are_refused_and_change_nothing(
    db_url: str, game_id: str, deltas: dict[int, Any], fee: Any, error: type, says: str
) -> None:
    ids = players(db_url, "a", "b")
    real = {ids[seat] if seat < len(ids) else 10**6: v for seat, v in deltas.items()}
    before = snapshot(db_url)
    with pytest.raises(error, match=says):
        settle(db_url, game_id, real, fee)
    assert snapshot(db_url) == before
    assert check(db_url).ok


def test_concurrent_settlements_of_one_game_write_it_once(db_url: str) -> None:
    a, b = players(db_url, "a", "b")

    async def race() -> list[str]:
        async with database(db_url) as sessions:

            async def one() -> str:
                try:
                    async with sessions() as db, db.begin():
                        await ledger.settle_game(db, "race", {a: 100, b: -100}, 0, START)
                    return "settled"
                except AlreadyDone:
                    return "refused"

            return list(await asyncio.gather(*(one() for _ in range(6))))

    outcomes = run(race())
    assert sorted(outcomes) == ["refused"] * 5 + ["settled"]
    assert balances(db_url)[str(a)] == GRANT + 100
    assert check(db_url).ok


def test_concurrent_games_lose_no_update(db_url: str) -> None:
    a, b, c = players(db_url, "a", "b", "c")

    async def many() -> None:
        async with database(db_url) as sessions:

            async def one(i: int) -> None:
                async with sessions() as db, db.begin():
                    loser = b if i % 2 else c
                    await ledger.settle_game(db, f"g{i}", {a: 9, loser: -10}, 1, START)

            await asyncio.gather(*(one(i) for i in range(10)))

    run(many())
    assert balances(db_url) == {"issuance": -3 * GRANT, "house": 10, str(a): GRANT + 90,
                                str(b): GRANT - 50, str(c): GRANT - 50}  # fmt: skip
    assert check(db_url).ok


TAMPERING: list[tuple[str, str, str, str]] = [
    ("balance", "UPDATE ledger_accounts SET balance = balance + 500 WHERE user_id = :a",
     "balance_mismatch", "of user {a}) has balance 1507 but its entries sum to 1007"),
    ("entry", "UPDATE ledger_entries SET amount = amount + 1 WHERE amount = 1000",
     "unbalanced", "entries sum to 1, not 0"),
    ("negative", "UPDATE ledger_accounts SET balance = -5 WHERE kind = 'issuance'",
     "balances_sum", "sum to"),
    ("transfer",
     "INSERT INTO ledger_transactions (kind, reference, created_at) "
     "VALUES ('topup', 'topup:{b}:2020-01-01', '2026-01-01 00:00:00');"
     "INSERT INTO ledger_entries (transaction_id, account_id, amount) SELECT t.id, a.id, "
     "CASE WHEN a.user_id = :a THEN -100 ELSE 100 END FROM ledger_transactions t, "
     "ledger_accounts a WHERE t.reference = 'topup:{b}:2020-01-01' AND a.user_id IN (:a, :b)",
     "bad_shape", "from issuance to one player only"),
    ("wrong-player",
     "INSERT INTO ledger_transactions (kind, reference, created_at) "
     "VALUES ('topup', 'topup:{a}:2026-01-01', '2026-01-01 00:00:00');"
     "INSERT INTO ledger_entries (transaction_id, account_id, amount) SELECT t.id, a.id, "
     "CASE WHEN a.kind = 'issuance' THEN -100 ELSE 100 END FROM ledger_transactions t, "
     "ledger_accounts a WHERE t.reference = 'topup:{a}:2026-01-01' "
     "AND (a.user_id = :b OR a.kind = 'issuance')",
     "bad_shape", "credits user {b}, not the user its reference names"),
    ("reference", "UPDATE ledger_transactions SET reference = 'gift:1' WHERE kind = 'grant' "
     "AND reference = 'grant:{a}'", "bad_reference", "not the form of a grant reference"),
    ("house-pays",
     "INSERT INTO ledger_transactions (kind, reference, created_at) "
     "VALUES ('game', 'game:refund', '2026-01-01 00:00:00');"
     "INSERT INTO ledger_entries (transaction_id, account_id, amount) SELECT t.id, a.id, "
     "CASE WHEN a.kind = 'house' THEN -7 ELSE 7 END FROM ledger_transactions t, "
     "ledger_accounts a WHERE t.reference = 'game:refund' "
     "AND (a.user_id = :a OR a.kind = 'house')",
     "bad_shape", "a fee to the house only"),
    ("no-account", "DELETE FROM ledger_entries WHERE account_id IN "
     "(SELECT id FROM ledger_accounts WHERE user_id = :b);"
     "DELETE FROM ledger_accounts WHERE user_id = :b", "no_account", "user {b} (b)"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("sql", "code", "says"), [t[1:] for t in TAMPERING], ids=[t[0] for t in TAMPERING]
)
def test_check_ledger_catches_tampering(db_url: str, sql: str, code: str, says: str) -> None:
    a, b = players(db_url, "a", "b")
    settle(db_url, "before", {a: 7, b: -10}, 3)
    assert check(db_url).ok
    for statement in sql.format(a=a, b=b).split(";"):
        execute(db_url, statement, a=a, b=b)
    report = check(db_url)
    assert not report.ok
    assert code in {v.code for v in report.violations}, report.violations
    messages = " | ".join(v.message for v in report.violations if v.code == code)
    assert says.format(a=a, b=b) in messages
    assert report.to_dict()["ok"] is False


def test_the_database_refuses_what_the_ledger_forbids(db_url: str) -> None:
    (a,) = players(db_url, "a")
    before = snapshot(db_url)
    for sql in (
        "UPDATE ledger_accounts SET balance = -1 WHERE user_id = :a",
        "UPDATE ledger_accounts SET balance = -1 WHERE kind = 'house'",
        "INSERT INTO ledger_entries (transaction_id, account_id, amount) "
        "SELECT id, 1, 0 FROM ledger_transactions",
        "INSERT INTO ledger_accounts (kind, balance) VALUES ('house', 0)",
        "INSERT INTO ledger_accounts (kind, user_id, balance) VALUES ('house', :a, 0)",
        "INSERT INTO ledger_transactions (kind, reference, created_at) "
        "VALUES ('grant', 'grant:{a}', '2026-01-01 00:00:00')",
    ):
        with pytest.raises(Exception, match=r"(?i)constraint|unique|check"):
            execute(db_url, sql.format(a=a), a=a)
    assert snapshot(db_url) == before


# Top-ups ----------------------------------------------------------------------------------------


def _topup_settings(settings: Settings) -> Settings:
    return settings.model_copy(
        update={"starting_grant": 5_000, "topup_floor": 10_000, "topup_amount": 1_000}
    )


def test_daily_topup_once_per_server_day(
    serve: Callable[..., LiveServer], db_url: str, clock: FakeClock, settings: Settings
) -> None:
    live = serve(_topup_settings(settings))
    client = live.client()
    me = client.post("/api/register", json={"nickname": "Lan", "password": "12345678x"}).json()
    assert me["chips"] == 5_000
    first = client.get("/api/me").json()
    assert (first["chips"], first["topup"], first["last_topup_on"]) == (6_000, 1_000, "2026-03-14")
    assert client.get("/api/me").json()["topup"] == 0
    client.post("/api/logout")
    login = client.post("/api/login", json={"nickname": "lan", "password": "12345678x"}).json()
    assert (login["chips"], login["topup"]) == (6_000, 0)

    # START is 16:00 in Vietnam (UTC+7): the day turns at 17:00 UTC.
    clock.now = START.replace(hour=16, minute=59)
    assert client.get("/api/me").json()["topup"] == 0
    clock.now = START.replace(hour=17, minute=0)
    second = client.get("/api/me").json()
    assert (second["chips"], second["topup"], second["last_topup_on"]) == (
        7_000,
        1_000,
        "2026-03-15",
    )
    assert client.get("/api/me").json()["chips"] == 7_000

    uid = me["id"]
    assert references(db_url) == [
        f"grant:{uid}",
        f"topup:{uid}:2026-03-14",
        f"topup:{uid}:2026-03-15",
    ]
    assert check(db_url).ok


def test_no_topup_at_or_above_the_floor(
    serve: Callable[..., LiveServer], db_url: str, clock: FakeClock, settings: Settings
) -> None:
    live = serve(_topup_settings(settings).model_copy(update={"starting_grant": 10_000}))
    client = live.client()
    client.post("/api/guest")
    for _ in range(3):
        assert client.get("/api/me").json()["topup"] == 0
        clock.advance(days=1)
    assert [r.split(":")[0] for r in references(db_url)] == ["grant"]


def test_concurrent_topup_claims_grant_once(
    serve: Callable[..., LiveServer], db_url: str, settings: Settings
) -> None:
    live = serve(_topup_settings(settings))
    jar = live.client()
    jar.post("/api/guest")
    cookies = jar.cookies

    def claim(_: int) -> int:
        with httpx.Client(base_url=live.url, cookies=cookies) as client:
            response = client.get("/api/me")
            assert response.status_code == 200, response.text
            return int(response.json()["topup"])

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        granted = list(pool.map(claim, range(8)))
    assert sorted(granted) == [0] * 7 + [1_000]
    assert sum(r.startswith("topup:") for r in references(db_url)) == 1


def test_topup_directly_with_an_injected_clock(db_url: str, settings: Settings) -> None:
    config = _topup_settings(settings)
    (a,) = players(db_url, "a", grant=5_000)

    def claim(at: Any) -> int:
        async def work(db: AsyncSession) -> int:
            user = await db.get(User, a)
            assert user is not None
            return await ledger.claim_daily_topup(db, user, at, config)

        return in_transaction(db_url, work)

    assert [claim(START), claim(START + timedelta(hours=1))] == [1_000, 0]
    assert claim(START + timedelta(days=1)) == 1_000
    with pytest.raises(ValueError, match="timezone-aware"):
        claim(START.replace(tzinfo=None))
    assert check(db_url).ok


# A property: any sequence of movements keeps every invariant ------------------------------------

movement = st.tuples(
    st.sampled_from(["game", "game", "game", "grant-again", "topup"]),
    st.lists(st.integers(-1_500, 1_500), min_size=2, max_size=4),
    st.integers(0, 50),
    st.integers(0, 3),
)


@hypothesis_settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(moves=st.lists(movement, min_size=1, max_size=8), shards=st.sampled_from([1, 3]))
def test_any_sequence_of_movements_keeps_the_ledger_sound(
    backend_database: str,
    settings: Settings,
    moves: list[tuple[str, list[int], int, int]],
    shards: int,
) -> None:
    url = backend_database
    run(_empty(url))
    in_transaction(url, lambda db: ledger.open_system_shards(db, shards))
    ids = players(url, "p0", "p1", "p2", "p3")
    config = _topup_settings(settings)
    run(_apply_and_check(url, ids, moves, config))


async def _balances(db: AsyncSession) -> dict[tuple[int | None, int], int]:
    players_and_house = select(Account.user_id, Account.shard, Account.balance).where(
        Account.kind != "issuance"
    )
    rows = await db.execute(players_and_house)
    return {(user_id, shard): balance for user_id, shard, balance in rows}


async def _apply_and_check(
    url: str, ids: list[int], moves: list[tuple[str, list[int], int, int]], config: Settings
) -> None:
    async with database(url) as sessions:
        for n, (kind, amounts, fee, who) in enumerate(moves):
            seats = ids[: len(amounts)]
            deltas = dict(zip(seats, amounts, strict=True))
            deltas[seats[0]] -= sum(amounts) + fee  # make them balance
            work = _movement(kind, n, deltas, fee, ids[who], config)
            async with sessions() as db, db.begin():
                before = await _balances(db)
            try:
                async with sessions() as db, db.begin():
                    await work(db)
            except LedgerError:
                async with sessions() as db, db.begin():
                    assert await _balances(db) == before
            async with sessions() as db, db.begin():
                report = await ledger.check_ledger(db)
                assert report.ok, report.violations
                assert all(v >= 0 for v in (await _balances(db)).values())


def _movement(
    kind: str, n: int, deltas: dict[int, int], fee: int, user_id: int, config: Settings
) -> Callable[[AsyncSession], Awaitable[Any]]:
    if kind == "game":
        return lambda db: ledger.settle_game(db, f"g{n}", deltas, fee, START)
    if kind == "grant-again":
        return lambda db: _grant_again(db, user_id)
    return lambda db: _topup(db, user_id, n, config)


async def _grant_again(db: AsyncSession, user_id: int) -> None:
    user = await db.get(User, user_id)
    assert user is not None
    await ledger.grant_starting_chips(db, user, GRANT, START)


async def _topup(db: AsyncSession, user_id: int, day: int, config: Settings) -> None:
    user = await db.get(User, user_id)
    assert user is not None
    await ledger.claim_daily_topup(db, user, START + timedelta(days=day // 2), config)


def test_balance_of_an_unknown_user(db_url: str) -> None:
    with pytest.raises(LedgerError, match="user 12345 has no chip account"):
        in_transaction(db_url, lambda db: ledger.balance_of(db, 12345))


def test_an_emptied_database_holds_only_the_system_accounts(db_url: str) -> None:
    tables = snapshot(db_url)
    assert sorted(row[1] for row in tables["ledger_accounts"]) == ["house", "issuance"]
    assert all(row[3] == 0 for row in tables["ledger_accounts"])
    assert tables["users"] == tables["ledger_transactions"] == tables["ledger_entries"] == []


def test_server_md_names_the_ledger_tables_as_the_database_does() -> None:
    """It said ``accounts``, ``transactions``, ``entries``: tables no database has."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "SERVER.md").read_text(encoding="utf-8")
    section = doc.split("## The chip ledger", 1)[1].split("\n## ", 1)[0]
    for model in (Account, Transaction, Entry):
        assert f"**`{model.__tablename__}`**" in section, model.__tablename__
    assert "**accounts**" not in section and "**entries**" not in section


# House shards ----------------------------------------------------------------------------------


def system_accounts(url: str) -> list[tuple[str, int, int]]:
    """(kind, shard, balance) of every house and issuance account."""

    async def read(db: AsyncSession) -> list[tuple[str, int, int]]:
        rows = await db.execute(
            select(Account.kind, Account.shard, Account.balance)
            .where(Account.user_id.is_(None))
            .order_by(Account.kind, Account.shard)
        )
        return [(kind, shard, balance) for kind, shard, balance in rows]

    return in_transaction(url, read)


def open_shards(url: str, shards: int) -> int:
    return in_transaction(url, lambda db: ledger.open_system_shards(db, shards))


def test_opening_shards_adds_the_missing_ones_and_never_closes_one(db_url: str) -> None:
    assert open_shards(db_url, 1) == 0  # the migration made shard 0 of each
    assert open_shards(db_url, 4) == 6
    assert open_shards(db_url, 4) == 0
    assert open_shards(db_url, 2) == 0  # lowered: the shards stay, with whatever they hold
    assert system_accounts(db_url) == [(kind, n, 0) for kind in ("house", "issuance")
                                       for n in range(4)]  # fmt: skip
    for bad in (0, -1, True, 2.5):
        with pytest.raises(LedgerError, match="at least 1 shard"):
            open_shards(db_url, bad)  # type: ignore[arg-type]
    assert check(db_url).ok


def test_two_servers_opening_shards_at_once_open_each_once(db_url: str) -> None:
    async def race() -> list[int]:
        async with database(db_url) as sessions:

            async def one() -> int:
                async with sessions() as db, db.begin():
                    return await ledger.open_system_shards(db, 8)

            return list(await asyncio.gather(*(one() for _ in range(4))))

    assert sum(run(race())) == 14
    assert len(system_accounts(db_url)) == 16
    assert check(db_url).ok


def test_settlements_grants_and_top_ups_spread_over_the_shards(
    db_url: str, settings: Settings
) -> None:
    """The same chips as with one house row, only on several: the house's takings are the sum
    of its shards and the chips issued minus the sum of issuance's."""
    open_shards(db_url, 4)
    ids = players(db_url, *(f"p{n}" for n in range(8)))
    for n in range(40):
        winner, loser = ids[n % 8], ids[(n + 3) % 8]
        settle(db_url, f"g{n}", {winner: 9, loser: -10}, 1)
    run(_each_tops_up(db_url, ids, _topup_settings(settings)))
    accounts = system_accounts(db_url)
    house = [balance for kind, _, balance in accounts if kind == "house"]
    issuance = [balance for kind, _, balance in accounts if kind == "issuance"]
    assert sum(house) == 40 and all(house), house  # every shard took fees
    assert sum(1 for balance in issuance if balance) == 4  # every shard granted
    report = check(db_url)
    assert report.ok, report.violations
    assert report.issued == -sum(issuance) == 8 * GRANT + _topped_up(db_url)
    assert type(report.issued) is int  # a SUM is a Decimal on PostgreSQL: JSON refused it
    assert balances(db_url)["house"] == 40


async def _each_tops_up(url: str, ids: list[int], config: Settings) -> None:
    async with database(url) as sessions:
        for user_id in ids:
            async with sessions() as db, db.begin():
                user = await db.get(User, user_id)
                assert user is not None
                await ledger.claim_daily_topup(db, user, START, config)


def _topped_up(url: str) -> int:
    async def read(db: AsyncSession) -> int:
        total = await db.scalar(
            select(func.sum(Entry.amount))
            .join(Transaction, Transaction.id == Entry.transaction_id)
            .join(Account, Account.id == Entry.account_id)
            .where(Transaction.kind == "topup", Account.kind == "player")
        )
        return int(total or 0)

    return in_transaction(url, read)


def test_concurrent_settlements_over_shards_lose_no_update(db_url: str) -> None:
    open_shards(db_url, 3)
    a, b, c = players(db_url, "a", "b", "c")

    async def many() -> None:
        async with database(db_url) as sessions:

            async def one(i: int) -> None:
                async with sessions() as db, db.begin():
                    loser = b if i % 2 else c
                    await ledger.settle_game(db, f"g{i}", {a: 9, loser: -10}, 1, START)

            await asyncio.gather(*(one(i) for i in range(12)))

    run(many())
    assert balances(db_url) == {"issuance": -3 * GRANT, "house": 12, str(a): GRANT + 108,
                                str(b): GRANT - 60, str(c): GRANT - 60}  # fmt: skip
    assert check(db_url).ok


@pytest.mark.parametrize(
    ("sql", "says"),
    [
        ("DELETE FROM ledger_accounts WHERE kind = 'house' AND shard = 1",
         "the house accounts are shards [0, 2], not 0 to 1"),
        ("UPDATE ledger_accounts SET shard = 5 WHERE kind = 'issuance' AND shard = 2",
         "the issuance accounts are shards [0, 1, 5], not 0 to 2"),
        ("DELETE FROM ledger_accounts WHERE kind = 'house'", "there is no house account"),
    ],
    ids=["gap", "moved", "none"],
)  # fmt: skip
def test_check_ledger_names_a_shard_missing(db_url: str, sql: str, says: str) -> None:
    open_shards(db_url, 3)
    execute(db_url, sql)
    report = check(db_url)
    assert [(v.code, v.message) for v in report.violations] == [("system_account", says)]


def test_a_game_falls_back_to_shard_0_when_its_shard_is_missing(db_url: str) -> None:
    """A gap (reported by check_ledger) does not stop the tables: shard 0 takes the fee."""
    open_shards(db_url, 2)
    execute(db_url, "DELETE FROM ledger_accounts WHERE kind = 'house' AND shard = 1")
    a, b = players(db_url, "a", "b")
    for n in range(6):
        settle(db_url, f"g{n}", {a: 9, b: -10}, 1)
    assert ("house", 0, 6) in system_accounts(db_url)


def test_the_server_opens_the_shards_it_is_told_to(
    db_url: str, settings: Settings, serve: Callable[..., LiveServer]
) -> None:
    server = serve(settings.model_copy(update={"house_shards": 5}))
    guest = server.client().post("/api/guest", json={})
    assert guest.status_code in (200, 201), guest.text
    opened = [shard for kind, shard, _ in system_accounts(db_url) if kind == "house"]
    assert opened == [0, 1, 2, 3, 4]
    assert check(db_url).ok
