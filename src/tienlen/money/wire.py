"""The settlement's wire types: what :meth:`.settlement.Settlement.to_dict` writes.

A table's ``settlement`` message and a replay (``GET /api/games/{id}/replay``) carry it; the
server's schemas (``docs/schemas/protocol_server.json``, ``rest.json``) type it with these, so
the browser client reads a typed settlement and not an open object. Each line's ``facts`` is
one of the facts objects of :mod:`.items`, told apart by ``what``; a line paid for another
player (đền bài) adds ``for_seat``, a line split between instant winners ``shared_by``.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, get_args

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

from ..engine import combos as C
from .items import Kind, MultiplierCause, PenaltyKind

__all__ = ["Settlement", "SettlementItem"]

_CLOSED = ConfigDict(extra="forbid")

Cards = Annotated[str, Field(description="cards in ASCII notation, lowest first: '3s 10h Qd'")]
Units = Annotated[int, Field(description="what the line is worth in bets, before any sharing")]
ChopCategory = Literal[
    "two", "two_pair", "two_triple", "pairs3", "quad", "pairs4", "pairs5", "pairs6"
]
"""A heo or a bomb (``tienlen.engine.combos.CATEGORIES``)."""


@with_config(_CLOSED)
class _Facts(TypedDict):
    units: Units
    for_seat: NotRequired[int]
    """Đền bài: the game seat whose debt this line's payer pays."""
    shared_by: NotRequired[int]
    """A shared instant win: how many winners split this loser's line."""


@with_config(_CLOSED)
class ChopLink(TypedDict):
    """One play of a chop chain: a heo or a hàng laid in the round, oldest first."""

    seat: int
    cards: Cards
    category: ChopCategory
    units: int


class ChopFacts(_Facts):
    """A chop chain (chặt, chặt chồng): the last one chopped pays the whole chain."""

    what: Literal["chop"]
    bomb: Cards
    bomb_category: ChopCategory
    chopped: Cards
    twos: Cards
    over_chop: bool
    chain: list[ChopLink]


@with_config(_CLOSED)
class CardsCount(TypedDict):
    """Cards counted at the end (đếm lá)."""

    count: int
    per_card: int
    others_only: bool
    units: int


class CardsFacts(_Facts):
    """Cards counted at the end (đếm lá)."""

    what: Literal["cards"]
    count: int
    per_card: int
    others_only: bool


class ThoiFacts(_Facts):
    """A heo, hàng or 3♠ caught in hand (thối)."""

    what: Literal["thoi"]
    penalty: PenaltyKind
    cards: Cards


class CongFacts(_Facts):
    """Cóng: a loser who never played a card pays a fixed sum instead of the count."""

    what: Literal["cong"]
    sweep: bool


class MultiplierFacts(_Facts):
    """The extra of a multiplied loss: ``base`` bets × (``factor`` − 1)."""

    what: Literal["multiplier"]
    factor: int
    base: int
    cause: MultiplierCause


class InstantWinFacts(_Facts):
    """A loss to an instant win (tới trắng), or a cóng paid as one."""

    what: Literal["instant_win"]
    hands: list[str]
    """The winner's instant-win hands (``tienlen.engine.rules.INSTANT_WIN_HANDS``); empty for
    a cóng."""
    cards: NotRequired[CardsCount]
    doubled: NotRequired[bool]
    cong: NotRequired[bool]


class PlaceFacts(_Facts):
    """Full ranking: the k-th from the bottom pays the k-th from the top."""

    what: Literal["place"]
    place: int
    paid_place: int
    players: int


Facts = Annotated[
    ChopFacts | CardsFacts | ThoiFacts | CongFacts | MultiplierFacts | InstantWinFacts | PlaceFacts,
    Field(discriminator="what"),
]


@with_config(_CLOSED)
class SettlementItem(TypedDict):
    """One payment of the settlement, with its reason in English and Vietnamese."""

    payer: int
    payee: int
    amount: Annotated[int, Field(description="chips paid")]
    owed: Annotated[int, Field(description="chips owed; more than amount when paid short")]
    reason: str
    reason_vi: str
    kind: Kind
    facts: Facts


@with_config(_CLOSED)
class SettlementNote(TypedDict):
    """A remark that is no payment (why nothing moved), in English and Vietnamese."""

    en: str
    vi: str


@with_config(_CLOSED)
class Settlement(TypedDict):
    """The money of one game (docs/SCORING.md): the lines, each seat's net and the house fee;
    seats are game seats."""

    bet: int
    deltas: Annotated[list[int], Field(description="net chips per seat after the fee")]
    items: list[SettlementItem]
    fee: int
    fees: Annotated[list[int], Field(description="the house fee per seat (winners only)")]
    fee_bp: Annotated[int, Field(description="the house fee in basis points (600 = 6 %)")]
    void: Annotated[bool, Field(description="everyone left before a result: nothing moves")]
    den_bai: Annotated[
        int | None, Field(description="the seat that paid for the whole table (đền bài)")
    ]
    notes: NotRequired[list[SettlementNote]]


assert set(get_args(ChopCategory)) == set(C.CATEGORIES)
