"""Fair play: the chat line as typed beside its masked text; where accounts were seen from
(sightings) and the account links seen by the server; flags of chip dumping for review
(docs/CONDUCT.md).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


LINK_KINDS = "kind IN ('series', 'same_person', 'shared_address', 'shared_device')"
OLD_LINK_KINDS = "kind IN ('series', 'same_person')"


def upgrade() -> None:
    with op.batch_alter_table("chat_messages") as batch_op:
        batch_op.add_column(sa.Column("original", sa.Text(), nullable=True))
    with op.batch_alter_table("account_links", recreate="always") as batch_op:
        batch_op.drop_constraint(op.f("ck_account_links_known_kind"), type_="check")
        batch_op.create_check_constraint(op.f("ck_account_links_known_kind"), LINK_KINDS)
    op.create_table(
        "sightings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("value", sa.String(length=64), nullable=False),
        sa.Column("first_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('address', 'device')", name=op.f("ck_sightings_known_kind")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_sightings_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sightings")),
        sa.UniqueConstraint("user_id", "kind", "value", name="uq_sightings_user_kind_value"),
    )
    op.create_index("ix_sightings_kind_value", "sightings", ["kind", "value"])
    op.create_index(op.f("ix_sightings_user_id"), "sightings", ["user_id"])
    op.create_table(
        "fair_play_flags",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("other_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reviewed_by_id", sa.Integer(), nullable=True),
        sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("review_note", sa.String(length=500), nullable=True),
        sa.CheckConstraint("kind IN ('dumping')", name=op.f("ck_fair_play_flags_known_kind")),
        sa.CheckConstraint(
            "status IN ('open', 'actioned', 'dismissed')",
            name=op.f("ck_fair_play_flags_known_status"),
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_fair_play_flags_user_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["other_id"], ["users.id"], name=op.f("fk_fair_play_flags_other_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["reviewed_by_id"], ["users.id"], name=op.f("fk_fair_play_flags_reviewed_by_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fair_play_flags")),
    )
    op.create_index(op.f("ix_fair_play_flags_user_id"), "fair_play_flags", ["user_id"])
    op.create_index(op.f("ix_fair_play_flags_other_id"), "fair_play_flags", ["other_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_fair_play_flags_other_id"), table_name="fair_play_flags")
    op.drop_index(op.f("ix_fair_play_flags_user_id"), table_name="fair_play_flags")
    op.drop_table("fair_play_flags")
    op.drop_index(op.f("ix_sightings_user_id"), table_name="sightings")
    op.drop_index("ix_sightings_kind_value", table_name="sightings")
    op.drop_table("sightings")
    op.execute("DELETE FROM account_links WHERE kind IN ('shared_address', 'shared_device')")
    with op.batch_alter_table("account_links", recreate="always") as batch_op:
        batch_op.drop_constraint(op.f("ck_account_links_known_kind"), type_="check")
        batch_op.create_check_constraint(op.f("ck_account_links_known_kind"), OLD_LINK_KINDS)
    with op.batch_alter_table("chat_messages") as batch_op:
        batch_op.drop_column("original")
