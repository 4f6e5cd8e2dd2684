"""The lobby's WebSocket, ``/ws/lobby`` (docs/PROTOCOL.md, "The lobby's socket"): let in as
every socket is (:mod:`..sockets`), then the watcher is kept by the lobby's feed
(:class:`~tienlen.server.lobby.feed.LobbyFeed`): the live table list and the lobby's chat."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from ..deps import Server
from ..lobby.registry import lobby_of
from ..sockets import admit, pump

__all__ = ["router"]

router = APIRouter()


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """A player watching the lobby (docs/PROTOCOL.md, "The lobby's socket")."""
    server: Server = websocket.app.state.server
    lobby = lobby_of(websocket)
    user = await admit(websocket, server)
    if user is None:
        return
    await websocket.accept()
    feed = lobby.feed
    watcher = feed.join(user)
    try:
        await pump(
            websocket,
            watcher.queue,
            server.settings.ws_max_bytes,
            lambda frame: feed.receive(watcher, frame),
        )
    finally:
        feed.leave(watcher)
