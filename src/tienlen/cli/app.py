"""The ``tienlen`` command line: replay records, list legal moves, play and measure bots."""

from __future__ import annotations

import json
import re
import sys
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from ..engine.cards import SUIT_LETTERS, SUIT_SYMBOLS, CardError, mask_ascii, mask_str, parse_mask
from ..engine.codec import summary_of
from ..engine.combos import classify, describe
from ..engine.game import HAND_SIZE
from ..engine.moves import beating_plays, leading_plays
from ..engine.record import RecordError, ReplayError, parse_record, replay
from ..engine.rules import PRESETS, RuleSet, RuleSetError
from ..money.settlement import replay_fields
from .admin import admin_app
from .arena import arena_cmd
from .play import play_cmd
from .serve import serve_cmd
from .verify import verify_cmd

app = typer.Typer(
    help="Tiến Lên Miền Nam: rules engine, scoring, bots and tools.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tienlen {metadata.version('tienlen')}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the installed version and exit.",
            callback=_version,
            is_eager=True,
            metavar="",
        ),
    ] = False,
) -> None:
    """Tiến Lên Miền Nam: rules engine, scoring, bots and tools."""


def _fail(payload: dict[str, Any], code: int = 1) -> NoReturn:
    typer.echo(json.dumps(payload, ensure_ascii=False))
    raise typer.Exit(code)


_SYMBOL_CARD = re.compile(r"\b(10|[2-9JQKA])([♠♣♦♥])")
_SUIT_LETTER = dict(zip(SUIT_SYMBOLS, SUIT_LETTERS, strict=True))


def ascii_cards(value: Any) -> Any:
    """``value`` with every card written with a suit symbol (10♥) rewritten in ASCII (10h).

    JSON output uses the ASCII notation of records throughout; settlement reasons and engine
    messages are written for people, with symbols, so they are rewritten on the way out.
    """
    if isinstance(value, str):
        return _SYMBOL_CARD.sub(lambda m: m.group(1) + _SUIT_LETTER[m.group(2)], value)
    if isinstance(value, list):
        return [ascii_cards(v) for v in value]
    if isinstance(value, dict):
        return {k: ascii_cards(v) for k, v in value.items()}
    return value


def replay_summary(record_data: Any) -> dict[str, Any]:
    """Check a record and summarise its outcome; raises RecordError or ReplayError.

    Cards are in ASCII throughout, as in records (``cards_left``, and the settlement's
    reasons).
    """
    record = parse_record(record_data)
    game = replay(record)
    out = summary_of(game)
    out["cards_left"] = [mask_ascii(h) for h in game.hands]
    out["players"] = record.players
    out["ruleset"] = record.rules.name
    if game.over:
        fields = replay_fields(game, record)
        for key in ("items", "notes"):
            if key in fields:
                fields[key] = ascii_cards(fields[key])
        out.update(fields)
    return out


def _replay_one(data: Any) -> tuple[dict[str, Any], int]:
    """One record's output line and exit status: 0 read and legal, 1 an illegal action,
    2 a record that cannot be read."""
    try:
        return replay_summary(data), 0
    except RecordError as exc:
        return {"error": {"index": None, "code": exc.code, "message": ascii_cards(str(exc))}}, 2
    except ReplayError as exc:
        return {"error": ascii_cards(exc.to_dict())}, 1


def _bad_json(exc: json.JSONDecodeError | RecursionError) -> dict[str, Any]:
    if isinstance(exc, RecursionError):
        message = "not JSON this engine reads: nested too deep"
    else:
        message = f"not JSON: {exc}"
    return {"error": {"index": None, "code": "bad_json", "message": message}}


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return False
    return True


def _replay_lines(text: str) -> int:
    """JSON lines: one output line per record, each with its line number; the exit status is
    the worst of the records'."""
    worst = 0
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out, status = _replay_one(json.loads(line))
        except (json.JSONDecodeError, RecursionError) as exc:
            out, status = _bad_json(exc), 2
        typer.echo(json.dumps({"line": number, **out}, ensure_ascii=False))
        worst = max(worst, status)
    return worst


_REPLAY_HELP = (
    "Check every action of game records and print each outcome as one line of JSON.\n\n"
    'A record with an illegal action prints {"error": {"index", "code", "message"}} for the '
    "first one. JSON lines (a .jsonl file, or several records one to a line on standard input) "
    'print one line per record, each with its "line" number. Exit status: 0 when every record '
    "replays, 1 when one holds an illegal action, 2 when one cannot be read. Cards are written "
    "in ASCII (10h), as in records."
)


@app.command("replay", help=_REPLAY_HELP)
def replay_cmd(
    file: Annotated[
        str,
        typer.Argument(
            help="A JSON game record, a .jsonl file of records (what arena -o writes), "
            "or - for standard input (either)."
        ),
    ],
) -> None:
    """Check every action of game records and print each outcome as one line of JSON."""
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except OSError as exc:
        _fail({"error": {"index": None, "code": "io_error", "message": str(exc)}}, 2)
    except UnicodeDecodeError as exc:
        message = f"not UTF-8 text: {exc}"
        _fail({"error": {"index": None, "code": "io_error", "message": message}}, 2)
    if file.endswith(".jsonl"):
        raise typer.Exit(_replay_lines(text))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and _is_json(text.lstrip().split("\n", 1)[0]):
            raise typer.Exit(_replay_lines(text)) from None  # one record a line
        _fail(_bad_json(exc), 2)
    except RecursionError as exc:
        _fail(_bad_json(exc), 2)
    out, status = _replay_one(data)
    typer.echo(json.dumps(out, ensure_ascii=False))
    raise typer.Exit(status)


@app.command("moves")
def moves_cmd(
    hand: Annotated[
        str, typer.Option("--hand", help='Cards held (1 to 13), e.g. "3s 4s 5h 10d Th".')
    ],
    beat: Annotated[
        str | None, typer.Option("--beat", help="The play on the table (omit when leading).")
    ] = None,
    preset: Annotated[
        str, typer.Option("--preset", "--rules", help="Rule preset (see tienlen presets).")
    ] = "thapthanh",
    ascii_: Annotated[
        bool, typer.Option("--ascii", help="Print s/c/d/h instead of symbols.", metavar="")
    ] = False,
) -> None:
    """Print every legal play of a hand, one per line (leading, or beating --beat).

    When nothing beats --beat, says so on standard error and prints no play.
    """
    show = mask_ascii if ascii_ else mask_str
    try:
        rule_set = RuleSet.preset(preset)
        hand_mask = parse_mask(hand)
        if not hand_mask:
            raise CardError("--hand is empty: give the cards held")
        if hand_mask.bit_count() > HAND_SIZE:
            count = hand_mask.bit_count()
            raise CardError(f"--hand holds {count} cards; a hand holds at most {HAND_SIZE}")
        if beat is None:
            plays = leading_plays(hand_mask, rule_set)
        else:
            beat_mask = parse_mask(beat)
            code = classify(beat_mask)
            if not code or not rule_set.allows(code):
                raise CardError(f"--beat {beat!r} is not a combination")
            if beat_mask & hand_mask:
                raise CardError("--beat shares cards with --hand")
            plays = beating_plays(hand_mask, code, rule_set)
    except (CardError, RuleSetError) as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from None
    if not plays:
        typer.echo(f"No legal play: nothing in the hand beats {show(beat_mask)}; pass.", err=True)
    for play in sorted(plays, key=lambda m: (classify(m) >> 16, m.bit_count(), classify(m))):
        typer.echo(f"{show(play)}\t{describe(classify(play))}")


PRESET_LINES: dict[str, str] = {
    "thapthanh": "online portal with rooms and a timer · đếm lá, heo 5/10 and hàng 10 added, "
    "chops pay · also 2 tứ quý and 12 of one colour win instantly, not twice running",
    "langvuichoi": "Làng Vui Chơi · đếm lá, hàng ×15/×30/×40, 3♠ as the last card ×3 · "
    "4 consecutive pairs chop out of turn; instant winners share the win",
    "b52": "Game Bài B52 · heo/hàng 10/20/40 instead of their cards, 3♠ held pays 10, "
    "chops do not pay, cóng only on a sweep · the common play rules",
    "sanhrong": "Sảnh Rồng · heo 3/6, hàng 12/16 instead of their cards, cóng ×2, chops do "
    "not pay · 4 consecutive pairs chop out of turn, four of a kind chops nothing, "
    "the first play holds 3♠",
    "bigfun": "Bigfun · places pay (bét đền nhất, ba đền nhì), đền bài · full ranking, "
    "the first play holds 3♠, no chop after passing, long instant-win lists",
}
"""One line per preset for ``tienlen presets``: portal · scoring style · distinctive rules."""


@app.command("presets")
def presets_cmd() -> None:
    """List the rule presets: portal · scoring style · distinctive rules."""
    width = max(map(len, PRESETS))
    for name in PRESETS:
        typer.echo(f"{name:<{width}}  {PRESET_LINES[name]}")


# Bots: the commands' code lives in arena.py and play.py.
app.command("arena")(arena_cmd)
app.command("play")(play_cmd)
# The game server: cli/serve.py and cli/admin.py.
app.command("serve")(serve_cmd)
app.add_typer(admin_app, name="admin")

# Deals anyone can verify (docs/FAIRNESS.md): the command's code lives in verify.py.
app.command("verify")(verify_cmd)


def main() -> None:  # pragma: no cover
    app()
