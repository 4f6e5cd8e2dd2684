"""The game: one deal played to its end, as a pure state machine with no I/O.

Modelled on OpenSpiel: :attr:`Game.current_player`, :meth:`Game.legal_actions`,
:meth:`Game.apply_action`, :meth:`Game.is_terminal`. An action is a card mask; ``PASS`` (0) is a
pass. Tiến Lên has one action that needs no turn — 4 consecutive pairs chopping out of turn — so
``legal_actions(seat)`` and ``apply_action(action, seat)`` take any seat, not only the current one.

Every caller that changes a game — record replay, bots, the terminal table, the server — sends
one typed :class:`Action` (play, pass, timeout, leave, decline) through :meth:`Game.apply`.

The out-of-turn chop window (:meth:`Game.chop_window`) is the engine's, so every table asks in
the same order: after a 2 or a bomb lands, each other seat that may chop it out of turn is
offered the chop, in play order from the current player; a seat's offer lapses when it declines
(:meth:`Action.decline`) or when another play covers the one it could chop.

Everything that happens is appended to :attr:`Game.events`, numbered; illegal actions raise a
subclass of :class:`~tienlen.engine.errors.IllegalAction` and change nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Final

from . import combos as C
from . import errors as E
from .actions import PASS, Action, hand_mask
from .cards import CardSet, check_hands, mask_str
from .combos import _CLASSIFY_CACHE, BOMB_CODE, SINGLE_BELOW_TWO, TWO_CARD, is_heavy
from .deal import deal_for_game
from .ending import check_end, instant_win_at_start, player_out
from .events import Chop, Event, InstantWin, Left, Pass, Play, Played, RoundWon
from .legality import check_pass, check_play, check_seat, may_chop_out_of_turn, out_of_turn_kind
from .moves import beating_plays, leading_plays, out_of_turn_chops
from .rules import RuleSet

__all__ = ["HAND_SIZE", "PASS", "TERMINAL", "Action", "Game"]

TERMINAL: Final = -1
"""``current_player`` once the game is over."""
HAND_SIZE: Final = 13

_new_tuple: Final = tuple.__new__
_PASSES: Final = tuple(Action(seat, "pass") for seat in range(4))
"""A pass by each seat: one immutable history entry each, not a new one per pass."""


def _next_seats(n: int) -> tuple[tuple[int, ...], ...]:
    """``_next_seats(n)[seat][mask]``: the first seat after ``seat`` in play order (``seat``
    itself last) whose bit is in ``mask``, or -1. Indexing by seat -1 reads the row of seat
    n - 1, which asks in the same order: 0, 1, …, n - 1."""
    rows = []
    for seat in range(n):
        order = [(seat + k) % n for k in range(1, n + 1)]
        rows.append(tuple(next((s for s in order if mask >> s & 1), -1) for mask in range(16)))
    return tuple(rows)


MAX_ATTRIBUTES: Final = 29
"""The most attributes a game may have: CPython 3.11 reads an object's attributes from a table
shared by its class for up to 29 names, and from a dictionary of its own past them (about 140
machine instructions more a read, 3 % of a pure game). tests/test_snapshots.py counts them."""
_NEXT_SEAT: Final = tuple(_next_seats(n) for n in range(5))
"""Finding the next seat to act is one lookup, not a loop round the table (every action)."""


class Game:
    """One game of Tiến Lên Miền Nam from the deal to the end."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Game:  # mypyc: lets copy() skip __init__
        return super().__new__(cls)

    def __init__(
        self,
        rules: RuleSet,
        hands: Sequence[int | CardSet | str | Iterable[int]],
        *,
        first_game: bool = True,
        leader: int | None = None,
        barred_instant_winner: int | None = None,
    ) -> None:
        masks = [hand_mask(h) for h in hands]
        if not 2 <= len(masks) <= 4:
            raise ValueError(f"Tiến Lên is played by 2 to 4 players, not {len(masks)}")
        seen = check_hands(masks)
        if leader is not None and not 0 <= leader < len(masks):
            raise ValueError(f"leader must be a seat from 0 to {len(masks) - 1}")

        self.rules = rules
        self.n = len(masks)
        self._next_seat = _NEXT_SEAT[len(masks)]
        self.hands: list[int] = masks
        self.deal: dict[str, Any] | None = None
        """The verifiable deal behind the hands (``scheme``, ``commitment``, seeds), when the
        table dealt one: docs/FAIRNESS.md. Views hide the server seed until the game is over."""
        self.events: list[Event] = []
        self.history: list[Action] = []

        self.in_game = (1 << self.n) - 1
        """Seats still holding cards and seated (a bit per seat)."""
        self.left = 0
        self.played = 0
        """Seats that have played at least one card (for cóng)."""
        self.passed = 0
        self.revived = 0
        """Passed seats given their turn back to chop with 4+ consecutive pairs."""
        self.declined = 0
        """Seats that let the out-of-turn chop offer on the current play go (a bit per seat)."""
        self.top: list[int] = []
        """Seats out, from first place down."""
        self.bottom: list[int] = []
        """Seats ranked from the bottom up: leavers, cóng in full ranking, "2 last"."""
        self.cong: tuple[int, ...] = ()
        self.last_seat = -1
        self.last_mask = 0
        self.last_code = 0
        self.round_plays: list[Played] = []
        self.required = 0
        """A card the next play must contain (3♠ or the lowest card, in a first game)."""
        self.winner: int | None = None
        self.ranking: tuple[int, ...] = ()
        self.instant_win: InstantWin | None = None
        self.over = False
        self._cache: list[int] | None = None
        """The current player's legal actions, once asked for; None again after any change."""
        self._next_action = 0
        """The ``action`` number of the events being made: 0 for the deal's, then the number
        of the command being applied. Declines are private, so they take no number."""

        lowest = seen & -seen
        if first_game:
            leader = next(s for s in range(self.n) if masks[s] & lowest)
            if rules.first_play_must_contain_lowest:
                self.required = lowest
        elif leader is None:
            leader = 0
        self._start = (tuple(masks), first_game, barred_instant_winner, leader)
        """initial_hands, first_game, barred_instant_winner and leader: read once a game or so,
        so kept in one attribute, for a game to have no more than :data:`MAX_ATTRIBUTES`."""
        self.current = leader
        instant_win_at_start(self)
        self._next_action = 1

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        n_players: int = 4,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        secure: bool = False,
        server_seed: bytes | None = None,
        client_seeds: Sequence[bytes] = (),
        first_game: bool = True,
        leader: int | None = None,
        barred_instant_winner: int | None = None,
    ) -> Game:
        """Deal (the seeded chance step) and start a game; redeals four 2s when the rules say.

        ``seed`` or ``rng`` make a quick deal reproducible (bots, tests, benchmarks). A real
        table deals verifiably (docs/FAIRNESS.md): ``secure=True`` draws a fresh secret server
        seed, or pass the ``server_seed`` whose commitment the table published, with the
        seats' ``client_seeds``; :attr:`deal` then holds what a player needs to check the deal.
        """
        hands, deal = deal_for_game(
            n_players,
            rules.redeal_four_twos,
            seed=seed,
            rng=rng,
            secure=secure,
            server_seed=server_seed,
            client_seeds=client_seeds,
        )
        game = cls(
            rules,
            hands,
            first_game=first_game,
            leader=leader,
            barred_instant_winner=barred_instant_winner,
        )
        game.deal = deal
        return game

    @property
    def initial_hands(self) -> tuple[int, ...]:
        """The hands as dealt."""
        return self._start[0]

    @property
    def first_game(self) -> bool:
        """Whether this is a first game (3♠, or the lowest card, leads)."""
        return self._start[1]

    @property
    def barred_instant_winner(self) -> int | None:
        """The seat that may not win at the deal (``no_consecutive_instant_win``), if any."""
        return self._start[2]

    @property
    def leader(self) -> int:
        """Who led the game's first round."""
        return self._start[3]

    # --- OpenSpiel-style interface --------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return TERMINAL if self.over else self.current

    def is_terminal(self) -> bool:
        return self.over

    @property
    def leading(self) -> bool:
        """Whether the current player opens a new round (có cái)."""
        return self.last_code == 0

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Every legal action of ``seat`` (default: the current player), each card set once.

        For the current player: ``PASS`` first when passing is allowed, then every play. For any
        other seat: the out-of-turn chops with 4+ consecutive pairs the rules allow, if any.
        """
        if seat is None or seat == self.current:
            actions = self._cache
            if actions is not None:
                return list(actions)
            if self.over:
                return []
            hand = self.hands[self.current]
            code = self.last_code
            if not code:
                actions = leading_plays(hand, self.rules)
                required = self.required
                if required:
                    actions = [m for m in actions if m & required]
            elif code < SINGLE_BELOW_TWO:
                # beating_plays() written out for most answers: nothing chops, none revived.
                above = (code & 0xFF) + 1
                rest = hand >> above << above
                actions = [PASS]
                while rest:
                    low = rest & -rest
                    actions.append(low)
                    rest ^= low
            else:
                actions = beating_plays(hand, code, self.rules)
                if self.revived >> self.current & 1:
                    actions = [m for m in actions if out_of_turn_kind(m)]
                actions.insert(0, PASS)
            self._cache = actions
            return list(actions)
        if self.over or not may_chop_out_of_turn(self, seat) or self.declined >> seat & 1:
            return []
        return out_of_turn_chops(self.hands[seat], self.last_code, self.rules)

    def chop_window(self) -> tuple[int, ...]:
        """The seats offered an out-of-turn chop now, in the order a table asks them.

        Play order from the current player: the seat after the current one first. A seat is
        offered while it holds 4+ consecutive pairs that chop the play on the table and has not
        declined; the offer lapses when the seat declines or another play covers this one.
        Empty when the rules allow no out-of-turn chop.
        """
        if self.over or not self.last_code or not self.rules.four_pairs_out_of_turn:
            return ()
        n = self.n
        seats = ((self.current + k) % n for k in range(1, n))
        return tuple(s for s in seats if self.legal_actions(s))

    def apply(self, action: Action) -> list[Event]:
        """Apply one command; returns the events it caused. The one entry point for changes.

        Raises a subclass of :class:`~tienlen.engine.errors.IllegalAction` (nothing changes)
        when the command is not legal now.
        """
        start = len(self.events)
        kind = action.kind
        seat = action.seat
        if kind == "play":
            self.play(action.cards, seat)
        elif kind == "pass":
            self.pass_turn(seat)
        elif kind == "timeout":
            self.timeout(seat)
        elif kind == "leave":
            self.leave(seat)
        elif kind == "decline":
            self.decline_chop(seat)
        else:
            raise E.BadAction(f"unknown action kind {kind!r}", seat)
        return self.events[start:]

    def apply_action(self, action: int, seat: int | None = None) -> None:
        """Play the cards of mask ``action`` (or pass, for ``PASS``) as ``seat``."""
        cache = self._cache  # None once the game is over
        if cache is not None and (seat is None or seat == self.current) and action in cache:
            # Known legal in this very state: no re-validation (search and simulation act from
            # legal_actions()). play() or pass_turn(), _do_pass() and _advance() written out.
            seat = self.current
            if action:
                code = _CLASSIFY_CACHE.get(action) or C.classify(action)
                self._do_play(seat, action, code)
                self.history.append(_new_tuple(Action, (seat, "play", action)))
                self._next_action += 1
                return
            self._cache = None
            bit = 1 << seat
            passed = self.passed | bit
            self.passed = passed
            revived = self.revived & ~bit
            self.revived = revived
            events = self.events
            events.append(Pass(seat, len(cache) > 1, False, len(events) + 1, self._next_action))
            self.history.append(_PASSES[seat])
            last = self.last_seat  # a play is on the table
            in_game = self.in_game
            last_bit = 1 << last
            answering = in_game & (~passed | revived) & ~last_bit | in_game & last_bit
            next_seat = self._next_seat
            after = next_seat[seat][answering]
            if after == last:
                self._new_round(last)
            elif after < 0:
                self._new_round(next_seat[last][in_game], inherited=True)
            else:
                self.current = after
            self._next_action += 1
            return
        if seat is None:
            seat = self.current
        if action == PASS:
            if seat != self.current and not self.over and seat in self.chop_window():
                self.decline_chop(seat)
            else:
                self.pass_turn(seat)
        else:
            self.play(action, seat)

    # --- actions --------------------------------------------------------------------------------
    def play(self, cards: int | CardSet | str | Iterable[int], seat: int | None = None) -> None:
        """Lay ``cards`` as ``seat`` (default: the current player)."""
        mask = hand_mask(cards)
        if seat is None:
            seat = self.current
        check_seat(self, seat)
        code = check_play(self, seat, mask)
        self._do_play(seat, mask, code)
        self._record(Action(seat, "play", mask))

    def pass_turn(self, seat: int | None = None) -> None:
        """Pass (bỏ lượt): out of this round until a new one starts."""
        if seat is None:
            seat = self.current
        check_seat(self, seat)
        check_pass(self, seat)
        self._do_pass(seat)
        self._record(_PASSES[seat])

    def timeout(self, seat: int | None = None) -> None:
        """The turn timer ran out: the leader plays their smallest card, anyone else passes."""
        if seat is None:
            seat = self.current
        check_seat(self, seat)
        if seat != self.current:
            raise E.NotYourTurn(f"it is seat {self.current}'s turn, not seat {seat}'s", seat)
        if self.last_code == 0:
            hand = self.hands[seat]
            smallest = hand & -hand
            self._do_play(seat, smallest, C.classify(smallest), auto=True)
        else:
            self._do_pass(seat, auto=True)
        self._record(Action(seat, "timeout"))

    def decline_chop(self, seat: int) -> None:
        """Let the out-of-turn chop offer on the current play go (see :meth:`chop_window`)."""
        check_seat(self, seat)
        if seat not in self.chop_window():
            raise E.NoChopOffer(
                f"seat {seat} has no out-of-turn chop offer to decline"
                + (" (it is their turn: pass instead)" if seat == self.current else ""),
                seat,
            )
        self.declined |= 1 << seat
        self._cache = None
        self._record(Action(seat, "decline"))

    def leave(self, seat: int) -> None:
        """A player leaves or disconnects: out of the game, ranked below everyone still in it."""
        check_seat(self, seat)
        bit = 1 << seat
        self.in_game &= ~bit
        self.left |= bit
        self.passed &= ~bit
        self.revived &= ~bit
        if self.hands[seat] & self.required:
            self.required = 0  # the 3♠ left with its holder: the next leader plays freely
        self.bottom.append(seat)
        self.log(Left(seat))
        self._cache = None
        if not check_end(self) and seat == self.current:
            self._advance(seat)
        self._record(Action(seat, "leave"))

    # --- state changes ---------------------------------------------------------------------------
    def _do_play(self, seat: int, mask: int, code: int, auto: bool = False) -> None:
        self._cache = None
        hands = self.hands
        hand = hands[seat] ^ mask
        hands[seat] = hand
        bit = 1 << seat
        self.played |= bit
        self.required = 0
        round_plays = self.round_plays
        beaten = round_plays[-1] if round_plays else None  # (last_seat, last_mask, last_code)
        events = self.events
        out_of_turn = seat != self.current
        play = Play(seat, mask, code, beaten, out_of_turn, auto, len(events) + 1, self._next_action)
        events.append(play)
        # A bomb on a 2 or a bomb: a chop.
        if code >= BOMB_CODE and beaten is not None and is_heavy(beaten[2]):
            chain = []
            for earlier in reversed(round_plays):
                if not is_heavy(earlier[2]):
                    break
                chain.append(earlier)
            chain.reverse()
            self.log(Chop(seat, beaten[0], mask, beaten[1], tuple(chain)))
        round_plays.append((seat, mask, code))
        self.last_seat = seat
        self.last_mask = mask
        self.last_code = code
        passed = self.passed & ~bit
        self.passed = passed
        self.revived = 0
        self.declined = 0
        if not hand:
            player_out(self, seat, mask)
            if self.over:
                return
            passed = self.passed
        if (
            passed
            and (code >= BOMB_CODE or code & 0xFF >= TWO_CARD)
            and self.rules.four_pairs_after_pass
        ):
            self._revive_choppers()
        # _advance(seat), written out: the one who just played closes the round, if still in.
        in_game = self.in_game
        answering = in_game & (~passed | self.revived) & ~bit | in_game & bit
        next_seat = self._next_seat
        after = next_seat[seat][answering]
        if after == seat:
            self._new_round(seat)
        elif after < 0:
            self._new_round(next_seat[seat][in_game], inherited=True)
        else:
            self.current = after

    def _do_pass(self, seat: int, auto: bool = False) -> None:
        if self._cache is not None:
            could_beat = len(self._cache) > 1
        else:
            could_beat = bool(beating_plays(self.hands[seat], self.last_code, self.rules))
        self._cache = None
        bit = 1 << seat
        self.passed |= bit
        self.revived &= ~bit
        events = self.events
        events.append(Pass(seat, could_beat, auto, len(events) + 1, self._next_action))
        self._advance(seat)

    def end(self) -> None:
        """Mark the game over (:mod:`.ending` decides when): no legal action is left."""
        self.over = True
        self._cache = None

    def _revive_choppers(self) -> None:
        """Passed seats holding 4+ consecutive pairs that chop the new play get a turn back."""
        if self.rules.four_pairs_out_of_turn:
            return  # they may chop at any moment anyway
        for seat in range(self.n):
            bit = 1 << seat
            if self.passed & bit and self.in_game & bit:
                hand = self.hands[seat]
                if out_of_turn_chops(hand, self.last_code, self.rules):
                    self.revived |= bit

    def _advance(self, from_seat: int) -> None:
        """Hand the turn to the next seat that may still answer, or close the round."""
        last = self.last_seat
        in_game = self.in_game
        answering = in_game & (~self.passed | self.revived)
        if last >= 0:  # the last player's turn coming back round closes the round
            last_bit = 1 << last
            answering = answering & ~last_bit | in_game & last_bit
        next_seat = self._next_seat
        seat = next_seat[from_seat][answering]
        if seat == -1:
            # Nobody can answer and the last player has gone: the next one on leads (hưởng sái).
            self._new_round(next_seat[last][in_game], inherited=True)
        elif seat == last:
            self._new_round(seat)
        else:
            self.current = seat

    def _new_round(self, leader: int, inherited: bool = False) -> None:
        events = self.events
        events.append(
            RoundWon(self.last_seat, leader, inherited, len(events) + 1, self._next_action)
        )
        self.last_seat = -1
        self.last_mask = 0
        self.last_code = 0
        self.passed = 0
        self.revived = 0
        self.declined = 0
        self.round_plays = []
        self.current = leader

    def _record(self, action: Action) -> None:
        """Append a command to the history. A decline is private (it tells that the seat holds
        the bomb): it takes no number, so the events' ``action`` numbers show no gap for it."""
        self.history.append(action)
        if action.kind != "decline":
            self._next_action += 1

    def log(self, event: Event) -> None:
        """Append an event numbered: its place in the log and the command that caused it (the
        hot events, Play, Pass and RoundWon, are made numbered instead). The end of a game
        (:mod:`.ending`) logs its events through this, as the game's own moves do."""
        event.seq = len(self.events) + 1
        event.action = self._next_action
        self.events.append(event)

    # --- copies ---------------------------------------------------------------------------------
    def copy(self) -> Game:
        """An independent copy, cheap enough for search: a few list copies, not a replay.

        Events already in the log are shared with the copy: the game never changes an event
        once numbered."""
        twin = Game.__new__(Game)
        twin.rules = self.rules
        twin.n = self.n
        twin._next_seat = self._next_seat
        twin.hands = self.hands.copy()
        twin._start = self._start
        twin.events = self.events.copy()
        twin.history = self.history.copy()
        twin.in_game = self.in_game
        twin.left = self.left
        twin.played = self.played
        twin.passed = self.passed
        twin.revived = self.revived
        twin.declined = self.declined
        twin.top = self.top.copy()
        twin.bottom = self.bottom.copy()
        twin.cong = self.cong
        twin.last_seat = self.last_seat
        twin.last_mask = self.last_mask
        twin.last_code = self.last_code
        twin.round_plays = self.round_plays.copy()
        twin.required = self.required
        twin.winner = self.winner
        twin.ranking = self.ranking
        twin.instant_win = self.instant_win
        twin.over = self.over
        twin.current = self.current
        twin.deal = None if self.deal is None else dict(self.deal)
        twin._cache = self._cache
        twin._next_action = self._next_action
        return twin

    # --- views ------------------------------------------------------------------------------
    def cards_left(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def __repr__(self) -> str:
        state = "over" if self.over else f"seat {self.current} to act"
        table = mask_str(self.last_mask) if self.last_code else "empty"
        return f"<Game {self.rules.name} {self.n} players, {state}, table {table}>"
