"""What one seat — or a spectator — may know, and nothing more.

This is the one place where hidden facts are blanked. Bots, the terminal table and the server
all read these views; nobody else decides what a seat may see.

A :class:`SeatView` is built from a :class:`~tienlen.engine.game.Game` but holds no reference to
it: only the seat's own hand, the public actions and events so far, how many cards each player
holds, the rule set and the clock. Hidden, and so never copied in: the other seats' hands (until
the end of the game, when :class:`~tienlen.engine.events.GameOver` shows what is left, as a
table does) and the card the leader's first play must contain (``required``: theirs alone),
:attr:`Pass.could_beat <tienlen.engine.events.Pass.could_beat>` (``None`` in every
view), and the deal's server seed before the game is over. A :class:`SpectatorView` is the same
without a hand or legal actions.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from .cards import FULL_DECK
from .events import Event, Pass, Play, Played
from .game import PASS, Action, Game
from .rules import RuleSet


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
    """The seat whose turn it is (-1 once the game is over)."""
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
    """A card this seat's next play must contain (3♠ or the lowest card, in a first game's
    first play), else 0: 0 in every other seat's view, since it names a card the leader holds
    (with two or three players their lowest)."""
    first_game: bool
    leader: int
    """The seat that led the game's first round."""
    barred_instant_winner: int | None
    actions: tuple[Action, ...]
    """Every action so far, in order (plays, passes, time-outs, leaves)."""
    events: tuple[Event, ...]
    """Copies of the game's events, with the private ``Pass.could_beat`` blanked (None)."""
    time_budget_s: float | None = None
    """Seconds this decision may take (the table's clock), or None for no limit."""
    chop_offer: bool = False
    """Whether this seat is offered an out-of-turn chop now (``legal`` holds the chops). Who
    else is offered is private to them, and so are their declines."""
    seq: int = 0
    """The number of the last event in the view (the game's sequence number)."""
    over: bool = False
    deal: dict[str, Any] | None = None
    """The verifiable deal (docs/FAIRNESS.md): its commitment and client seeds while the game
    runs, the server seed too once it is over."""

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

    __slots__ = ("_actions", "_declines", "_events", "_played_by", "n_events")

    def __init__(self, n_players: int) -> None:
        self._events: list[Event] = []
        self._actions: tuple[Action, ...] = ()
        self._declines = False
        self._played_by = [0] * n_players
        self.n_events = 0

    def update(self, game: Game) -> None:
        new = game.events[self.n_events :]
        for event in new:
            if isinstance(event, Pass):
                self._events.append(Pass(event.seat, None, event.auto, event.seq, event.action))
            else:
                if isinstance(event, Play):
                    self._played_by[event.seat] |= event.cards
                self._events.append(copy.copy(event))
        self.n_events += len(new)
        if len(self._actions) != len(game.history):
            self._declines = self._declines or any(
                a.kind == "decline" for a in game.history[len(self._actions) :]
            )
            self._actions = tuple(game.history)

    def actions_seen_by(self, seat: int | None) -> tuple[Action, ...]:
        """The history as ``seat`` may know it (None: a spectator): a decline of a chop offer is
        seen only by the seat that declined, since it tells that the seat held the bomb."""
        if not self._declines:
            return self._actions
        return tuple(a for a in self._actions if a.kind != "decline" or a.seat == seat)

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
            # Only its holder (the first game's leader) is told: the card is one of theirs.
            required=game.required if game.hands[seat] & game.required else 0,
            first_game=game.first_game,
            leader=game.leader,
            barred_instant_winner=game.barred_instant_winner,
            actions=self.actions_seen_by(seat),
            events=tuple(self._events),
            time_budget_s=time_budget_s,
            chop_offer=not my_turn and seat in game.chop_window(),
            seq=len(game.events),
            over=game.over,
            deal=public_deal(game),
        )

    def spectator(self, game: Game) -> SpectatorView:
        """What someone watching the table may know now."""
        self.update(game)
        return SpectatorView(
            n_players=game.n,
            rules=game.rules,
            current=game.current_player,
            cards_left=tuple(h.bit_count() for h in game.hands),
            in_game=game.in_game,
            passed=game.passed,
            table=(game.last_seat, game.last_mask, game.last_code) if game.last_code else None,
            round_plays=tuple(game.round_plays),
            played_by=tuple(self._played_by),
            first_game=game.first_game,
            leader=game.leader,
            actions=self.actions_seen_by(None),
            events=tuple(self._events),
            seq=len(game.events),
            over=game.over,
            deal=public_deal(game),
        )


@dataclass(frozen=True, slots=True)
class SpectatorView:
    """What anyone watching the table may know: no hand, no legal actions."""

    n_players: int
    rules: RuleSet
    current: int
    cards_left: tuple[int, ...]
    in_game: int
    passed: int
    table: Played | None
    round_plays: tuple[Played, ...]
    played_by: tuple[int, ...]
    first_game: bool
    leader: int
    actions: tuple[Action, ...]
    events: tuple[Event, ...]
    seq: int
    over: bool
    deal: dict[str, Any] | None


def public_deal(game: Game) -> dict[str, Any] | None:
    """The deal as a view may show it: the server seed only once the game is over."""
    if game.deal is None:
        return None
    if game.over:
        return dict(game.deal)
    return {k: v for k, v in game.deal.items() if k != "server_seed"}


def view_of(game: Game, seat: int, time_budget_s: float | None = None) -> SeatView:
    """Build a seat's view from scratch (use a :class:`PublicLog` when building many)."""
    return PublicLog(game.n).view(game, seat, time_budget_s)


def spectator_view(game: Game) -> SpectatorView:
    """Build a spectator's view from scratch."""
    return PublicLog(game.n).spectator(game)
