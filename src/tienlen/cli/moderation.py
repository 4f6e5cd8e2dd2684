"""``tienlen admin grant-role | warn | mute | ban | offence | unban | unmute | link | sanctions |
audit``: conduct from the server's console (docs/CONDUCT.md).

The console acts with an admin's rights and is recorded in the audit log as the console (no
user). Players are named by nickname, compared ignoring case and diacritics as at log-in.
Exit status: 0 done, 1 refused (the message says why), 2 the database cannot be used.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from .serve import DatabaseUrl, DataDir, settings_from

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from ..server.store.models import Sanction

__all__ = ["register"]

T = TypeVar("T")

Nickname = Annotated[str, typer.Argument(help="The player's nickname (case and marks ignored).")]
Reason = Annotated[str, typer.Option("--reason", help="Why, for the audit log and the player.")]
Offence = Annotated[
    str | None, typer.Option("--offence", help="The policy offence this is for, if one.")
]
Duration = Annotated[str, typer.Argument(help="30m, 2h, 7d or permanent.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _run(data_dir: Any, database_url: Any, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
    """Run ``work`` in one transaction; exit 1 on a refusal, 2 when the database fails."""
    from sqlalchemy import inspect
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.errors import ApiError
    from ..server.store.db import make_engine, make_sessions, redacted

    settings = settings_from(data_dir=data_dir, database_url=database_url)

    async def go() -> T:
        engine = make_engine(settings.resolved_database_url)
        try:
            async with engine.connect() as connection:
                tables = await connection.run_sync(lambda c: set(inspect(c).get_table_names()))
            if "sanctions" not in tables:
                raise SQLAlchemyError("no conduct tables: start the server once to migrate it")
            async with make_sessions(engine)() as db, db.begin():
                return await work(db)
        finally:
            await engine.dispose()

    try:
        return asyncio.run(go())
    except ApiError as exc:
        typer.echo(f"error: {exc.message}", err=True)
        raise typer.Exit(1) from None
    except (SQLAlchemyError, OSError) as exc:
        where = redacted(settings.resolved_database_url)
        typer.echo(f"error: {where}: {str(exc).splitlines()[0]}", err=True)
        raise typer.Exit(2) from None


async def _user_id(db: AsyncSession, nickname: str) -> int:
    from sqlalchemy import select

    from ..server.auth import nickname_key
    from ..server.errors import ApiError
    from ..server.store.models import User

    found = await db.scalar(select(User.id).where(User.nickname_key == nickname_key(nickname)))
    if found is None:
        raise ApiError("no_such_user", f"there is no player named {nickname!r}")
    return found


def _now() -> Any:
    from ..server.clock import system_clock

    return system_clock()


def _line(row: Sanction) -> str:
    from ..server.conduct.policy import describe_duration

    span = "" if row.kind == "warn" else f" {describe_duration(_length(row))}"
    until = f" until {row.ends_at:%Y-%m-%d %H:%M} UTC" if row.ends_at else ""
    lifted = f" (lifted: {row.lift_reason})" if row.lifted_at else ""
    offence = f" [{row.offence}]" if row.offence else ""
    return f"#{row.id} user {row.user_id}: {row.kind}{span}{until}{offence}: {row.reason}{lifted}"


def _length(row: Sanction) -> Any:
    return None if row.ends_at is None else row.ends_at - row.starts_at


def _sanction_cmd(kind: str) -> Callable[..., None]:
    def command(
        nickname: Nickname,
        duration: Duration,
        reason: Reason,
        offence: Offence = None,
        data_dir: DataDir = None,
        database_url: DatabaseUrl = None,
    ) -> None:
        from ..server.conduct import sanctions
        from ..server.conduct.policy import parse_duration

        try:
            length = parse_duration(duration)
        except ValueError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None

        async def work(db: AsyncSession) -> list[str]:
            user = await _user_id(db, nickname)
            made = await sanctions.sanction(
                db,
                sanctions.Actor.console(),
                user,
                "mute" if kind == "mute" else "ban",
                length,
                reason,
                _now(),
                offence=offence,
            )
            return [_line(row) for row in made]

        for line in _run(data_dir, database_url, work):
            typer.echo(line)

    command.__doc__ = f"{kind.capitalize()} a player for DURATION (or permanently)."
    return command


def _lift_cmd(kind: str) -> Callable[..., None]:
    def command(
        nickname: Nickname,
        reason: Reason,
        data_dir: DataDir = None,
        database_url: DatabaseUrl = None,
    ) -> None:
        from ..server.conduct import sanctions

        async def work(db: AsyncSession) -> list[str]:
            user = await _user_id(db, nickname)
            lifted = await sanctions.lift(
                db,
                sanctions.Actor.console(),
                user,
                "mute" if kind == "mute" else "ban",
                reason,
                _now(),
            )
            return [_line(row) for row in lifted]

        for line in _run(data_dir, database_url, work):
            typer.echo(line)

    command.__doc__ = f"Lift the {kind}s in force on a player."
    return command


def grant_role_cmd(
    nickname: Nickname,
    role: Annotated[str, typer.Argument(help="player, moderator or admin.")],
    reason: Reason,
    data_dir: DataDir = None,
    database_url: DatabaseUrl = None,
) -> None:
    """Make a user a player, a moderator or an admin."""
    from ..server.conduct import sanctions

    if role not in sanctions.ROLES:
        typer.echo(f"error: a role is player, moderator or admin, not {role!r}", err=True)
        raise typer.Exit(1)

    async def work(db: AsyncSession) -> int:
        user = await _user_id(db, nickname)
        chosen: sanctions.Role = (
            "admin" if role == "admin" else ("moderator" if role == "moderator" else "player")
        )
        await sanctions.grant_role(db, sanctions.Actor.console(), user, chosen, reason, _now())
        return user

    user = _run(data_dir, database_url, work)
    typer.echo(f"user {user} ({nickname}) is now {role}")


def warn_cmd(
    nickname: Nickname,
    reason: Reason,
    offence: Offence = None,
    data_dir: DataDir = None,
    database_url: DatabaseUrl = None,
) -> None:
    """Warn a player (recorded; nothing is blocked)."""
    from ..server.conduct import sanctions

    async def work(db: AsyncSession) -> str:
        user = await _user_id(db, nickname)
        (made,) = await sanctions.sanction(
            db, sanctions.Actor.console(), user, "warn", None, reason, _now(), offence=offence
        )
        return _line(made)

    typer.echo(_run(data_dir, database_url, work))


def offence_cmd(
    nickname: Nickname,
    offence: Annotated[str, typer.Argument(help="A key of the conduct policy.")],
    reason: Reason,
    data_dir: DataDir = None,
    database_url: DatabaseUrl = None,
) -> None:
    """Sanction an offence as the conduct policy prescribes (escalating on repeats, reaching
    linked accounts where the policy says so)."""
    from ..server.conduct import sanctions

    async def work(db: AsyncSession) -> list[str]:
        user = await _user_id(db, nickname)
        decision, made = await sanctions.apply_policy(
            db, sanctions.Actor.console(), user, offence, reason, _now()
        )
        return [f"offence {decision.number} of {offence}: {decision.step}"] + [
            _line(row) for row in made
        ]

    for line in _run(data_dir, database_url, work):
        typer.echo(line)


def link_cmd(
    nickname: Nickname,
    other: Nickname,
    reason: Reason,
    kind: Annotated[str, typer.Option("--kind", help="series or same_person.")] = "series",
    data_dir: DataDir = None,
    database_url: DatabaseUrl = None,
) -> None:
    """Link two accounts (a series of look-alike nicks, or one person's)."""
    from ..server.conduct import sanctions

    async def work(db: AsyncSession) -> None:
        a, b = await _user_id(db, nickname), await _user_id(db, other)
        await sanctions.link_accounts(db, sanctions.Actor.console(), a, b, kind, reason, _now())

    _run(data_dir, database_url, work)
    typer.echo(f"linked {nickname} and {other} ({kind})")


def sanctions_cmd(
    nickname: Annotated[str | None, typer.Argument(help="Only this player's.")] = None,
    as_json: AsJson = False,
    data_dir: DataDir = None,
    database_url: DatabaseUrl = None,
) -> None:
    """List sanctions, newest first."""
    from sqlalchemy import select

    from ..server.store.models import Sanction

    async def work(db: AsyncSession) -> list[Sanction]:
        query = select(Sanction).order_by(Sanction.id.desc())
        if nickname is not None:
            query = query.where(Sanction.user_id == await _user_id(db, nickname))
        return list(await db.scalars(query))

    rows = _run(data_dir, database_url, work)
    if as_json:
        columns = [c.key for c in Sanction.__table__.columns]
        out = [{c: _plain(getattr(row, c)) for c in columns} for row in rows]
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    for row in rows:
        typer.echo(_line(row))
    if not rows:
        typer.echo("no sanctions")


def _plain(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


def audit_cmd(
    limit: Annotated[int, typer.Option("--limit", min=1, help="How many entries.")] = 50,
    as_json: AsJson = False,
    data_dir: DataDir = None,
    database_url: DatabaseUrl = None,
) -> None:
    """The audit log, newest first: who did what to whom, when and why."""
    from sqlalchemy import select

    from ..server.store.models import AuditEntry

    async def work(db: AsyncSession) -> list[AuditEntry]:
        return list(
            await db.scalars(select(AuditEntry).order_by(AuditEntry.id.desc()).limit(limit))
        )

    rows = _run(data_dir, database_url, work)
    if as_json:
        columns = [c.key for c in AuditEntry.__table__.columns]
        out = [{c: _plain(getattr(row, c)) for c in columns} for row in rows]
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    for row in rows:
        actor = "console" if row.actor_id is None else f"user {row.actor_id}"
        typer.echo(
            f"{row.at:%Y-%m-%d %H:%M:%S} {actor} {row.action} user {row.target_id}: "
            f"{row.reason} {json.dumps(row.details, ensure_ascii=False)}"
        )


def flags_cmd(
    scan: Annotated[
        str | None,
        typer.Option("--scan", help="First scan this player's recent games for chip dumping."),
    ] = None,
    status: Annotated[
        str, typer.Option("--status", help="open, actioned, dismissed or all.")
    ] = "open",
    as_json: AsJson = False,
    data_dir: DataDir = None,
    database_url: DatabaseUrl = None,
) -> None:
    """Chip-dumping flags for review (open ones by default), oldest first."""
    from sqlalchemy import select

    from ..server.conduct import collusion
    from ..server.store.models import FairPlayFlag

    async def work(db: AsyncSession) -> list[FairPlayFlag]:
        if scan is not None:
            await collusion.scan(db, [await _user_id(db, scan)], _now())
        query = select(FairPlayFlag).order_by(FairPlayFlag.id)
        if status != "all":
            query = query.where(FairPlayFlag.status == status)
        return list(await db.scalars(query))

    rows = _run(data_dir, database_url, work)
    if as_json:
        columns = [c.key for c in FairPlayFlag.__table__.columns]
        out = [{c: _plain(getattr(row, c)) for c in columns} for row in rows]
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    for row in rows:
        evidence = row.evidence
        typer.echo(
            f"#{row.id} {row.status} {row.kind}: user {row.user_id} loses to user "
            f"{row.other_id} ({', '.join(evidence.get('reasons', []))}): "
            f"{len(evidence.get('games_lost', []))} of {evidence.get('games_together')} games, "
            f"{evidence.get('chips_lost')} chips, {len(evidence.get('soft_passes', []))} passes "
            "that could have beaten"
        )
    if not rows:
        typer.echo("no flags")


def register(app: typer.Typer) -> None:
    """Add the conduct commands to ``tienlen admin``."""
    app.command("grant-role")(grant_role_cmd)
    app.command("warn")(warn_cmd)
    app.command("mute")(_sanction_cmd("mute"))
    app.command("ban")(_sanction_cmd("ban"))
    app.command("offence")(offence_cmd)
    app.command("unban")(_lift_cmd("ban"))
    app.command("unmute")(_lift_cmd("mute"))
    app.command("link")(link_cmd)
    app.command("sanctions")(sanctions_cmd)
    app.command("audit")(audit_cmd)
    app.command("flags")(flags_cmd)
