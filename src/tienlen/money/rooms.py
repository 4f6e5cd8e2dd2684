"""The lobby's rooms (seed 000): bet ranges, house fees and who may enter.

Fees belong to the room a table is opened in, not to the rules of the game: settlement takes
a fee in basis points and the lobby (or ``tienlen replay``, for a record naming its ``room``)
looks it up here. Seed 000, "MỨC CƯỢC và TÀI KHOẢN": "Tập sự : 1.000 – 5.000 Chip, Mức phí :
6 % … Điều kiện để vào phòng … Chủ bàn chỉ được đặt mức cược không quá 1/10 TK đang có …
TK chủ bàn tối thiểu gấp 15 lần mức cược".
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "INVITE_MULTIPLE",
    "MAX_BET_DIVISOR",
    "ROOMS",
    "VIP_FEE_CHIPS",
    "Room",
    "RoomError",
    "can_invite",
    "max_bet",
    "room",
    "vip_points_earned",
]


class RoomError(ValueError):
    """No such room."""


@dataclass(frozen=True, slots=True)
class Room:
    """One room of the lobby."""

    key: str
    """How records and the server name it: ``trainee``, ``tycoon``, ``vip``."""
    name_en: str
    name_vi: str
    """Its name as a page shows it, in English and in Vietnamese."""
    min_bet: int
    max_bet: int
    """Bets allowed at its tables, in chips, both ends included."""
    fee_bp: int
    """House fee on each winner's net winnings, in basis points (600 = 6 %)."""
    min_balance: int = 0
    """Chips a player needs to enter."""
    min_vip_points: int = 0
    """VIP points a player needs to enter."""

    def allows_bet(self, bet: int) -> bool:
        return self.min_bet <= bet <= self.max_bet

    def admits(self, balance: int, vip_points: int = 0) -> bool:
        """Whether a player with these chips and VIP points may enter."""
        return balance >= self.min_balance and vip_points >= self.min_vip_points


ROOMS: dict[str, Room] = {
    "trainee": Room("trainee", "Trainee", "Tập sự", 1_000, 5_000, 600),
    "tycoon": Room("tycoon", "Tycoon", "Đại gia", 5_000, 100_000, 400, min_balance=200_000),
    "vip": Room("vip", "VIP", "VIP", 200_000, 2_000_000, 200, min_vip_points=100),
}
"""Seed 000's rooms, cheapest first."""

MAX_BET_DIVISOR = 10
"""A table's owner may set a bet of at most 1/10 of their balance."""
INVITE_MULTIPLE = 15
"""To invite players, the owner needs at least 15 × the bet."""


def room(key: str) -> Room:
    """The room called ``key``; :class:`RoomError` names the rooms there are."""
    found = ROOMS.get(key) if isinstance(key, str) else None
    if found is None:
        raise RoomError(f"room must be one of {', '.join(ROOMS)}, not {key!r}")
    return found


def max_bet(balance: int) -> int:
    """The highest bet a table's owner holding ``balance`` chips may set."""
    return balance // MAX_BET_DIVISOR


def can_invite(owner_balance: int, bet: int) -> bool:
    """Whether a table's owner holding ``owner_balance`` chips may invite players at ``bet``."""
    return owner_balance >= INVITE_MULTIPLE * bet


VIP_FEE_CHIPS = 1_000
"""House fee paid, in chips, that earns one VIP point (beside the point for finishing)."""


def vip_points_earned(fee_paid: int, *, finished: bool) -> int:
    """VIP points for one game at a chip table: one for playing it to the end (not leaving it,
    not a void game), and one per :data:`VIP_FEE_CHIPS` of house fee the player's winnings
    paid. Seed 000 leaves the rule to the portal; this one rewards play, not deposits: about
    100 finished games open the VIP room, fewer for those winning at high bets."""
    if not finished:
        return 0
    return 1 + max(0, fee_paid) // VIP_FEE_CHIPS
