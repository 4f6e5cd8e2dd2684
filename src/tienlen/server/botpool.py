"""Where table bots think: off the event loop, in a pool every table shares.

A bot's decision takes up to a few hundred milliseconds of pure Python; run on the event loop it
would stall every table. :func:`bot_decision` is the job a table sends to its executor (a
process pool in the server, a thread pool in tests): it takes the bot and its seat view, both
picklable, and returns the action with the bot itself, whose state (the search bot's reading of
the game) a process pool hands back as a copy.

The server starts the pool and warms it (:func:`warm_pool`: every worker spawned and its
imports done) when it starts, so the first decision after a restart is as quick as any other.
Game analysis and the chip-dumping scan run in a pool of their own
(:func:`shared_analysis_pool`, ``TIENLEN_ANALYSIS_WORKERS``): a long analysis never makes a
live table's bot wait for a worker.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Literal, NamedTuple

from ..bots import Bot, ask
from ..engine.actions import PASS, Action
from ..engine.views import SeatView
from .table.timers import TableClock

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_shared: ProcessPoolExecutor | None = None
_analysis: ProcessPoolExecutor | None = None


def bot_decision(bot: Bot, view: SeatView) -> tuple[int, Bot]:
    """The bot's action on ``view``, checked legal (``BotError`` otherwise), and the bot."""
    action, _ = ask(bot, view)
    return action, bot


def bot_workers() -> int:
    """The bots' pool size by default: one less than the CPUs, at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def shared_bot_pool(max_workers: int | None = None) -> ProcessPoolExecutor:
    """The process pool shared by every table, started on first use (``spawn``: safe beside the
    event loop's threads). ``max_workers`` defaults to :func:`bot_workers`."""
    global _shared
    with _lock:
        if _shared is None:
            workers = max_workers or bot_workers()
            _shared = _pool(workers)
        return _shared


def shared_analysis_pool(max_workers: int = 1) -> ProcessPoolExecutor:
    """The process pool for game analysis and the chip-dumping scans, apart from the bots'
    (started on first use, ``spawn``); ``max_workers`` counts on its first call only."""
    global _analysis
    with _lock:
        if _analysis is None:
            _analysis = _pool(max(1, max_workers))
        return _analysis


def _pool(workers: int) -> ProcessPoolExecutor:
    """A ``spawn`` pool (safe beside the event loop's threads) whose workers end with the
    server, however it ends (:func:`_end_with_parent`)."""
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_end_with_parent,
        initargs=(os.getpid(),),
    )


def _end_with_parent(parent: int, every_s: float = 0.5) -> None:
    """A worker's first job: a thread that ends the worker once ``parent`` (the server) is
    gone. A server killed with SIGKILL cannot stop its pools, and a worker blocked on its
    queue would otherwise live on, adopted by init, holding the pool's pipes."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every_s)
        os._exit(0)

    threading.Thread(target=watch, name="end with the server", daemon=True).start()


def _warm(pause_s: float) -> int:
    """A warm-up job: by the time it runs its worker has imported the bots; it holds the
    worker ``pause_s`` so that the jobs sent together land on different workers."""
    time.sleep(pause_s)
    return os.getpid()


async def warm_pool(executor: Executor, workers: int) -> set[int]:
    """Start ``workers`` workers of ``executor`` and have each import the bots, now (at server
    start) rather than in a table's first decision; answers the workers' process ids."""
    loop = asyncio.get_running_loop()
    jobs = [loop.run_in_executor(executor, _warm, 0.05) for _ in range(max(1, workers))]
    return set(await asyncio.gather(*jobs))


def shutdown_bot_pool(grace_s: float | None = None) -> None:
    """Stop the shared pools (the bots' and the analysis'); the next call to
    :func:`shared_bot_pool` or :func:`shared_analysis_pool` starts a new one. Jobs not started
    are cancelled and the running ones are not waited for; with ``grace_s`` (as ``tienlen
    serve`` stops), the workers are given that long to end, then terminated, so none outlives
    the server."""
    global _shared, _analysis
    with _lock:
        pools, _shared, _analysis = (_shared, _analysis), None, None
    workers: list[multiprocessing.process.BaseProcess] = []
    for pool in pools:
        if pool is not None:
            workers += list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
    if grace_s is None:
        return
    deadline = time.monotonic() + grace_s
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
            worker.join(1.0)
        if worker.is_alive():
            worker.kill()


class BotAnswer(NamedTuple):
    """What a bot chose (``action`` None: it failed or overran) on its ``slot`` — its turn or
    a chop offer — at game seat ``seat`` when the table stood at ``token``."""

    user: str
    slot: Literal["turn", "chop"]
    seat: int
    token: tuple[int, int]
    action: int | None
    bot: Bot | None
    """The bot after deciding (a copy from a process pool); None when it failed."""

    def actions(self) -> tuple[Action, Action]:
        """The command the bot chose, and the one the table applies if it fails or is illegal:
        the time-out rule on its turn, a decline on a chop offer (``PASS`` declines too)."""
        seat, chose = self.seat, self.action
        if self.slot == "turn":
            fallback = Action.timeout(seat)
            if chose is None:
                return fallback, fallback
            return Action.pass_turn(seat) if chose == PASS else Action.play(seat, chose), fallback
        fallback = Action.decline(seat)
        return (fallback if chose is None or chose == PASS else Action.play(seat, chose)), fallback


class BotRunner:
    """Asks one table's bots for decisions off the event loop and posts their answers.

    One question at a time per bot (a bot's state is not shared between two decisions), each
    within ``budget_s`` seconds of wall-clock time, and answered no sooner than ``delay_s``
    after it was asked, so people can follow a bot's plays.
    """

    def __init__(
        self,
        clock: TableClock,
        executor: Executor | None,
        budget_s: float,
        delay_s: float,
        post: Callable[[BotAnswer], None],
    ) -> None:
        self._clock = clock
        self._executor = executor
        self.budget_s = budget_s
        self.delay_s = delay_s
        self._post = post
        self._thinking: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def thinking(self) -> bool:
        """Whether any answer is still to be taken."""
        return bool(self._thinking)

    def busy(self, user: str) -> bool:
        return user in self._thinking

    def ask(self, question: BotAnswer, bot: Bot, view: SeatView) -> None:
        """Ask ``bot`` to act on ``view``; ``question`` (its action left None) comes back
        posted with the answer filled in."""
        self._thinking.add(question.user)
        task = asyncio.create_task(self._think(question, bot, view))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def answered(self, user: str) -> None:
        """The table took ``user``'s answer: the bot may be asked again."""
        self._thinking.discard(user)

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    async def _think(self, question: BotAnswer, bot: Bot, view: SeatView) -> None:
        start = self._clock.now()
        action: int | None = None
        thought: Bot | None = None
        try:
            executor = self._executor or shared_bot_pool()
            future = asyncio.get_running_loop().run_in_executor(executor, bot_decision, bot, view)
            action, thought = await asyncio.wait_for(future, self.budget_s)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # an error or an overrun: the table's time-out rule plays
            logger.warning("bot %s failed: %r", question.user, exc)
        if self.delay_s:
            await self._clock.sleep_until(start + self.delay_s)
        self._post(question._replace(action=action, bot=thought))
