"""What a load balancer and an operator ask of a server process: is it alive, is it ready to
take players, and its metrics (docs/SERVER.md, "Watching a server").

``/api/health`` says the database answers (as it always has). ``/api/health/live`` says the
process is alive and its event loop is not held up. ``/api/health/ready`` says it can take
players: the database answers within a second, its schema is at this server's newest
migration, the tables of before the last stop are open again and it is not stopping (a
drain: :meth:`~tienlen.server.lobby.registry.Lobby.drain`); else 503 with the reasons,
so a balancer sends players elsewhere. ``/metrics`` is Prometheus's text format (not in the
OpenAPI description: it is not JSON).
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel, Field
from sqlalchemy import text

from ..deps import Server, server_of
from ..errors import responses
from ..protocol import Health
from ..store.db import alembic_config

__all__ = ["LOOP_LAG_LIMIT_S", "router"]

router = APIRouter(tags=["server"])

LOOP_LAG_LIMIT_S = 1.0
"""An event loop that wakes later than this is not live: every table waits on it."""
READY_TIMEOUT_S = 1.0
"""How long ``ready`` waits for the database."""


class Live(BaseModel):
    status: Literal["ok", "stalled"]
    loop_lag_s: float = Field(description="How late the event loop last woke from a timer.")


class Ready(BaseModel):
    status: Literal["ready", "not_ready"]
    reasons: list[str] = Field(description="Why not, one line each (empty when ready).")


@router.get("/api/health", responses=responses())
async def health(request: Request) -> Health:
    """Whether the server and its database answer."""
    server = server_of(request)
    async with server.sessions() as db:
        await db.execute(text("SELECT 1"))
    return Health(database=server.engine.dialect.name)


@router.get(
    "/api/health/live",
    response_model=Live,
    responses={**responses(), 503: {"model": Live, "description": "The event loop runs late."}},
)
async def live(request: Request) -> JSONResponse:
    """Alive, and the event loop wakes on time (503 ``stalled`` when it runs late)."""
    lag = server_of(request).metrics.loop_lag_s
    stalled = lag > LOOP_LAG_LIMIT_S
    body = Live(status="stalled" if stalled else "ok", loop_lag_s=round(lag, 4))
    return JSONResponse(body.model_dump(), status_code=503 if stalled else 200)


@router.get(
    "/api/health/ready",
    response_model=Ready,
    responses={**responses(), 503: {"model": Ready, "description": "Not ready: the reasons."}},
)
async def ready(request: Request) -> JSONResponse:
    """Ready to take players (503 ``not_ready`` with the reasons otherwise)."""
    reasons = await _not_ready(server_of(request), request)
    body = Ready(status="not_ready" if reasons else "ready", reasons=reasons)
    return JSONResponse(body.model_dump(), status_code=503 if reasons else 200)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """Prometheus's text format: every metric of this process (docs/SERVER.md)."""
    body = generate_latest(server_of(request).metrics.registry)
    return Response(body, media_type=CONTENT_TYPE_LATEST)


async def _not_ready(server: Server, request: Request) -> list[str]:
    reasons = []
    try:
        async with asyncio.timeout(READY_TIMEOUT_S), server.sessions() as db:
            version = await db.scalar(text("SELECT version_num FROM alembic_version"))
    except Exception as exc:
        reasons.append(f"the database does not answer: {type(exc).__name__}")
    else:
        if version != newest_migration():
            reasons.append(f"the database is at migration {version}, not {newest_migration()}")
    if getattr(request.app.state, "restored", None) is None:
        reasons.append("the tables of before the last stop are not open again yet")
    lobby = getattr(request.app.state, "lobby", None)
    if lobby is not None and lobby.draining:
        reasons.append("the server is stopping: it opens no table and deals no game")
    return reasons


@cache
def newest_migration() -> str | None:
    """The newest migration this server's package holds."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()
