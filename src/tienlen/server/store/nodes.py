"""The servers of a cluster in the database: each process's lease and epoch, and who runs
which table (docs/SERVER.md, "Several servers").

A node (one ``tienlen serve`` process) joins under its id and gets a new **epoch**. It holds
its tables while its heartbeat is fresh: the heartbeat is an ``UPDATE`` of its own row that
matches only under its current epoch, run first in every transaction it writes (the journal's
batches, a settlement), so it also **fences** them: once a survivor has taken the node over
(marked it ``dead`` and bumped its epoch) the old process's next write matches no row, raises
:class:`Fenced` and is rolled back. The old owner's batch holds its row lock until it commits,
so a takeover that comes during a batch waits for it, sees the heartbeat it wrote, and does
nothing: every write of the old owner either committed before the takeover, and the new owner
replays it, or never commits. Only the database's clock is read, so the nodes' clocks need not
agree.

PostgreSQL only (:func:`join` refuses SQLite): one SQLite file is one server's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, literal, select, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncSession

from .models import ClusterNode, TableRow

__all__ = [
    "LIVE_STATES",
    "Fenced",
    "Lease",
    "NodeError",
    "claim_tables",
    "heartbeat",
    "join",
    "leave",
    "take_over",
]

LIVE_STATES = ("up", "draining")
"""A node in these states holds its tables while its heartbeat is fresh."""


class NodeError(ValueError):
    """A cluster operation refused; nothing was written."""


class Fenced(NodeError):
    """This node's lease was taken over (or it left): it must write nothing more."""


@dataclass(frozen=True, slots=True)
class Lease:
    """A node's id and the epoch it joined under: the fencing token of its writes."""

    node_id: str
    epoch: int


def _postgresql_only(db: AsyncSession) -> None:
    dialect = db.get_bind().dialect.name
    if dialect != "postgresql":
        raise NodeError(f"several servers share a PostgreSQL database, not {dialect}")


async def join(db: AsyncSession, node_id: str, address: str) -> Lease:
    """Join (or rejoin) the cluster as ``node_id``, reachable at ``address``: state ``up``, a
    fresh heartbeat and an epoch above any earlier one of that id, so that an earlier process
    of the same id (a zombie) is fenced."""
    _postgresql_only(db)
    if not node_id or len(node_id) > 64:
        raise NodeError(f"a node id is 1-64 characters, not {node_id!r}")
    statement = postgresql.insert(ClusterNode).values(
        id=node_id, epoch=1, address=address, state="up",
        heartbeat_at=func.now(), started_at=func.now(),
    )  # fmt: skip
    epoch = await db.scalar(
        statement.on_conflict_do_update(
            index_elements=[ClusterNode.id],
            set_={
                "epoch": ClusterNode.epoch + 1,
                "address": statement.excluded.address,
                "state": "up",
                "heartbeat_at": func.now(),
                "started_at": func.now(),
            },
        ).returning(ClusterNode.epoch)
    )
    assert epoch is not None
    return Lease(node_id, epoch)


async def heartbeat(db: AsyncSession, lease: Lease, *, draining: bool = False) -> None:
    """Renew ``lease`` in ``db``'s transaction (and lock its row until it ends); raise
    :class:`Fenced` when it is no longer this node's. ``draining``: say so as well."""
    renewed = await db.execute(
        update(ClusterNode)
        .where(
            ClusterNode.id == lease.node_id,
            ClusterNode.epoch == lease.epoch,
            ClusterNode.state.in_(LIVE_STATES),
        )
        .values(
            heartbeat_at=func.now(),
            **({"state": "draining"} if draining else {}),
        )
        .returning(ClusterNode.id)
    )
    if renewed.first() is None:
        raise Fenced(f"node {lease.node_id} (epoch {lease.epoch}) has been taken over")


async def take_over(db: AsyncSession, me: Lease, lease_seconds: float) -> list[str]:
    """Mark ``dead`` every other node silent for ``lease_seconds`` by the database's clock,
    or that left (``gone``), and bump its epoch; returns their ids. The caller must itself have
    heartbeat without a break for a lease (after an outage every heartbeat is stale at once)."""
    _postgresql_only(db)
    silent = ClusterNode.state.in_(LIVE_STATES) & (
        ClusterNode.heartbeat_at < func.now() - literal(timedelta(seconds=lease_seconds))
    )
    taken = await db.scalars(
        update(ClusterNode)
        .where(ClusterNode.id != me.node_id, silent | (ClusterNode.state == "gone"))
        .values(state="dead", epoch=ClusterNode.epoch + 1)
        .returning(ClusterNode.id)
    )
    return sorted(taken)


async def claim_tables(db: AsyncSession, me: Lease, limit: int) -> list[str]:
    """Take up to ``limit`` open tables of dead nodes for ``me`` (skipping those another
    survivor is claiming at the same moment); returns their ids, for ``reopen_tables``."""
    _postgresql_only(db)
    orphans = (
        select(TableRow.id)
        .join(ClusterNode, ClusterNode.id == TableRow.node_id)
        .where(ClusterNode.state == "dead", TableRow.closed_at.is_(None))
        .order_by(TableRow.id)
        .limit(limit)
        .with_for_update(of=TableRow, skip_locked=True)
    )
    claimed = await db.scalars(
        update(TableRow)
        .where(TableRow.id.in_(orphans))
        .values(node_id=me.node_id)
        .returning(TableRow.id)
    )
    return sorted(claimed)


async def leave(db: AsyncSession, lease: Lease) -> None:
    """Leave the cluster (after a drain): ``gone`` under a new epoch, so that the survivors
    take its tables at once instead of waiting for the lease to run out."""
    await heartbeat(db, lease)
    await db.execute(
        update(ClusterNode)
        .where(ClusterNode.id == lease.node_id)
        .values(state="gone", epoch=ClusterNode.epoch + 1)
    )
