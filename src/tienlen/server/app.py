"""The FastAPI application: ``create_app(settings)`` builds one server.

At start (the ASGI lifespan) it creates the data folder and the secret key if missing, opens
the database, applies the migrations, starts and warms the bots' process pool and the
analysis pool (:mod:`.botpool`), and opens again the tables that were open (resuming or
voiding their games: :mod:`.lobby.restore`) and, under ``tienlen serve``, the periodic full garbage
collection (:mod:`.collector`); at stop it closes the tables and the database.
Everything a request needs is on ``app.state.server`` (:class:`~.deps.Server`): the settings,
the session factory, the clock and the password hasher; the live tables are on
``app.state.lobby`` (:mod:`.lobby.registry`). The routes are the API wing's (:mod:`.api`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version

from fastapi import FastAPI

from .api import (
    accounts,
    health,
    histories,
    lobby_socket,
    moderation,
    play_now,
    replays,
    reviews,
    rules,
    table_socket,
    tables,
)
from .auth import Passwords
from .botpool import bot_workers, shared_analysis_pool, shared_bot_pool, warm_pool
from .clock import Clock, system_clock
from .collector import full_collections, full_collections_off
from .conduct.chat import LOBBY, ChatHub
from .conduct.chat_guard import ChatGuard
from .deps import Server
from .errors import BodyLimit, install_handlers
from .limits import AccountGuards
from .lobby.registry import Lobby
from .lobby.restore import reopen_tables
from .observe import watch_the_loop
from .page import mount_page
from .settings import Settings, load_secret_key
from .store.db import make_engine, make_sessions, migrate
from .store.ledger import open_system_shards
from .table.seating import TableConfig
from .table.timers import TableClock

__all__ = ["create_app"]


def _version() -> str:
    try:
        return version("tienlen")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0+unknown"


def create_app(
    settings: Settings | None = None,
    *,
    clock: Clock = system_clock,
    table_config: TableConfig | None = None,
    table_clock: TableClock | None = None,
    bot_pool: Executor | None = None,
    analysis_pool: Executor | None = None,
) -> FastAPI:
    """The server as an ASGI application. ``clock`` is injectable for tests (expiry, top-ups),
        and so are the live tables' clocks and sizes (``table_config``; seats, turn timer and bots
        are each table's own) and the time they keep (``table_clock``: a clock that stands still
        holds a game where it is). ``bot_pool`` and ``analysis_pool`` replace the shared process
    pools (:mod:`.botpool`) for tests."""

    config = settings if settings is not None else Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        secret_key = load_secret_key(config)
        engine = make_engine(config.resolved_database_url)
        try:
            await migrate(engine)
            sessions = make_sessions(engine)
            async with sessions.begin() as db:
                await open_system_shards(db, config.house_shards)
            # Started now, not in a table's first decision (which would overrun its budget).
            await warm_pool(bot_pool or shared_bot_pool(), bot_workers())
            if analysis_pool is None:
                shared_analysis_pool(config.analysis_workers)
            guard = ChatGuard(
                sessions,
                clock=clock,
                limit=config.swear_limit,
                window_s=config.swear_window_minutes * 60,
                refresh_s=config.silence_refresh_seconds,
                flood_limit=config.flood_limit,
                flood_window_s=config.flood_window_minutes * 60,
            )
            chat = ChatHub(
                clock=clock,
                limit=config.chat_limit,
                window_s=config.chat_window_seconds,
                history=config.chat_history,
                sessions=sessions,
                guard=guard,
            )
            await chat.start(LOBBY)
            await guard.start()
            app.state.server = server = Server(
                settings=config,
                engine=engine,
                sessions=sessions,
                clock=clock,
                passwords=Passwords(config),
                secret_key=secret_key,
                chat=chat,
                guards=AccountGuards.of(config),
                bot_pool=bot_pool,
                analysis_pool=analysis_pool,
            )
            tables = table_config if table_config is not None else TableConfig.of(config)
            app.state.lobby = lobby = Lobby(server, tables, table_clock)
            server.metrics.watched = lobby
            loop_watch = asyncio.create_task(watch_the_loop(server.metrics), name="loop lag")
            collections = None
            if full_collections_off():  # `tienlen serve`: the full collections are ours to run
                every_s = config.gc_full_collection_minutes * 60
                collections = asyncio.create_task(full_collections(every_s))
            app.state.collections = collections  # None: Python runs its own full collections
            try:
                app.state.restored = await reopen_tables(lobby)
                yield
            finally:
                loop_watch.cancel()
                if collections is not None:
                    collections.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await collections
                await lobby.close()
                await guard.close()
                await chat.close()
        finally:
            await engine.dispose()

    app = FastAPI(
        title="Tiến Lên Miền Nam server",
        version=_version(),
        summary="Accounts, chips, the lobby and live tables.",
        lifespan=lifespan,
        docs_url=None,  # Swagger UI loads from a CDN: docs/SERVER.md, "The REST API"
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    install_handlers(app)
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)
    for routes in (
        accounts,
        health,
        tables,
        histories,
        replays,
        reviews,
        moderation,
        play_now,
        rules,
        table_socket,
        lobby_socket,
    ):
        app.include_router(routes.router)
    mount_page(app, config.web_dir)
    return app
