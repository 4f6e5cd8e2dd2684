"""Commands to a game: the one typed entry point every caller uses, through ``Game.apply``.

Record replay, bots, the terminal table and the server all build an :class:`Action` and hand it
to :meth:`tienlen.engine.game.Game.apply`; :mod:`.codec` reads and writes them as JSON.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal, NamedTuple

from .cards import CardSet

PASS: Final = 0
"""The pass action (bỏ lượt) among ``Game.legal_actions()``' card masks."""

ActionKind = Literal["play", "pass", "timeout", "leave", "decline"]
ACTION_KINDS: tuple[ActionKind, ...] = ("play", "pass", "timeout", "leave", "decline")


class Action(NamedTuple):
    """A command to the game, and one entry of its history (what a record stores)."""

    seat: int
    kind: ActionKind
    """``play``, ``pass``, ``timeout`` (the turn timer ran out), ``leave`` or ``decline`` (let an
    out-of-turn chop offer go)."""
    cards: int = 0
    """The cards of a ``play`` (a mask); 0 for the other kinds."""

    @classmethod
    def play(cls, seat: int, cards: int | CardSet | str | Iterable[int]) -> Action:
        return cls(seat, "play", hand_mask(cards))

    @classmethod
    def pass_turn(cls, seat: int) -> Action:
        return cls(seat, "pass")

    @classmethod
    def timeout(cls, seat: int) -> Action:
        return cls(seat, "timeout")

    @classmethod
    def leave(cls, seat: int) -> Action:
        return cls(seat, "leave")

    @classmethod
    def decline(cls, seat: int) -> Action:
        return cls(seat, "decline")


def hand_mask(hand: int | CardSet | str | Iterable[int]) -> int:
    if isinstance(hand, int):
        return hand
    return CardSet(hand).mask
