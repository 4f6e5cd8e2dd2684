"""Conduct: staff roles, sanctions, account links, reports and the audit log (docs/CONDUCT.md).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "account_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_a", sa.Integer(), nullable=False),
        sa.Column("user_b", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by_user_id", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "kind IN ('series', 'same_person')", name=op.f("ck_account_links_known_kind")
        ),
        sa.CheckConstraint("user_a < user_b", name=op.f("ck_account_links_ordered_pair")),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["users.id"], name=op.f("fk_account_links_by_user_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["user_a"], ["users.id"], name=op.f("fk_account_links_user_a_users")
        ),
        sa.ForeignKeyConstraint(
            ["user_b"], ["users.id"], name=op.f("fk_account_links_user_b_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_links")),
        sa.UniqueConstraint("user_a", "user_b", "kind", name="uq_account_links_pair_kind"),
    )
    with op.batch_alter_table("account_links", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_account_links_user_a"), ["user_a"], unique=False)
        batch_op.create_index(batch_op.f("ix_account_links_user_b"), ["user_b"], unique=False)

    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"], ["users.id"], name=op.f("fk_audit_log_actor_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["target_id"], ["users.id"], name=op.f("fk_audit_log_target_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_audit_log_at"), ["at"], unique=False)
        batch_op.create_index(batch_op.f("ix_audit_log_target_id"), ["target_id"], unique=False)

    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(length=100), nullable=True),
        sa.Column("text", sa.String(length=1000), nullable=False),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), server_default="open", nullable=False),
        sa.Column("reviewed_by_id", sa.Integer(), nullable=True),
        sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("review_note", sa.String(length=500), nullable=True),
        sa.CheckConstraint(
            "status IN ('open', 'actioned', 'dismissed')", name=op.f("ck_reports_known_status")
        ),
        sa.ForeignKeyConstraint(
            ["reporter_id"], ["users.id"], name=op.f("fk_reports_reporter_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["reviewed_by_id"], ["users.id"], name=op.f("fk_reports_reviewed_by_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["target_id"], ["users.id"], name=op.f("fk_reports_target_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
    )
    with op.batch_alter_table("reports", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_reports_reporter_id"), ["reporter_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_reports_target_id"), ["target_id"], unique=False)

    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("offence", sa.String(length=40), nullable=True),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("by_user_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("linked_from_id", sa.Integer(), nullable=True),
        sa.Column("lifted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lifted_by_id", sa.Integer(), nullable=True),
        sa.Column("lift_reason", sa.String(length=500), nullable=True),
        sa.CheckConstraint(
            "kind <> 'warn' OR ends_at IS NULL", name=op.f("ck_sanctions_warning_has_no_end")
        ),
        sa.CheckConstraint("kind IN ('warn', 'mute', 'ban')", name=op.f("ck_sanctions_known_kind")),
        sa.CheckConstraint(
            "(lifted_at IS NULL) = (lift_reason IS NULL)", name=op.f("ck_sanctions_lift_has_reason")
        ),
        sa.CheckConstraint(
            "ends_at IS NULL OR ends_at > starts_at", name=op.f("ck_sanctions_ends_after_start")
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["users.id"], name=op.f("fk_sanctions_by_user_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["lifted_by_id"], ["users.id"], name=op.f("fk_sanctions_lifted_by_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["linked_from_id"], ["sanctions.id"], name=op.f("fk_sanctions_linked_from_id_sanctions")
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_sanctions_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sanctions")),
    )
    with op.batch_alter_table("sanctions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sanctions_user_id"), ["user_id"], unique=False)

    op.create_table(
        "staff_roles",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "role IN ('moderator', 'admin')", name=op.f("ck_staff_roles_known_role")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_staff_roles_user_id_users")
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_staff_roles")),
    )


def downgrade() -> None:
    op.drop_table("staff_roles")
    with op.batch_alter_table("sanctions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sanctions_user_id"))

    op.drop_table("sanctions")
    with op.batch_alter_table("reports", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_reports_target_id"))
        batch_op.drop_index(batch_op.f("ix_reports_reporter_id"))

    op.drop_table("reports")
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_log_target_id"))
        batch_op.drop_index(batch_op.f("ix_audit_log_at"))

    op.drop_table("audit_log")
    with op.batch_alter_table("account_links", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_account_links_user_b"))
        batch_op.drop_index(batch_op.f("ix_account_links_user_a"))

    op.drop_table("account_links")
