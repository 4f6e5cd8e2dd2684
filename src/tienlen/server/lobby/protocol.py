"""The lobby's WebSocket protocol (``/ws/lobby``): what a client may send, what it is sent.

The client says ``hello`` (optionally naming a room), may ``watch`` another room (or all), and
``chat`` in the lobby's channel. It is sent a ``lobby`` snapshot (the tables it may see, the
recent chat) in answer to each of the first two, then a ``table`` whenever a table it sees
opens or its seats or phase change, a ``table_closed`` when one closes, and every ``chat``
line. Messages are read by the table protocol's one reader (:func:`~.table_protocol.
parse_message`), with the same error codes; a chat line follows the same rules as a table's.
The JSON Schemas are ``docs/schemas/lobby_client.json`` and ``lobby_server.json``;
docs/PROTOCOL.md ("The lobby's socket") is the prose.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, NotRequired, get_args

from pydantic import ConfigDict, Field, TypeAdapter, with_config
from typing_extensions import TypedDict

from ...money.rooms import ROOMS
from ..conduct.chat import ChatBody, ChatLine
from ..protocol import Int64, SanctionMessage, TableSummary
from ..table.messages import AckMessage
from ..table.protocol import PROTOCOL_VERSION, ChatText, ErrorMessage, _ClientBase, parse_message

__all__ = [
    "LOBBY_TYPES",
    "LobbyChat",
    "LobbyHello",
    "LobbyMessage",
    "LobbyOut",
    "RoomKey",
    "TableClosed",
    "TableListed",
    "Watch",
    "json_schemas",
    "parse_lobby_message",
]

RoomKey = Literal["trainee", "tycoon", "vip"]
assert get_args(RoomKey) == tuple(ROOMS)


# --- client → server ---------------------------------------------------------------------------
class LobbyHello(_ClientBase):
    """First message: the protocol spoken and the room whose tables to list (all if null)."""

    type: Literal["hello"]
    protocol: Int64
    room: RoomKey | None = None


class Watch(_ClientBase):
    """List another room's tables (all if null)."""

    type: Literal["watch"]
    room: RoomKey | None = None


class LobbyChat(_ClientBase):
    """A line of the lobby's chat."""

    type: Literal["chat"]
    text: ChatText


LobbyClientMessage = Annotated[LobbyHello | Watch | LobbyChat, Field(discriminator="type")]
LOBBY_TYPES: tuple[str, ...] = ("hello", "watch", "chat")


@cache
def client_adapter() -> TypeAdapter[Any]:
    return TypeAdapter(LobbyClientMessage)


def parse_lobby_message(raw: str | bytes) -> Any:
    """Read one lobby client message, or raise :class:`~..table.protocol.ProtocolError`."""
    return parse_message(raw, LOBBY_TYPES, client_adapter())


# --- server → client -----------------------------------------------------------------------------
_CLOSED = ConfigDict(extra="forbid")


@with_config(_CLOSED)
class LobbyMessage(TypedDict):
    """Answers ``hello`` and ``watch``: everything the client sees now."""

    type: Literal["lobby"]
    protocol: int
    user: str
    name: str
    room: RoomKey | None
    tables: list[TableSummary]
    """The live tables of ``room`` (of every room if null); private ones only to the owner."""
    chat: list[ChatLine]
    """The lobby's recent chat, oldest first."""
    ref: NotRequired[int | str]


@with_config(_CLOSED)
class TableListed(TypedDict):
    """A table opened, or its seats or phase changed."""

    type: Literal["table"]
    table: TableSummary


@with_config(_CLOSED)
class TableClosed(TypedDict):
    type: Literal["table_closed"]
    id: str


class LobbyChatMessage(ChatLine):
    type: Literal["chat"]


LobbyOut = (
    LobbyMessage | TableListed | TableClosed | ChatBody | ErrorMessage | AckMessage
) | SanctionMessage
"""What the feed sends (as :data:`LobbyServerMessage` validates it)."""

LobbyServerMessage = Annotated[
    LobbyMessage
    | TableListed
    | TableClosed
    | LobbyChatMessage
    | ErrorMessage
    | AckMessage
    | SanctionMessage,
    Field(discriminator="type"),
]


@cache
def server_adapter() -> TypeAdapter[Any]:
    """A validator for what the lobby sends (tests check every message)."""
    return TypeAdapter(LobbyServerMessage)


def json_schemas() -> dict[str, dict[str, Any]]:
    """The lobby protocol's JSON Schemas: ``lobby_client``, ``lobby_server``."""
    out = {}
    adapters = {"lobby_client": client_adapter(), "lobby_server": server_adapter()}
    for name, adapter in adapters.items():
        schema = adapter.json_schema()
        schema["$id"] = f"tienlen/protocol/v{PROTOCOL_VERSION}/{name}.json"
        schema["title"] = name
        out[name] = schema
    return out
