"""The lobby's live feed: the list of tables and the lobby's chat, for each watcher.

:class:`LobbyFeed` keeps who watches the lobby (their socket:
:mod:`tienlen.server.api.lobby_socket`). The :class:`~.registry.Lobby` tells it when a table
opens, closes or changes (a table's task calls back on every change of its ``table`` message;
only a change of what the list shows — seats taken, phase — is pushed), and each watcher is
sent what it may see: the tables of the room it watches, private ones only if it owns them.
Sending never waits: each socket has its own bounded queue (:mod:`tienlen.server.sockets`).
The protocol is :mod:`.protocol` (docs/PROTOCOL.md, "The lobby's socket").
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ...money.rooms import Room
from ..conduct.chat import LOBBY
from ..errors import Refused
from ..limits import RateLimit
from ..protocol import TableSummary
from ..sockets import SendQueue, close_queue, offer
from ..store.models import User
from ..table import protocol as P
from ..table.messages import AckMessage
from .protocol import (
    LobbyChat,
    LobbyHello,
    LobbyMessage,
    LobbyOut,
    RoomKey,
    TableClosed,
    TableListed,
    Watch,
    parse_lobby_message,
)

if TYPE_CHECKING:
    from ..deps import Server

__all__ = ["LobbyFeed", "Watcher"]


class Listed(Protocol):
    """What the feed needs of a table (:class:`.registry.LobbyTable`)."""

    id: str
    room: Room
    private: bool
    listed: TableSummary | None

    @property
    def owner(self) -> int: ...

    def summary(self, viewer: int | None) -> TableSummary: ...


@dataclass(eq=False)
class Watcher:
    """One lobby socket."""

    user: int
    name: str
    queue: SendQueue
    limit: RateLimit
    room: RoomKey | None = None
    synced: bool = False
    """Whether it said ``hello`` (nothing is pushed before)."""
    number: int = field(default_factory=itertools.count().__next__)

    def sees(self, table: Listed) -> bool:
        return (self.room is None or table.room.key == self.room) and (
            not table.private or table.owner == self.user
        )


class LobbyFeed:
    """Everyone watching the lobby, and what they are sent."""

    def __init__(
        self,
        server: Server,
        tables: Callable[[], Iterable[Listed]],
        rate_limit: Callable[[], RateLimit] = RateLimit,
    ) -> None:
        self.server = server
        self.chat = server.chat.channel(LOBBY)
        self._tables = tables
        self._rate_limit = rate_limit
        self.watchers: dict[int, Watcher] = {}

    def join(self, user: User) -> Watcher:
        queue: SendQueue = asyncio.Queue(self.server.settings.ws_queue)
        watcher = Watcher(user.id, user.nickname, queue, self._rate_limit())
        self.watchers[watcher.number] = watcher
        return watcher

    def leave(self, watcher: Watcher) -> None:
        self.watchers.pop(watcher.number, None)

    def close(self) -> None:
        for watcher in self.watchers.values():
            close_queue(watcher.queue)
        self.watchers.clear()

    # --- what happens to tables --------------------------------------------------------------
    def table_changed(self, table: Listed) -> None:
        """A table opened or changed: push it if what the list shows of it changed."""
        summary = table.summary(None)
        if summary == table.listed:
            return
        table.listed = summary
        for watcher in list(self.watchers.values()):
            if watcher.synced and watcher.sees(table):
                listed = TableListed(type="table", table=table.summary(watcher.user))
                self._send(watcher, listed)

    def table_closed(self, table: Listed) -> None:
        for watcher in list(self.watchers.values()):
            if watcher.synced and watcher.sees(table):
                self._send(watcher, TableClosed(type="table_closed", id=table.id))

    def _send(self, watcher: Watcher, message: LobbyOut) -> None:
        if not offer(watcher.queue, message):
            self.leave(watcher)  # it cannot keep up: closed; the client reconnects

    # --- what a watcher says ------------------------------------------------------------------
    def receive(self, watcher: Watcher, raw: str | bytes) -> bool:
        """A frame from a lobby socket; False when the client floods (close it)."""
        if not watcher.limit.allow(time.monotonic()):
            self._send(watcher, P.error_message("rate_limited", "too many messages"))
            return not watcher.limit.flooding
        try:
            message = parse_lobby_message(raw)
            self._handle(watcher, message)
        except P.ProtocolError as exc:
            self._send(watcher, exc.to_dict())
        except Refused as exc:
            self._send(watcher, P.error_message(exc.code, exc.message, message.ref, exc.sanction))
        else:
            if message.ref is not None and isinstance(message, LobbyChat):
                self._send(watcher, AckMessage(type="ack", ref=message.ref))
        return True

    def _handle(self, watcher: Watcher, message: Any) -> None:
        if isinstance(message, LobbyHello | Watch):
            if isinstance(message, Watch) and not watcher.synced:
                raise Refused("hello_first", "send hello before anything else")
            watcher.room = message.room
            watcher.synced = True
            self._send(watcher, self._snapshot(watcher, message.ref))
        elif not watcher.synced:
            raise Refused("hello_first", "send hello before anything else")
        elif isinstance(message, LobbyChat):
            line = self.chat.say(str(watcher.user), watcher.name, message.text)
            for other in list(self.watchers.values()):
                if other.synced:
                    self._send(other, line)

    def _snapshot(self, watcher: Watcher, ref: int | str | None) -> LobbyMessage:
        snapshot = LobbyMessage(
            type="lobby",
            protocol=P.PROTOCOL_VERSION,
            user=str(watcher.user),
            name=watcher.name,
            room=watcher.room,
            tables=[t.summary(watcher.user) for t in self._tables() if watcher.sees(t)],
            chat=self.chat.recent(),
        )
        if ref is not None:
            snapshot["ref"] = ref
        return snapshot
