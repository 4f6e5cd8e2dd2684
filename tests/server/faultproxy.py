"""A TCP forwarder on 127.0.0.1 in front of PostgreSQL (or Redis) that tests break on purpose.

It runs its own event loop in a thread, so a server under test (in its own thread or process)
talks to it as to the database. ``refuse`` cuts every open connection and turns new ones away
(all of them until ``heal``, or only the next few); ``cut_on`` drops the one connection that
sends a given statement, before the database sees it (then turns the next few away). Every
connection turned away is counted, so a test waits for a client's retries by counting them,
never by the clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time

from sqlalchemy.engine import make_url

__all__ = ["FaultProxy"]


class FaultProxy:
    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.refused = 0
        """Connections turned away so far."""
        self._refusing: int | None = 0
        """How many more to turn away (None: all, until healed)."""
        self._cut_on: tuple[bytes, int] | None = None
        self._open: set[asyncio.StreamWriter] = set()
        self._changed = threading.Condition()
        self._loop = asyncio.new_event_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port: int = sock.getsockname()[1]
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        started = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._accept, sock=sock), self._loop
        )
        self._server: asyncio.Server = started.result(10)

    @classmethod
    def before(cls, database_url: str) -> tuple[FaultProxy, str]:
        """A proxy in front of the database of ``database_url``, and the URL through it."""
        url = make_url(database_url)
        proxy = cls(url.host or "127.0.0.1", url.port or 5432)
        through = url.set(host="127.0.0.1", port=proxy.port)
        return proxy, through.render_as_string(hide_password=False)

    # --- faults ------------------------------------------------------------------------------
    def refuse(self, next_connections: int | None = None) -> None:
        """Cut every open connection, and turn new ones away: the next ``next_connections``,
        or every one until :meth:`heal`."""
        self._refusing = next_connections
        self._loop.call_soon_threadsafe(self._cut_all)

    def cut_on(self, statement: bytes, then_refuse: int = 0) -> None:
        """Drop the first connection that sends ``statement`` (it never reaches the database),
        then turn the next ``then_refuse`` connections away."""
        self._cut_on = (statement, then_refuse)

    def heal(self) -> None:
        self._refusing, self._cut_on = 0, None

    def wait_refused(self, count: int, timeout: float = 30) -> None:
        """Wait until ``count`` connections in all have been turned away."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self.refused < count:
                left = deadline - time.monotonic()
                assert left > 0, f"only {self.refused} connections were turned away"
                self._changed.wait(left)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    # --- the forwarding ----------------------------------------------------------------------
    def _cut_all(self) -> None:
        for writer in list(self._open):
            writer.transport.abort()
        self._open.clear()

    def _turn_away(self) -> bool:
        if self._refusing == 0:
            return False
        if self._refusing is not None:
            self._refusing -= 1
        with self._changed:
            self.refused += 1
            self._changed.notify_all()
        return True

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._turn_away():
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._open.update((writer, up_writer))
        await asyncio.gather(
            self._pipe(reader, up_writer, (writer, up_writer), watch=True),
            self._pipe(up_reader, writer, (writer, up_writer), watch=False),
        )

    async def _pipe(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        pair: tuple[asyncio.StreamWriter, asyncio.StreamWriter],
        watch: bool,
    ) -> None:
        try:
            while data := await reader.read(65536):
                if watch and self._cut_on is not None and self._cut_on[0] in data:
                    self._refusing = self._cut_on[1]
                    self._cut_on = None
                    break
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            for end in pair:
                end.transport.abort()
                self._open.discard(end)

    async def _stop(self) -> None:
        self._server.close()
        self._cut_all()
        with contextlib.suppress(Exception):
            await self._server.wait_closed()
