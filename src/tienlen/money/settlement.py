"""Settlement: when a game ends, who pays whom, how much, and why.

:func:`settle` is the entry point: it reckons a finished :class:`~tienlen.engine.game.Game`'s
charges (:mod:`.reckoning`), pays them against the players' balances and takes the house fee
(:mod:`.sharing`), and returns a :class:`Settlement`: one :class:`~.items.Item` per payment with
the facts behind it (its words, English and Vietnamese, come from :mod:`.words`), the net chips
per seat, and the fee. docs/SCORING.md gives each preset's arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from ..engine.game import Game
from ..engine.record import RecordError
from .hands import hand_penalties
from .items import Item
from .reckoning import next_game_after, reckon
from .rooms import RoomError, room
from .sharing import BASIS_POINTS, house_fees, pay

if TYPE_CHECKING:  # the wire's types (pydantic's, for the schemas) are not needed to run
    from . import wire

__all__ = [
    "Item",
    "Settlement",
    "SettlementError",
    "hand_penalties",
    "next_game_after",
    "replay_fields",
    "settle",
]


class SettlementError(ValueError):
    """Settlement was asked for something it cannot do (an unfinished game, a bad balance…)."""


@dataclass
class Settlement:
    """The money of one game: the breakdown, the net result per seat and the house fee."""

    items: list[Item]
    deltas: list[int]
    """Net chips per seat after the fee; ``sum(deltas) + fee == 0``."""
    fee: int
    fees: list[int]
    """House fee per seat (from winners only)."""
    bet: int = 1
    fee_bp: int = 0
    """The house fee in basis points (600 = 6 %)."""
    void: bool = False
    """Seed 000: everyone left before a result, so nothing moves."""
    den_bai: int | None = None
    """The seat that paid for the whole table (đền bài); it leads the next game."""
    notes: list[tuple[str, str]] = field(default_factory=list)
    """(English, Vietnamese) remarks that are not payments, e.g. why nothing moved."""

    def to_dict(self) -> wire.Settlement:
        """As the wire says it (the items' facts as :mod:`.items` writes them, checked against
        the schema by the tests of every message a table sends)."""
        out: dict[str, Any] = {
            "bet": self.bet,
            "deltas": list(self.deltas),
            "items": [item.to_dict() for item in self.items],
            "fee": self.fee,
            "fees": list(self.fees),
            "fee_bp": self.fee_bp,
            "void": self.void,
            "den_bai": self.den_bai,
        }
        if self.notes:
            out["notes"] = [{"en": en, "vi": vi} for en, vi in self.notes]
        return cast("wire.Settlement", out)


VOID_NOTE = (
    "everyone left before the result: nobody pays, nobody wins",
    "tất cả thoát ra trước khi có kết quả: không ai bị trừ chip, không ai thắng",
)


def settle(
    game: Game,
    bet: int = 1,
    balances: Sequence[int] | None = None,
    fee_bp: int = 0,
) -> Settlement:
    """The money of a finished game, at ``bet`` chips a unit.

    ``balances``: each seat's chips before the game (None = unlimited); nobody loses more than
    theirs. ``fee_bp``: the house fee on winnings in basis points (600 = 6 %; the room's, see
    :mod:`.rooms`; 0 at a friendly table).
    """
    if not game.is_terminal():
        raise SettlementError("the game is not over: settle it when it ends")
    if not _is_whole(bet) or bet <= 0:
        raise SettlementError("bet must be a positive whole number of chips")
    if balances is not None:
        if len(balances) != game.n:
            raise SettlementError(f"balances must list {game.n} seats, not {len(balances)}")
        for seat, chips in enumerate(balances):
            if not _is_whole(chips) or chips < 0:
                raise SettlementError(f"balances[{seat}] must be a whole number of chips, 0+")
    if not _is_whole(fee_bp) or not 0 <= fee_bp < BASIS_POINTS:
        raise SettlementError(
            "the house fee must be a whole number of basis points from 0 to 9999 (600 = 6 %)"
        )

    reckoning = reckon(game, bet)
    n = game.n
    if reckoning.void:
        return Settlement([], [0] * n, 0, [0] * n, bet, fee_bp, void=True, notes=[VOID_NOTE])
    items, net = pay(reckoning.chops, reckoning.end, balances, n)
    fees = house_fees(net, fee_bp)
    deltas = [gain - fee for gain, fee in zip(net, fees, strict=True)]
    return Settlement(items, deltas, sum(fees), fees, bet, fee_bp, den_bai=reckoning.den_bai)


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def replay_fields(game: Game, record: Any) -> wire.Settlement:
    """The settlement fields ``tienlen replay`` prints: bet, deltas, items, fee, fees, ….

    Reads ``record.bet`` and, from ``record.extra``, optional ``balances`` (chips per seat
    before the game), ``house_fee_bp`` and ``room`` (seed 000's room, for its fee); an older
    record's ``house_fee_percent`` is read as basis points.
    """
    extra: dict[str, Any] = getattr(record, "extra", {}) or {}
    fee_bp = _record_fee_bp(extra)
    balances = extra.get("balances")
    if balances is not None and not isinstance(balances, list):
        raise RecordError("balances must be a list of chips, one per seat")
    try:
        settlement = settle(game, record.bet, balances, fee_bp)
    except SettlementError as exc:
        raise RecordError(str(exc)) from None
    return settlement.to_dict()


def _record_fee_bp(extra: dict[str, Any]) -> Any:
    """The fee a record asks for: ``house_fee_bp``, else an old ``house_fee_percent``, else its
    ``room``'s, else none. Values are checked by :func:`settle`."""
    fee_bp = extra.get("house_fee_bp")
    percent = extra.get("house_fee_percent")
    if fee_bp is not None and percent is not None:
        raise RecordError("give the house fee as house_fee_bp or house_fee_percent, not both")
    if percent is not None:
        fee_bp = _percent_to_bp(percent)
    key = extra.get("room")
    if key is not None:
        try:
            found = room(key)
        except RoomError as exc:
            raise RecordError(str(exc)) from None
        if fee_bp is None:
            fee_bp = found.fee_bp
    return 0 if fee_bp is None else fee_bp


def _percent_to_bp(percent: Any) -> int:
    if isinstance(percent, bool) or not isinstance(percent, (int, float)):
        raise RecordError("house_fee_percent must be a number (house_fee_bp is preferred)")
    if not math.isfinite(percent):
        raise RecordError("house_fee_percent must be a finite number")
    bp = Fraction(str(percent)) * 100
    if bp.denominator != 1:
        raise RecordError(
            f"house_fee_percent {percent} is not a whole number of basis points (0.01 %)"
        )
    return int(bp)
