"""``tienlen verify``: check that a record's hands are the ones its revealed seeds deal.

The checking is :func:`tienlen.engine.verify.verify_record`; this module reads the file (one
JSON record, or JSON Lines with one record a line), prints the outcome and sets the exit code:
0 when every record matches, 1 when something does not match, 2 when a record cannot be read.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer

from ..engine.record import RecordError
from ..engine.verify import Verification, verify_record


class Unreadable(NamedTuple):
    """Input that is not a record at all, with the code ``tienlen replay`` uses for it."""

    code: str
    message: str


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        return Unreadable("bad_json", f"not JSON: {exc}")
    except RecursionError:
        return Unreadable("bad_json", "not JSON this engine reads: nested too deep")


def read_records(text: str, lines: bool = False) -> list[tuple[int | None, Any]]:
    """``(line, value)`` for each record: one JSON value (line ``None``), or JSON lines, one
    value per non-blank line: when ``lines`` (a ``.jsonl`` file) or when the text is several
    JSON values whose first line is JSON on its own, as ``tienlen replay`` reads them."""
    if not lines:
        try:
            return [(None, json.loads(text))]
        except json.JSONDecodeError as exc:
            first = text.lstrip().split("\n", 1)[0]
            if exc.msg != "Extra data" or isinstance(_parse(first), Unreadable):
                return [(None, _parse(text))]
        except RecursionError:
            return [(None, _parse(text))]
    numbered = enumerate(text.splitlines(), start=1)
    return [(number, _parse(line)) for number, line in numbered if line.strip()]


def _summary(result: Verification) -> str:
    commitment = (result.commitment or "")[:16]
    line = f"OK: the hands are deal {result.deal_index} of the revealed seeds"
    line += f", and SHA-256 of the server seed is the commitment {commitment}…"
    if result.redealt:
        line += f" (redealt: {'; '.join(result.redealt)})"
    return line


def verify_cmd(
    file: Annotated[
        str, typer.Argument(help="A JSON game record or JSON Lines of records, or - for stdin.")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object per record.")
    ] = False,
) -> None:
    """Recompute a record's deal from its revealed seeds and check its commitment.

    Exit 0: everything matches. Exit 1: each mismatch is listed. Exit 2: unreadable record.
    """
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except OSError as exc:
        records: list[tuple[int | None, Any]] = [(None, Unreadable("io_error", str(exc)))]
    except UnicodeDecodeError as exc:
        records = [(None, Unreadable("io_error", f"not UTF-8 text: {exc}"))]
    else:
        records = read_records(text, lines=file.endswith(".jsonl"))
    worst = 0
    for line, data in records:
        where = "" if line is None else f"line {line}: "
        try:
            if isinstance(data, Unreadable):
                raise RecordError(data.message)
            result = verify_record(data)
        except RecordError as exc:
            worst = 2
            code = data.code if isinstance(data, Unreadable) else exc.code
            if as_json:
                from .app import ascii_cards  # JSON output writes cards in ASCII, as replay does

                error = {"code": code, "message": ascii_cards(str(exc))}
                typer.echo(json.dumps({"line": line, "error": error}, ensure_ascii=False))
            else:
                typer.echo(f"{where}Error: {exc}", err=True)
            continue
        if not result.ok:
            worst = max(worst, 1)
        if as_json:
            typer.echo(json.dumps({"line": line, **result.to_dict()}, ensure_ascii=False))
        elif result.ok:
            typer.echo(where + _summary(result))
        else:
            for mismatch in result.mismatches:
                typer.echo(f"{where}Mismatch: {mismatch.message}")
    raise typer.Exit(worst)
