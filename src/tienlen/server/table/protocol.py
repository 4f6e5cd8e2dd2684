"""The table protocol: every message a client may send, as JSON, and their one parser.

One parser, :func:`parse_client_message`, reads what a client sends: it bounds the size, reads
the JSON and checks the fields against the pydantic models below, and either returns a typed
:data:`ClientMessage` or raises a :class:`ProtocolError` whose ``code`` is stable (clients
switch on it) and whose ``message`` says exactly what was wrong. Nothing else in the server
reads client JSON; the lobby's socket reads its own messages with the same :func:`parse_message`.

What a table sends is described in :mod:`.messages`. docs/PROTOCOL.md is the prose.
"""

from __future__ import annotations

import json
import math
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

from ...bots import LEVELS
from ...engine.cards import CardError, mask_ascii, parse_mask
from ...engine.deal import MAX_CLIENT_SEED_BYTES, DealError, seed_from_hex
from ...engine.wire import CardsIn
from ..limits import RateLimit
from ..protocol import MAX_INT, Int64, SanctionTold

__all__ = [
    "MAX_MESSAGE_BYTES",
    "PARSE_ERRORS",
    "PROTOCOL_VERSION",
    "ClientMessage",
    "ProtocolError",
    "RateLimit",
    "error_message",
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


Ref = Annotated[
    Int64 | Annotated[str, Field(max_length=MAX_REF_CHARS, pattern=r"^[\x20-\x7e]*$")],
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
    protocol: Int64
    last_n: Annotated[int, Field(ge=0, le=MAX_INT)] | None = None


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


@with_config(ConfigDict(extra="forbid"))
class ErrorMessage(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    ref: int | str | None
    sanction: NotRequired[SanctionTold]
    """With ``muted`` and ``banned``: until when and why (as the REST error's)."""


class ProtocolError(ValueError):
    """A message the server refuses, with a stable ``code`` and the client's ``ref``."""

    def __init__(self, code: str, message: str, ref: int | str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref

    def to_dict(self) -> ErrorMessage:
        return error_message(self.code, self.message, self.ref)


def error_message(
    code: str, message: str, ref: int | str | None = None, sanction: SanctionTold | None = None
) -> ErrorMessage:
    """The ``error`` message the server answers a refused message with (``sanction`` with
    ``muted`` and ``banned``)."""
    out: ErrorMessage = {"type": "error", "code": code, "message": message, "ref": ref}
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
    table's, or the lobby's: :mod:`~tienlen.server.lobby.protocol`); a ``hello`` must name this
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
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
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


def _no_constant(name: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity`` are not JSON (Python's reader takes them)."""
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    """A JSON number read as a float, refused when it overflows (``-1e999``)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def _ref_of(data: dict[str, Any]) -> int | str | None:
    """The message's ``ref`` when it is a valid one, so even a refused message gets it back."""
    ref = data.get("ref")
    if isinstance(ref, bool) or ref is None:
        return None
    if isinstance(ref, int):
        return ref if -MAX_INT - 1 <= ref <= MAX_INT else None
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
    elif loc[0] == "ref":  # not the union's branch ("ref.int: …"): what a ref may be
        where = "ref"
        text = (
            "a ref is an integer from -2**63 to 2**63 - 1"
            f" or at most {MAX_REF_CHARS} printable ASCII characters"
        )
    code = "bad_cards" if loc[0] == "cards" and error["type"] == "value_error" else "bad_field"
    if error["type"] in ("chat_empty", "chat_too_long"):
        code = error["type"]
    return ProtocolError(code, f"{where}: {text}", ref)


@cache
def client_adapter() -> TypeAdapter[Any]:
    """A pydantic validator for client messages (:func:`parse_client_message` uses it)."""
    return TypeAdapter(ClientMessage)
