"""The chip ledger: the only code that moves chips, and the check that proves it did it right.

Double entry: a movement is a :class:`.models.Transaction` whose
:class:`.models.Entry` rows sum to zero, written in the caller's database transaction
together with the balances they change. Each transaction has a unique reference
(``grant:<user id>``, ``topup:<user id>:<day>``, ``game:<game id>``, ``stake:<bot id>:<n>``),
so the same grant, top-up, game or stake can never be written twice. There is no function that
moves chips from one player to another outside a game's settlement (seed 000: "chuyển chip giữa
các nick" is forbidden); only bots are staked, by the house.

Accounts: one ``player`` account per user, the ``house`` (table fees) and ``issuance`` (where
grants come from: its balance is minus every chip ever handed out). Balances of players and the
house never go below zero. The house and issuance are each shards 0..n-1 (one row each by
default, ``TIENLEN_HOUSE_SHARDS`` opens more): a movement locks the one shard its game, user or
bot falls on, so concurrent settlements do not all queue on a single row. Which shard takes a
fee changes nothing but contention: the house is the sum of its shards.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import case, func, literal, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..clock import server_day
from ..settings import Settings
from .models import Account, Entry, Transaction, User

__all__ = [
    "GAME_ID_PATTERN",
    "AlreadyDone",
    "InsufficientChips",
    "LedgerError",
    "LedgerReport",
    "Violation",
    "balance_of",
    "check_ledger",
    "claim_daily_topup",
    "grant_starting_chips",
    "open_player_account",
    "open_system_shards",
    "settle_game",
    "stake_bot",
]

GAME_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:\-]{0,99}")
"""What a game id may look like (it becomes the reference ``game:<id>``)."""
_TOPUP_REFERENCE = re.compile(r"topup:(\d+):(\d{4}-\d{2}-\d{2})")
_GRANT_REFERENCE = re.compile(r"grant:(\d+)")
_GAME_REFERENCE = re.compile(r"game:" + GAME_ID_PATTERN.pattern)
_STAKE_REFERENCE = re.compile(r"stake:(\d+):(\d+)")
SYSTEM_KINDS = ("house", "issuance")
"""The accounts no user owns, each split into shards 0..n-1."""
MAX_REPORTED = 100
"""check_ledger lists at most this many violations of each kind (and counts the rest)."""


class LedgerError(ValueError):
    """A movement the ledger refuses; nothing was written. ``code`` names the reason."""

    code = "ledger_error"


class AlreadyDone(LedgerError):
    """The reference (a game, a grant, a day's top-up) has been written already."""

    code = "already_settled"


class InsufficientChips(LedgerError):
    """A movement would take an account below zero."""

    code = "insufficient_chips"


async def _system_account(db: AsyncSession, kind: str, key: int) -> Account:
    """The shard of ``kind`` that ``key`` (a game's hash, a user's or bot's id) falls on:
    ``key`` modulo the number of shards, or shard 0 should that one be missing (check_ledger
    reports the gap). The count is read with it, so a server started with more shards than
    another is still right: any shard may take any movement."""
    system = (Account.kind == kind) & Account.user_id.is_(None)
    shards = select(func.count()).where(system).scalar_subquery()
    account = await db.scalar(
        select(Account)
        .where(system, Account.shard.in_([literal(0), literal(key) % shards]))
        .order_by(Account.shard.desc())
        .limit(1)
    )
    if account is None:
        raise LedgerError(f"the {kind} account is missing: has the database been migrated?")
    return account


def _game_key(game_id: str) -> int:
    """A game id's shard key: the same on every process and every run (not ``hash``)."""
    return zlib.crc32(game_id.encode())


async def open_system_shards(db: AsyncSession, shards: int) -> int:
    """Open the house and issuance shards 0..``shards``-1 that are missing, at zero; returns
    how many were opened. Never closes one (a shard holds chips and entries): lowering the
    setting leaves the shards there, still used. Safe when several servers start at once."""
    if isinstance(shards, bool) or not isinstance(shards, int) or shards < 1:
        raise LedgerError(f"there is at least 1 shard of the house, not {shards!r}")
    existing = {
        (kind, shard)
        for kind, shard in await db.execute(
            select(Account.kind, Account.shard).where(Account.user_id.is_(None))
        )
    }
    missing = [
        {"kind": kind, "shard": shard, "balance": 0}
        for kind in SYSTEM_KINDS
        for shard in range(shards)
        if (kind, shard) not in existing
    ]
    if not missing:
        return 0
    dialect = postgresql if db.get_bind().dialect.name == "postgresql" else sqlite
    inserted = await db.execute(
        dialect.insert(Account).values(missing).on_conflict_do_nothing().returning(Account.id)
    )
    return len(inserted.all())


async def _player_accounts(db: AsyncSession, user_ids: Iterable[int]) -> dict[int, Account]:
    ids = sorted(set(user_ids))
    rows = await db.scalars(select(Account).where(Account.user_id.in_(ids)))
    return {account.user_id: account for account in rows if account.user_id is not None}


async def _lock(db: AsyncSession, account_ids: Iterable[int]) -> dict[int, Account]:
    """Lock these accounts for the rest of the transaction and read their current balances."""
    locked = await db.scalars(
        select(Account)
        .where(Account.id.in_(sorted(set(account_ids))))
        .order_by(Account.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return {account.id: account for account in locked}


async def _post(
    db: AsyncSession,
    kind: str,
    reference: str,
    now: datetime,
    lines: Mapping[int, int],
) -> Transaction:
    """Write one balanced transaction of ``lines`` (account id → signed amount).

    Every account of ``lines`` is locked first (``SELECT … FOR UPDATE`` on PostgreSQL, in id
    order so concurrent movements cannot deadlock; SQLite's transactions are exclusive anyway).
    Only then are the reference and the balances checked, so a concurrent movement with the
    same reference is seen and refused, and no update is lost. Zero amounts lock but write no
    entry.
    """
    if sum(lines.values()) != 0:
        raise LedgerError(f"{reference}: the amounts sum to {sum(lines.values())}, not 0")
    accounts = await _lock(db, lines)
    if await db.scalar(select(Transaction.id).where(Transaction.reference == reference)):
        raise AlreadyDone(f"{reference} has already been written")
    moving = {account_id: amount for account_id, amount in lines.items() if amount}
    for account_id, amount in moving.items():
        account = accounts.get(account_id)
        if account is None:
            raise LedgerError(f"{reference}: account {account_id} does not exist")
        if account.kind != "issuance" and account.balance + amount < 0:
            raise InsufficientChips(
                f"{reference}: {_label(account)} holds {account.balance} chips, "
                f"cannot pay {-amount}"
            )
    transaction = Transaction(kind=kind, reference=reference, created_at=now)
    db.add(transaction)
    try:
        await db.flush()
    except IntegrityError:
        raise AlreadyDone(f"{reference} has already been written") from None
    for account_id, amount in sorted(moving.items()):
        db.add(Entry(transaction_id=transaction.id, account_id=account_id, amount=amount))
        accounts[account_id].balance += amount
    await db.flush()
    return transaction


def _label(account: Account) -> str:
    if account.kind == "player":
        return f"player {account.user_id}"
    return f"the {account.kind} account" + (f" (shard {account.shard})" if account.shard else "")


async def open_player_account(db: AsyncSession, user: User, now: datetime, grant: int) -> Account:
    """The new user's chip account, credited with the starting grant (when above zero)."""
    account = Account(kind="player", user_id=user.id, balance=0)
    db.add(account)
    await db.flush()
    if grant:
        await grant_starting_chips(db, user, grant, now)
    return account


async def grant_starting_chips(db: AsyncSession, user: User, amount: int, now: datetime) -> None:
    """The one-off starting grant: ``amount`` chips from issuance (reference ``grant:<id>``)."""
    if amount <= 0:
        raise LedgerError(f"a grant must be positive, not {amount}")
    issuance = await _system_account(db, "issuance", user.id)
    player = (await _player_accounts(db, [user.id])).get(user.id)
    if player is None:
        raise LedgerError(f"user {user.id} has no chip account")
    await _post(db, "grant", f"grant:{user.id}", now, {issuance.id: -amount, player.id: amount})


async def claim_daily_topup(db: AsyncSession, user: User, now: datetime, settings: Settings) -> int:
    """Top the user up by ``settings.topup_amount`` if they hold fewer than
    ``settings.topup_floor`` chips and have not been topped up this server day.

    Returns the chips granted (0 when not due). At most once per day, even under concurrent
    requests: the reference ``topup:<id>:<day>`` is unique.
    """
    if settings.topup_amount <= 0:
        return 0
    day = server_day(now, settings.day_utc_offset_hours)
    reference = f"topup:{user.id}:{day.isoformat()}"
    player = (await _player_accounts(db, [user.id])).get(user.id)
    if player is None:
        raise LedgerError(f"user {user.id} has no chip account")
    issuance = await _system_account(db, "issuance", user.id)
    await _lock(db, [player.id, issuance.id])  # concurrent claims queue here, then see ours
    if player.balance >= settings.topup_floor:
        return 0
    if await db.scalar(select(Transaction.id).where(Transaction.reference == reference)):
        return 0
    amount = settings.topup_amount
    await _post(db, "topup", reference, now, {issuance.id: -amount, player.id: amount})
    user.last_topup_on = day
    return amount


async def settle_game(
    db: AsyncSession,
    game_id: str,
    deltas: Mapping[int, int],
    fee: int,
    now: datetime,
) -> Transaction:
    """Write a finished game's money exactly once: ``deltas`` maps user id → net chips after
    the fee (``money.settlement.Settlement.deltas`` by seat, mapped to the seats' users), and
    ``fee`` goes to the house. ``sum(deltas) + fee`` must be 0.

    Raises :class:`AlreadyDone` if ``game:<game_id>`` was settled before and
    :class:`InsufficientChips` if a player cannot pay; nothing is written then (the caller rolls
    back its transaction). A void game (everyone left, seed 000) is settled with all-zero deltas:
    a transaction with no entries, so it still cannot be settled again.
    """
    if not isinstance(game_id, str) or not GAME_ID_PATTERN.fullmatch(game_id):
        raise LedgerError(
            f"game id {game_id!r} must be 1-100 letters, digits, '_', '.', ':' or '-'"
        )
    if isinstance(fee, bool) or not isinstance(fee, int) or fee < 0:
        raise LedgerError(f"the fee must be a whole number of chips, at least 0, not {fee!r}")
    if not deltas:
        raise LedgerError("a game has players: deltas is empty")
    for user_id, delta in deltas.items():
        if isinstance(delta, bool) or not isinstance(delta, int):
            raise LedgerError(f"player {user_id}'s delta must be a whole number, not {delta!r}")
    total = sum(deltas.values()) + fee
    if total != 0:
        raise LedgerError(
            f"deltas and fee must sum to 0 (chips are not created in games), not {total}"
        )
    players = await _player_accounts(db, deltas)
    missing = sorted(set(deltas) - set(players))
    if missing:
        raise LedgerError(f"no chip account for user(s) {missing}")
    house = await _system_account(db, "house", _game_key(game_id))
    lines = {players[user_id].id: delta for user_id, delta in deltas.items()}
    lines[house.id] = fee
    return await _post(db, "game", f"game:{game_id}", now, lines)


async def stake_bot(db: AsyncSession, bot: User, target: int, now: datetime) -> int:
    """Bring a bot's chips up to ``target`` before a deal, from the house, or from issuance when
    the house holds too little (a fresh server's house has no fees yet; with shards, the bot's
    own house shard). Reference
    ``stake:<bot id>:<n>``, its n-th stake. Returns the chips staked (0: it held enough).
    Only bots are staked: a person's chips come from grants, top-ups and games alone."""
    if not bot.is_bot:
        raise LedgerError(f"user {bot.id} is not a bot: only bots are staked")
    player = (await _player_accounts(db, [bot.id])).get(bot.id)
    if player is None:
        raise LedgerError(f"user {bot.id} has no chip account")
    house = await _system_account(db, "house", bot.id)
    issuance = await _system_account(db, "issuance", bot.id)
    await _lock(db, [player.id, house.id, issuance.id])
    amount = target - player.balance
    if amount <= 0:
        return 0
    done = await db.scalar(
        select(func.count()).where(Transaction.reference.like(f"stake:{bot.id}:%"))
    )
    source = house if house.balance >= amount else issuance
    reference = f"stake:{bot.id}:{(done or 0) + 1}"
    await _post(db, "stake", reference, now, {source.id: -amount, player.id: amount})
    return amount


async def balance_of(db: AsyncSession, user_id: int) -> int:
    balance = await db.scalar(select(Account.balance).where(Account.user_id == user_id))
    if balance is None:
        raise LedgerError(f"user {user_id} has no chip account")
    return balance


# The check ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Violation:
    code: str
    message: str


@dataclass
class LedgerReport:
    """What :func:`check_ledger` found; ``ok`` when there are no violations."""

    accounts: int = 0
    transactions: int = 0
    entries: int = 0
    issued: int = 0
    """Chips ever granted (minus the issuance shards' balances)."""
    violations: list[Violation] = field(default_factory=list)
    hidden: int = 0
    """Violations found beyond :data:`MAX_REPORTED` of one code, not listed."""

    @property
    def ok(self) -> bool:
        return not self.violations and not self.hidden

    def add(self, code: str, message: str) -> None:
        if sum(v.code == code for v in self.violations) >= MAX_REPORTED:
            self.hidden += 1
        else:
            self.violations.append(Violation(code, message))

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "accounts": self.accounts,
            "transactions": self.transactions,
            "entries": self.entries,
            "issued": self.issued,
            "violations": [{"code": v.code, "message": v.message} for v in self.violations],
            "hidden": self.hidden,
        }


def _account_label(kind: str, user_id: int | None, account_id: int) -> str:
    return f"account {account_id} ({kind}" + (f" of user {user_id})" if user_id else ")")


async def check_ledger(db: AsyncSession) -> LedgerReport:
    """Verify every invariant of the ledger and list each violation precisely.

    1. every transaction's entries sum to zero;
    2. every account's balance equals the sum of its entries;
    3. no player or house balance is negative; all balances together sum to zero;
    4. the house accounts are its shards 0..n-1 (n ≥ 1), and so are the issuance accounts;
       there is one player account per user;
    5. grants and top-ups move chips from issuance to exactly the player their reference names;
       games move chips only among players and to the house (a fee is never negative); stakes
       move chips from the house or issuance to exactly the bot their reference names; nothing
       else moves chips, so no player ever pays another outside a game;
    6. references have their kind's form.
    """
    report = LedgerReport()
    report.accounts = await db.scalar(select(func.count()).select_from(Account)) or 0
    report.transactions = await db.scalar(select(func.count()).select_from(Transaction)) or 0
    report.entries = await db.scalar(select(func.count()).select_from(Entry)) or 0

    for kind in SYSTEM_KINDS:
        shards = list(
            await db.scalars(
                select(Account.shard)
                .where(Account.kind == kind, Account.user_id.is_(None))
                .order_by(Account.shard)
            )
        )
        if not shards:
            report.add("system_account", f"there is no {kind} account")
        elif shards != list(range(len(shards))):
            report.add(
                "system_account",
                f"the {kind} accounts are shards {shards}, not 0 to {len(shards) - 1}",
            )
    issuance = await db.scalar(select(func.sum(Account.balance)).where(Account.kind == "issuance"))
    report.issued = -int(issuance or 0)  # a sum is a Decimal on PostgreSQL

    orphans = await db.execute(
        select(User.id, User.nickname)
        .outerjoin(Account, Account.user_id == User.id)
        .where(Account.id.is_(None))
    )
    for user_id, nickname in orphans:
        report.add("no_account", f"user {user_id} ({nickname}) has no chip account")

    summed = func.coalesce(func.sum(Entry.amount), 0)
    balances = await db.execute(
        select(Account.id, Account.kind, Account.user_id, Account.balance, summed)
        .outerjoin(Entry, Entry.account_id == Account.id)
        .group_by(Account.id, Account.kind, Account.user_id, Account.balance)
        .order_by(Account.id)
    )
    total = 0
    for account_id, kind, owner, balance, entries_sum in balances:
        total += balance
        label = _account_label(kind, owner, account_id)
        if balance != entries_sum:
            report.add(
                "balance_mismatch",
                f"{label} has balance {balance} but its entries sum to {entries_sum}",
            )
        if kind != "issuance" and balance < 0:
            report.add("negative_balance", f"{label} has a negative balance, {balance}")
    if total != 0:
        report.add("balances_sum", f"the balances of all accounts sum to {total}, not 0")

    await _check_transactions(db, report)
    return report


async def _check_transactions(db: AsyncSession, report: LedgerReport) -> None:
    def count(condition: Any) -> Any:
        return func.sum(case((condition, 1), else_=0))

    shape = await db.stream(
        select(
            Transaction.id,
            Transaction.kind,
            Transaction.reference,
            func.count(Entry.id),
            func.coalesce(func.sum(Entry.amount), 0),
            count(Account.kind == "issuance"),
            count((Account.kind == "issuance") & (Entry.amount > 0)),
            count(Account.kind == "house"),
            count((Account.kind == "house") & (Entry.amount < 0)),
            count((Account.kind == "player") & (Entry.amount < 0)),
            func.max(case((Account.kind == "player", Account.user_id), else_=literal(None))),
            count(User.is_bot.is_(True)),
        )
        .outerjoin(Entry, Entry.transaction_id == Transaction.id)
        .outerjoin(Account, Account.id == Entry.account_id)
        .outerjoin(User, User.id == Account.user_id)
        .group_by(Transaction.id, Transaction.kind, Transaction.reference)
        .order_by(Transaction.id)
    )
    async for row in shape:
        (tx_id, kind, reference, n, amount_sum, n_iss, n_iss_in, n_house, n_house_out,
         n_player_out, player_user, n_bot) = row  # fmt: skip
        label = f"transaction {tx_id} ({reference})"
        if amount_sum != 0:
            report.add("unbalanced", f"{label}: its entries sum to {amount_sum}, not 0")
        if kind in ("grant", "topup"):
            pattern = _GRANT_REFERENCE if kind == "grant" else _TOPUP_REFERENCE
            match = pattern.fullmatch(reference)
            if match is None:
                report.add("bad_reference", f"{label}: not the form of a {kind} reference")
            if n != 2 or n_iss != 1 or n_iss_in or n_house or n_player_out:
                report.add(
                    "bad_shape",
                    f"{label}: a {kind} moves chips from issuance to one player only",
                )
            elif match is not None and int(match.group(1)) != player_user:
                report.add(
                    "bad_shape",
                    f"{label}: credits user {player_user}, not the user its reference names",
                )
        elif kind == "game":
            if not _GAME_REFERENCE.fullmatch(reference):
                report.add("bad_reference", f"{label}: not the form of a game reference")
            if n_iss or n_house > 1 or n_house_out:
                report.add(
                    "bad_shape",
                    f"{label}: a game moves chips among its players and a fee to the house only",
                )
        elif kind == "stake":
            match = _STAKE_REFERENCE.fullmatch(reference)
            if match is None:
                report.add("bad_reference", f"{label}: not the form of a stake reference")
            if (
                n != 2
                or n_iss + n_house != 1
                or n_iss_in
                or n_house != n_house_out
                or n_player_out
                or n_bot != 1
            ):
                report.add(
                    "bad_shape",
                    f"{label}: a stake moves chips from the house or issuance to one bot only",
                )
            elif match is not None and int(match.group(1)) != player_user:
                report.add(
                    "bad_shape",
                    f"{label}: stakes user {player_user}, not the bot its reference names",
                )
        else:
            report.add("bad_kind", f"{label}: unknown kind {kind!r}")
        if n == 0 and kind != "game":
            report.add("empty", f"{label}: a {kind} without entries")
