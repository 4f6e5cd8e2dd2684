"""What an operator watches: the server's metrics (Prometheus, at ``/metrics``), how late its
event loop runs, and its logs as JSON lines (``TIENLEN_LOG_FORMAT=json``). docs/SERVER.md,
"Watching a server", lists every metric.

Each app has its own :class:`Metrics` and registry (tests run several apps in one process).
What can be read off the server's state when scraped (tables, seated players, sockets, the
journal's queue) is read then, by :class:`_Now`, so that no table pays for it on its path;
what happens (a settlement, a journal commit) is counted where it happens.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

__all__ = ["JsonFormatter", "Metrics", "Watched", "json_log_config", "watch_the_loop"]


class Watched(Protocol):
    """What the metrics read of the server's state at each scrape (the lobby)."""

    def gauges(self) -> dict[str, float]:
        """``tables``, ``players_seated``, ``table_sockets``, ``lobby_sockets``,
        ``journal_queue``, ``journal_broken_games``, ``journal_dropped``."""
        ...


class Metrics:
    """One server's metrics, and the registry ``/metrics`` writes out."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.watched: Watched | None = None
        """Set once the lobby exists."""
        self.loop_lag_s = 0.0
        """How late the event loop last woke from a timer (:func:`watch_the_loop`)."""
        registry = self.registry
        self.settlements = Counter(
            "tienlen_settlements", "Finished games written, by result.", ["result"],
            registry=registry,
        )  # fmt: skip
        self.settle_seconds = Histogram(
            "tienlen_settle_seconds", "From a game's end to its settlement written.",
            buckets=(0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120), registry=registry,
        )  # fmt: skip
        self.journal_commit_seconds = Histogram(
            "tienlen_journal_commit_seconds", "One journal transaction, tries included.",
            buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30), registry=registry,
        )  # fmt: skip
        self.journal_writes = Counter(
            "tienlen_journal_writes", "Journal writes committed (deals, actions, tables).",
            registry=registry,
        )  # fmt: skip
        registry.register(_Now(self))
        ProcessCollector(registry=registry)

    def settled(self, result: str, seconds: float) -> None:
        """A finished game was written: ``finished`` or ``void``."""
        self.settlements.labels(result).inc()
        self.settle_seconds.observe(seconds)

    def journal_committed(self, seconds: float, writes: int) -> None:
        self.journal_commit_seconds.observe(seconds)
        self.journal_writes.inc(writes)


_GAUGES = {
    "tables": "Live tables held by this process.",
    "players_seated": "People seated at this process's tables.",
    "table_sockets": "Open table WebSockets.",
    "lobby_sockets": "Open lobby WebSockets.",
    "journal_queue": "Journal writes waiting (the database slow or away).",
    "journal_broken_games": "Games whose journal stopped after a write was lost.",
}


class _Now(Collector):
    """The gauges read off the server at each scrape."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        yield _gauge("loop_lag_seconds", "How late the event loop last woke.",
                     self.metrics.loop_lag_s)  # fmt: skip
        watched = self.metrics.watched
        if watched is None:
            return
        values = watched.gauges()
        for name, doc in _GAUGES.items():
            yield _gauge(name, doc, values[name])
        dropped = CounterMetricFamily(
            "tienlen_journal_dropped_writes", "Journal writes dropped: the queue was full."
        )
        dropped.add_metric([], values["journal_dropped"])
        yield dropped


def _gauge(name: str, doc: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(f"tienlen_{name}", doc, value=value)


async def watch_the_loop(metrics: Metrics, every_s: float = 0.5) -> None:
    """Measure, every ``every_s``, how late the event loop wakes from a timer: a loop held up
    (a long collection, a blocking call) delays every table, and ``/api/health/live`` says so."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(every_s)
        metrics.loop_lag_s = max(0.0, loop.time() - asked - every_s)


_STANDARD = set(vars(logging.makeLogRecord({}))) | {
    "message", "asctime", "taskName", "color_message"  # uvicorn's copy of msg, with colours
}  # fmt: skip
"""A log record's own attributes: the rest were given as ``extra`` (``table``, ``game``, …)."""


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``ts`` (UTC, ISO 8601), ``level``, ``logger``, ``msg``, each
    ``extra`` field given (``table``, ``game``, ``user``, …) and ``exc`` for an exception."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        line.update(_extras(record))
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def _extras(record: logging.LogRecord) -> Iterator[tuple[str, Any]]:
    for key, value in vars(record).items():
        if key not in _STANDARD and not key.startswith("_"):
            yield key, value


def json_log_config(level: str = "INFO") -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` (uvicorn's ``log_config``) writing every log of the
    process — the server's, uvicorn's and its access log — to stderr as JSON lines."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            name: {"handlers": [], "level": level, "propagate": True}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
