"""Cluster nodes: the server processes sharing one PostgreSQL database, each with a lease and
an epoch (``cluster_nodes``), and which of them runs each table (``lobby_tables.node_id``,
empty on a single server). store/nodes.py; docs/SERVER.md, "Several servers".

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "cluster_nodes",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("address", sa.String(length=200), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "state IN ('up', 'draining', 'gone', 'dead')",
            name=op.f("ck_cluster_nodes_known_state"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cluster_nodes")),
    )
    with op.batch_alter_table("lobby_tables") as batch_op:
        batch_op.add_column(sa.Column("node_id", sa.String(length=64), nullable=True))
        batch_op.create_foreign_key(
            op.f("fk_lobby_tables_node_id_cluster_nodes"), "cluster_nodes", ["node_id"], ["id"]
        )
        batch_op.create_index(op.f("ix_lobby_tables_node_id"), ["node_id"])


def downgrade() -> None:
    with op.batch_alter_table("lobby_tables") as batch_op:
        batch_op.drop_index(op.f("ix_lobby_tables_node_id"))
        batch_op.drop_constraint(op.f("fk_lobby_tables_node_id_cluster_nodes"), type_="foreignkey")
        batch_op.drop_column("node_id")
    op.drop_table("cluster_nodes")
