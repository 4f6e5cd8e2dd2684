"""Accounts and the chip ledger: users, sessions, ledger accounts, transactions and entries.

Also creates the two system accounts, ``issuance`` (where grants come from) and ``house`` (where
fees go).

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "ledger_transactions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("reference", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "kind IN ('grant', 'topup', 'game')", name=op.f("ck_ledger_transactions_known_kind")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_transactions")),
        sa.UniqueConstraint("reference", name=op.f("uq_ledger_transactions_reference")),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("nickname", sa.String(length=40), nullable=False),
        sa.Column("nickname_key", sa.String(length=40), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        sa.Column("is_guest", sa.Boolean(), nullable=False),
        sa.Column("dkn", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("vip_points", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("games_played", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("games_won", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_topup_on", sa.Date(), nullable=True),
        sa.CheckConstraint(
            "(password_hash IS NULL) = is_guest", name=op.f("ck_users_guest_has_no_password")
        ),
        sa.CheckConstraint("dkn >= 0", name=op.f("ck_users_dkn_not_negative")),
        sa.CheckConstraint(
            "games_won >= 0 AND games_played >= games_won",
            name=op.f("ck_users_games_won_within_played"),
        ),
        sa.CheckConstraint("vip_points >= 0", name=op.f("ck_users_vip_points_not_negative")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("nickname_key", name=op.f("uq_users_nickname_key")),
    )
    op.create_table(
        "ledger_accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("balance", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.CheckConstraint(
            "(kind = 'player') = (user_id IS NOT NULL)",
            name=op.f("ck_ledger_accounts_player_has_user"),
        ),
        sa.CheckConstraint(
            "kind = 'issuance' OR balance >= 0",
            name=op.f("ck_ledger_accounts_balance_not_negative"),
        ),
        sa.CheckConstraint(
            "kind IN ('player', 'house', 'issuance')", name=op.f("ck_ledger_accounts_known_kind")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_ledger_accounts_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_accounts")),
        sa.UniqueConstraint("user_id", name=op.f("uq_ledger_accounts_user_id")),
    )
    with op.batch_alter_table("ledger_accounts", schema=None) as batch_op:
        batch_op.create_index(
            "uq_ledger_accounts_system_kind",
            ["kind"],
            unique=True,
            sqlite_where=sa.text("user_id IS NULL"),
            postgresql_where=sa.text("user_id IS NULL"),
        )

    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_sessions_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_sessions_token_hash")),
    )
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sessions_user_id"), ["user_id"], unique=False)

    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("transaction_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("amount <> 0", name=op.f("ck_ledger_entries_amount_not_zero")),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["ledger_accounts.id"],
            name=op.f("fk_ledger_entries_account_id_ledger_accounts"),
        ),
        sa.ForeignKeyConstraint(
            ["transaction_id"],
            ["ledger_transactions.id"],
            name=op.f("fk_ledger_entries_transaction_id_ledger_transactions"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entries")),
    )
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_ledger_entries_account_id"), ["account_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_ledger_entries_transaction_id"), ["transaction_id"], unique=False
        )

    accounts = sa.table(
        "ledger_accounts", sa.column("kind", sa.String), sa.column("balance", sa.BigInteger)
    )
    op.bulk_insert(accounts, [{"kind": "issuance", "balance": 0}, {"kind": "house", "balance": 0}])


def downgrade() -> None:
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_entries_transaction_id"))
        batch_op.drop_index(batch_op.f("ix_ledger_entries_account_id"))

    op.drop_table("ledger_entries")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sessions_user_id"))

    op.drop_table("sessions")
    with op.batch_alter_table("ledger_accounts", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_ledger_accounts_system_kind",
            sqlite_where=sa.text("user_id IS NULL"),
            postgresql_where=sa.text("user_id IS NULL"),
        )

    op.drop_table("ledger_accounts")
    op.drop_table("users")
    op.drop_table("ledger_transactions")
