"""Conduct in the database: roles, sanctions (warn, mute, ban), account links, reports, audit.

Every function works inside the caller's transaction and raises :class:`ApiError` before it
writes anything it should not (the caller rolls back on any error). Each action of a moderator,
an admin or the console (``actor`` None) is written to the audit log with who, when, why and
the evidence. The policy (:mod:`.policy`) decides what an offence costs; bans are
enforced where sessions are resolved (``auth.user_for_token``) and at log-in; mutes by the chat,
through :func:`mute_of` / :func:`refuse_muted`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import ApiError
from ..protocol import SanctionTold
from ..store.ledger import balance_of
from ..store.models import AccountLink, AuditEntry, Report, Sanction, StaffRole, User
from .policy import Decision, Policy, default_policy, describe_duration, sanction_for

__all__ = [
    "ROLES",
    "Actor",
    "apply_policy",
    "ban_of",
    "describe",
    "describe_lift",
    "grant_role",
    "in_force",
    "lift",
    "link_accounts",
    "linked_accounts",
    "mute_of",
    "refuse_banned",
    "refuse_muted",
    "report",
    "review_report",
    "role_of",
    "sanction",
]

ROLES = ("player", "moderator", "admin")
"""Ranked: a staff member may act only on users of a lower rank."""
Role = Literal["player", "moderator", "admin"]
Kind = Literal["warn", "mute", "ban"]
REASON_MAX = 500


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts: a staff user (``user_id``, ``role``) or the console (``user_id`` None)."""

    user_id: int | None
    role: Role

    @classmethod
    def console(cls) -> Actor:
        return cls(None, "admin")


def _rank(role: str) -> int:
    return ROLES.index(role)


async def role_of(db: AsyncSession, user_id: int) -> Role:
    role = await db.scalar(select(StaffRole.role).where(StaffRole.user_id == user_id))
    return "moderator" if role == "moderator" else "admin" if role == "admin" else "player"


async def _user(db: AsyncSession, user_id: int) -> User:
    user = await db.get(User, user_id)
    if user is None:
        raise ApiError("no_such_user", f"there is no user {user_id}")
    return user


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason or len(reason) > REASON_MAX:
        raise ApiError("bad_request", f"say why, in 1 to {REASON_MAX} characters")
    return reason


async def _audit(
    db: AsyncSession,
    actor: Actor,
    action: str,
    target: int | None,
    reason: str,
    details: dict[str, Any],
    now: datetime,
) -> None:
    db.add(
        AuditEntry(
            at=now,
            actor_id=actor.user_id,
            action=action,
            target_id=target,
            reason=reason,
            details=details,
        )
    )


async def _may_act_on(db: AsyncSession, actor: Actor, target: int) -> None:
    if actor.user_id == target:
        raise ApiError("forbidden", "staff cannot act on their own account")
    if actor.user_id is not None and _rank(await role_of(db, target)) >= _rank(actor.role):
        raise ApiError(
            "forbidden", f"a {actor.role} cannot act on a user of the same or higher role"
        )


async def grant_role(
    db: AsyncSession, actor: Actor, user_id: int, role: Role, reason: str, now: datetime
) -> None:
    """Make a user a player, moderator or admin (admins and the console only)."""
    reason = _reason(reason)
    if actor.role != "admin":
        raise ApiError("forbidden", "only an admin may grant roles")
    await _user(db, user_id)
    if actor.user_id == user_id:
        raise ApiError("forbidden", "an admin cannot change their own role")
    before = await role_of(db, user_id)
    current = await db.get(StaffRole, user_id)
    if role == "player":
        if current is not None:
            await db.delete(current)
    elif current is None:
        db.add(StaffRole(user_id=user_id, role=role, granted_at=now))
    else:
        current.role = role
        current.granted_at = now
    details = {"from": before, "to": role}
    await _audit(db, actor, "grant_role", user_id, reason, details, now)


# Sanctions ------------------------------------------------------------------------------------


def _in_force(kind: str, now: datetime) -> Any:
    return (
        (Sanction.kind == kind)
        & Sanction.lifted_at.is_(None)
        & (Sanction.starts_at <= now)
        & or_(Sanction.ends_at.is_(None), Sanction.ends_at > now)
    )


def in_force(sanction: Sanction, now: datetime) -> bool:
    """Whether a mute or ban applies at ``now`` (a warning never blocks anything)."""
    return (
        sanction.kind != "warn"
        and sanction.lifted_at is None
        and sanction.starts_at <= now
        and (sanction.ends_at is None or sanction.ends_at > now)
    )


async def _strongest(db: AsyncSession, user_id: int, kind: str, now: datetime) -> Sanction | None:
    """The sanction of ``kind`` in force that lasts longest (a permanent one first)."""
    rows = await db.scalars(
        select(Sanction).where(Sanction.user_id == user_id, _in_force(kind, now))
    )
    found = list(rows)
    permanent = [s for s in found if s.ends_at is None]
    if permanent:
        return permanent[0]
    return max(found, key=lambda s: s.ends_at or now, default=None)


async def ban_of(db: AsyncSession, user_id: int, now: datetime) -> Sanction | None:
    """The ban in force on ``user_id`` (the longest), if any."""
    return await _strongest(db, user_id, "ban", now)


async def mute_of(db: AsyncSession, user_id: int, now: datetime) -> Sanction | None:
    """The mute in force on ``user_id`` (the longest), if any. A ban silences too: the chat
    cannot be reached without a session, which a ban refuses."""
    return await _strongest(db, user_id, "mute", now)


def told(sanction: Sanction) -> SanctionTold:
    """A mute or ban as its player is told it, for the ``sanction`` of a ``muted`` or
    ``banned`` error."""
    known = default_policy().offences.get(sanction.offence) if sanction.offence else None
    return SanctionTold(
        kind="ban" if sanction.kind == "ban" else "mute",
        until=None if sanction.ends_at is None else sanction.ends_at.astimezone(UTC).isoformat(),
        reason=sanction.reason,
        offence=sanction.offence,
        offence_en=known.title if known else None,
        offence_vi=known.title_vi if known else None,
    )


def describe(sanction: Sanction) -> str:
    """What the player is told: the kind, until when (UTC) and why."""
    verb = {"ban": "banned", "mute": "muted", "warn": "warned"}[sanction.kind]
    if sanction.kind == "warn":
        until = ""
    elif sanction.ends_at is None:
        until = " permanently"
    else:
        until = f" until {sanction.ends_at:%Y-%m-%d %H:%M} UTC"
    offence = ""
    if sanction.offence is not None:
        known = default_policy().offences.get(sanction.offence)
        offence = f" for {known.title_vi if known else sanction.offence}"
    return f"you are {verb}{until}{offence}: {sanction.reason}"


def describe_lift(sanction: Sanction) -> str:
    """What the player is told when ``sanction`` is lifted (unmute, unban): what, and why."""
    return f"your {sanction.kind} is lifted: {sanction.lift_reason}"


async def refuse_banned(db: AsyncSession, user_id: int, now: datetime) -> None:
    """``banned`` (saying why and until when, and the player's chips and ĐKN now) if
    ``user_id`` is banned now."""
    ban = await ban_of(db, user_id, now)
    if ban is not None:
        user = await db.get(User, user_id)
        account = {"chips": await balance_of(db, user_id), "dkn": user.dkn if user else 0}
        raise ApiError("banned", describe(ban), told(ban), account=account)


async def refuse_muted(db: AsyncSession, user_id: int, now: datetime) -> None:
    """``muted`` (saying why and until when) if ``user_id`` may not chat now."""
    mute = await mute_of(db, user_id, now)
    if mute is not None:
        raise ApiError("muted", describe(mute), told(mute))


async def linked_accounts(db: AsyncSession, user_id: int, kinds: frozenset[str]) -> list[int]:
    """Every account reached from ``user_id`` through links of ``kinds`` (a series of
    look-alike nicks is linked pair by pair), itself excluded, in id order."""
    if not kinds:
        return []
    seen = {user_id}
    frontier = {user_id}
    while frontier:
        rows = await db.execute(
            select(AccountLink.user_a, AccountLink.user_b).where(
                AccountLink.kind.in_(kinds),
                or_(AccountLink.user_a.in_(frontier), AccountLink.user_b.in_(frontier)),
            )
        )
        reached = {user for pair in rows for user in pair} - seen
        seen |= reached
        frontier = reached
    return sorted(seen - {user_id})


async def sanction(
    db: AsyncSession,
    actor: Actor,
    user_id: int,
    kind: Kind,
    duration: timedelta | None,
    reason: str,
    now: datetime,
    *,
    offence: str | None = None,
    evidence: dict[str, Any] | None = None,
    linked: list[int] | None = None,
) -> list[Sanction]:
    """Warn, mute or ban ``user_id`` (``duration`` None: permanent) and each of ``linked``;
    returns the sanctions made, the offender's first."""
    reason = _reason(reason)
    await _user(db, user_id)
    await _may_act_on(db, actor, user_id)
    if offence is not None and offence not in default_policy().offences:
        known = ", ".join(default_policy().offences)
        raise ApiError("no_such_offence", f"no offence {offence!r}; the policy has {known}")
    ends_at = None if kind == "warn" or duration is None else now + duration
    made: list[Sanction] = []
    for target in [user_id, *(linked or [])]:
        row = Sanction(
            user_id=target,
            kind=kind,
            offence=offence,
            starts_at=now,
            ends_at=ends_at,
            by_user_id=actor.user_id,
            reason=reason,
            evidence=evidence or {},
            linked_from_id=made[0].id if made else None,
        )
        db.add(row)
        await db.flush()
        made.append(row)
        details: dict[str, Any] = {
            "sanction": row.id,
            "kind": kind,
            "duration": None if kind == "warn" else describe_duration(duration),
            "offence": offence,
            "evidence": evidence or {},
        }
        if target != user_id:
            details["linked_from"] = made[0].id
        await _audit(db, actor, kind, target, reason, details, now)
    return made


async def prior_offences(db: AsyncSession, user_id: int, offence: str) -> int:
    """Sanctions for ``offence`` that stand against ``user_id`` (not lifted), expired or not."""
    count = await db.scalar(
        select(func.count())
        .select_from(Sanction)
        .where(
            Sanction.user_id == user_id,
            Sanction.offence == offence,
            Sanction.lifted_at.is_(None),
        )
    )
    return int(count or 0)


async def apply_policy(
    db: AsyncSession,
    actor: Actor,
    user_id: int,
    offence: str,
    reason: str,
    now: datetime,
    *,
    evidence: dict[str, Any] | None = None,
    policy: Policy | None = None,
) -> tuple[Decision, list[Sanction]]:
    """Sanction one more ``offence`` as the policy prescribes, escalating on repeats, and on
    every linked account when the offence reaches them."""
    policy = policy or default_policy()
    await _user(db, user_id)
    try:
        decision = sanction_for(policy, offence, await prior_offences(db, user_id, offence))
    except KeyError as exc:
        raise ApiError("no_such_offence", str(exc.args[0])) from None
    linked = []
    if decision.reaches_linked:
        linked = await linked_accounts(db, user_id, policy.carry_links)
    made = await sanction(
        db,
        actor,
        user_id,
        decision.kind,
        decision.duration,
        reason,
        now,
        offence=offence,
        evidence={**(evidence or {}), "policy_step": decision.number},
        linked=linked,
    )
    return decision, made


async def lift(
    db: AsyncSession, actor: Actor, user_id: int, kind: Kind, reason: str, now: datetime
) -> list[Sanction]:
    """Lift every ``kind`` in force on ``user_id`` (unban, unmute); ``not_sanctioned`` if none."""
    reason = _reason(reason)
    await _user(db, user_id)
    await _may_act_on(db, actor, user_id)
    rows = list(
        await db.scalars(select(Sanction).where(Sanction.user_id == user_id, _in_force(kind, now)))
    )
    if not rows:
        raise ApiError("not_sanctioned", f"user {user_id} has no {kind} in force")
    for row in rows:
        row.lifted_at = now
        row.lifted_by_id = actor.user_id
        row.lift_reason = reason
    details = {"sanctions": [row.id for row in rows]}
    await _audit(db, actor, f"un{kind}", user_id, reason, details, now)
    return rows


async def link_accounts(
    db: AsyncSession, actor: Actor, a: int, b: int, kind: str, reason: str, now: datetime
) -> None:
    """Record that two accounts belong together (``series`` or ``same_person``)."""
    reason = _reason(reason)
    if kind not in ("series", "same_person"):
        raise ApiError("bad_request", f"a link is series or same_person, not {kind!r}")
    if a == b:
        raise ApiError("bad_request", "an account cannot be linked to itself")
    low, high = sorted((a, b))
    for user in (low, high):
        await _user(db, user)
    exists = await db.scalar(
        select(AccountLink.id).where(
            AccountLink.user_a == low, AccountLink.user_b == high, AccountLink.kind == kind
        )
    )
    if exists is None:
        db.add(
            AccountLink(
                user_a=low, user_b=high, kind=kind, created_at=now, by_user_id=actor.user_id
            )
        )
    await _audit(db, actor, "link", low, reason, {"with": high, "kind": kind}, now)


# Reports --------------------------------------------------------------------------------------


async def report(
    db: AsyncSession,
    reporter: int,
    target: int,
    text: str,
    now: datetime,
    *,
    message_id: int | None = None,
    context: dict[str, Any] | None = None,
) -> Report:
    """A player's report of a player (or of one of their chat messages), open for review."""
    if reporter == target:
        raise ApiError("cannot_report_self", "you cannot report yourself")
    await _user(db, target)
    row = Report(
        reporter_id=reporter,
        target_id=target,
        message_id=None if message_id is None else str(message_id),
        text=text,
        context=context or {},
        created_at=now,
        status="open",
    )
    db.add(row)
    await db.flush()
    return row


async def review_report(
    db: AsyncSession,
    actor: Actor,
    report_id: int,
    outcome: Literal["actioned", "dismissed"],
    note: str,
    now: datetime,
) -> Report:
    """Close an open report as ``actioned`` or ``dismissed``."""
    note = _reason(note)
    row = await db.get(Report, report_id)
    if row is None:
        raise ApiError("no_such_report", f"there is no report {report_id}")
    if row.status != "open":
        raise ApiError("bad_request", f"report {report_id} was already {row.status}")
    row.status = outcome
    row.reviewed_by_id = actor.user_id
    row.reviewed_at = now
    row.review_note = note
    details = {"report": report_id, "outcome": outcome}
    await _audit(db, actor, "review_report", row.target_id, note, details, now)
    return row
