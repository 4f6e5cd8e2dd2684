"""How the app is served under uvicorn: the WebSocket protocol and its options.

``tienlen serve`` and the tests' live servers take their options from :func:`uvicorn_options`,
so the tests run the sockets the way the server does. The sockets use uvicorn's
``websockets-sansio`` protocol with one change (:class:`SocketProtocol`): uvicorn stops reading
a socket after every message until the app has taken it — two ``epoll_ctl`` calls and their
Python for each frame a player sends, a few per cent of the server's CPU with hundreds of
tables (docs/BENCHMARKS.md, "Server load") — while this one stops only when the app falls
:data:`READ_AHEAD` messages behind, which bounds what a connection can pile up just as well
(each message is at most ``TIENLEN_WS_MAX_BYTES``).

permessage-deflate is ``TIENLEN_WS_COMPRESSION`` (off by default; docs/SERVER.md).
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .settings import Settings

__all__ = ["READ_AHEAD", "SocketProtocol", "uvicorn_options"]

READ_AHEAD = 16
"""Messages a socket reads ahead of the app before it stops reading."""


class SocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol, reading ahead up to :data:`READ_AHEAD`."""

    def send_receive_event_to_app(self) -> None:
        paused = self.read_paused
        self.read_paused = True  # uvicorn's own pauses after each message unless paused
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        if not paused and self.queue.qsize() >= READ_AHEAD:
            self.read_paused = True
            self.transport.pause_reading()

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
