"""``tienlen admin …``: looking after the server's data. ``check-ledger`` proves the chips sound;
the conduct commands (roles, sanctions, audit) are in :mod:`.moderation`."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .moderation import register as register_conduct
from .serve import DatabaseUrl, DataDir, settings_from

if TYPE_CHECKING:
    from ..server.settings import Settings

admin_app = typer.Typer(
    help="Administration of the game server's data.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


register_conduct(admin_app)


class CannotCheck(Exception):
    """The database could not be read (missing, not migrated, unreachable)."""


async def _report(settings: Settings) -> dict[str, object]:
    from sqlalchemy import inspect
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.store.db import async_url, make_engine, make_sessions
    from ..server.store.ledger import check_ledger

    url = async_url(settings.resolved_database_url)
    sqlite_file = url.get_backend_name() == "sqlite" and not (url.database or ":").startswith(":")
    if sqlite_file and not Path(str(url.database)).is_file():
        raise CannotCheck(f"there is no database at {url.database}")
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            tables = await connection.run_sync(lambda c: set(inspect(c).get_table_names()))
        if "ledger_entries" not in tables:
            raise CannotCheck("the database has no ledger: has the server ever started on it?")
        async with make_sessions(engine)() as db, db.begin():
            return (await check_ledger(db)).to_dict()
    except SQLAlchemyError as exc:
        raise CannotCheck(str(exc).splitlines()[0]) from None
    finally:
        await engine.dispose()


@admin_app.command("check-ledger")
def check_ledger_cmd(
    data_dir: DataDir = None,
    database_url: DatabaseUrl = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Prove the chip ledger sound: every transaction sums to zero, every balance equals the sum
    of its entries, nothing is negative, and only grants, top-ups and games move chips.

    Exits 0 when sound, 1 listing each violation, 2 when the database cannot be read.
    """
    from ..server.store.db import redacted

    settings = settings_from(data_dir=data_dir, database_url=database_url)
    try:
        report = asyncio.run(_report(settings))
    except CannotCheck as exc:
        typer.echo(f"error: {redacted(settings.resolved_database_url)}: {exc}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False))
    else:
        verdict = "sound" if report["ok"] else "NOT sound"
        typer.echo(
            f"ledger {verdict}: {report['accounts']} accounts, {report['transactions']} "
            f"transactions, {report['entries']} entries, {report['issued']} chips issued"
        )
        violations = report["violations"]
        assert isinstance(violations, list)
        for violation in violations:
            typer.echo(f"  {violation['code']}: {violation['message']}")
        if report["hidden"]:
            typer.echo(f"  … and {report['hidden']} more")
    if not report["ok"]:
        raise typer.Exit(1)
