"""What every route and socket takes from the running server: :class:`Server` (built at start
by :func:`.app.create_app` and kept on ``app.state.server``), :func:`server_of`
to find it from a request, and :func:`session_user` for the person a session cookie names.

It sits below the wings that use it (the lobby, the API) and above what it holds (the
settings, the chat hub, the account guards, the pools), so that no route needs ``app.py``.
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass, field

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from . import auth
from .auth import Passwords
from .botpool import shared_analysis_pool
from .clock import Clock
from .conduct.chat import ChatHub
from .limits import AccountGuards
from .observe import Metrics
from .settings import Settings
from .store.models import User

__all__ = ["Server", "server_of", "session_user"]


@dataclass
class Server:
    """What the routes share, built at start."""

    settings: Settings
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    clock: Clock
    passwords: Passwords
    secret_key: bytes
    chat: ChatHub
    """Every chat line: the rate limit, recent lines, storing (:mod:`.conduct.chat`)."""
    guards: AccountGuards
    """Sign-up and log-in limits (:mod:`.limits`)."""
    bot_pool: Executor | None = None
    """Where live tables' bots think; None: the shared process pool (:mod:`.botpool`),
    started and warmed at start."""
    analysis_pool: Executor | None = None
    """Where game analysis and chip-dumping scans run, never the bots' pool; None: the
    shared analysis pool, ``analysis_workers`` processes."""
    metrics: Metrics = field(default_factory=Metrics)
    """What ``/metrics`` tells (:mod:`.observe`)."""

    def analysis(self) -> Executor:
        """The executor for an analysis or a scan now."""
        return self.analysis_pool or shared_analysis_pool(self.settings.analysis_workers)


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def session_user(server: Server, token: str | None) -> User | None:
    """The person whose session ``token`` is (None: no such session, or expired)."""
    async with server.sessions() as db:
        return await auth.user_for_token(db, token, server.clock())
