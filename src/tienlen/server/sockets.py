"""What every WebSocket of the server shares: who may open one, and the loop that runs it.

A socket is let in only from the server's own host or an allowed origin (so another site's
page cannot use a visitor's cookie) and with a valid session cookie (:func:`admit`). Once open
(:func:`pump`), frames over ``TIENLEN_WS_MAX_BYTES`` close it (1009), its handler may close it
for flooding (1008), a ban closes it (1008, :func:`close_with`), and what it is sent waits in
its own bounded queue (:func:`offer`), so a
slow client never blocks whoever sends to it: one that falls too far behind is closed.
Used by the tables' socket (:mod:`.api.table_socket`) and the lobby's
(:mod:`.api.lobby_socket`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect

from . import auth
from .errors import ApiError
from .store.models import User
from .table.outbox import Numbered, to_json

if TYPE_CHECKING:
    from .deps import Server

__all__ = [
    "CLOSE_POLICY",
    "CLOSE_TOO_BIG",
    "Close",
    "SendQueue",
    "admit",
    "close_queue",
    "close_with",
    "offer",
    "origin_allowed",
    "pump",
]

CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
SEND_GRACE_S = 5.0
"""How long a closing socket waits for a frame being sent to finish."""


@dataclass(frozen=True, slots=True)
class Close:
    """Close the socket with this code and reason (after what was queued before it)."""

    code: int
    reason: str


SendQueue = asyncio.Queue[Mapping[str, Any] | Close | None]
"""What waits to be sent on one socket; None (or a :class:`Close`) closes it."""


def origin_allowed(websocket: WebSocket, server: Server) -> bool:
    origin = websocket.headers.get("origin")
    if not origin:
        return False
    if origin in server.settings.allowed_origins:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == websocket.headers.get("host")


async def admit(websocket: WebSocket, server: Server) -> User | None:
    """The user opening ``websocket``, or None after refusing it (HTTP 403 before the
    upgrade) for a foreign origin, without a valid session, or for a banned user."""
    if not origin_allowed(websocket, server):
        await websocket.close(CLOSE_POLICY, "origin not allowed")
        return None
    token = websocket.cookies.get(server.settings.cookie_name)
    try:
        async with server.sessions() as db:
            user = await auth.user_for_token(db, token, server.clock())
    except ApiError as refused:  # banned: the close reason says why (at most 123 bytes)
        await websocket.close(CLOSE_POLICY, refused.message.encode()[:120].decode(errors="ignore"))
        return None
    if user is None:
        await websocket.close(CLOSE_POLICY, "not logged in")
    return user


def offer(queue: SendQueue, message: Mapping[str, Any]) -> bool:
    """Queue ``message`` without waiting; False when the socket cannot keep up: it is then
    told to close (the caller forgets the queue)."""
    try:
        queue.put_nowait(message)
    except asyncio.QueueFull:
        with contextlib.suppress(asyncio.QueueEmpty):
            queue.get_nowait()  # make room for the closing None
        queue.put_nowait(None)
        return False
    return True


def close_queue(queue: SendQueue) -> None:
    with contextlib.suppress(asyncio.QueueFull):
        queue.put_nowait(None)


def close_with(queue: SendQueue, code: int, reason: str) -> None:
    """Close the socket once what is queued is sent, with ``code`` and ``reason`` (cut to the
    123 bytes a close frame holds)."""
    reason = reason.encode()[:120].decode(errors="ignore")
    try:
        queue.put_nowait(Close(code, reason))
    except asyncio.QueueFull:  # it cannot keep up: make room for the close
        with contextlib.suppress(asyncio.QueueEmpty):
            queue.get_nowait()
        queue.put_nowait(Close(code, reason))


async def pump(
    websocket: WebSocket,
    queue: SendQueue,
    max_bytes: int,
    on_frame: Callable[[str | bytes], bool],
) -> None:
    """Run an accepted socket until either side closes it: send what ``queue`` holds, hand
    each frame to ``on_frame`` (False: the client floods, close with 1008)."""

    sending = asyncio.Lock()

    async def write() -> None:
        closing = Close(1000, "")
        while (message := await queue.get()) is not None:
            if isinstance(message, Close):
                closing = message
                break
            async with sending:
                text = message.text if isinstance(message, Numbered) else to_json(message)
                await websocket.send_text(text)
        with contextlib.suppress(Exception):
            await websocket.close(closing.code, closing.reason)

    writer = asyncio.create_task(write())
    code = 1000
    try:
        while not writer.done():
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            frame = received.get("text")
            if frame is None:
                frame = received.get("bytes") or b""
            size = len(frame.encode()) if isinstance(frame, str) else len(frame)
            if size > max_bytes:
                code = CLOSE_TOO_BIG
                break
            if not on_frame(frame):
                code = CLOSE_POLICY  # flooding
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        # Never cut a frame in half (the close frame would not be read): stop the writer
        # between two sends, unless one is stuck on a client that reads nothing.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(sending.acquire(), SEND_GRACE_S)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        with contextlib.suppress(Exception):
            await websocket.close(code)
