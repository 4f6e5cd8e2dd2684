"""House shards: the house and issuance accounts each become shards 0..n-1 (``shard``), so that
concurrent settlements, grants and stakes do not all wait on one row (TIENLEN_HOUSE_SHARDS,
docs/SERVER.md). The existing accounts are shard 0; the server opens the others at start-up.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None

SYSTEM_ONLY = sa.text("user_id IS NULL")


def upgrade() -> None:
    op.drop_index(
        "uq_ledger_accounts_system_kind",
        table_name="ledger_accounts",
        sqlite_where=SYSTEM_ONLY,
        postgresql_where=SYSTEM_ONLY,
    )
    with op.batch_alter_table("ledger_accounts") as batch_op:
        batch_op.add_column(
            sa.Column("shard", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )
        batch_op.create_check_constraint(
            op.f("ck_ledger_accounts_known_shard"),
            "shard >= 0 AND (user_id IS NULL OR shard = 0)",
        )
    op.create_index(
        "uq_ledger_accounts_system_kind",
        "ledger_accounts",
        ["kind", "shard"],
        unique=True,
        sqlite_where=SYSTEM_ONLY,
        postgresql_where=SYSTEM_ONLY,
    )


def downgrade() -> None:
    extra = op.get_bind().scalar(sa.text("SELECT count(*) FROM ledger_accounts WHERE shard > 0"))
    if extra:
        raise RuntimeError(
            f"{extra} house or issuance shards besides shard 0 exist: they hold chips and "
            "entries that one account per kind cannot take over; merge them first"
        )
    op.drop_index(
        "uq_ledger_accounts_system_kind",
        table_name="ledger_accounts",
        sqlite_where=SYSTEM_ONLY,
        postgresql_where=SYSTEM_ONLY,
    )
    with op.batch_alter_table("ledger_accounts") as batch_op:
        batch_op.drop_constraint(op.f("ck_ledger_accounts_known_shard"), type_="check")
        batch_op.drop_column("shard")
    op.create_index(
        "uq_ledger_accounts_system_kind",
        "ledger_accounts",
        ["kind"],
        unique=True,
        sqlite_where=SYSTEM_ONLY,
        postgresql_where=SYSTEM_ONLY,
    )
