"""What happened in a game, as reported by the engine.

Scoring, the server and clients read these instead of re-deriving rules. Every event is public
but one field: :attr:`Pass.could_beat` (whether the passer held a beating play) is private and
:mod:`tienlen.engine.views` blanks it. No event reveals a hand except :class:`InstantWin` (the
winners show theirs) and :class:`GameOver` (which carries the cards left, as a table shows them
at the end).

Every event carries ``seq``, its number in the game's log (1, 2, …), and ``action``, the number
of the command that caused it (1 for the first; 0 for what the deal itself decides, an instant
win): the events of one command — a play and its chop — share it. Private commands (declines of
a chop offer) cause no event and are not counted, so the numbers reveal nothing about them.
Both are given by the game as it makes the event and take no part in equality.

For mypyc (setup.py compiles this module) the dataclasses are plain, not ``slots=True`` (which
would make ordinary Python classes of them), and the events made at every action (Play, Pass,
RoundWon) spell out their ``__init__``: the one the dataclasses module writes stays interpreted
Python even in a compiled class. tests/test_compiled.py checks that each matches its fields.
Those three pickle and copy through ``__reduce__``, since a compiled class with its own
``__init__`` cannot be made blank and filled in.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

Played = tuple[int, int, int]
"""(seat, cards mask, combination code) of a play on the table."""


def _values(event: Any) -> tuple[Any, ...]:
    """An event's fields in order: what its ``__init__`` takes back (pickling, copying)."""
    return tuple(getattr(event, f.name) for f in fields(event))


@dataclass
class Play:
    seat: int
    cards: int
    code: int
    beaten: Played | None
    """The play this one was laid on, or None when it led the round."""
    out_of_turn: bool = False
    auto: bool = False
    """Played by the time-out rule (smallest card when leading)."""
    seq: int = field(default=0, compare=False)
    action: int = field(default=0, compare=False)

    def __init__(
        self,
        seat: int,
        cards: int,
        code: int,
        beaten: Played | None,
        out_of_turn: bool = False,
        auto: bool = False,
        seq: int = 0,
        action: int = 0,
    ) -> None:
        self.seat = seat
        self.cards = cards
        self.code = code
        self.beaten = beaten
        self.out_of_turn = out_of_turn
        self.auto = auto
        self.seq = seq
        self.action = action

    def __reduce__(self) -> tuple[type[Play], tuple[Any, ...]]:
        return (Play, _values(self))


@dataclass
class Chop:
    """A bomb (hàng) laid on a 2 (heo) or a smaller bomb: chặt, or over-chop (chặt chồng)."""

    seat: int
    victim: int
    cards: int
    victim_cards: int
    chain: tuple[Played, ...]
    """The unbroken run of heo/hàng plays in this round ending with the one chopped, oldest
    first: money for an over-chop adds up along it (RULES.md §3)."""
    seq: int = field(default=0, compare=False)
    action: int = field(default=0, compare=False)


@dataclass
class Pass:
    seat: int
    could_beat: bool | None
    """Whether the seat held a legal play when it passed (đền bài and dumping checks need it).
    Private: ``None`` in every seat or spectator view."""
    auto: bool = False
    """Passed by the time-out rule."""
    seq: int = field(default=0, compare=False)
    action: int = field(default=0, compare=False)

    def __init__(
        self, seat: int, could_beat: bool | None, auto: bool = False, seq: int = 0, action: int = 0
    ) -> None:
        self.seat = seat
        self.could_beat = could_beat
        self.auto = auto
        self.seq = seq
        self.action = action

    def __reduce__(self) -> tuple[type[Pass], tuple[Any, ...]]:
        return (Pass, _values(self))


@dataclass
class RoundWon:
    seat: int
    """Who made the last play of the round."""
    leader: int
    """Who leads the next round."""
    inherited: bool
    """The last player had gone out, so the next player leads (hưởng sái)."""
    seq: int = field(default=0, compare=False)
    action: int = field(default=0, compare=False)

    def __init__(
        self, seat: int, leader: int, inherited: bool, seq: int = 0, action: int = 0
    ) -> None:
        self.seat = seat
        self.leader = leader
        self.inherited = inherited
        self.seq = seq
        self.action = action

    def __reduce__(self) -> tuple[type[RoundWon], tuple[Any, ...]]:
        return (RoundWon, _values(self))


@dataclass
class PlayerOut:
    seat: int
    place: int
    """1 for the winner, 2 for the next out, …; for a player sent to the bottom, their place
    counted from the bottom as it stands now (the final ranking is in GameOver)."""
    ranks_last: bool = False
    """Went out on a 2 under the "2 as last card ranks last" rule (về bét)."""
    seq: int = field(default=0, compare=False)
    action: int = field(default=0, compare=False)


@dataclass
class Left:
    seat: int
    seq: int = field(default=0, compare=False)
    action: int = field(default=0, compare=False)


@dataclass
class InstantWin:
    """Tới trắng: won at the deal."""

    seats: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    """For each winning seat, the instant-win hands it holds (names from rules)."""
    shared: bool
    """All winners share the win (seed 001); otherwise ``seats`` holds the one winner."""
    cards: tuple[int, ...]
    """Each winner's whole hand, shown to the table."""
    seq: int = field(default=0, compare=False)
    action: int = field(default=0, compare=False)


@dataclass
class Cong:
    """Cóng: losers who had not played a single card when the winner went out."""

    seats: tuple[int, ...]
    seq: int = field(default=0, compare=False)
    action: int = field(default=0, compare=False)


@dataclass
class GameOver:
    winner: int | None
    ranking: tuple[int, ...]
    reason: str
    """``out`` (a player shed every card), ``instant_win``, or ``left`` (one player remained)."""
    cards_left: tuple[int, ...]
    """Each seat's remaining cards (masks), for counting (đếm lá) and thối."""
    seq: int = field(default=0, compare=False)
    action: int = field(default=0, compare=False)


Event = Play | Chop | Pass | RoundWon | PlayerOut | Left | InstantWin | Cong | GameOver
