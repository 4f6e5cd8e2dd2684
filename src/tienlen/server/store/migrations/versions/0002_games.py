"""Tables and games: the lobby's tables, each game's start and players, its actions as they
happen, its status (playing, finished, void) and its record once settled.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "lobby_tables",
        sa.Column("id", sa.String(length=20), nullable=False),
        sa.Column("room", sa.String(length=16), nullable=False),
        sa.Column("preset", sa.String(length=32), nullable=False),
        sa.Column("bet", sa.BigInteger(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("invite", sa.String(length=64), nullable=True),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["users.id"], name=op.f("fk_lobby_tables_owner_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lobby_tables")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=100), nullable=False),
        sa.Column("table_id", sa.String(length=20), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("start", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("record", sa.JSON(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("void_reason", sa.String(length=300), nullable=True),
        sa.Column("dealt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('playing', 'finished', 'void')", name=op.f("ck_games_known_status")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["lobby_tables.id"], name=op.f("fk_games_table_id_lobby_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("table_id", "number", name="uq_games_table_number"),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_games_status"), ["status"], unique=False)

    op.create_table(
        "game_actions",
        sa.Column("game_id", sa.String(length=100), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_actions_game_id_games")
        ),
        sa.PrimaryKeyConstraint("game_id", "number", name=op.f("pk_game_actions")),
    )
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(length=100), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("table_seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("bot", sa.String(length=16), nullable=True),
        sa.Column("balance", sa.BigInteger(), nullable=True),
        sa.Column("delta", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_players_game_id_games")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_game_players_user_id_users")
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_game_players")),
    )
    with op.batch_alter_table("game_players", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_players_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("game_players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_players_user_id"))

    op.drop_table("game_players")
    op.drop_table("game_actions")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_status"))

    op.drop_table("games")
    op.drop_table("lobby_tables")
