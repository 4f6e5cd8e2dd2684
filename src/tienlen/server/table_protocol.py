"""The table protocol: every message a client may send, every message a table sends, as JSON.

One parser, :func:`parse_client_message`, reads what a client sends: it bounds the size, reads
the JSON and checks the fields against the pydantic models below, and either returns a typed
:data:`ClientMessage` or raises a :class:`ProtocolError` whose ``code`` is stable (clients
switch on it) and whose ``message`` says exactly what was wrong. Nothing else in the server
reads client JSON.

The server's messages are built as plain dicts by :mod:`.tables` from the engine's views and
codec; the TypedDicts here describe them so their JSON Schema can be exported for the browser
client (``docs/schemas/protocol_*.json``, written by ``python -m tienlen.cli.schemas``) and
tests can check every message a table sends. docs/PROTOCOL.md is the prose.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from typing import Annotated, Any, Literal, NotRequired

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    with_config,
)
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

from ..bots import LEVELS
from ..engine.cards import CardError, mask_ascii, parse_mask
from ..engine.deal import MAX_CLIENT_SEED_BYTES, DealError, seed_from_hex
from ..engine.wire import Action, Cards, CardsIn, Deal, Event, Played, RulesetSpec
from ..engine.wire import SeatView as SeatViewDict
from ..engine.wire import SpectatorView as SpectatorViewDict
from .limits import RateLimit
from .protocol import SanctionMessage, SanctionTold

__all__ = [
    "MAX_MESSAGE_BYTES",
    "PARSE_ERRORS",
    "PROTOCOL_VERSION",
    "ClientMessage",
    "ProtocolError",
    "RateLimit",
    "error_message",
    "json_schemas",
    "parse_client_message",
    "parse_message",
]

PROTOCOL_VERSION = 1
"""The version a client names in ``hello`` and the server in ``welcome``; bumped on any change
a client must know about."""
MAX_MESSAGE_BYTES = 4096
"""The largest client message read, in bytes of UTF-8 (a play or a chat line is far smaller)."""
MAX_CHAT_CHARS = 200
MAX_REF_CHARS = 64
MAX_SEATS = 4

BotLevel = Literal["random", "greedy", "strategic", "search"]
assert LEVELS == ("random", "greedy", "strategic", "search")


# --- client → server ---------------------------------------------------------------------------
Ref = Annotated[
    int | Annotated[str, Field(max_length=MAX_REF_CHARS, pattern=r"^[\x20-\x7e]*$")],
    Field(description="any id the client picks; echoed in the `ack` or `error` that answers"),
]
Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS, description="a seat of the table, from 0")]


class _ClientBase(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    ref: Ref | None = None


class Hello(_ClientBase):
    """First message on every connection: the protocol spoken and, after a reconnection, the
    number ``n`` of the last table message received, to get what was missed."""

    type: Literal["hello"]
    protocol: int
    last_n: Annotated[int, Field(ge=0)] | None = None


class Sit(_ClientBase):
    """Take an empty seat (you play from the next game)."""

    type: Literal["sit"]
    seat: Seat


class Stand(_ClientBase):
    """Leave your seat; during a game you leave it (seed 000's leaving rules)."""

    type: Literal["stand"]


class Ready(_ClientBase):
    """Say you are ready (or not) to play the next game."""

    type: Literal["ready"]
    ready: bool = True


class Play(_ClientBase):
    """Lay cards: on your turn, or out of turn to chop with 4+ consecutive pairs."""

    type: Literal["play"]
    cards: CardsIn

    @field_validator("cards")
    @classmethod
    def _read_cards(cls, value: str | list[str]) -> str:
        if isinstance(value, list) and len(value) > 13:
            raise ValueError("a play has at most 13 cards")
        try:
            mask = parse_mask(value)
        except CardError as exc:
            raise ValueError(str(exc)) from None
        if not mask:
            raise ValueError("a play needs at least one card (send pass to pass)")
        return mask_ascii(mask)

    @property
    def mask(self) -> int:
        """The cards as a mask (``cards`` is already checked and written lowest first)."""
        return parse_mask(self.cards)


class Pass(_ClientBase):
    """Pass your turn (bỏ lượt)."""

    type: Literal["pass"]


class DeclineChop(_ClientBase):
    """Let your out-of-turn chop offer go (it also lapses when its timer runs out)."""

    type: Literal["decline_chop"]


class ClientSeed(_ClientBase):
    """Your client seed for the next deal, sent after its commitment (docs/FAIRNESS.md)."""

    type: Literal["client_seed"]
    seed: Annotated[
        str, Field(min_length=2, max_length=2 * MAX_CLIENT_SEED_BYTES, description="lowercase hex")
    ]

    @field_validator("seed")
    @classmethod
    def _read_seed(cls, value: str) -> str:
        try:
            seed_from_hex(value, "seed")
        except DealError as exc:
            raise ValueError(str(exc)) from None
        return value

    @property
    def seed_bytes(self) -> bytes:
        return bytes.fromhex(self.seed)


def chat_text(value: str) -> str:
    """A chat line trimmed, or a ``chat_empty`` / ``chat_too_long`` / ``bad_field`` error: at
    most :data:`MAX_CHAT_CHARS` characters once trimmed, no control characters."""
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Cs") and ch != "\t":
            raise ValueError("chat text may not hold control characters")
    value = value.strip()
    if not value:
        raise PydanticCustomError("chat_empty", "chat text is empty")
    if len(value) > MAX_CHAT_CHARS:
        raise PydanticCustomError(
            "chat_too_long",
            "a chat line has at most {limit} characters, not {length}",
            {"limit": MAX_CHAT_CHARS, "length": len(value)},
        )
    return value


ChatText = Annotated[
    str,
    AfterValidator(chat_text),
    Field(description=f"1 to {MAX_CHAT_CHARS} characters once trimmed; no control characters"),
]


class Chat(_ClientBase):
    """A line of table chat."""

    type: Literal["chat"]
    text: ChatText


class AddBot(_ClientBase):
    """The table's owner seats a bot in an empty seat."""

    type: Literal["add_bot"]
    seat: Seat
    level: BotLevel = "search"


class RemoveBot(_ClientBase):
    """The table's owner takes a bot out of its seat (not while it plays a game)."""

    type: Literal["remove_bot"]
    seat: Seat


ClientMessage = Annotated[
    Hello
    | Sit
    | Stand
    | Ready
    | Play
    | Pass
    | DeclineChop
    | ClientSeed
    | Chat
    | AddBot
    | RemoveBot,
    Field(discriminator="type"),
]
"""Any message a client may send, told apart by ``type``."""

CLIENT_TYPES: tuple[str, ...] = (
    "hello",
    "sit",
    "stand",
    "ready",
    "play",
    "pass",
    "decline_chop",
    "client_seed",
    "chat",
    "add_bot",
    "remove_bot",
)


PARSE_ERRORS = (
    "too_large",
    "bad_json",
    "not_an_object",
    "missing_type",
    "unknown_type",
    "bad_field",
    "bad_cards",
    "unsupported_version",
    "chat_empty",
    "chat_too_long",
)
"""The codes :func:`parse_client_message` refuses a message with."""


class ProtocolError(ValueError):
    """A message the server refuses, with a stable ``code`` and the client's ``ref``."""

    def __init__(self, code: str, message: str, ref: int | str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref

    def to_dict(self) -> dict[str, Any]:
        return error_message(self.code, self.message, self.ref)


def error_message(
    code: str, message: str, ref: int | str | None = None, sanction: SanctionTold | None = None
) -> dict[str, Any]:
    """The ``error`` message the server answers a refused message with (``sanction`` with
    ``muted`` and ``banned``)."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message, "ref": ref}
    if sanction is not None:
        out["sanction"] = sanction
    return out


def parse_client_message(raw: str | bytes) -> Any:
    """Read one client message; the only place a table's client JSON is read.

    Returns one of the :data:`ClientMessage` models; raises :class:`ProtocolError` with one of
    the :data:`PARSE_ERRORS` codes, and never anything else.
    """
    return parse_message(raw, CLIENT_TYPES, client_adapter())


def parse_message(raw: str | bytes, types: tuple[str, ...], adapter: TypeAdapter[Any]) -> Any:
    """Read one message of a WebSocket protocol whose ``types`` ``adapter`` validates (the
    table's, or the lobby's: :mod:`.lobby_protocol`); a ``hello`` must name this
    :data:`PROTOCOL_VERSION`."""
    if isinstance(raw, str):
        if len(raw) > MAX_MESSAGE_BYTES:
            raise ProtocolError("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
        try:
            text = raw
            size = len(raw.encode("utf-8"))
        except UnicodeError:
            raise ProtocolError("bad_json", "the message is not valid UTF-8 text") from None
    elif isinstance(raw, bytes | bytearray):
        size = len(raw)
        if size > MAX_MESSAGE_BYTES:
            raise ProtocolError("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
        try:
            text = bytes(raw).decode("utf-8")
        except UnicodeError:
            raise ProtocolError("bad_json", "the message is not valid UTF-8 text") from None
    else:
        raise ProtocolError("bad_json", "a message is JSON text")
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    if text.isascii() and "\\u" not in text:  # no escapes: pydantic reads the JSON as we do
        try:
            fast = adapter.validate_json(text)
        except (ValidationError, ValueError, RecursionError):
            fast = None  # read again below, for the error that says what is wrong
        if fast is not None and fast.type != "hello":  # a hello is checked below (its version)
            return fast
    try:
        data = json.loads(text)
    except RecursionError:
        raise ProtocolError("bad_json", "the JSON is nested too deeply") from None
    except ValueError as exc:
        raise ProtocolError("bad_json", f"the message is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("not_an_object", 'a message is a JSON object with a "type"')
    ref = _ref_of(data)
    kind = data.get("type")
    if kind is None:
        raise ProtocolError("missing_type", 'a message needs a "type"', ref)
    if not isinstance(kind, str) or kind not in types:
        shown = repr(kind)[:40]
        raise ProtocolError(
            "unknown_type", f"unknown message type {shown}; known: {', '.join(types)}", ref
        )
    try:
        message = adapter.validate_python(data)
    except ValidationError as exc:
        raise _field_error(exc, ref) from None
    except RecursionError:
        raise ProtocolError("bad_field", "a field is nested too deeply", ref) from None
    if kind == "hello" and message.protocol != PROTOCOL_VERSION:
        raise ProtocolError(
            "unsupported_version",
            f"this server speaks protocol {PROTOCOL_VERSION}, not {message.protocol}",
            ref,
        )
    return message


def _ref_of(data: dict[str, Any]) -> int | str | None:
    """The message's ``ref`` when it is a valid one, so even a refused message gets it back."""
    ref = data.get("ref")
    if isinstance(ref, bool) or ref is None:
        return None
    if isinstance(ref, int):
        return ref
    if isinstance(ref, str) and len(ref) <= MAX_REF_CHARS and ref.isascii() and ref.isprintable():
        return ref
    return None


def _field_error(exc: ValidationError, ref: int | str | None) -> ProtocolError:
    error = exc.errors(include_url=False, include_input=False)[0]
    # The discriminated union puts the type first in the location: drop it.
    loc = [str(part) for part in error["loc"][1:]] or ["message"]
    where = ".".join(loc)
    text = str(error["msg"]).removeprefix("Value error, ")
    if error["type"] == "extra_forbidden":
        text = "unknown field"
    code = "bad_cards" if loc[0] == "cards" and error["type"] == "value_error" else "bad_field"
    if error["type"] in ("chat_empty", "chat_too_long"):
        code = error["type"]
    return ProtocolError(code, f"{where}: {text}", ref)


@cache
def client_adapter() -> TypeAdapter[Any]:
    """A pydantic validator for client messages (:func:`parse_client_message` uses it)."""
    return TypeAdapter(ClientMessage)


# --- server → client -----------------------------------------------------------------------------
_CLOSED = ConfigDict(extra="forbid")
Number = Annotated[
    int, Field(ge=0, description="this recipient's message number at the table, from 1")
]
Seconds = Annotated[float, Field(ge=0)]


@with_config(_CLOSED)
class SeatInfo(TypedDict):
    """Who holds a seat."""

    seat: int
    user: str
    """The player's id, or ``bot:SEAT`` for a bot."""
    name: str
    bot: BotLevel | None
    connected: bool
    ready: bool
    playing: bool
    """Whether the seat plays the game in progress (one who sat down during it waits)."""


@with_config(_CLOSED)
class TableInfo(TypedDict):
    """The table: its settings and its seats."""

    table: str
    owner: str
    bet: int
    ruleset: str | RulesetSpec
    turn_seconds: Seconds
    phase: Literal["waiting", "seeding", "playing"]
    games: int
    """Games dealt so far; the game in progress (or being dealt) is number ``games``."""
    seats: list[SeatInfo | None]


@with_config(_CLOSED)
class TimerInfo(TypedDict):
    """A running timer: a turn (public) or a chop offer (only its seat is told)."""

    game: int
    seat: int
    """The game seat it runs for."""
    kind: Literal["turn", "chop"]
    deadline: float
    """When it runs out, in seconds since 1970 (server clock)."""
    seconds: Seconds
    """How long it ran for when it was set."""


@with_config(_CLOSED)
class CommitmentInfo(TypedDict):
    """The next deal's commitment, while client seeds are collected."""

    game: int
    commitment: str
    players: list[int]
    """The table seats dealt in, in game seat order."""
    deadline: float
    seconds: Seconds


@with_config(_CLOSED)
class _Delta(TypedDict):
    schema: Literal[1]
    seq: int
    ruleset: str | RulesetSpec
    players: int
    current: int
    over: bool
    cards_left: list[int]
    in_game: list[bool]
    passed: list[bool]
    to_beat: Played | None
    round: list[Played]
    played: list[Cards]
    first_game: bool
    leader: int
    deal: Deal | None


class SpectatorDelta(_Delta):
    """A spectator view without its events and actions (an ``update`` carries the new ones)."""


class SeatDelta(_Delta):
    """A seat view without its events and actions."""

    seat: int
    hand: Cards
    my_turn: bool
    can_pass: bool
    chop_offer: bool
    legal: list[Cards]
    required: Cards | None


@with_config(_CLOSED)
class GameState(TypedDict):
    game: int
    seats: list[int]
    """The table seat of each game seat."""
    view: SeatViewDict | SpectatorViewDict
    timers: list[TimerInfo]


@with_config(_CLOSED)
class _Numbered(TypedDict):
    n: Number
    ref: NotRequired[int | str]
    """On a message caused by the recipient's own command, that command's ``ref``."""


class TableMessage(_Numbered, TableInfo):
    type: Literal["table"]


class CommitmentMessage(_Numbered, CommitmentInfo):
    type: Literal["commitment"]


class GameMessage(_Numbered):
    """A game was dealt: your seat view (or the spectator view) in full."""

    type: Literal["game"]
    game: int
    seats: list[int]
    view: SeatViewDict | SpectatorViewDict
    timers: list[TimerInfo]
    """The timers that started with it (the first turn's)."""


class UpdateMessage(_Numbered):
    """The game moved on: the new events and actions and your view as it is now."""

    type: Literal["update"]
    game: int
    events: list[Event]
    actions: list[Action]
    view: SeatDelta | SpectatorDelta
    timers: list[TimerInfo]
    """Timers this change started for you (a turn's, your chop offer's), each for its kind."""


class TimerMessage(_Numbered, TimerInfo):
    """A timer started with no change to your view (timers ride in ``game`` and ``update``)."""

    type: Literal["timer"]


class SettlementMessage(_Numbered):
    type: Literal["settlement"]
    game: int
    seats: list[int]
    players: list[str]
    settlement: dict[str, Any]
    """``tienlen.money.settlement.Settlement.to_dict()``: deltas, items, fee…"""


@with_config(_CLOSED)
class ChatLine(TypedDict):
    """A line of chat."""

    id: int
    """The line's id (what ``POST /api/reports`` names as ``message_id``)."""
    user: str
    name: str
    seat: int | None
    """The speaker's table seat, when seated (always null in the lobby)."""
    text: str
    """As shown: the profanity filter's mask (``*``) over swear words."""
    at: float
    """When it was said, in seconds since 1970 (server clock)."""


class ChatMessage(_Numbered, ChatLine):
    type: Literal["chat"]


@with_config(_CLOSED)
class WelcomeMessage(TypedDict):
    """The answer to ``hello``: what follows is the missed messages (``resumed``) or a ``state``."""

    type: Literal["welcome"]
    protocol: int
    table: str
    user: str
    resumed: bool
    ref: NotRequired[int | str]


@with_config(_CLOSED)
class StateMessage(TypedDict):
    """Everything the recipient may know now; it stands for every message up to ``n``."""

    type: Literal["state"]
    n: Number
    table: TableInfo
    commitment: CommitmentInfo | None
    game: GameState | None
    chat: list[ChatLine]
    """The table's recent chat, oldest first (the last 50 lines)."""


@with_config(_CLOSED)
class ErrorMessage(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    ref: int | str | None
    sanction: NotRequired[SanctionTold]
    """With ``muted`` and ``banned``: until when and why (as the REST error's)."""


@with_config(_CLOSED)
class AckMessage(TypedDict):
    """A command with a ``ref`` was carried out."""

    type: Literal["ack"]
    ref: int | str


ServerMessage = Annotated[
    WelcomeMessage
    | StateMessage
    | TableMessage
    | CommitmentMessage
    | GameMessage
    | UpdateMessage
    | TimerMessage
    | SettlementMessage
    | ChatMessage
    | ErrorMessage
    | AckMessage
    | SanctionMessage,
    Field(discriminator="type"),
]
"""Any message a table sends, told apart by ``type``."""


@cache
def server_adapter() -> TypeAdapter[Any]:
    """A pydantic validator for server messages (tests check every message a table sends)."""
    return TypeAdapter(ServerMessage)


def json_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schemas of the protocol, by file name: ``protocol_client``, ``protocol_server``."""
    out = {}
    adapters = {"protocol_client": client_adapter(), "protocol_server": server_adapter()}
    for name, adapter in adapters.items():
        schema = adapter.json_schema()
        schema["$id"] = f"tienlen/protocol/v{PROTOCOL_VERSION}/{name}.json"
        schema["title"] = name
        out[name] = schema
    return out
