"""What one seat may know, and nothing more: the view a bot decides from.

A :class:`SeatView` is built from a :class:`~tienlen.game.Game` but holds no reference to it:
only the seat's own hand, the public actions and events so far, how many cards each player
holds, the rule set and the clock. The deal of the other seats is never copied in. One event
field is private and is redacted: :attr:`tienlen.events.Pass.could_beat` (whether the passer
held a beating play) is always ``False`` in a view.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from ..engine.cards import FULL_DECK
from ..engine.events import Event, Pass, Play, Played
from ..engine.game import PASS, Action, Game
from ..engine.rules import RuleSet


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge at one decision. Immutable; safe to keep after the game moves on."""

    seat: int
    n_players: int
    rules: RuleSet
    hand: int
    """The seat's own cards (a mask)."""
    legal: tuple[int, ...]
    """The seat's legal actions now. On its turn: ``PASS`` first when passing is allowed, then
    card masks. Out of turn (``my_turn`` false): only chops, and returning ``PASS`` declines."""
    my_turn: bool
    current: int
    """The seat whose turn it is."""
    cards_left: tuple[int, ...]
    in_game: int
    """Seats still holding cards and seated, a bit per seat."""
    passed: int
    """Seats that have passed in this round, a bit per seat."""
    table: Played | None
    """The play to beat: (seat, cards, combination code), or None when the round is open."""
    round_plays: tuple[Played, ...]
    played_by: tuple[int, ...]
    """The cards each seat has laid so far (masks)."""
    required: int
    """A card the next play must contain (3♠ or the lowest card in a first game), else 0."""
    first_game: bool
    leader: int
    """The seat that led the game's first round."""
    barred_instant_winner: int | None
    actions: tuple[Action, ...]
    """Every action so far, in order (plays, passes, time-outs, leaves)."""
    events: tuple[Event, ...]
    """Copies of the game's events, with the private ``Pass.could_beat`` redacted."""
    time_budget_s: float | None = None
    """Seconds this decision may take (the table's clock), or None for no limit."""

    @property
    def leading(self) -> bool:
        """Whether the seat opens the round (có cái)."""
        return self.table is None

    @property
    def initial_hand(self) -> int:
        """The seat's dealt hand: what it holds plus what it has played."""
        return self.hand | self.played_by[self.seat]

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: in other hands, or not dealt (fewer than 4 players)."""
        played = 0
        for mask in self.played_by:
            played |= mask
        return FULL_DECK & ~self.hand & ~played

    @property
    def can_pass(self) -> bool:
        return bool(self.legal) and self.legal[0] == PASS


class PublicLog:
    """The public part of one game, copied incrementally so views stay cheap to build.

    Keep one per game and pass it to :meth:`view`; it copies only events added since the last
    call. Each copy is private to the log (the game's own event objects are never shared).
    """

    __slots__ = ("_actions", "_events", "_played_by", "n_events")

    def __init__(self, n_players: int) -> None:
        self._events: list[Event] = []
        self._actions: tuple[Action, ...] = ()
        self._played_by = [0] * n_players
        self.n_events = 0

    def update(self, game: Game) -> None:
        new = game.events[self.n_events :]
        for event in new:
            if isinstance(event, Pass):
                self._events.append(Pass(event.seat, False, event.auto))
            else:
                if isinstance(event, Play):
                    self._played_by[event.seat] |= event.cards
                self._events.append(copy.copy(event))
        self.n_events += len(new)
        if len(self._actions) != len(game.history):
            self._actions = tuple(game.history)

    def view(self, game: Game, seat: int, time_budget_s: float | None = None) -> SeatView:
        """The view of ``seat`` now. ``game`` must be the game this log follows."""
        self.update(game)
        my_turn = seat == game.current and not game.over
        last: Played | None = (
            (game.last_seat, game.last_mask, game.last_code) if game.last_code else None
        )
        return SeatView(
            seat=seat,
            n_players=game.n,
            rules=game.rules,
            hand=game.hands[seat],
            legal=tuple(game.legal_actions(seat)),
            my_turn=my_turn,
            current=game.current_player,
            cards_left=tuple(h.bit_count() for h in game.hands),
            in_game=game.in_game,
            passed=game.passed,
            table=last,
            round_plays=tuple(game.round_plays),
            played_by=tuple(self._played_by),
            required=game.required,
            first_game=game.first_game,
            leader=game.leader,
            barred_instant_winner=game.barred_instant_winner,
            actions=self._actions,
            events=tuple(self._events),
            time_budget_s=time_budget_s,
        )


def view_of(game: Game, seat: int, time_budget_s: float | None = None) -> SeatView:
    """Build a seat's view from scratch (use a :class:`PublicLog` when building many)."""
    return PublicLog(game.n).view(game, seat, time_budget_s)
