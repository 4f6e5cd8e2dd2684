"""Reading the other players' hands from their choices (the search bot's soft inference).

The public history says who played what and who passed where. Under free passing a pass
proves nothing, but it is *evidence*: a deal of the hidden cards in which another player,
playing like the strategic policy, would have beaten that single is less likely than one in
which they would have passed too. This module scores a deal by its *surprises* — the other
players' past choices the strategic policy would not have made with the hand the deal gives
them — and improves a set of sampled deals by swapping cards between the hidden hands
(Metropolis moves aimed at the surprising choices). The hard facts (cards played, cards held,
who holds 3♠ in a first game) are never broken; whether the whole history replays from a deal
is checked when the deal is used.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ..engine.cards import FULL_DECK, THREE_SPADES, cards_of, mask_of
from ..engine.events import Left, Pass, Play, PlayerOut, RoundWon
from ..engine.game import HAND_SIZE, PASS
from ..engine.moves import beating_plays
from ..engine.rules import RuleSet
from ..engine.views import SeatView
from .strategic import Situation, StrategicPolicy


@dataclass(frozen=True, slots=True)
class Choice:
    """A past decision of another player, with the public state it was made in."""

    seat: int
    action: int
    later: int
    """The cards this seat has laid from this choice on (its own play included): its hand then
    is what it holds now plus these."""
    table_code: int
    table_seat: int
    cards_left: tuple[int, ...]
    in_game: int
    played_any: bool
    laid: int
    """Every card laid before this choice."""


def past_choices(view: SeatView) -> list[Choice]:
    """The other players' free choices so far: plays and passes in turn, not forced by the
    clock, not after a pass in the same round (a revived chopper), not the opening play of a
    first game that must hold the lowest card."""
    n = view.n_players
    me = view.seat
    left = [HAND_SIZE] * n
    table_code, table_seat = 0, -1
    in_game = (1 << n) - 1
    played_any = 0
    laid = 0
    passed = 0
    opening_forced = view.first_game and view.rules.first_play_must_contain_lowest
    found: list[tuple[int, Choice]] = []
    """(number of plays before the choice, the choice with ``later`` still to fill in)."""
    plays: list[tuple[int, int]] = []

    def note(seat: int, action: int) -> None:
        choice = Choice(
            seat=seat,
            action=action,
            later=0,
            table_code=table_code,
            table_seat=table_seat,
            cards_left=tuple(left),
            in_game=in_game,
            played_any=bool(played_any >> seat & 1),
            laid=laid,
        )
        found.append((len(plays), choice))

    for event in view.events:
        if isinstance(event, Play):
            seat = event.seat
            bit = 1 << seat
            free = not (event.out_of_turn or event.auto or passed & bit)
            if seat != me and free and not (opening_forced and not laid):
                note(seat, event.cards)
            plays.append((seat, event.cards))
            left[seat] -= event.cards.bit_count()
            laid |= event.cards
            played_any |= bit
            table_code, table_seat = event.code, seat
            passed &= ~bit
        elif isinstance(event, Pass):
            bit = 1 << event.seat
            if event.seat != me and not event.auto and not passed & bit:
                note(event.seat, PASS)
            passed |= bit
        elif isinstance(event, RoundWon):
            table_code, table_seat, passed = 0, -1, 0
        elif isinstance(event, (PlayerOut, Left)):
            in_game &= ~(1 << event.seat)
    # What each seat laid from each point on, from the end backwards.
    later = [0] * n
    later_from = [list(later)]
    for seat, cards in reversed(plays):
        later[seat] |= cards
        later_from.append(list(later))
    later_from.reverse()  # later_from[i]: laid by each seat from play i on
    return [
        Choice(
            c.seat,
            c.action,
            later_from[index][c.seat],
            c.table_code,
            c.table_seat,
            c.cards_left,
            c.in_game,
            c.played_any,
            c.laid,
        )
        for index, c in found
    ]


def surprises(
    choices: list[Choice], hand_now: int, rules: RuleSet, policy: StrategicPolicy
) -> tuple[int, list[tuple[Choice, int]]]:
    """How many of one seat's ``choices`` the policy would not have made holding ``hand_now``
    plus what it laid later; and, for each surprise, the policy's own choice."""
    count = 0
    misses: list[tuple[Choice, int]] = []
    for choice in choices:
        hand = hand_now | choice.later
        if choice.table_code:
            legal: list[int] = beating_plays(hand, choice.table_code, rules)
            if not legal:
                if choice.action != PASS:
                    count += 1
                    misses.append((choice, PASS))
                continue
            legal.insert(0, PASS)
        else:
            legal = []
        sit = Situation(
            seat=choice.seat,
            hand=hand,
            legal=legal,
            my_turn=True,
            table_code=choice.table_code,
            table_seat=choice.table_seat,
            unseen=FULL_DECK & ~hand & ~choice.laid,
            cards_left=choice.cards_left,
            in_game=choice.in_game,
            played_any=choice.played_any,
            rules=rules,
            required=0,
        )
        picked = policy.choose(sit)
        if picked != choice.action:
            count += 1
            misses.append((choice, picked))
    return count, misses


class Deal:
    """One sampled deal of the hidden cards: what each other seat holds now (and, with fewer
    than four players, the undealt rest as an extra pile), scored by its surprises."""

    __slots__ = ("energy", "hands", "misses", "per_seat")

    def __init__(self, hands: list[int]) -> None:
        self.hands = hands
        self.per_seat = [0] * len(hands)
        self.misses: list[list[tuple[Choice, int]]] = [[] for _ in hands]
        self.energy = 0


class Inference:
    """Sampled deals for one seat through one game, improved from decision to decision."""

    def __init__(self, view: SeatView, policy: StrategicPolicy, rng: random.Random) -> None:
        self.policy = policy
        self.rng = rng
        self.seat = view.seat
        self.n = view.n_players
        self.rules = view.rules
        self.identity = (view.seat, view.initial_hand, view.n_players, view.rules, view.leader)
        self.actions_seen = 0
        self.choices: list[list[Choice]] = [[] for _ in range(self.n)]
        self.deals: list[Deal] = []
        self.fixed = [0] * (self.n + 1)
        self.laid_by = [0] * self.n

    def follows(self, view: SeatView) -> bool:
        identity = (view.seat, view.initial_hand, view.n_players, view.rules, view.leader)
        return identity == self.identity and len(view.actions) >= self.actions_seen

    # --- bringing the deals up to date ------------------------------------------------------
    def update(self, view: SeatView, size: int, stop: float | None = None) -> None:
        """Read the new public facts, repair and rescore the kept deals, top up to ``size``
        (fewer if the clock passes ``stop``, but at least one)."""
        self.actions_seen = len(view.actions)
        self.choices = [[] for _ in range(self.n)]
        for choice in past_choices(view):
            self.choices[choice.seat].append(choice)
        self.laid_by = list(view.played_by)
        self.fixed = [0] * (self.n + 1)
        if (
            view.first_game
            and view.n_players == 4
            and view.leader != self.seat
            and view.unseen >> THREE_SPADES & 1
        ):
            self.fixed[view.leader] = 1 << THREE_SPADES
        needs = self._needs(view)
        for deal in self.deals:
            self._repair(deal, view, needs)
            self._score(deal, range(len(deal.hands)))
        while len(self.deals) < size:
            if stop is not None and self.deals and time.perf_counter() > stop:
                break
            deal = self._fresh(view, needs)
            self._score(deal, range(len(deal.hands)))
            self.deals.append(deal)

    def _needs(self, view: SeatView) -> list[int]:
        """Cards each pile must hold now: each other seat its count; the last pile the rest."""
        needs = [0 if s == self.seat else view.cards_left[s] for s in range(self.n)]
        needs.append(view.unseen.bit_count() - sum(needs))
        return needs

    def _fresh(self, view: SeatView, needs: list[int]) -> Deal:
        pool = cards_of(view.unseen & ~sum(self.fixed))
        self.rng.shuffle(pool)
        hands = list(self.fixed)
        start = 0
        for pile, need in enumerate(needs):
            take = need - hands[pile].bit_count()
            hands[pile] |= mask_of(pool[start : start + take])
            start += take
        return Deal(hands)

    def _repair(self, deal: Deal, view: SeatView, needs: list[int]) -> None:
        """Keep a deal consistent with new facts: laid cards leave it, counts are restored."""
        unseen = view.unseen
        hands = [h & unseen for h in deal.hands]
        for pile, fixed in enumerate(self.fixed):
            if fixed and not hands[pile] & fixed:
                for other in range(len(hands)):
                    hands[other] &= ~fixed
                hands[pile] |= fixed
        # Take the surplus off piles that hold too many, then deal every free card to the
        # piles that are short.
        for pile, need in enumerate(needs):
            while hands[pile].bit_count() > need:
                card = self.rng.choice(cards_of(hands[pile] & ~self.fixed[pile]))
                hands[pile] &= ~(1 << card)
        held = 0
        for hand in hands:
            held |= hand
        free = cards_of(unseen & ~held)
        self.rng.shuffle(free)
        for pile, need in enumerate(needs):
            while hands[pile].bit_count() < need:
                hands[pile] |= 1 << free.pop()
        deal.hands = hands

    def _score(self, deal: Deal, piles: range | tuple[int, ...]) -> None:
        for pile in piles:
            if pile < self.n and pile != self.seat and self.choices[pile]:
                count, misses = surprises(
                    self.choices[pile], deal.hands[pile], self.rules, self.policy
                )
            else:
                count, misses = 0, []
            deal.per_seat[pile] = count
            deal.misses[pile] = misses
        deal.energy = sum(deal.per_seat)

    # --- improving them --------------------------------------------------------------------
    def improve(self, steps: int, temperature: float = 0.5, stop: float | None = None) -> None:
        """``steps`` Metropolis moves spread over the deals, each aimed at a surprise (fewer
        if the clock passes ``stop``)."""
        if not self.deals:
            return
        for step in range(steps):
            if stop is not None and time.perf_counter() > stop:
                return
            self._move(self.deals[step % len(self.deals)], temperature)

    def _move(self, deal: Deal, temperature: float) -> None:
        rng = self.rng
        piles = [p for p in range(len(deal.hands)) if deal.hands[p] & ~self.fixed[p]]
        if len(piles) < 2:
            return
        surprised = [p for p in piles if deal.per_seat[p]]
        if surprised:
            a = rng.choice(surprised)
            _, picked = rng.choice(deal.misses[a])
            # The policy would have played ``picked``: the seat likely lacks one of its cards.
            suspects = (picked & deal.hands[a] & ~self.fixed[a]) if picked else 0
            movable = suspects or deal.hands[a] & ~self.fixed[a]
        else:
            a = rng.choice(piles)
            movable = deal.hands[a] & ~self.fixed[a]
        b = rng.choice([p for p in piles if p != a])
        x = rng.choice(cards_of(movable))
        y = rng.choice(cards_of(deal.hands[b] & ~self.fixed[b]))
        old = (deal.hands[a], deal.hands[b], deal.per_seat[a], deal.per_seat[b])
        old_misses = (deal.misses[a], deal.misses[b])
        old_energy = deal.energy
        deal.hands[a] = deal.hands[a] & ~(1 << x) | 1 << y
        deal.hands[b] = deal.hands[b] & ~(1 << y) | 1 << x
        self._score(deal, (a, b))
        delta = deal.energy - old_energy
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            return
        deal.hands[a], deal.hands[b], deal.per_seat[a], deal.per_seat[b] = old
        deal.misses[a], deal.misses[b] = old_misses
        deal.energy = old_energy

    def initial_hands(self, deal: Deal) -> list[int]:
        """The deal as dealt: what each seat holds now plus what it has laid."""
        return [(self.laid_by[s] | deal.hands[s]) if s != self.seat else 0 for s in range(self.n)]
