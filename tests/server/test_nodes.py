"""The cluster's leases in the database (store/nodes.py): joining bumps the epoch, a node taken
over is fenced, a takeover never cuts into a batch the owner is writing, and survivors split
a dead node's tables without overlap. PostgreSQL only (several servers share one)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession

from tienlen.server.store import nodes
from tienlen.server.store.models import ClusterNode, TableRow
from tienlen.server.store.nodes import Fenced, Lease, NodeError

from .helpers import database, in_transaction, run

LEASE_S = 10.0


def join(url: str, node_id: str) -> Lease:
    return in_transaction(url, lambda db: nodes.join(db, node_id, f"ws://{node_id}"))


def beat(url: str, lease: Lease) -> None:
    in_transaction(url, lambda db: nodes.heartbeat(db, lease))


def silence(url: str, node_id: str, seconds: float) -> None:
    """As if ``node_id`` had written nothing for ``seconds``."""
    sql = "UPDATE cluster_nodes SET heartbeat_at = now() - make_interval(secs => :s) WHERE id = :i"
    execute(url, sql, s=seconds, i=node_id)


def execute(url: str, sql: str, **params: Any) -> None:
    async def work(db: AsyncSession) -> None:
        await db.execute(text(sql), params)

    in_transaction(url, work)


def tables_of(url: str) -> dict[str, str | None]:
    async def read(db: AsyncSession) -> dict[str, str | None]:
        rows = await db.execute(select(TableRow.id, TableRow.node_id).order_by(TableRow.id))
        return {table_id: node for table_id, node in rows}

    return in_transaction(url, read)


def open_tables(url: str, node_id: str, count: int) -> None:
    execute(url, "INSERT INTO users (id, nickname, nickname_key, password_hash, is_guest, "
            "is_bot, created_at) VALUES (1, 'An', 'an', 'h', false, false, now()) "
            "ON CONFLICT DO NOTHING")  # fmt: skip
    for n in range(count):
        execute(url, "INSERT INTO lobby_tables (id, room, preset, bet, turn_seconds, seats, "
                "private, owner_id, opened_at, node_id) VALUES (:t, 'trainee', 'thapthanh', "
                "1000, 20, 4, false, 1, now(), :n)", t=f"{node_id}-{n:02}", n=node_id)  # fmt: skip


def test_a_node_joins_under_a_new_epoch_which_fences_its_earlier_self(pg_url: str) -> None:
    first = join(pg_url, "srv1")
    beat(pg_url, first)
    again = join(pg_url, "srv1")  # restarted, or a second process under the same id
    assert (first.epoch, again.epoch) == (1, 2)
    beat(pg_url, again)
    with pytest.raises(Fenced, match="node srv1 \\(epoch 1\\) has been taken over"):
        beat(pg_url, first)


def test_a_silent_node_is_taken_over_and_its_next_write_fenced(pg_url: str) -> None:
    one, two = join(pg_url, "srv1"), join(pg_url, "srv2")
    take = lambda: in_transaction(pg_url, lambda db: nodes.take_over(db, two, LEASE_S))  # noqa: E731
    assert take() == []  # both fresh
    silence(pg_url, "srv1", LEASE_S - 2)
    assert take() == []  # not yet a lease
    silence(pg_url, "srv1", LEASE_S + 1)
    assert take() == ["srv1"]
    assert take() == []  # once
    with pytest.raises(Fenced):
        beat(pg_url, one)
    beat(pg_url, two)

    async def states(db: AsyncSession) -> list[tuple[str, str, int]]:
        rows = await db.execute(
            select(ClusterNode.id, ClusterNode.state, ClusterNode.epoch).order_by(ClusterNode.id)
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]

    assert in_transaction(pg_url, states) == [("srv1", "dead", 2), ("srv2", "up", 1)]


def test_a_takeover_waits_for_the_owners_batch_and_then_finds_it_alive(pg_url: str) -> None:
    """The owner's heartbeat holds its row until its batch commits: a takeover that comes
    meanwhile waits, reads the new heartbeat, and takes nothing."""
    one, two = join(pg_url, "srv1"), join(pg_url, "srv2")
    silence(pg_url, "srv1", LEASE_S + 5)

    async def race() -> list[str]:
        async with database(pg_url) as sessions:
            async with sessions() as owner, owner.begin():
                await nodes.heartbeat(owner, one)  # the batch has begun: its row is locked

                async def survivor() -> list[str]:
                    async with sessions() as db, db.begin():
                        return await nodes.take_over(db, two, LEASE_S)

                takeover = asyncio.create_task(survivor())
                await asyncio.sleep(0.5)
                assert not takeover.done()  # waiting on the owner's row
                # ... the batch's rows are written here, then it commits
            return await takeover

    assert run(race()) == []
    beat(pg_url, one)  # still the owner


def test_a_batch_begun_after_the_takeover_is_fenced(pg_url: str) -> None:
    one, two = join(pg_url, "srv1"), join(pg_url, "srv2")
    open_tables(pg_url, "srv1", 1)
    silence(pg_url, "srv1", LEASE_S + 5)
    assert in_transaction(pg_url, lambda db: nodes.take_over(db, two, LEASE_S)) == ["srv1"]

    async def zombie(db: AsyncSession) -> None:
        await nodes.heartbeat(db, one)
        await db.execute(text("UPDATE lobby_tables SET turn_seconds = 99"))

    with pytest.raises(Fenced):
        in_transaction(pg_url, zombie)
    assert execute_scalar(pg_url, "SELECT max(turn_seconds) FROM lobby_tables") == 20


def execute_scalar(url: str, sql: str) -> Any:
    async def read(db: AsyncSession) -> Any:
        return await db.scalar(text(sql))

    return in_transaction(url, read)


def test_survivors_split_a_dead_nodes_tables_without_overlap(pg_url: str) -> None:
    join(pg_url, "srv1")
    two, three = join(pg_url, "srv2"), join(pg_url, "srv3")
    open_tables(pg_url, "srv1", 10)
    open_tables(pg_url, "srv2", 2)
    execute(pg_url, "UPDATE lobby_tables SET closed_at = now() WHERE id = 'srv1-09'")
    assert in_transaction(pg_url, lambda db: nodes.claim_tables(db, two, 4)) == []  # alive
    silence(pg_url, "srv1", LEASE_S + 5)
    assert in_transaction(pg_url, lambda db: nodes.take_over(db, three, LEASE_S)) == ["srv1"]

    async def claim_together() -> list[list[str]]:
        async with database(pg_url) as sessions:

            async def claim(lease: Lease) -> list[str]:
                claimed: list[str] = []
                while True:
                    async with sessions() as db, db.begin():
                        batch = await nodes.claim_tables(db, lease, 2)
                    if not batch:
                        return claimed
                    claimed += batch

            return list(await asyncio.gather(claim(two), claim(three)))

    by_two, by_three = run(claim_together())
    assert sorted(by_two + by_three) == [f"srv1-{n:02}" for n in range(9)]
    owners = tables_of(pg_url)
    assert owners["srv1-09"] == "srv1"  # closed: left where it was
    assert {owners[t] for t in by_two} == {"srv2"} and {owners[t] for t in by_three} == {"srv3"}
    assert owners["srv2-00"] == owners["srv2-01"] == "srv2"


def test_a_node_that_leaves_is_taken_over_at_once(pg_url: str) -> None:
    one, two = join(pg_url, "srv1"), join(pg_url, "srv2")
    in_transaction(pg_url, lambda db: nodes.leave(db, one))
    with pytest.raises(Fenced):
        beat(pg_url, one)
    assert in_transaction(pg_url, lambda db: nodes.take_over(db, two, LEASE_S)) == ["srv1"]


def test_a_draining_node_still_holds_its_lease(pg_url: str) -> None:
    one, two = join(pg_url, "srv1"), join(pg_url, "srv2")
    in_transaction(pg_url, lambda db: nodes.heartbeat(db, one, draining=True))
    beat(pg_url, one)
    assert in_transaction(pg_url, lambda db: nodes.take_over(db, two, LEASE_S)) == []


def test_sqlite_and_bad_ids_are_refused(db_url: str, pg_url: str) -> None:
    if db_url.startswith("sqlite"):
        with pytest.raises(NodeError, match="share a PostgreSQL database, not sqlite"):
            join(db_url, "srv1")
    for bad in ("", "x" * 65):
        with pytest.raises(NodeError, match="a node id is 1-64 characters"):
            join(pg_url, bad)
