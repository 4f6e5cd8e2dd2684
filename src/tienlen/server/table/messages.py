"""The table protocol's server side: every message a table sends, as typed JSON.

Each message is a TypedDict that the code building it uses (mypy checks every key): the
unnumbered ones a connection is sent at once (:data:`Direct`), and the bodies of the numbered
ones (:data:`Body`), to which each recipient's outbox adds ``n``. The views inside come typed
from the engine's codec (:mod:`tienlen.engine.wire`), the settlement from the money layer's.
The same types give the JSON Schemas exported for the browser client
(``docs/schemas/protocol_*.json``, written by ``python -m tienlen.cli.schemas``, with the client
messages' of :mod:`.protocol`), and tests check every message a table sends against them.
docs/PROTOCOL.md is the prose.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, TypeAdapter, with_config
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

from ...engine.wire import Action, Event, RulesetSpec, SeatState, TableState
from ...engine.wire import SeatView as SeatViewDict
from ...engine.wire import SpectatorView as SpectatorViewDict
from ...money.wire import Settlement
from ..conduct.chat import ChatBody, ChatLine
from ..protocol import SanctionMessage, TablePhase
from .protocol import PROTOCOL_VERSION, BotLevel, ErrorMessage, client_adapter

__all__ = ["Body", "Direct", "ServerMessage", "json_schemas", "server_adapter"]

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
    away: bool
    """Sitting out: the turn timer acted for it ``away_after`` turns in a row, or its player
    lost the connection. Not ready: it finishes the game in progress by the timer and is not
    dealt in again until its player says ``ready``."""


@with_config(_CLOSED)
class NextGame(TypedDict):
    """When the next game is dealt, while a deal is due at a set moment."""

    deadline: float
    """In seconds since 1970 (server clock), as timers' deadlines are."""
    seconds: Seconds
    """How long the wait is, from when it was set."""


@with_config(_CLOSED)
class TableInfo(TypedDict):
    """The table: its settings and its seats."""

    table: str
    owner: str
    bet: int
    ruleset: str | RulesetSpec
    turn_seconds: Annotated[int, Field(ge=1)]
    """The turn timer in whole seconds (10, 15 or 20 at the lobby's tables), as in REST."""
    phase: TablePhase
    games: int
    """Games dealt so far; the game in progress (or being dealt) is number ``games``."""
    seats: list[SeatInfo | None]
    next_game: NextGame | None
    """Null, or when the next deal is due: the wait for others to sit down, the pause between
    games, the first deal after "play now"."""


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


class SpectatorDelta(TableState):
    """A spectator view without its events and actions (an ``update`` carries the new ones)."""


class SeatDelta(TableState, SeatState):
    """A seat view without its events and actions."""


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


# The numbered messages, each built as its body (what a builder writes: the TypedDicts below
# ending in ``Body``) and numbered per recipient by the outbox (``n``, the ``Message``s).


class TableBody(TableInfo):
    type: Literal["table"]


class CommitmentBody(CommitmentInfo):
    type: Literal["commitment"]


@with_config(_CLOSED)
class GameBody(TypedDict):
    """A game was dealt: your seat view (or the spectator view) in full."""

    type: Literal["game"]
    game: int
    seats: list[int]
    view: SeatViewDict | SpectatorViewDict
    timers: list[TimerInfo]
    """The timers that started with it (the first turn's)."""


@with_config(_CLOSED)
class UpdateBody(TypedDict):
    """The game moved on: the new events and actions and your view as it is now."""

    type: Literal["update"]
    game: int
    events: list[Event]
    actions: list[Action]
    view: SeatDelta | SpectatorDelta
    timers: list[TimerInfo]
    """Timers this change started for you (a turn's, your chop offer's), each for its kind."""


class TimerBody(TimerInfo):
    """A timer started with no change to your view (timers ride in ``game`` and ``update``)."""

    type: Literal["timer"]


@with_config(_CLOSED)
class SettlementBody(TypedDict):
    type: Literal["settlement"]
    game: int
    seats: list[int]
    players: list[str]
    settlement: Settlement
    """``tienlen.money.settlement.Settlement.to_dict()``: deltas, items, fee…"""


@with_config(_CLOSED)
class TopUp(TypedDict):
    """The daily top-up a player can claim (by logging in or loading their profile)."""

    chips: int
    at: str
    """When it can be claimed, ISO 8601 UTC (now or the start of the next server day)."""


@with_config(_CLOSED)
class StoodUpBody(TypedDict):
    """To one player: their seat was emptied for lack of chips (a ``table`` message follows);
    they stay connected, watching."""

    type: Literal["stood_up"]
    seat: int
    """The table seat they held."""
    reason: Literal["no_chips"]
    chips: int
    """Their balance now."""
    needs: int
    """The least balance this table deals a person in with."""
    top_up: TopUp | None
    """The next daily top-up, or null when none will come (they hold too much for one, or the
    server gives none)."""


class TableMessage(_Numbered, TableBody):
    """The table changed: its settings, seats, phase or the next deal's moment."""


class CommitmentMessage(_Numbered, CommitmentBody):
    """The next deal's commitment: client seeds are collected until ``deadline``."""


class GameMessage(_Numbered, GameBody):
    """A game was dealt: your seat view (or the spectator view) in full."""


class UpdateMessage(_Numbered, UpdateBody):
    """The game moved on: the new events and actions and your view as it is now."""


class TimerMessage(_Numbered, TimerBody):
    """A timer started with no change to your view (timers ride in ``game`` and ``update``)."""


class SettlementMessage(_Numbered, SettlementBody):
    """A game was settled."""


class StoodUpMessage(_Numbered, StoodUpBody):
    """To one player: their seat was emptied for lack of chips (a ``table`` message follows);
    they stay connected, watching."""


class ChatMessage(_Numbered, ChatBody):
    """A line of chat."""


Body = (
    TableBody
    | CommitmentBody
    | GameBody
    | UpdateBody
    | TimerBody
    | SettlementBody
    | StoodUpBody
    | ChatBody
)
"""A message a table numbers for each recipient (the outbox adds ``n``)."""


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
class AckMessage(TypedDict):
    """A command with a ``ref`` was carried out."""

    type: Literal["ack"]
    ref: int | str


Direct = WelcomeMessage | StateMessage | ErrorMessage | AckMessage | SanctionMessage
"""A message sent to one connection at once, unnumbered (a sanction by the lobby, as it is
told)."""

ServerMessage = Annotated[
    WelcomeMessage
    | StateMessage
    | TableMessage
    | CommitmentMessage
    | GameMessage
    | UpdateMessage
    | TimerMessage
    | SettlementMessage
    | StoodUpMessage
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
