"""Who may play in a room: its entry conditions (chips, VIP points) and the chips to be dealt
in at its smallest bet, as the REST routes, "play now" and the profile all say them; and seed
000's turn timers."""

from __future__ import annotations

from ...money.rooms import Room
from ..protocol import Lack
from ..table.seat_rules import chips_needed

__all__ = ["TURN_SECONDS", "lacks", "min_chips", "why_not"]

TURN_SECONDS = (10, 15, 20)
"""Seed 000's turn timers."""


def min_chips(room: Room) -> int:
    """The chips a person needs to play in ``room``: its entry balance, and enough to be dealt
    in at its smallest bet (seat_rules.py)."""
    return max(room.min_balance, chips_needed(room.min_bet))


def lacks(room: Room, chips: int, vip_points: int) -> tuple[Lack, int] | None:
    """What keeps a player from playing in ``room`` (chips or VIP points) and how many they
    hold: the entry conditions first, then the chips to be dealt in at its smallest bet."""
    if chips < room.min_balance:
        return "chips", chips
    if vip_points < room.min_vip_points:
        return "vip_points", vip_points
    if chips < min_chips(room):
        return "chips", chips
    return None


def why_not(room: Room, chips: int, vip_points: int) -> str | None:
    lack = lacks(room, chips, vip_points)
    if lack is None:
        return None
    if lack[0] == "chips":
        return f"{room.name_en} needs {min_chips(room)} chips; you hold {chips}"
    return f"{room.name_en} needs {room.min_vip_points} VIP points; you have {vip_points}"
