"""The server's tables, as SQLAlchemy 2 typed models.

The migrations in ``tienlen/server/migrations`` create exactly these tables (a test compares
them); change both together. Money is integers of chips (``BigInteger``); times are UTC.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

__all__ = [
    "ACCOUNT_KINDS",
    "TRANSACTION_KINDS",
    "Account",
    "Base",
    "Entry",
    "Session",
    "Transaction",
    "UTCDateTime",
    "User",
]

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint names fixed by convention, so migrations can name what they alter."""

NICKNAME_MAX = 40
"""Column width for nicknames and their keys (the rules allow fewer characters, see auth)."""

ACCOUNT_KINDS = ("player", "house", "issuance")
"""``player``: one per user. ``house``: receives the tables' fees. ``issuance``: the source of
grants and top-ups; its balance is minus every chip ever created."""
TRANSACTION_KINDS = ("grant", "topup", "game")


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend (SQLite stores no zone, so it is implied)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("a naive datetime cannot be stored; use UTC-aware times")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class User(Base):
    """A player: a registered account (with a password hash) or a guest (without)."""

    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint("(password_hash IS NULL) = is_guest", name="guest_has_no_password"),
        CheckConstraint("dkn >= 0", name="dkn_not_negative"),
        CheckConstraint("vip_points >= 0", name="vip_points_not_negative"),
        CheckConstraint(
            "games_won >= 0 AND games_played >= games_won", name="games_won_within_played"
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    nickname: Mapped[str] = mapped_column(String(NICKNAME_MAX))
    nickname_key: Mapped[str] = mapped_column(String(NICKNAME_MAX), unique=True)
    """The nickname folded for comparison (auth.nickname_key): unique, so "Đức" blocks "duc"."""
    password_hash: Mapped[str | None] = mapped_column(String(255))
    is_guest: Mapped[bool] = mapped_column(Boolean)
    dkn: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    """Điểm kinh nghiệm (experience points)."""
    vip_points: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    games_played: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    games_won: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_topup_on: Mapped[date | None] = mapped_column(Date)
    """The server day of the latest daily top-up (the ledger's references enforce once a day)."""

    account: Mapped[Account] = relationship(back_populates="user", lazy="raise")


class Session(Base):
    """A log-in: only the SHA-256 of the random cookie token is kept, so a copy of the database
    cannot be used to log in."""

    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Account(Base):
    """A ledger account. Its ``balance`` always equals the sum of its entries (check_ledger)."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (
        CheckConstraint("kind IN ('player', 'house', 'issuance')", name="known_kind"),
        CheckConstraint("(kind = 'player') = (user_id IS NOT NULL)", name="player_has_user"),
        CheckConstraint("kind = 'issuance' OR balance >= 0", name="balance_not_negative"),
        Index(
            "uq_ledger_accounts_system_kind",
            "kind",
            unique=True,
            sqlite_where=text("user_id IS NULL"),
            postgresql_where=text("user_id IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), unique=True)
    balance: Mapped[int] = mapped_column(BigInteger, default=0, server_default=text("0"))

    user: Mapped[User | None] = relationship(back_populates="account", lazy="raise")


class Transaction(Base):
    """One movement of chips: its entries sum to zero. ``reference`` is unique, so the same
    grant, top-up or game can be written only once."""

    __tablename__ = "ledger_transactions"
    __table_args__ = (CheckConstraint("kind IN ('grant', 'topup', 'game')", name="known_kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    reference: Mapped[str] = mapped_column(String(200), unique=True)
    """``grant:<user id>``, ``topup:<user id>:<day>`` or ``game:<game id>``."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)

    entries: Mapped[list[Entry]] = relationship(back_populates="transaction", lazy="raise")


class Entry(Base):
    """One line of a transaction: a signed amount on one account (never zero)."""

    __tablename__ = "ledger_entries"
    __table_args__ = (CheckConstraint("amount <> 0", name="amount_not_zero"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transaction_id: Mapped[int] = mapped_column(ForeignKey("ledger_transactions.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)

    transaction: Mapped[Transaction] = relationship(back_populates="entries", lazy="raise")
