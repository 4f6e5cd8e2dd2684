"""REST routes for conduct: players' reports (``/api/reports``) and the moderators' and admins'
API (``/api/mod/...``: warn, mute, ban, apply the policy, unban, unmute, link accounts, grant
roles, review reports, list sanctions, reports and the audit log). docs/CONDUCT.md.

Each route works in one transaction, so a refused request changes nothing; the work itself is
:mod:`~tienlen.server.conduct.sanctions`'s, which writes the audit log.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import auth
from ..conduct import collusion
from ..conduct import sanctions as conduct
from ..conduct.evidence import report_context
from ..conduct.policy import default_policy, parse_duration
from ..deps import Server, server_of
from ..errors import ApiError, responses
from ..protocol import MAX_ID, NewReport, OffenceInfo, Offences
from ..store.models import AccountLink, AuditEntry, FairPlayFlag, Report, Sanction, User

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["conduct"])

STAFF = ("bad_request", "not_logged_in", "banned", "forbidden", "no_such_user")

Id = Annotated[int, Field(ge=1, le=MAX_ID)]
"""A row's id in a body: a whole number from 1 to :data:`MAX_ID`."""

PathId = Annotated[int, Path(ge=1, le=MAX_ID)]
"""A row's id in a route's path, likewise."""

REPORTS_PER_HOUR = 10
"""Reports one player may file in an hour: more are refused with ``too_many_reports``."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Evidence(_Body):
    user_id: Id = Field(description="The user acted on.")
    reason: str = Field(min_length=1, max_length=500, description="Why, for the audit log.")
    evidence: dict[str, Any] = Field(
        default_factory=dict, description="What shows it: message ids, a game id, screenshots."
    )


class WarnBody(Evidence):
    offence: str | None = Field(default=None, description="A policy offence, if one applies.")


class TimedBody(WarnBody):
    duration: str = Field(description="30m, 2h, 7d or permanent.")


class OffenceBody(Evidence):
    offence: str = Field(description="A key of the conduct policy: the policy decides.")


class LiftBody(_Body):
    user_id: Id
    reason: str = Field(min_length=1, max_length=500)


class LinkBody(_Body):
    user_id: Id
    other_id: Id
    kind: Literal["series", "same_person"]
    reason: str = Field(min_length=1, max_length=500)


class RoleBody(_Body):
    user_id: Id
    role: Literal["player", "moderator", "admin"]
    reason: str = Field(min_length=1, max_length=500)


class ReviewBody(_Body):
    outcome: Literal["actioned", "dismissed"]
    note: str = Field(min_length=1, max_length=500)


class SanctionOut(BaseModel):
    id: int
    user_id: int
    kind: str
    offence: str | None
    starts_at: datetime
    ends_at: datetime | None = Field(description="None: permanent (or a warning).")
    by_user_id: int | None = Field(description="None: the console (`tienlen admin`).")
    reason: str
    evidence: dict[str, Any]
    linked_from_id: int | None
    lifted_at: datetime | None
    lifted_by_id: int | None
    lift_reason: str | None


class SanctionsOut(BaseModel):
    sanctions: list[SanctionOut]
    step: int | None = Field(default=None, description="The policy's step (1 = first offence).")


class ReportOut(BaseModel):
    id: int
    reporter_id: int
    target_id: int
    message_id: int | None = Field(description="The chat line reported (its `id`), if one.")
    text: str
    context: dict[str, Any]
    created_at: datetime
    status: str
    reviewed_by_id: int | None
    reviewed_at: datetime | None
    review_note: str | None


class ReportsOut(BaseModel):
    reports: list[ReportOut]


class AuditOut(BaseModel):
    id: int
    at: datetime
    actor_id: int | None
    action: str
    target_id: int | None
    reason: str
    details: dict[str, Any]


class AuditLog(BaseModel):
    entries: list[AuditOut]


class LinkOut(BaseModel):
    id: int
    user_a: int
    user_b: int
    kind: str
    created_at: datetime
    by_user_id: int | None = Field(description="None: the console, or seen by the server.")


class LinksOut(BaseModel):
    links: list[LinkOut]


class FlagOut(BaseModel):
    id: int
    kind: str
    user_id: int = Field(description="The account suspected of losing on purpose.")
    other_id: int = Field(description="The account it loses to.")
    created_at: datetime
    updated_at: datetime
    evidence: dict[str, Any]
    status: str
    reviewed_by_id: int | None
    reviewed_at: datetime | None
    review_note: str | None


class FlagsOut(BaseModel):
    flags: list[FlagOut]


class ScanBody(_Body):
    user_id: Id = Field(description="Scan this account's recent games (and its partners').")


def _flags(rows: Any) -> FlagsOut:
    return FlagsOut(flags=[FlagOut.model_validate(r, from_attributes=True) for r in rows])


class Done(BaseModel):
    ok: bool = True


def _sanctions(rows: list[Sanction], step: int | None = None) -> SanctionsOut:
    out = [SanctionOut.model_validate(row, from_attributes=True) for row in rows]
    return SanctionsOut(sanctions=out, step=step)


async def _player(db: AsyncSession, request: Request, server: Server) -> int:
    user = await auth.user_for_token(
        db, request.cookies.get(server.settings.cookie_name), server.clock()
    )
    if user is None:
        raise ApiError("not_logged_in", "log in, register or play as a guest first")
    return user.id


async def _staff(db: AsyncSession, request: Request, server: Server) -> conduct.Actor:
    user_id = await _player(db, request, server)
    role = await conduct.role_of(db, user_id)
    if role == "player":
        raise ApiError("forbidden", "only moderators and admins may do this")
    return conduct.Actor(user_id, role)


def _duration(text: str) -> timedelta | None:
    try:
        return parse_duration(text)
    except ValueError as exc:
        raise ApiError("bad_duration", str(exc)) from None


@router.get("/conduct/offences")
async def offences() -> Offences:
    """The conduct policy's offences with their titles in English and Vietnamese: the reasons a
    player may pick when reporting someone (anyone may read them)."""
    listed = default_policy().offences.items()
    return Offences(
        offences=[OffenceInfo(key=k, title_en=o.title, title_vi=o.title_vi) for k, o in listed]
    )


async def _user_called(db: AsyncSession, nickname: str) -> int:
    """The id of the person called ``nickname`` (as log-in finds it); ``no_such_user``."""
    found = await db.scalar(
        select(User.id).where(
            User.nickname_key == auth.nickname_key(nickname), User.is_bot.is_(False)
        )
    )
    if found is None:
        raise ApiError("no_such_user", f"no player is called {nickname!r}")
    return int(found)


async def _refuse_too_many(db: AsyncSession, reporter: int, now: datetime) -> None:
    """``too_many_reports`` once ``reporter`` filed :data:`REPORTS_PER_HOUR` in the last hour
    (counted in the database, so a restart forgets nothing)."""
    since = now - timedelta(hours=1)
    recent = list(
        await db.scalars(
            select(Report.created_at)
            .where(Report.reporter_id == reporter, Report.created_at > since)
            .order_by(Report.created_at)
        )
    )
    if len(recent) >= REPORTS_PER_HOUR:
        again = recent[len(recent) - REPORTS_PER_HOUR] + timedelta(hours=1)
        raise ApiError(
            "too_many_reports",
            f"you filed {len(recent)} reports within the last hour: the moderators have them",
            retry_after=again.astimezone(UTC).isoformat(),
        )


@router.post(
    "/reports",
    status_code=201,
    responses=responses(
        "bad_request",
        "not_logged_in",
        "banned",
        "no_such_user",
        "no_such_message",
        "cannot_report_self",
        "too_many_reports",
    ),
)
async def file_report(body: NewReport, request: Request) -> ReportOut:
    """Report a player, or one of their chat lines (``message_id``: the line's ``id``); the
    server attaches the chat and the game from what it stored (docs/CONDUCT.md)."""
    server = server_of(request)
    if body.message_id is not None:
        await server.chat.stored()  # the line may still be on its way to the database
    async with server.sessions() as db, db.begin():
        reporter = await _player(db, request, server)
        target = body.user_id or await _user_called(db, body.nickname or "")
        if reporter == target:
            raise ApiError("cannot_report_self", "you cannot report yourself")
        await _refuse_too_many(db, reporter, server.clock())
        context = await report_context(db, reporter, target, body.message_id, body.context)
        row = await conduct.report(
            db,
            reporter,
            target,
            body.text,
            server.clock(),
            message_id=body.message_id,
            context=context,
        )
        return ReportOut.model_validate(row, from_attributes=True)


async def _timed(request: Request, body: WarnBody, kind: conduct.Kind, span: str) -> SanctionsOut:
    server = server_of(request)
    duration = None if kind == "warn" else _duration(span)
    async with server.sessions() as db, db.begin():
        actor = await _staff(db, request, server)
        made = await conduct.sanction(
            db,
            actor,
            body.user_id,
            kind,
            duration,
            body.reason,
            server.clock(),
            offence=body.offence,
            evidence=body.evidence,
        )
    await server.chat.guard.reload()
    return _sanctions(made)


@router.post("/mod/warn", responses=responses(*STAFF, "no_such_offence"))
async def warn(body: WarnBody, request: Request) -> SanctionsOut:
    """Warn a player (recorded; nothing is blocked)."""
    return await _timed(request, body, "warn", "")


@router.post("/mod/mute", responses=responses(*STAFF, "no_such_offence", "bad_duration"))
async def mute(body: TimedBody, request: Request) -> SanctionsOut:
    """Mute a player for a duration (or permanently): they cannot chat."""
    return await _timed(request, body, "mute", body.duration)


@router.post("/mod/ban", responses=responses(*STAFF, "no_such_offence", "bad_duration"))
async def ban(body: TimedBody, request: Request) -> SanctionsOut:
    """Ban a player for a duration (or permanently): they cannot log in nor use a session."""
    return await _timed(request, body, "ban", body.duration)


@router.post("/mod/offence", responses=responses(*STAFF, "no_such_offence"))
async def offence(body: OffenceBody, request: Request) -> SanctionsOut:
    """Sanction an offence as the conduct policy prescribes: escalating on repeats, and on
    linked accounts when the offence reaches them."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        actor = await _staff(db, request, server)
        decision, made = await conduct.apply_policy(
            db,
            actor,
            body.user_id,
            body.offence,
            body.reason,
            server.clock(),
            evidence=body.evidence,
        )
    await server.chat.guard.reload()
    return _sanctions(made, decision.number)


async def _lift(request: Request, body: LiftBody, kind: conduct.Kind) -> SanctionsOut:
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        actor = await _staff(db, request, server)
        lifted = await conduct.lift(db, actor, body.user_id, kind, body.reason, server.clock())
    await server.chat.guard.reload()
    return _sanctions(lifted)


@router.post("/mod/unban", responses=responses(*STAFF, "not_sanctioned"))
async def unban(body: LiftBody, request: Request) -> SanctionsOut:
    """Lift the bans in force on a player."""
    return await _lift(request, body, "ban")


@router.post("/mod/unmute", responses=responses(*STAFF, "not_sanctioned"))
async def unmute(body: LiftBody, request: Request) -> SanctionsOut:
    """Lift the mutes in force on a player."""
    return await _lift(request, body, "mute")


@router.post("/mod/links", responses=responses(*STAFF))
async def link(body: LinkBody, request: Request) -> Done:
    """Record that two accounts belong together: a series of look-alike nicks, or one person's."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        actor = await _staff(db, request, server)
        await conduct.link_accounts(
            db, actor, body.user_id, body.other_id, body.kind, body.reason, server.clock()
        )
    return Done()


@router.get("/mod/links", responses=responses(*STAFF))
async def links(
    request: Request,
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID, description="Only this user's.")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> LinksOut:
    """Account links, newest first: series, same person, shared address or device."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        await _staff(db, request, server)
        query = select(AccountLink).order_by(AccountLink.id.desc()).limit(limit)
        if user_id is not None:
            query = query.where(or_(AccountLink.user_a == user_id, AccountLink.user_b == user_id))
        rows = await db.scalars(query)
        return LinksOut(links=[LinkOut.model_validate(r, from_attributes=True) for r in rows])


@router.post("/mod/roles", responses=responses(*STAFF))
async def grant_role(body: RoleBody, request: Request) -> Done:
    """Make a user a player, a moderator or an admin (admins only)."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        actor = await _staff(db, request, server)
        await conduct.grant_role(db, actor, body.user_id, body.role, body.reason, server.clock())
    return Done()


@router.get("/mod/sanctions", responses=responses(*STAFF))
async def sanctions(
    request: Request,
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID, description="Only this user's.")] = None,
    in_force: Annotated[bool, Query(description="Only those in force now.")] = False,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> SanctionsOut:
    """Sanctions, newest first."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        await _staff(db, request, server)
        now = server.clock()
        query = select(Sanction).order_by(Sanction.id.desc()).limit(limit)
        if user_id is not None:
            query = query.where(Sanction.user_id == user_id)
        rows = list(await db.scalars(query))
        if in_force:
            rows = [r for r in rows if conduct.in_force(r, now)]
        return _sanctions(rows)


@router.get("/mod/reports", responses=responses(*STAFF))
async def reports(
    request: Request,
    status: Annotated[Literal["open", "actioned", "dismissed"] | None, Query()] = "open",
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> ReportsOut:
    """Reports (open ones by default), oldest first: the queue to review."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        await _staff(db, request, server)
        query = select(Report).order_by(Report.id).limit(limit)
        if status is not None:
            query = query.where(Report.status == status)
        rows = await db.scalars(query)
        return ReportsOut(reports=[ReportOut.model_validate(r, from_attributes=True) for r in rows])


@router.post("/mod/reports/{report_id}/review", responses=responses(*STAFF, "no_such_report"))
async def review(report_id: PathId, body: ReviewBody, request: Request) -> ReportOut:
    """Close a report: actioned (a sanction followed) or dismissed."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        actor = await _staff(db, request, server)
        row = await conduct.review_report(
            db, actor, report_id, body.outcome, body.note, server.clock()
        )
        return ReportOut.model_validate(row, from_attributes=True)


@router.get("/mod/audit", responses=responses(*STAFF))
async def audit(
    request: Request,
    user_id: Annotated[
        int | None, Query(ge=1, le=MAX_ID, description="Only actions on this user.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> AuditLog:
    """The audit log, newest first: every moderator's and admin's action."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        await _staff(db, request, server)
        query = select(AuditEntry).order_by(AuditEntry.id.desc()).limit(limit)
        if user_id is not None:
            query = query.where(AuditEntry.target_id == user_id)
        rows = await db.scalars(query)
        return AuditLog(entries=[AuditOut.model_validate(r, from_attributes=True) for r in rows])


@router.get("/mod/flags", responses=responses(*STAFF))
async def flags(
    request: Request,
    status: Annotated[Literal["open", "actioned", "dismissed"] | None, Query()] = "open",
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> FlagsOut:
    """Chip-dumping flags the server found (open ones by default), oldest first."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        await _staff(db, request, server)
        query = select(FairPlayFlag).order_by(FairPlayFlag.id).limit(limit)
        if status is not None:
            query = query.where(FairPlayFlag.status == status)
        return _flags(await db.scalars(query))


@router.post("/mod/flags/scan", responses=responses(*STAFF))
async def scan_flags(body: ScanBody, request: Request) -> FlagsOut:
    """Look for chip dumping in a player's recent games now; answers the flags written."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        await _staff(db, request, server)
        if await db.get(User, body.user_id) is None:
            raise ApiError("no_such_user", f"there is no user {body.user_id}")
        return _flags(
            await collusion.scan(db, [body.user_id], server.clock(), pool=server.analysis())
        )


@router.post("/mod/flags/{flag_id}/review", responses=responses(*STAFF, "no_such_flag"))
async def review_flag(flag_id: PathId, body: ReviewBody, request: Request) -> FlagOut:
    """Close a flag: actioned (a sanction followed) or dismissed."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        actor = await _staff(db, request, server)
        row = await db.get(FairPlayFlag, flag_id)
        if row is None:
            raise ApiError("no_such_flag", f"there is no flag {flag_id}")
        if row.status != "open":
            raise ApiError("bad_request", f"flag {flag_id} was already {row.status}")
        row.status, row.review_note = body.outcome, body.note
        row.reviewed_by_id, row.reviewed_at = actor.user_id, server.clock()
        db.add(
            AuditEntry(
                at=server.clock(),
                actor_id=actor.user_id,
                action="review_flag",
                target_id=row.user_id,
                reason=body.note,
                details={"flag": flag_id, "outcome": body.outcome, "other": row.other_id},
            )
        )
        await db.flush()
        return FlagOut.model_validate(row, from_attributes=True)
