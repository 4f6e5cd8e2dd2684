"""House bots: users marked ``is_bot``, and ``stake`` transactions that fund them.

A bot has no password (so it cannot log in); a stake moves chips from the house, or from
issuance when the house holds too little, to one bot (docs/SERVER.md, "House bots").

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

KINDS = "kind IN ('grant', 'topup', 'game')"
KINDS_WITH_STAKE = "kind IN ('grant', 'topup', 'game', 'stake')"


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(
            sa.Column("is_bot", sa.Boolean(), server_default=sa.text("false"), nullable=False)
        )
        batch.create_check_constraint(
            op.f("ck_users_bot_has_no_password"), "NOT is_bot OR password_hash IS NULL"
        )
    with op.batch_alter_table("ledger_transactions") as batch:
        batch.drop_constraint(op.f("ck_ledger_transactions_known_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_ledger_transactions_known_kind"), KINDS_WITH_STAKE)


def downgrade() -> None:
    with op.batch_alter_table("ledger_transactions") as batch:
        batch.drop_constraint(op.f("ck_ledger_transactions_known_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_ledger_transactions_known_kind"), KINDS)
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint(op.f("ck_users_bot_has_no_password"), type_="check")
        batch.drop_column("is_bot")
