"""How the app is served under uvicorn: the WebSocket protocol and its options.

``tienlen serve`` and the tests' live servers take their options from :func:`uvicorn_options`,
so the tests run the sockets the way the server does. The sockets use uvicorn's
``websockets-sansio`` protocol with one change (:class:`SocketProtocol`): uvicorn stops reading
a socket after every message until the app has taken it — two ``epoll_ctl`` calls and their
Python for each frame a player sends, a few per cent of the server's CPU with hundreds of
tables (docs/BENCHMARKS.md, "Server load") — while this one stops only when the app falls
:data:`READ_AHEAD` messages behind, which bounds what a connection can pile up just as well
(each message is at most ``TIENLEN_WS_MAX_BYTES``).

A frame over ``TIENLEN_WS_MAX_BYTES`` is answered with a close frame (1009) that the client
gets whatever the frame's size: uvicorn closed the connection at once, with the rest of the
frame unread, which resets it (TCP RST) and a client still sending a large frame (4 MB) lost
the close frame and saw the connection dropped; this protocol ends its side (EOF) and reads
and drops what still comes, until the client closes or :data:`LINGER_S` pass.

permessage-deflate is ``TIENLEN_WS_COMPRESSION`` (off by default; docs/SERVER.md).
"""

from __future__ import annotations

import logging
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .settings import Settings

__all__ = ["LINGER_S", "READ_AHEAD", "DrainingServer", "SocketProtocol", "uvicorn_options"]

logger = logging.getLogger("uvicorn.error")  # beside its own "Shutting down"

READ_AHEAD = 16
"""Messages a socket reads ahead of the app before it stops reading."""
LINGER_S = 10.0
"""How long a socket closed for an oversized frame goes on reading (and dropping) what the
client still sends, at most: long enough for a frame of many megabytes to arrive."""


class SocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol, reading ahead up to :data:`READ_AHEAD`, with
    a lingering close after an oversized frame."""

    lingering = False
    """Closed for a protocol error: what arrives is dropped until the client closes."""

    def send_receive_event_to_app(self) -> None:
        paused = self.read_paused
        self.read_paused = True  # uvicorn's own pauses after each message unless paused
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        # Past the app's close the message was dropped and reading must go on to the client's
        # close reply, however full the queue the app left: paused, the connection lingered
        # for uvicorn's whole close timeout (10 s) after every flood.
        if not paused and not self.close_sent and self.queue.qsize() >= READ_AHEAD:
            self.read_paused = True
            self.transport.pause_reading()

    def handle_parser_exception(self) -> None:
        """The client broke the protocol (a frame over the size limit): send the close frame
        and EOF, then drop what arrives until the client closes (a lingering close)."""
        assert self.conn.close_sent is not None
        code, reason = self.conn.close_sent.code, self.conn.close_sent.reason
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.lingering = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        # uvicorn's own timer for a closing handshake: it keeps the transport open when the
        # app returns, and is cancelled when the connection is lost or the server stops.
        self.close_timer = self.loop.call_later(LINGER_S, self.transport.close)

    def data_received(self, data: bytes) -> None:
        if self.lingering:
            return  # the rest of a refused frame, or anything after it: dropped
        super().data_received(data)

    def eof_received(self) -> None:
        if self.lingering:
            self.transport.close()  # the client is done: so are we

    async def receive(self) -> Any:
        message = await self.queue.get()
        if self.read_paused and self.queue.qsize() < READ_AHEAD // 2:
            self.read_paused = False
            self.transport.resume_reading()
        return message


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The options of ``uvicorn.run`` / ``uvicorn.Config`` that concern the app's sockets."""
    return {
        "ws": SocketProtocol,
        "ws_max_size": settings.ws_max_bytes,
        "ws_per_message_deflate": settings.ws_compression,
    }


class DrainingServer(uvicorn.Server):
    """uvicorn's server, draining the lobby before it stops (SIGTERM, Ctrl-C): the listener
    stays open and the players' sockets too while the games in progress finish, for up to
    ``TIENLEN_DRAIN_SECONDS`` (a second signal cuts it short); then uvicorn closes the sockets
    (1012, "service restart") and the app stops. A game still on then resumes at the next
    start. docs/SERVER.md, "Stopping"."""

    def __init__(self, config: uvicorn.Config, app: Any, drain_s: float) -> None:
        super().__init__(config)
        self.app, self.drain_s = app, drain_s

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        lobby = getattr(self.app.state, "lobby", None)
        if lobby is not None and self.drain_s > 0:
            logger.info("draining for up to %.0f s: no new table or game", self.drain_s)
            await lobby.drain(self.drain_s, lambda: self.force_exit)
        await super().shutdown(sockets)
