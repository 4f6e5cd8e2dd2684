"""The server's tables, as SQLAlchemy 2 typed models.

The migrations in ``tienlen/server/migrations`` create exactly these tables (a test compares
them); change both together. Money is integers of chips (``BigInteger``); times are UTC.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

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
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import JSON, TypeDecorator

__all__ = [
    "ACCOUNT_KINDS",
    "GAME_STATUSES",
    "TRANSACTION_KINDS",
    "Account",
    "AccountLink",
    "AuditEntry",
    "Base",
    "ChatMessage",
    "ClusterNode",
    "Entry",
    "FairPlayFlag",
    "GameAction",
    "GamePlayer",
    "GameRow",
    "Report",
    "Sanction",
    "Session",
    "Sighting",
    "StaffRole",
    "TableRow",
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
TRANSACTION_KINDS = ("grant", "topup", "game", "stake")
"""``stake``: the house (or, when it holds too little, issuance) funds a bot before a deal."""
GAME_STATUSES = ("playing", "finished", "void")
"""``playing``: dealt, not settled (resumed or voided at the next start). ``finished``: settled
into the ledger, with its record. ``void``: given up; no chip moved (docs/SERVER.md)."""


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
    """A player: a registered account (with a password hash) or a guest (without); or a
    bot the lobby seats at chip tables (``is_bot``: no password, so also ``is_guest``)."""

    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint("(password_hash IS NULL) = is_guest", name="guest_has_no_password"),
        CheckConstraint("dkn >= 0", name="dkn_not_negative"),
        CheckConstraint("vip_points >= 0", name="vip_points_not_negative"),
        CheckConstraint(
            "games_won >= 0 AND games_played >= games_won", name="games_won_within_played"
        ),
        CheckConstraint("NOT is_bot OR password_hash IS NULL", name="bot_has_no_password"),
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
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    """A house bot (server/house_bots.py): never logs in, never ranked, earns no ĐKN."""

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
    """A ledger account. Its ``balance`` always equals the sum of its entries (check_ledger).

    The house and issuance are each split into shards 0..n-1 (``shard``; a player's account is
    shard 0): every settlement, grant and stake locks one of them, so with one shard every
    settlement of every table waits on the same row (``TIENLEN_HOUSE_SHARDS``, docs/SERVER.md).
    """

    __tablename__ = "ledger_accounts"
    __table_args__ = (
        CheckConstraint("kind IN ('player', 'house', 'issuance')", name="known_kind"),
        CheckConstraint("(kind = 'player') = (user_id IS NOT NULL)", name="player_has_user"),
        CheckConstraint("kind = 'issuance' OR balance >= 0", name="balance_not_negative"),
        CheckConstraint("shard >= 0 AND (user_id IS NULL OR shard = 0)", name="known_shard"),
        Index(
            "uq_ledger_accounts_system_kind",
            "kind",
            "shard",
            unique=True,
            sqlite_where=text("user_id IS NULL"),
            postgresql_where=text("user_id IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), unique=True)
    balance: Mapped[int] = mapped_column(BigInteger, default=0, server_default=text("0"))
    shard: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))

    user: Mapped[User | None] = relationship(back_populates="account", lazy="raise")


class Transaction(Base):
    """One movement of chips: its entries sum to zero. ``reference`` is unique, so the same
    grant, top-up or game can be written only once."""

    __tablename__ = "ledger_transactions"
    __table_args__ = (
        CheckConstraint("kind IN ('grant', 'topup', 'game', 'stake')", name="known_kind"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    reference: Mapped[str] = mapped_column(String(200), unique=True)
    """``grant:<user id>``, ``topup:<user id>:<day>``, ``game:<game id>`` or
    ``stake:<bot's user id>:<n>``."""
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


class TableRow(Base):
    """A lobby table: open until ``closed_at``; the open ones are opened again at start."""

    __tablename__ = "lobby_tables"

    id: Mapped[str] = mapped_column(String(20), primary_key=True)
    room: Mapped[str] = mapped_column(String(16))
    preset: Mapped[str] = mapped_column(String(32))
    bet: Mapped[int] = mapped_column(BigInteger)
    turn_seconds: Mapped[int] = mapped_column(Integer)
    seats: Mapped[int] = mapped_column(Integer)
    private: Mapped[bool] = mapped_column(Boolean)
    invite: Mapped[str | None] = mapped_column(String(64))
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    node_id: Mapped[str | None] = mapped_column(ForeignKey("cluster_nodes.id"), index=True)
    """The server process that runs the table (store/nodes.py); none on a single server."""


class ClusterNode(Base):
    """One server process of a cluster and its lease (store/nodes.py): it holds its tables
    while its ``heartbeat_at``, set by the database's clock with every batch it writes, is
    fresh, and only under its current ``epoch``; a survivor that finds it silent for a lease
    marks it ``dead`` and bumps the epoch, which fences every later write of the old process."""

    __tablename__ = "cluster_nodes"
    __table_args__ = (
        CheckConstraint("state IN ('up', 'draining', 'gone', 'dead')", name="known_state"),
    )

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    epoch: Mapped[int] = mapped_column(BigInteger)
    address: Mapped[str] = mapped_column(String(200))
    state: Mapped[str] = mapped_column(String(16))
    heartbeat_at: Mapped[datetime] = mapped_column(UTCDateTime)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)


class GameRow(Base):
    """One game dealt at a table: its start (enough to deal it again), its status and, once
    settled, its record. ``id`` is the ledger's game id, ``<table id>:<number>``."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("status IN ('playing', 'finished', 'void')", name="known_status"),
        UniqueConstraint("table_id", "number", name="uq_games_table_number"),
    )

    id: Mapped[str] = mapped_column(String(100), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("lobby_tables.id"))
    number: Mapped[int] = mapped_column(Integer)
    start: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The game's start as a ``tienlen-record/1`` without actions: rule set, hands, lead
    rules, bet, house fee and the deal (scheme, commitment, server and client seeds)."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """The finished game's record (``tienlen-record/1``), written with its settlement."""
    winner: Mapped[int | None] = mapped_column(Integer)
    """The winner's game seat once settled (None for a void game)."""
    void_reason: Mapped[str | None] = mapped_column(String(300))
    dealt_at: Mapped[datetime] = mapped_column(UTCDateTime)
    settled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class GamePlayer(Base):
    """A player of a game, by game seat; ``delta`` is their chips won or lost once settled."""

    __tablename__ = "game_players"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    """None for a bot without an account."""
    name: Mapped[str] = mapped_column(String(64))
    bot: Mapped[str | None] = mapped_column(String(16))
    """A bot's level; None for a person."""
    balance: Mapped[int | None] = mapped_column(BigInteger)
    """Chips before the game (what settlement caps a payment at)."""
    delta: Mapped[int | None] = mapped_column(BigInteger)


class GameAction(Base):
    """One command of a game, as the engine's codec writes it, stored as it happened."""

    __tablename__ = "game_actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    """Its index in the game's history, from 0."""
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


# Conduct (server/conduct.py, docs/CONDUCT.md) ------------------------------------------------


class StaffRole(Base):
    """A moderator or an admin; every other user is a player."""

    __tablename__ = "staff_roles"
    __table_args__ = (CheckConstraint("role IN ('moderator', 'admin')", name="known_role"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    role: Mapped[str] = mapped_column(String(16))
    granted_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Sanction(Base):
    """A warning, mute or ban. ``ends_at`` None: permanent (always None for a warning). A
    lifted sanction (unban, unmute) no longer applies nor counts as a prior offence."""

    __tablename__ = "sanctions"
    __table_args__ = (
        CheckConstraint("kind IN ('warn', 'mute', 'ban')", name="known_kind"),
        CheckConstraint("kind <> 'warn' OR ends_at IS NULL", name="warning_has_no_end"),
        CheckConstraint("ends_at IS NULL OR ends_at > starts_at", name="ends_after_start"),
        CheckConstraint("(lifted_at IS NULL) = (lift_reason IS NULL)", name="lift_has_reason"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    kind: Mapped[str] = mapped_column(String(8))
    offence: Mapped[str | None] = mapped_column(String(40))
    """A key of the conduct policy, or None for a moderator's own call."""
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ends_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    """The moderator or admin; None: the server's console (``tienlen admin``)."""
    reason: Mapped[str] = mapped_column(String(500))
    evidence: Mapped[dict[str, object]] = mapped_column(JSON)
    linked_from_id: Mapped[int | None] = mapped_column(ForeignKey("sanctions.id"))
    """The sanction of a linked account this one follows from (seed 000's series of nicks)."""
    lifted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lifted_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    lift_reason: Mapped[str | None] = mapped_column(String(500))


class AccountLink(Base):
    """Two accounts known to belong together (conduct_policy.LINK_KINDS); ``user_a < user_b``.
    ``shared_address`` and ``shared_device`` are seen by the server (server/sightings.py)."""

    __tablename__ = "account_links"
    __table_args__ = (
        CheckConstraint(
            "kind IN ('series', 'same_person', 'shared_address', 'shared_device')",
            name="known_kind",
        ),
        CheckConstraint("user_a < user_b", name="ordered_pair"),
        UniqueConstraint("user_a", "user_b", "kind", name="uq_account_links_pair_kind"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_a: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    user_b: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))


class Sighting(Base):
    """A network address or device id an account was seen from (log-in, sign-up, guest),
    first and last; what links accounts by shared address or device (server/sightings.py)."""

    __tablename__ = "sightings"
    __table_args__ = (
        CheckConstraint("kind IN ('address', 'device')", name="known_kind"),
        UniqueConstraint("user_id", "kind", "value", name="uq_sightings_user_kind_value"),
        Index("ix_sightings_kind_value", "kind", "value"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    kind: Mapped[str] = mapped_column(String(8))
    value: Mapped[str] = mapped_column(String(64))
    first_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_at: Mapped[datetime] = mapped_column(UTCDateTime)


class FairPlayFlag(Base):
    """A suspicion the server found in the games (``dumping``: ``user_id`` keeps losing to
    ``other_id``), with its evidence, kept for a moderator's review (server/collusion.py)."""

    __tablename__ = "fair_play_flags"
    __table_args__ = (
        CheckConstraint("kind IN ('dumping')", name="known_kind"),
        CheckConstraint("status IN ('open', 'actioned', 'dismissed')", name="known_status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    other_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    evidence: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Why (``reasons``), the games, chips and soft passes each way."""
    status: Mapped[str] = mapped_column(String(16))
    reviewed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    reviewed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    review_note: Mapped[str | None] = mapped_column(String(500))


class Report(Base):
    """A player's report of a player or of one chat message, kept for a moderator's review."""

    __tablename__ = "reports"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'actioned', 'dismissed')", name="known_status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    target_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    message_id: Mapped[str | None] = mapped_column(String(100))
    """The reported chat message, if a message (not only a player) is reported."""
    text: Mapped[str] = mapped_column(String(1000))
    context: Mapped[dict[str, object]] = mapped_column(JSON)
    """What the reporter's client attached: the chat around the message, the table and game."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    status: Mapped[str] = mapped_column(String(16), default="open", server_default="open")
    reviewed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    reviewed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    review_note: Mapped[str | None] = mapped_column(String(500))


class AuditEntry(Base):
    """One moderator's or admin's action: who (None: the console), when, what, why, evidence."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    action: Mapped[str] = mapped_column(String(32))
    target_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    reason: Mapped[str] = mapped_column(String(500))
    details: Mapped[dict[str, object]] = mapped_column(JSON)
    """The sanction or report concerned, durations, evidence."""


class ChatMessage(Base):
    """A line of chat, kept as it was said: in the lobby (``channel`` ``lobby``) or at a
    table (``table:<id>``), with the speaker's nickname at the time. Written in batches by
    ``server/chat.py``; the conduct rules (moderation, sanctions) read them."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_channel_id", "channel", "id"),)

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    channel: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    nickname: Mapped[str] = mapped_column(String(NICKNAME_MAX))
    seat: Mapped[int | None] = mapped_column(Integer)
    """The speaker's table seat, when seated."""
    text: Mapped[str] = mapped_column(Text)
    """What was shown: masked by the profanity filter where it swore."""
    original: Mapped[str | None] = mapped_column(Text)
    """The line as typed, when the filter masked it (for the moderators; never shown)."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
