"""The arena: bot levels against each other over duplicate deals.

Every deal is played once per rotation of the line-up, so each level sits in each seat with the
same cards: the luck of the deal cancels. Deals run in parallel on every core; each deal's
cards and each bot's random choices come from the seed, the deal number and the seat alone,
so results do not depend on the number of workers. Confidence intervals treat the deal as the
unit (its rotations are correlated), and the Elo-like rating is a Bradley–Terry fit in which
each game's winner beats every seat of another level.
"""

from __future__ import annotations

import json
import math
import os
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table as RichTable

from ..bots import LEVELS, Table, UnknownLevel, make_bot
from ..engine.game import Game
from ..engine.record import record_of
from ..engine.rules import RuleSet, RuleSetError
from ..money.settlement import settle


class ArenaError(ValueError):
    """The arena was asked for something it cannot run."""


@dataclass(frozen=True)
class ArenaConfig:
    lineup: tuple[str, ...]
    """The bot level of each seat before rotation, e.g. strategic, greedy, greedy, greedy."""
    deals: int = 100
    preset: str = "thapthanh"
    seed: int = 0
    bet: int = 1
    search_samples: int | None = None
    """Samples per decision of the search bot (None: its default)."""
    search_candidates: int | None = None
    keep_records: bool = False

    def __post_init__(self) -> None:
        if not 2 <= len(self.lineup) <= 4:
            raise ArenaError(f"a table seats 2 to 4 bots, not {len(self.lineup)}")
        for level in self.lineup:
            if level not in LEVELS:
                raise ArenaError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
        if self.deals < 1:
            raise ArenaError("play at least one deal")
        for option in (self.search_samples, self.search_candidates):
            if option is not None and option < 1:
                raise ArenaError("search samples and candidates must be at least 1")
        RuleSet.preset(self.preset)  # raises RuleSetError for an unknown preset

    def bot_options(self, level: str) -> dict[str, Any]:
        if level != "search":
            return {}
        options: dict[str, Any] = {}
        if self.search_samples is not None:
            options["samples"] = self.search_samples
        if self.search_candidates is not None:
            options["candidates"] = self.search_candidates
        return options


@dataclass
class GameResult:
    deal: int
    rotation: int
    levels: tuple[str, ...]
    """Level of each seat in this game."""
    winner: int | None
    ranking: tuple[int, ...]
    deltas: tuple[int, ...]
    decisions: list[tuple[str, float]] = field(default_factory=list)
    """(level, seconds) of every decision made."""
    record: dict[str, Any] | None = None


def _seed_of(*parts: object) -> int:
    return random.Random(":".join(str(p) for p in parts)).getrandbits(63)


def play_deal(config: ArenaConfig, deal: int) -> list[GameResult]:
    """Every rotation of one deal."""
    rules = RuleSet.preset(config.preset)
    n = len(config.lineup)
    dealt = Game.new(rules, n, rng=random.Random(_seed_of("deal", config.seed, deal)))
    hands = list(dealt.initial_hands)
    results = []
    for rotation in range(n):
        levels = tuple(config.lineup[(seat - rotation) % n] for seat in range(n))
        bots = [
            make_bot(
                level,
                _seed_of("bot", config.seed, deal, rotation, seat),
                **config.bot_options(level),
            )
            for seat, level in enumerate(levels)
        ]
        game = Game(rules, hands)
        decisions = Table(game, bots).run()
        if not game.over:  # pragma: no cover - every seat holds a bot
            raise ArenaError("a game stopped before its end")
        settlement = settle(game, config.bet)
        record = None
        if config.keep_records:
            names = [f"{level} (seat {seat})" for seat, level in enumerate(levels)]
            extra = {
                "arena": {
                    "seed": config.seed,
                    "deal": deal,
                    "rotation": rotation,
                    "levels": list(levels),
                    "deltas": settlement.deltas,
                }
            }
            record = record_of(game, players=names, bet=config.bet, extra=extra).to_dict()
        results.append(
            GameResult(
                deal=deal,
                rotation=rotation,
                levels=levels,
                winner=game.winner,
                ranking=game.ranking,
                deltas=tuple(settlement.deltas),
                decisions=[(levels[d.seat], d.seconds) for d in decisions],
                record=record,
            )
        )
    return results


def _play_chunk(config: ArenaConfig, deals: Sequence[int]) -> list[list[GameResult]]:
    return [play_deal(config, d) for d in deals]


def run_deals(
    config: ArenaConfig, workers: int | None = None, chunk: int = 4
) -> Iterator[list[GameResult]]:
    """Yield each deal's games as they finish (in any order), on ``workers`` processes."""
    workers = workers or os.cpu_count() or 1
    deals = list(range(config.deals))
    if workers <= 1:
        for d in deals:
            yield play_deal(config, d)
        return
    chunks = [deals[i : i + chunk] for i in range(0, len(deals), chunk)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_play_chunk, config, c) for c in chunks]
        for future in as_completed(futures):
            yield from future.result()


@dataclass
class LevelStats:
    level: str
    games: int
    wins: int
    win_rate: float
    win_ci: float
    """Half-width of the 95 % interval of the win rate (deal as the unit)."""
    mean_chips: float
    chips_ci: float
    elo: float
    decision_median_ms: float
    decision_p99_ms: float
    decisions: int

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass
class ArenaReport:
    config: ArenaConfig
    games: int
    deals: int
    levels: list[LevelStats]

    def to_dict(self) -> dict[str, Any]:
        return {
            "lineup": list(self.config.lineup),
            "preset": self.config.preset,
            "seed": self.config.seed,
            "deals": self.deals,
            "games": self.games,
            "levels": [s.to_dict() for s in self.levels],
        }


def _ci95(values: Sequence[float]) -> float:
    if len(values) < 2:
        return math.nan
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return math.nan
    index = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[index]


def bradley_terry(
    levels: Sequence[str], wins: dict[tuple[str, str], float], iterations: int = 200
) -> dict[str, float]:
    """Elo-like ratings (mean 1500, 400 points = 10:1 odds) from pairwise win counts.

    ``wins[(a, b)]`` counts games ``a`` won with ``b`` at the table. Each pair of levels gets one
    virtual draw, so a level that always wins still gets a finite rating.
    """
    names = list(dict.fromkeys(levels))
    if len(names) == 1:
        return {names[0]: 1500.0}
    w = {(a, b): wins.get((a, b), 0.0) + 0.5 for a in names for b in names if a != b}
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        new = {}
        for a in names:
            won = sum(w[(a, b)] for b in names if b != a)
            denominator = sum(
                (w[(a, b)] + w[(b, a)]) / (strength[a] + strength[b]) for b in names if b != a
            )
            new[a] = won / denominator
        geometric = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {a: v / geometric for a, v in new.items()}
    return {a: 1500.0 + 400.0 * math.log10(strength[a]) for a in names}


def summarise(config: ArenaConfig, deals: Sequence[Sequence[GameResult]]) -> ArenaReport:
    """The results table: per level, games, wins, win rate, chips, intervals, rating, speed."""
    names = list(dict.fromkeys(config.lineup))
    per_deal_wins: dict[str, list[float]] = {a: [] for a in names}
    per_deal_chips: dict[str, list[float]] = {a: [] for a in names}
    games = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    pair_wins: dict[tuple[str, str], float] = {}
    times: dict[str, list[float]] = {a: [] for a in names}
    total_games = 0
    for results in deals:
        deal_w = {a: [0, 0] for a in names}
        deal_c = {a: 0.0 for a in names}
        for game in results:
            total_games += 1
            for seat, level in enumerate(game.levels):
                games[level] += 1
                won = int(game.winner == seat)
                wins[level] += won
                deal_w[level][0] += won
                deal_w[level][1] += 1
                deal_c[level] += game.deltas[seat]
            if game.winner is not None:
                first = game.levels[game.winner]
                for level in game.levels:
                    if level != first:
                        pair_wins[(first, level)] = pair_wins.get((first, level), 0.0) + 1
            for level, seconds in game.decisions:
                times[level].append(seconds)
        for a in names:
            won, played = deal_w[a]
            if played:
                per_deal_wins[a].append(won / played)
                per_deal_chips[a].append(deal_c[a] / played)
    ratings = bradley_terry(names, pair_wins)
    stats = []
    for a in names:
        ordered = sorted(times[a])
        stats.append(
            LevelStats(
                level=a,
                games=games[a],
                wins=wins[a],
                win_rate=wins[a] / games[a] if games[a] else math.nan,
                win_ci=_ci95(per_deal_wins[a]),
                mean_chips=statistics.fmean(per_deal_chips[a]) if per_deal_chips[a] else math.nan,
                chips_ci=_ci95(per_deal_chips[a]),
                elo=ratings[a],
                decision_median_ms=1000 * statistics.median(ordered) if ordered else math.nan,
                decision_p99_ms=1000 * _percentile(ordered, 0.99),
                decisions=len(ordered),
            )
        )
    return ArenaReport(config, total_games, len(deals), stats)


def write_records(deals: Sequence[Sequence[GameResult]], output: Path) -> int:
    """Save every game's record: JSON lines when ``output`` ends in .jsonl, else one file per
    game in the folder ``output``. Returns the number written."""
    games = [g for results in deals for g in results if g.record is not None]
    if output.suffix == ".jsonl":
        output.parent.mkdir(parents=True, exist_ok=True)
        with output.open("w", encoding="utf-8") as f:
            for g in games:
                f.write(json.dumps(g.record, ensure_ascii=False) + "\n")
    else:
        output.mkdir(parents=True, exist_ok=True)
        for g in games:
            path = output / f"deal{g.deal:05d}-rotation{g.rotation}.json"
            path.write_text(json.dumps(g.record, ensure_ascii=False, indent=1), encoding="utf-8")
    return len(games)


def run_arena(
    config: ArenaConfig,
    workers: int | None = None,
    on_deal: Callable[[int], None] | None = None,
) -> tuple[ArenaReport, list[list[GameResult]]]:
    """Play every deal (calling ``on_deal(done)`` after each) and summarise, in deal order."""
    collected: list[list[GameResult]] = []
    for results in run_deals(config, workers):
        collected.append(results)
        if on_deal is not None:
            on_deal(len(collected))
    collected.sort(key=lambda r: r[0].deal)
    return summarise(config, collected), collected


def _fmt(value: float, digits: int = 1, sign: bool = False) -> str:
    if math.isnan(value):
        return "—"
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def _ms(value: float) -> str:
    """Milliseconds: three decimals below 1 ms (the simple bots answer in microseconds)."""
    if math.isnan(value):
        return "—"
    return f"{value:.3f}" if value < 1 else f"{value:.1f}"


def render_report(report: ArenaReport, console: Console) -> None:
    """The results table, one row per level."""
    config = report.config
    title = (
        f"{' · '.join(config.lineup)} — {report.deals} duplicate deals, {report.games} games, "
        f"preset {config.preset}, seed {config.seed}"
    )
    table = RichTable(title=title, caption="± : 95 % confidence interval, the deal as the unit")
    table.add_column("level")
    for name in ("games", "wins", "win %", "chips/game", "Elo", "ms median/p99"):
        table.add_column(name, justify="right")
    for s in report.levels:
        table.add_row(
            s.level,
            str(s.games),
            str(s.wins),
            f"{100 * s.win_rate:.1f} ± {_fmt(100 * s.win_ci)}",
            f"{s.mean_chips:+.2f} ± {_fmt(s.chips_ci, 2)}",
            f"{s.elo:.0f}",
            f"{_ms(s.decision_median_ms)} / {_ms(s.decision_p99_ms)}",
        )
    console.print(table)


def arena_cmd(
    levels: Annotated[
        list[str] | None,
        typer.Argument(
            help="Bot level of each seat (2-4 of random, greedy, strategic, search); each deal "
            "is replayed with the seats rotated. Default: strategic greedy greedy greedy."
        ),
    ] = None,
    deals: Annotated[int, typer.Option("--deals", "-n", help="Number of deals.")] = 200,
    preset: Annotated[str, typer.Option("--preset", "--rules", help="Rule preset.")] = "thapthanh",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deals and the bots.")] = 0,
    workers: Annotated[
        int, typer.Option("--workers", "-j", help="Processes (0: one per core).")
    ] = 0,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Save every game: FILE.jsonl, or a folder."),
    ] = None,
    samples: Annotated[
        int | None, typer.Option("--samples", help="Search bot: sampled deals per decision.")
    ] = None,
    candidates: Annotated[
        int | None, typer.Option("--candidates", help="Search bot: actions compared.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the results as JSON.", metavar="")
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar.", metavar="")
    ] = False,
) -> None:
    """Bot levels against each other over duplicate deals, on every core."""
    try:
        config = ArenaConfig(
            lineup=tuple(levels or ("strategic", "greedy", "greedy", "greedy")),
            deals=deals,
            preset=preset,
            seed=seed,
            search_samples=samples,
            search_candidates=candidates,
            keep_records=output is not None,
        )
        if workers < 0:
            raise ArenaError("--workers must be 0 (one per core) or more")
    except (ArenaError, RuleSetError) as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from None
    console = Console(stderr=as_json)
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=quiet,
    ) as progress:
        task = progress.add_task("deals", total=config.deals)
        report, results = run_arena(
            config, workers or None, on_deal=lambda done: progress.update(task, completed=done)
        )
    if output is not None:
        written = write_records(results, output)
        Console(stderr=True).print(f"{written} game records written to {output}")
    if as_json:
        typer.echo(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        render_report(report, console)


__all__ = [
    "ArenaConfig",
    "ArenaError",
    "ArenaReport",
    "GameResult",
    "LevelStats",
    "UnknownLevel",
    "arena_cmd",
    "bradley_terry",
    "play_deal",
    "render_report",
    "run_arena",
    "summarise",
    "write_records",
]
