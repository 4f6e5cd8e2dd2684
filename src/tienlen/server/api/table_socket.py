"""A table's WebSocket, ``/ws/tables/{id}``: let in as every socket is (:mod:`..sockets`:
origin, session, frame size, its own bounded send queue), with the invite for a private
table, then each frame goes to the live table and its messages come back (docs/PROTOCOL.md).
A client that falls too far behind is closed and resumes with ``hello`` and ``last_n``."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket

from ..conduct.sightings import device_of
from ..deps import Server
from ..lobby.registry import lobby_of
from ..sockets import CLOSE_POLICY, SendQueue, admit, close_queue, pump
from ..store import ledger

__all__ = ["router"]

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """A player's or spectator's connection to a table (docs/PROTOCOL.md)."""
    server: Server = websocket.app.state.server
    lobby = lobby_of(websocket)
    user = await admit(websocket, server)
    if user is None:
        return
    table = lobby.tables.get(table_id)
    if table is None:
        await websocket.close(CLOSE_POLICY, "no such table")
        return
    if (
        table.private
        and user.id != table.owner
        and (websocket.query_params.get("invite") != table.invite)
    ):
        await websocket.close(CLOSE_POLICY, "a private table: ask for the invite")
        return
    async with server.sessions() as db:
        chips = await ledger.balance_of(db, user.id)
    if not table.room.admits(chips, user.vip_points):  # watching needs no chips to play
        await websocket.close(CLOSE_POLICY, "you may not enter this room")
        return
    await websocket.accept()
    name = str(user.id)
    queue: SendQueue = asyncio.Queue(server.settings.ws_queue)
    old = table.queues.get(name)
    if old is not None:
        close_queue(old)
    table.queues[name] = queue
    address = websocket.client.host if websocket.client is not None else None
    lobby.presence.arrive(name, address, device_of(websocket.cookies))
    number = table.live.connect(name, user.nickname)
    try:
        await pump(
            websocket,
            queue,
            server.settings.ws_max_bytes,
            lambda frame: table.live.receive(name, frame),
        )
    finally:
        table.live.disconnect(name, number)
        if table.queues.get(name) is queue:
            del table.queues[name]
