"""The ``tienlen`` command line: replay records, list legal moves, play and measure bots."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ..engine.cards import CardError, mask_ascii, mask_str, parse_mask
from ..engine.combos import classify, describe
from ..engine.moves import beating_plays, leading_plays
from ..engine.record import RecordError, ReplayError, parse_record, replay
from ..engine.rules import PRESETS, RuleSet, RuleSetError
from ..money.settlement import replay_fields
from .arena import arena_cmd
from .play import play_cmd

app = typer.Typer(
    help="Tiến Lên Miền Nam: rules engine, scoring, bots and tools.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _fail(payload: dict[str, Any], code: int = 1) -> None:
    typer.echo(json.dumps(payload, ensure_ascii=False))
    raise typer.Exit(code)


def replay_summary(record_data: Any) -> dict[str, Any]:
    """Check a record and summarise its outcome; raises RecordError or ReplayError."""
    record = parse_record(record_data)
    game = replay(record)
    out = game.summary()
    out["players"] = record.players
    out["ruleset"] = record.rules.name
    if game.over:
        out.update(replay_fields(game, record))
    return out


@app.command("replay")
def replay_cmd(
    file: Annotated[str, typer.Argument(help="A JSON game record, or - for standard input.")],
) -> None:
    """Check every action of a game record and print the outcome as JSON.

    On the first illegal action it prints {"error": {"index", "code", "message"}} and exits 1.
    """
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except OSError as exc:
        _fail({"error": {"index": None, "code": "io_error", "message": str(exc)}}, 2)
    except UnicodeDecodeError as exc:
        message = f"not UTF-8 text: {exc}"
        _fail({"error": {"index": None, "code": "io_error", "message": message}}, 2)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        _fail({"error": {"index": None, "code": "bad_json", "message": f"not JSON: {exc}"}}, 2)
    except RecursionError:
        message = "not JSON this engine reads: nested too deep"
        _fail({"error": {"index": None, "code": "bad_json", "message": message}}, 2)
    try:
        summary = replay_summary(data)
    except RecordError as exc:
        _fail({"error": {"index": None, "code": exc.code, "message": str(exc)}}, 2)
    except ReplayError as exc:
        _fail({"error": exc.to_dict()}, 1)
    typer.echo(json.dumps(summary, ensure_ascii=False))


@app.command("moves")
def moves_cmd(
    hand: Annotated[str, typer.Option("--hand", help='Cards held, e.g. "3s 4s 5h 10d Th".')],
    beat: Annotated[
        str | None, typer.Option("--beat", help="The play on the table (omit when leading).")
    ] = None,
    rules: Annotated[str, typer.Option("--rules", help="Rule preset.")] = "thapthanh",
    ascii_: Annotated[
        bool, typer.Option("--ascii", help="Print s/c/d/h instead of symbols.")
    ] = False,
) -> None:
    """Print every legal play of a hand, one per line (leading, or beating --beat)."""
    try:
        rule_set = RuleSet.preset(rules)
        hand_mask = parse_mask(hand)
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
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    show = mask_ascii if ascii_ else mask_str
    for play in sorted(plays, key=lambda m: (classify(m) >> 16, m.bit_count(), classify(m))):
        typer.echo(f"{show(play)}\t{describe(classify(play))}")


@app.command("presets")
def presets_cmd() -> None:
    """List the rule presets."""
    for name, preset in PRESETS.items():
        extras = []
        if preset.full_ranking:
            extras.append("full ranking")
        if preset.four_pairs_out_of_turn:
            extras.append("4 pairs chop out of turn")
        typer.echo(f"{name}\t{', '.join(extras)}")


# Bots: the commands' code lives in arena.py and play.py.
app.command("arena")(arena_cmd)
app.command("play")(play_cmd)


def main() -> None:  # pragma: no cover
    app()
