"""The wire format's types, from which the JSON Schemas in ``docs/schemas/`` are generated.

:mod:`.codec` writes these shapes; the browser client is typed from the schemas, so a change
here that the client does not follow fails its build. Regenerate after a change with::

    python -m tienlen.cli.schemas docs/schemas

(:mod:`tienlen.cli.schemas`); a test fails while the committed files differ from what this module
generates.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Annotated, Any, Literal, NotRequired, get_args

from pydantic import ConfigDict, Field, TypeAdapter, with_config
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

from .codec import RECORD_FORMAT, SCHEMA_VERSION, SNAPSHOT_FORMAT
from .combos import KIND_KEYS
from .rules import PRESETS

_CLOSED = ConfigDict(extra="forbid")

Cards = Annotated[str, Field(description="cards in ASCII notation, lowest first: '3s 10h Qd'")]
REQUIRED = (
    "the card this seat's play must contain (3s, or the lowest card dealt, in a first game's "
    "first play): set only in the leader's own view, null in everyone else's"
)
CardsIn = Annotated[
    str | list[str],
    Field(description="cards as a string ('3s 4c 10h', symbols and any case accepted) or names"),
]


ComboKind = Literal["single", "pair", "triple", "straight", "quad", "pairs"]
"""A combination's kind (``tienlen.engine.combos.KIND_KEYS``): ``quad`` is four of a kind,
``pairs`` consecutive pairs (đôi thông)."""
Combination = Annotated[
    str,
    Field(
        description="the engine's English name: single, pair, triple, four of a kind, "
        "straight of N, N consecutive pairs (kind and length say the same, typed)"
    ),
]
ComboLength = Annotated[
    int, Field(description="the cards in the combination; for consecutive pairs, the pairs")
]


@with_config(_CLOSED)
class ComboFields(TypedDict):
    """What a play's combination is, as every play on the wire says it."""

    combination: Combination
    kind: ComboKind
    length: ComboLength


@with_config(_CLOSED)
class Played(TypedDict):
    """A play on the table."""

    seat: int
    cards: Cards
    combination: Combination
    kind: ComboKind
    length: ComboLength


@with_config(_CLOSED)
class ChainLink(TypedDict):
    """One play of a chop chain (a heo or a bomb), oldest first."""

    seat: int
    cards: Cards
    category: str | None


@with_config(_CLOSED)
class _Numbered(TypedDict):
    seq: int
    action: int


class PlayEvent(_Numbered):
    type: Literal["play"]
    seat: int
    cards: Cards
    combination: Combination
    kind: ComboKind
    length: ComboLength
    beaten: Played | None
    out_of_turn: bool
    auto: bool


class ChopEvent(_Numbered):
    type: Literal["chop"]
    seat: int
    victim: int
    cards: Cards
    victim_cards: Cards
    chain: list[ChainLink]


class PassEvent(_Numbered):
    type: Literal["pass"]
    seat: int
    auto: bool
    could_beat: NotRequired[bool]


class RoundWonEvent(_Numbered):
    type: Literal["round_won"]
    seat: int
    leader: int
    inherited: bool


class PlayerOutEvent(_Numbered):
    type: Literal["player_out"]
    seat: int
    place: int
    ranks_last: bool


class LeftEvent(_Numbered):
    type: Literal["left"]
    seat: int


class InstantWinEvent(_Numbered):
    type: Literal["instant_win"]
    seats: list[int]
    hands: list[list[str]]
    shared: bool
    cards: list[Cards]


class CongEvent(_Numbered):
    type: Literal["cong"]
    seats: list[int]


class GameOverEvent(_Numbered):
    type: Literal["game_over"]
    winner: int | None
    ranking: list[int]
    reason: Literal["out", "instant_win", "left"]
    cards_left: list[Cards]


Event = Annotated[
    PlayEvent
    | ChopEvent
    | PassEvent
    | RoundWonEvent
    | PlayerOutEvent
    | LeftEvent
    | InstantWinEvent
    | CongEvent
    | GameOverEvent,
    Field(discriminator="type"),
]


@with_config(_CLOSED)
class PlayAction(TypedDict):
    seat: int
    play: CardsIn


PassAction = TypedDict("PassAction", {"seat": int, "pass": Literal[True]})  # a keyword key
PassAction.__pydantic_config__ = _CLOSED  # type: ignore[attr-defined]


@with_config(_CLOSED)
class TimeoutAction(TypedDict):
    seat: int
    timeout: Literal[True]


@with_config(_CLOSED)
class LeaveAction(TypedDict):
    seat: int
    leave: Literal[True]


@with_config(_CLOSED)
class DeclineAction(TypedDict):
    seat: int
    decline: Literal[True]


Action = PlayAction | PassAction | TimeoutAction | LeaveAction | DeclineAction


@with_config(_CLOSED)
class RulesetSpec(TypedDict):
    """A preset with overrides, for a custom table (docs/RECORDS.md)."""

    preset: str
    overrides: NotRequired[dict[str, Any]]


class Deal(TypedDict):
    """The verifiable deal (docs/FAIRNESS.md); ``server_seed`` only once the game is over."""

    scheme: str
    commitment: str
    server_seed: NotRequired[str]
    client_seeds: NotRequired[list[str]]


@with_config(_CLOSED)
class TableState(TypedDict):
    """The table as everyone sees it, without the log: what a view and the table socket's
    ``update`` (which carries the new events and actions beside it) have in common."""

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


@with_config(_CLOSED)
class SeatState(TypedDict):
    """What only one seat is told: its hand and what it may do."""

    seat: int
    hand: Cards
    my_turn: bool
    can_pass: bool
    chop_offer: bool
    legal: list[Cards]
    required: Annotated[Cards | None, Field(description=REQUIRED)]


@with_config(_CLOSED)
class Log(TypedDict):
    """A view's commands and events so far."""

    actions: list[Action]
    events: list[Event]


class SeatTable(TableState, SeatState):
    """A seat's view without its log."""


class SpectatorView(TableState, Log):
    """What a spectator is sent."""


class SeatView(TableState, Log, SeatState):
    """What one seat is sent: the table, its own hand and what it may do."""


class Record(TypedDict):
    """A game record (docs/RECORDS.md). Fields not listed are kept for other layers."""

    format: NotRequired[Literal["tienlen-record/1"]]
    ruleset: NotRequired[str | RulesetSpec]
    players: NotRequired[list[str]]
    hands: list[CardsIn]
    first_game: NotRequired[bool]
    leader: NotRequired[int | None]
    bet: NotRequired[int]
    barred_instant_winner: NotRequired[int | None]
    deal: NotRequired[Deal]
    actions: NotRequired[list[Action]]


@with_config(_CLOSED)
class Snapshot(TypedDict):
    """A game in progress (docs/RECORDS.md, "Snapshots")."""

    format: Literal["tienlen-snapshot/1"]
    ruleset: str | RulesetSpec
    hands: list[Cards]
    first_game: bool
    leader: int | None
    barred_instant_winner: int | None
    actions: list[Action]
    seq: int
    deal: NotRequired[Deal]


# Each rule preset (``tienlen.engine.rules.PRESETS``) and whether it redeals a hand holding all
# four 2s (``redeal_four_twos``, docs/FAIRNESS.md), each as a const: what a client verifying a
# record's deal (the web page's lib/verify.ts) reads for a ``ruleset`` naming a preset, whose
# ``overrides`` may turn the redeal on. Built from PRESETS, so it cannot fall behind them.
PresetRedeals = with_config(_CLOSED)(
    TypedDict(  # type: ignore[operator]
        "PresetRedeals",
        {name: Literal[rules.redeal_four_twos] for name, rules in PRESETS.items()},
    )
)
PresetRedeals.__doc__ = (
    "Whether each rule preset redeals a hand holding all four 2s (redeal_four_twos, "
    "docs/FAIRNESS.md): each preset's value is its const."
)


SCHEMAS: dict[str, Any] = {
    "event": Event,
    "action": Action,
    "seat_view": SeatView,
    "spectator_view": SpectatorView,
    "record": Record,
    "snapshot": Snapshot,
    "presets": PresetRedeals,
}
"""Each wire type by the name of its schema file (``docs/schemas/NAME.json``)."""

assert RECORD_FORMAT == "tienlen-record/1" and SNAPSHOT_FORMAT == "tienlen-snapshot/1"
assert SCHEMA_VERSION == 1
assert set(get_args(ComboKind)) == set(KIND_KEYS.values())


@cache
def adapter(name: str) -> TypeAdapter[Any]:
    """A pydantic validator for one wire type (tests check the codec's output with it)."""
    return TypeAdapter(SCHEMAS[name])


def json_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of each wire type."""
    out = {}
    for name in SCHEMAS:
        schema = adapter(name).json_schema()
        schema["$id"] = f"tienlen/v{SCHEMA_VERSION}/{name}.json"
        schema["title"] = schema.get("title", name)
        out[name] = schema
    return out


def render(schema: dict[str, Any]) -> str:
    """A schema as the text of its committed file."""
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
