"""The game: one deal played to its end, as a pure state machine with no I/O.

Modelled on OpenSpiel: :attr:`Game.current_player`, :meth:`Game.legal_actions`,
:meth:`Game.apply_action`, :meth:`Game.is_terminal`. An action is a card mask; ``PASS`` (0) is a
pass. Tiến Lên has one action that needs no turn — 4 consecutive pairs chopping out of turn — so
``legal_actions(seat)`` and ``apply_action(action, seat)`` take any seat, not only the current one.

Everything that happens is appended to :attr:`Game.events`; illegal actions raise a subclass of
:class:`~tienlen.errors.IllegalAction` and change nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from . import combos as C
from . import errors as E
from .cards import FULL_DECK, TWOS_MASK, CardSet, card_str, mask_of, mask_str
from .events import (
    Chop,
    Cong,
    Event,
    GameOver,
    InstantWin,
    Left,
    Pass,
    Play,
    Played,
    PlayerOut,
    RoundWon,
)
from .instant import instant_hands
from .moves import beating_plays, chopping_plays, leading_plays
from .rules import RuleSet

PASS = 0
"""The pass action (bỏ lượt)."""
TERMINAL = -1
"""``current_player`` once the game is over."""
HAND_SIZE = 13

_OUT_OF_TURN_CATEGORIES = (C.PAIRS4, C.PAIRS5, C.PAIRS6)


def deal(n_players: int, rng: random.Random | None = None, seed: int | None = None) -> list[int]:
    """Shuffle a deck and deal 13 cards to each of 2–4 players (hands as masks).

    Pass ``seed`` for a reproducible deal, or an ``rng``; ``random.SystemRandom()`` gives the
    cryptographic shuffle real tables use.
    """
    if not 2 <= n_players <= 4:
        raise ValueError(f"Tiến Lên is played by 2 to 4 players, not {n_players}")
    if rng is None:
        rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    return [mask_of(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(n_players)]


def _hand_mask(hand: int | CardSet | str | Iterable[int]) -> int:
    if isinstance(hand, int):
        return hand
    return CardSet(hand).mask


class Action(NamedTuple):
    """One entry of the game's history, as a record stores it."""

    seat: int
    kind: str
    """``play``, ``pass``, ``timeout`` or ``leave``."""
    cards: int = 0


_new_tuple = tuple.__new__


class Game:
    """One game of Tiến Lên Miền Nam from the deal to the end."""

    def __init__(
        self,
        rules: RuleSet,
        hands: Sequence[int | CardSet | str | Iterable[int]],
        *,
        first_game: bool = True,
        leader: int | None = None,
        barred_instant_winner: int | None = None,
    ) -> None:
        masks = [_hand_mask(h) for h in hands]
        if not 2 <= len(masks) <= 4:
            raise ValueError(f"Tiến Lên is played by 2 to 4 players, not {len(masks)}")
        seen = 0
        for seat, mask in enumerate(masks):
            if mask < 0 or mask & ~FULL_DECK:
                raise ValueError(f"seat {seat}: not a set of cards")
            if mask.bit_count() != HAND_SIZE:
                raise ValueError(f"seat {seat} holds {mask.bit_count()} cards, not {HAND_SIZE}")
            if mask & seen:
                raise ValueError(f"seat {seat}: {mask_str(mask & seen)} dealt twice")
            seen |= mask
        if leader is not None and not 0 <= leader < len(masks):
            raise ValueError(f"leader must be a seat from 0 to {len(masks) - 1}")

        self.rules = rules
        self.n = len(masks)
        self.hands: list[int] = masks
        self.initial_hands: tuple[int, ...] = tuple(masks)
        self.first_game = first_game
        self.barred_instant_winner = barred_instant_winner
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
        self._version = 0
        self._cache_version = -1
        """``_version`` when ``_cache`` (the current player's legal actions) was computed."""
        self._cache: list[int] = []

        lowest = seen & -seen
        if first_game:
            self.leader = next(s for s in range(self.n) if masks[s] & lowest)
            if rules.first_play_must_contain_lowest:
                self.required = lowest
        else:
            self.leader = 0 if leader is None else leader
        self.current = self.leader
        self._check_instant_wins()

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        n_players: int = 4,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        secure: bool = False,
        first_game: bool = True,
        leader: int | None = None,
        barred_instant_winner: int | None = None,
    ) -> Game:
        """Deal (the seeded chance step) and start a game; redeals four 2s when the rules say.

        ``seed`` or ``rng`` make the deal reproducible; ``secure=True`` shuffles with the
        operating system's cryptographic generator, as real-money tables must.
        """
        if secure:
            if seed is not None or rng is not None:
                raise ValueError("a secure deal cannot be seeded")
            rng = random.SystemRandom()
        if rng is None:
            rng = random.Random(seed)
        hands = deal(n_players, rng)
        while rules.redeal_four_twos and any(h & TWOS_MASK == TWOS_MASK for h in hands):
            hands = deal(n_players, rng)
        return cls(
            rules,
            hands,
            first_game=first_game,
            leader=leader,
            barred_instant_winner=barred_instant_winner,
        )

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
        if self.over:
            return []
        if seat is None or seat == self.current:
            if self._cache_version == self._version:
                return list(self._cache)
            hand = self.hands[self.current]
            if self.last_code == 0:
                actions = leading_plays(hand, self.rules)
                if self.required:
                    required = self.required
                    actions = [m for m in actions if m & required]
            else:
                actions = beating_plays(hand, self.last_code, self.rules)
                if self.revived >> self.current & 1:
                    actions = [m for m in actions if _out_of_turn_kind(m)]
                actions.insert(0, PASS)
            self._cache_version = self._version
            self._cache = actions
            return list(actions)
        if not self._may_chop_out_of_turn(seat):
            return []
        return chopping_plays(self.hands[seat], self.last_code, self.rules, _OUT_OF_TURN_CATEGORIES)

    def apply_action(self, action: int, seat: int | None = None) -> None:
        """Play the cards of mask ``action`` (or pass, for ``PASS``) as ``seat``."""
        if (
            self._cache_version == self._version
            and (seat is None or seat == self.current)
            and not self.over
            and action in self._cache
        ):
            # Already known legal for this exact state: skip re-validation (the hot path of
            # search and simulation, which always act from legal_actions()).
            seat = self.current
            if action == PASS:
                self._do_pass(seat, auto=False)
                self.history.append(_new_tuple(Action, (seat, "pass", 0)))
            else:
                self._do_play(seat, action, C.classify(action), auto=False)
                self.history.append(_new_tuple(Action, (seat, "play", action)))
            return
        if seat is None:
            seat = self.current
        if action == PASS:
            self.pass_turn(seat)
        else:
            self.play(action, seat)

    # --- actions --------------------------------------------------------------------------------
    def play(self, cards: int | CardSet | str | Iterable[int], seat: int | None = None) -> None:
        """Lay ``cards`` as ``seat`` (default: the current player)."""
        mask = _hand_mask(cards)
        if seat is None:
            seat = self.current
        self._check_seat(seat)
        code = self._check_play(seat, mask)
        self._do_play(seat, mask, code, auto=False)
        self.history.append(Action(seat, "play", mask))

    def pass_turn(self, seat: int | None = None) -> None:
        """Pass (bỏ lượt): out of this round until a new one starts."""
        if seat is None:
            seat = self.current
        self._check_seat(seat)
        self._check_pass(seat)
        self._do_pass(seat, auto=False)
        self.history.append(Action(seat, "pass"))

    def timeout(self, seat: int | None = None) -> None:
        """The turn timer ran out: the leader plays their smallest card, anyone else passes."""
        if seat is None:
            seat = self.current
        self._check_seat(seat)
        if seat != self.current:
            raise E.NotYourTurn(f"it is seat {self.current}'s turn, not seat {seat}'s", seat)
        if self.last_code == 0:
            hand = self.hands[seat]
            smallest = hand & -hand
            self._do_play(seat, smallest, C.classify(smallest), auto=True)
        else:
            self._do_pass(seat, auto=True)
        self.history.append(Action(seat, "timeout"))

    def leave(self, seat: int) -> None:
        """A player leaves or disconnects: out of the game, ranked below everyone still in it."""
        self._check_seat(seat)
        bit = 1 << seat
        self.in_game &= ~bit
        self.left |= bit
        self.passed &= ~bit
        self.revived &= ~bit
        if self.hands[seat] & self.required:
            self.required = 0  # the 3♠ left with its holder: the next leader plays freely
        self.bottom.append(seat)
        self.events.append(Left(seat))
        self.history.append(Action(seat, "leave"))
        self._version += 1
        if self._check_end():
            return
        if seat == self.current:
            self._advance(seat)

    # --- validation ----------------------------------------------------------------------------
    def _check_seat(self, seat: int) -> None:
        if self.over:
            raise E.GameOverError("the game is over", seat)
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise E.NotInGame(f"there is no seat {seat!r} at this table", None)
        if not self.in_game >> seat & 1:
            why = "has left" if self.left >> seat & 1 else "has already gone out"
            raise E.NotInGame(f"seat {seat} {why}", seat)

    def _check_play(self, seat: int, mask: int) -> int:
        hand = self.hands[seat]
        if mask <= 0 or mask & ~FULL_DECK:
            raise E.NotACombination("a play needs at least one card", seat)
        if mask & ~hand:
            missing = mask_str(mask & ~hand)
            raise E.CardsNotInHand(f"seat {seat} does not hold {missing}", seat)
        code = C.classify(mask)
        if code == 0 or not self.rules.allows(code):
            raise E.NotACombination(f"{mask_str(mask)} is not a combination", seat)
        if seat != self.current:
            self._check_out_of_turn(seat, mask, code)
            return code
        if self.last_code == 0:
            if self.required and not mask & self.required:
                card = card_str(self.required.bit_length() - 1)
                raise E.MustContainCard(f"the first play of the game must contain {card}", seat)
            return code
        if not self.rules.beats(code, self.last_code):
            raise E.DoesNotBeat(
                f"{mask_str(mask)} ({C.describe(code)}) does not beat "
                f"{mask_str(self.last_mask)} ({C.describe(self.last_code)})",
                seat,
            )
        if self.revived >> seat & 1 and not _out_of_turn_kind(mask):
            raise E.AlreadyPassed(
                f"seat {seat} passed this round and may only chop with 4 consecutive pairs", seat
            )
        return code

    def _may_chop_out_of_turn(self, seat: int) -> bool:
        return (
            self.rules.four_pairs_out_of_turn
            and self.last_code != 0
            and 0 <= seat < self.n
            and seat != self.last_seat
            and seat != self.current
            and bool(self.in_game >> seat & 1)
            and (not self.passed >> seat & 1 or self.rules.four_pairs_after_pass)
            and C.category(self.last_code) is not None
        )

    def _check_out_of_turn(self, seat: int, mask: int, code: int) -> None:
        if not self._may_chop_out_of_turn(seat) or not _out_of_turn_kind(mask):
            if self.passed >> seat & 1 and (
                not self.rules.four_pairs_after_pass or not _out_of_turn_kind(mask)
            ):
                raise E.AlreadyPassed(f"seat {seat} passed this round", seat)
            raise E.NotYourTurn(
                f"it is seat {self.current}'s turn, not seat {seat}'s"
                + (
                    " (only 4 consecutive pairs chopping a 2 or a bomb may play out of turn)"
                    if self.rules.four_pairs_out_of_turn
                    else ""
                ),
                seat,
            )
        if not self.rules.beats(code, self.last_code):
            raise E.DoesNotBeat(
                f"{mask_str(mask)} does not chop {mask_str(self.last_mask)}",
                seat,
            )

    def _check_pass(self, seat: int) -> None:
        if seat != self.current:
            if self.passed >> seat & 1:
                raise E.AlreadyPassed(f"seat {seat} has already passed this round", seat)
            raise E.NotYourTurn(f"it is seat {self.current}'s turn, not seat {seat}'s", seat)
        if self.last_code == 0:
            raise E.CannotPass(f"seat {seat} leads this round and must play", seat)

    # --- state changes ---------------------------------------------------------------------------
    def _do_play(self, seat: int, mask: int, code: int, auto: bool) -> None:
        self._version += 1
        self.hands[seat] ^= mask
        bit = 1 << seat
        self.played |= bit
        self.required = 0
        out_of_turn = seat != self.current
        beaten: Played | None = None
        events = self.events
        if self.last_code:
            beaten = (self.last_seat, self.last_mask, self.last_code)
            if (code >> 16 == C.PAIRS or code >> 16 == C.QUAD) and C.category(self.last_code):
                chain = []
                for played in reversed(self.round_plays):
                    if C.category(played[2]) is None:
                        break
                    chain.append(played)
                chain.reverse()
                events.append(Play(seat, mask, code, beaten, out_of_turn, auto))
                events.append(Chop(seat, self.last_seat, mask, self.last_mask, tuple(chain)))
            else:
                events.append(Play(seat, mask, code, beaten, out_of_turn, auto))
        else:
            events.append(Play(seat, mask, code, None, out_of_turn, auto))
        self.round_plays.append((seat, mask, code))
        self.last_seat = seat
        self.last_mask = mask
        self.last_code = code
        self.passed &= ~bit
        self.revived = 0
        if not self.hands[seat]:
            self._player_out(seat, mask)
            if self.over:
                return
        if self.passed and self.rules.four_pairs_after_pass and C.category(code):
            self._revive_choppers()
        self._advance(seat)

    def _do_pass(self, seat: int, auto: bool) -> None:
        if self._cache_version == self._version:
            could_beat = len(self._cache) > 1
        else:
            could_beat = bool(beating_plays(self.hands[seat], self.last_code, self.rules))
        self._version += 1
        bit = 1 << seat
        self.passed |= bit
        self.revived &= ~bit
        self.events.append(Pass(seat, could_beat, auto))
        self._advance(seat)

    def _revive_choppers(self) -> None:
        """Passed seats holding 4+ consecutive pairs that chop the new play get a turn back."""
        if self.rules.four_pairs_out_of_turn:
            return  # they may chop at any moment anyway
        for seat in range(self.n):
            bit = 1 << seat
            if self.passed & bit and self.in_game & bit:
                hand = self.hands[seat]
                if chopping_plays(hand, self.last_code, self.rules, _OUT_OF_TURN_CATEGORIES):
                    self.revived |= bit

    def _advance(self, from_seat: int) -> None:
        """Hand the turn to the next seat that may still answer, or close the round."""
        n = self.n
        seat = from_seat
        last = self.last_seat
        in_game = self.in_game
        for _ in range(n):
            seat += 1
            if seat == n:
                seat = 0
            bit = 1 << seat
            if seat == last:
                if in_game & bit:
                    self._new_round(seat, inherited=False)
                    return
                continue
            if in_game & bit and (not self.passed & bit or self.revived & bit):
                self.current = seat
                return
        # Nobody can answer and the last player has gone: the next one on leads (hưởng sái).
        seat = last
        for _ in range(n):
            seat += 1
            if seat == n:
                seat = 0
            if in_game >> seat & 1:
                break
        self._new_round(seat, inherited=True)

    def _new_round(self, leader: int, inherited: bool) -> None:
        self.events.append(RoundWon(self.last_seat, leader, inherited))
        self.last_seat = -1
        self.last_mask = 0
        self.last_code = 0
        self.passed = 0
        self.revived = 0
        self.round_plays = []
        self.current = leader

    def _player_out(self, seat: int, last_play: int) -> None:
        bit = 1 << seat
        self.in_game &= ~bit
        self.passed &= ~bit
        if self.rules.two_last_ranks_last and last_play & TWOS_MASK:
            self.bottom.append(seat)
            self.events.append(PlayerOut(seat, self.n - len(self.bottom) + 1, ranks_last=True))
        else:
            self.top.append(seat)
            self.events.append(PlayerOut(seat, len(self.top)))
            if len(self.top) == 1 and self.rules.full_ranking:
                self._freeze_cong()
        self._check_end()

    def _freeze_cong(self) -> None:
        """Full ranking: players who had not played when the first went out are cóng and stop."""
        cong = tuple(s for s in range(self.n) if self.in_game >> s & 1 and not self.played >> s & 1)
        if cong:
            self.cong = cong
            self.events.append(Cong(cong))
            # Ranked among themselves in play order from the winner, as losers are elsewhere.
            winner = self.top[0]
            for s in sorted(cong, key=lambda s: (winner - s) % self.n):
                self.in_game &= ~(1 << s)
                self.bottom.append(s)

    def _check_end(self) -> bool:
        remaining = [s for s in range(self.n) if self.in_game >> s & 1]
        if self.top and not self.rules.full_ranking:
            self._finish("out", remaining)
            return True
        if len(remaining) <= 1:
            self.top.extend(remaining)
            self._finish("out" if self.top and not self.left else "left", [])
            return True
        return False

    def _finish(self, reason: str, losers_in_game: list[int]) -> None:
        self.over = True
        self._version += 1
        winner = self.top[0] if self.top else None
        if winner is not None and not self.rules.full_ranking:
            cong = tuple(s for s in losers_in_game if not self.played >> s & 1)
            if cong:
                self.cong = cong
                self.events.append(Cong(cong))
            start = winner
            order = {(start + k) % self.n: k for k in range(self.n)}
            losers_in_game.sort(key=lambda s: (self.hands[s].bit_count(), order[s]))
        self.winner = winner
        ranking = tuple(self.top + losers_in_game + self.bottom[::-1])
        self.ranking = ranking
        self.events.append(GameOver(winner, ranking, reason, tuple(self.hands)))

    def _check_instant_wins(self) -> None:
        found: list[tuple[int, tuple[str, ...]]] = []
        for k in range(self.n):
            seat = (self.leader + k) % self.n
            if seat == self.barred_instant_winner:
                continue
            names = instant_hands(self.hands[seat], self.rules, self.first_game)
            if names:
                found.append((seat, names))
        if not found:
            return
        shared = (
            len(found) > 1
            and self.rules.instant_win_ties == "share_later_games"
            and not self.first_game
        )
        winners = found if shared else found[:1]
        seats = tuple(s for s, _ in winners)
        event = InstantWin(
            seats,
            tuple(names for _, names in winners),
            shared,
            tuple(self.hands[s] for s in seats),
        )
        self.instant_win = event
        self.events.append(event)
        self.top = list(seats)
        self.in_game = 0
        self.over = True
        self.winner = seats[0]
        losers = [s for s in range(self.n) if s not in seats]
        order = {(self.leader + k) % self.n: k for k in range(self.n)}
        losers.sort(key=lambda s: order[s])
        self.ranking = tuple(self.top + losers)
        self.events.append(GameOver(self.winner, self.ranking, "instant_win", tuple(self.hands)))

    # --- views ------------------------------------------------------------------------------
    def cards_left(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def summary(self) -> dict[str, Any]:
        """The outcome in plain data (what ``tienlen replay`` prints before scoring)."""
        from .events import event_to_dict

        return {
            "winner": self.winner,
            "ranking": list(self.ranking),
            "instant_win": self.instant_win.hands[0][0] if self.instant_win else None,
            "instant_winners": list(self.instant_win.seats) if self.instant_win else [],
            "cong": list(self.cong),
            "chops": [event_to_dict(e) for e in self.events if isinstance(e, Chop)],
            "cards_left": [mask_str(h) for h in self.hands],
            "over": self.over,
        }

    def __repr__(self) -> str:
        state = "over" if self.over else f"seat {self.current} to act"
        table = mask_str(self.last_mask) if self.last_code else "empty"
        return f"<Game {self.rules.name} {self.n} players, {state}, table {table}>"


@dataclass(frozen=True)
class NextGame:
    """How the next game at the table starts (the lead rules across a series of games)."""

    first_game: bool
    leader: int | None
    barred_instant_winner: int | None = None

    def kwargs(self) -> dict[str, Any]:
        return {
            "first_game": self.first_game,
            "leader": self.leader,
            "barred_instant_winner": self.barred_instant_winner,
        }


def next_game(game: Game, leader: int | None = None) -> NextGame:
    """The start of the game after ``game`` at the same seats.

    After an instant win the next game is a first game again (3♠ leads), and under
    ``no_consecutive_instant_win`` its winner may not win instantly again; a game nobody won
    (everyone left) also restarts as a first game; otherwise the winner leads. ``leader``
    overrides the winner, for the đền bài rule (the one who pays for the table leads).
    """
    if not game.over:
        raise E.IllegalAction("the game is not over yet")
    if game.instant_win is not None:
        barred = None
        if game.rules.no_consecutive_instant_win and not game.instant_win.shared:
            barred = game.instant_win.seats[0]
        return NextGame(first_game=True, leader=None, barred_instant_winner=barred)
    if game.winner is None:
        return NextGame(first_game=True, leader=None)
    return NextGame(first_game=False, leader=game.winner if leader is None else leader)


def _out_of_turn_kind(mask: int) -> bool:
    """Whether a play is 4 or more consecutive pairs (the bomb that needs no turn)."""
    code = C.classify(mask)
    return code >> 16 == C.PAIRS and (code >> 8) & 0xFF >= 4
