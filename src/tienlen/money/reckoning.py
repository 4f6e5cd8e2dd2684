"""Reckoning: what each seat owes whom at the end of a game, and why.

:func:`reckon` reads a finished game's events and hands under its rule set's
:class:`~tienlen.engine.scoring_rules.ScoringRules` and lists the charges as :class:`~.items.Item`
lines (owed in full; :mod:`.sharing` pays them against balances). Hands are priced by
:mod:`.hands`. docs/SCORING.md gives each preset's arithmetic and every choice made where the
seeds are silent.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..engine import combos as C
from ..engine.cards import THREE_SPADES, TWOS_MASK
from ..engine.events import Chop, Cong, GameOver, InstantWin, Left, Pass, Play, PlayerOut
from ..engine.game import Game
from ..engine.series import NextGame, next_game
from .hands import cong_facts, count_facts, hand_penalties
from .items import (
    CardsFacts,
    ChopFacts,
    Facts,
    InstantWinFacts,
    Item,
    Link,
    MultiplierFacts,
    PlaceFacts,
    ThoiFacts,
)

__all__ = ["Reckoning", "den_bai_payer", "next_game_after", "reckon"]


@dataclass(frozen=True, slots=True)
class Reckoning:
    """The charges of one game, owed in full."""

    chops: list[Item]
    """Chop chains, in the order the chops were made (paid one by one)."""
    end: list[Item]
    """The end of the game (paid as one batch)."""
    den_bai: int | None = None
    """The seat that pays for the whole table (đền bài); it leads the next game."""
    void: bool = False
    """Seed 000: everyone left before a result, so nothing is owed."""


def reckon(game: Game, bet: int = 1) -> Reckoning:
    """What each seat of a finished game owes, at ``bet`` chips a unit."""
    reckoner = _Reckoner(game, bet)
    if reckoner.void():
        return Reckoning([], [], void=True)
    chops = reckoner.chops()
    end = reckoner.end()
    return Reckoning(chops, end, reckoner.den_bai)


def den_bai_payer(game: Game) -> int | None:
    """The seat that pays for the whole table (đền bài), or None (also while the game is on).

    The one place that decides it: settlement charges that seat, and the next game's leader is
    that seat (:func:`next_game_after`).
    """
    return reckon(game).den_bai if game.over else None


def next_game_after(game: Game) -> NextGame:
    """How the game after ``game`` starts, money included: the engine's
    :func:`~tienlen.engine.game.next_game`, led by the đền bài payer when there is one.
    Raises the engine's IllegalAction while the game is not over."""
    return next_game(game, leader=den_bai_payer(game))


class _Reckoner:
    """Builds the charges of one game."""

    def __init__(self, game: Game, bet: int) -> None:
        self.game = game
        self.rules = game.rules
        self.s = game.rules.scoring
        self.bet = bet
        self.n = game.n
        over = next(e for e in reversed(game.events) if isinstance(e, GameOver))
        self.over = over
        self.hands = over.cards_left
        self.cong: set[int] = set()
        self.left: set[int] = set()
        self.outs: set[int] = set()
        self.instant: InstantWin | None = None
        for event in game.events:
            if isinstance(event, Cong):
                self.cong.update(event.seats)
            elif isinstance(event, Left):
                self.left.add(event.seat)
            elif isinstance(event, PlayerOut):
                self.outs.add(event.seat)
            elif isinstance(event, InstantWin):
                self.instant = event
        self.in_cards = bool(self.s.card)
        self.den_bai: int | None = None

    def line(self, payer: int, payee: int, facts: Facts) -> Item:
        amount = facts.units * self.bet
        return Item(payer, payee, amount, amount, facts, in_cards=self.in_cards)

    def lines(self, payer: int, payee: int, facts: list[Facts]) -> list[Item]:
        return [self.line(payer, payee, f) for f in facts]

    # --- chops ----------------------------------------------------------------------------
    def chops(self) -> list[Item]:
        if not self.s.chop_pays:
            return []
        chops = [e for e in self.game.events if isinstance(e, Chop)]
        superseded = {(e.victim, e.victim_cards) for e in chops}
        out: list[Item] = []
        for chop in chops:
            if (chop.seat, chop.cards) in superseded:
                continue  # over-chopped: the later chop carries the whole chain
            chain = tuple(self._link(seat, cards, code) for seat, cards, code in chop.chain)
            facts = ChopFacts(chop.cards, C.category(C.classify(chop.cards)) or C.PAIRS4, chain)
            if facts.units:
                out.append(self.line(chop.victim, chop.seat, facts))
        return out

    def _link(self, seat: int, cards: int, code: int) -> Link:
        category = C.category(code) or C.PAIRS4
        s = self.s
        if category in (C.TWO, C.TWO_PAIR, C.TWO_TRIPLE):
            units = sum(
                s.red_two if card & 3 >= 2 else s.black_two
                for card in range(48, 52)
                if cards >> card & 1
            )
        else:
            units = {C.PAIRS3: s.pairs3, C.FOUR_KIND: s.quad}.get(category, s.pairs4)
        return Link(seat, cards, category, units)

    # --- the end of the game ----------------------------------------------------------------
    def end(self) -> list[Item]:
        if self.instant is not None:
            return self._instant_win(self.instant)
        winner = self.over.winner
        if winner is None:
            return []
        losers = [s for s in self.over.ranking if s != winner]
        s = self.s
        if self.rules.full_ranking and s.cong_pays_everyone and self.cong:
            return self._cong_pays_everyone(winner)
        finish_3s = self._finished_on_three_spades(winner)
        cong_rates = self._cong_rates_apply(losers)
        out: list[Item] = []
        cong_lines: dict[int, list[Item]] = {}
        for seat in losers:
            hand = self.hands[seat]
            if seat in self.cong and cong_rates:
                mine = self.lines(seat, winner, cong_facts(hand, s, finish_3s))
                cong_lines[seat] = mine
            else:
                mine = self._counted(seat, winner, hand, finish_3s)
            out.extend(mine)
        if self.rules.full_ranking and s.place_units:
            out.extend(self._places())
        every_loser_cong = len(losers) >= 2 and all(seat in self.cong for seat in losers)
        if s.den_bai and self.rules.full_ranking and every_loser_cong:
            out = self._den_bai(out, losers, cong_lines)
        return out

    def _cong_rates_apply(self, losers: list[int]) -> bool:
        s = self.s
        if s.cong_units is None and s.cong_multiplier == 1:
            return False
        if s.cong_sweep_only:
            return bool(losers) and all(seat in self.cong for seat in losers)
        return True

    def _finished_on_three_spades(self, winner: int) -> bool:
        if self.s.three_spades_finish_multiplier == self.s.three_spades_finish_cong_multiplier == 1:
            return False
        last = next(
            (e for e in reversed(self.game.events) if isinstance(e, Play) and e.seat == winner),
            None,
        )
        return last is not None and bool(last.cards >> THREE_SPADES & 1)

    def _counted(self, payer: int, payee: int, hand: int, finish_3s: bool) -> list[Item]:
        cards, thoi = count_facts(hand, self.s)
        facts: list[Facts] = [*cards]
        mult = self.s.three_spades_finish_multiplier
        if finish_3s and mult > 1 and cards:
            base = sum(c.units for c in cards)
            facts.append(MultiplierFacts(mult, base, "three_spades_finish"))
        return self.lines(payer, payee, [*facts, *thoi])

    def _places(self) -> list[Item]:
        ranking = self.over.ranking
        n = len(ranking)
        out: list[Item] = []
        for k, units in enumerate(self.s.place_units):
            bottom = n - 1 - k
            if bottom <= k:
                break
            payer, payee = ranking[bottom], ranking[k]
            if payer in self.cong or not units:
                continue  # a cóng player pays cóng to the first instead
            out.append(self.line(payer, payee, PlaceFacts(bottom + 1, k + 1, n, units)))
        return out

    def _den_bai(
        self, lines: list[Item], losers: list[int], cong_lines: dict[int, list[Item]]
    ) -> list[Item]:
        """Every loser cóng: the last who passed while able to beat pays for the whole table."""
        culprit = next(
            (
                e.seat
                for e in reversed(self.game.events)
                if isinstance(e, Pass) and e.could_beat and e.seat in losers
            ),
            None,
        )
        if culprit is None:
            return lines
        self.den_bai = culprit
        moved = {
            id(item): dataclasses.replace(item, payer=culprit, for_seat=seat)
            for seat, items in cong_lines.items()
            if seat != culprit
            for item in items
        }
        return [moved.get(id(item), item) for item in lines]

    def _cong_pays_everyone(self, winner: int) -> list[Item]:
        out: list[Item] = []
        payees = [winner] + [s for s in self.over.ranking if s != winner and s not in self.cong]
        for seat in self.over.ranking:
            if seat not in self.cong:
                continue
            for payee in payees:
                out.extend(self.lines(seat, payee, self._instant_loss(seat, (), cong=True)))
        return out

    # --- instant wins -----------------------------------------------------------------------
    def _instant_win(self, event: InstantWin) -> list[Item]:
        winners = list(event.seats)
        hand_names = event.hands[0] if event.hands else ()
        scope = self.rules.instant_scope()
        special = (
            self.s.first_game_instant_doubles
            and bool(hand_names)
            and all(scope.get(h) == "first" for h in hand_names)
        )
        out: list[Item] = []
        cursor = 0
        for seat in self.over.ranking:
            if seat in winners:
                continue
            if special:
                facts = self._first_game_special(seat, hand_names)
            else:
                facts = self._instant_loss(seat, hand_names)
            lines = self.lines(seat, winners[0], facts)
            if len(winners) == 1:
                out.extend(lines)
                continue
            k = len(winners)
            for line in lines:  # shared win (seed 001): split evenly, spare chips in turn
                share, spare = divmod(line.amount, k)
                for i in range(k):
                    amount = share + (1 if i < spare else 0)
                    if amount:
                        payee = winners[(cursor + i) % k]
                        out.append(
                            dataclasses.replace(
                                line, payee=payee, amount=amount, owed=amount, shared_by=k
                            )
                        )
                cursor = (cursor + spare) % k
        return out

    def _instant_loss(self, payer: int, hands: tuple[str, ...], cong: bool = False) -> list[Facts]:
        """What a loser to an instant win pays (also a cóng under cong_pays_everyone)."""
        s = self.s
        hand = self.hands[payer]
        if s.instant_win_units is not None:
            facts: list[Facts] = [InstantWinFacts(hands, s.instant_win_units, cong=cong)]
            if s.instant_win_penalties:
                facts += [ThoiFacts(p) for p in hand_penalties(hand, s)]
            return facts
        cards, thoi = count_facts(hand, s, s.instant_win_penalties)
        counted: list[Facts] = [InstantWinFacts(hands, c.units, c, cong=cong) for c in cards]
        return [*counted, *thoi]

    def _first_game_special(self, payer: int, hands: tuple[str, ...]) -> list[Facts]:
        """Seed 002: "tính gấp đôi các lá bài khác, trừ lá bài 2 vẫn tính thúi heo"."""
        hand = self.hands[payer]
        others = CardsFacts((hand & ~TWOS_MASK).bit_count(), self.s.card)
        facts: list[Facts] = [InstantWinFacts(hands, others.units * 2, others, doubled=True)]
        return facts + [ThoiFacts(p) for p in hand_penalties(hand & TWOS_MASK, self.s)]

    # --- leaving ---------------------------------------------------------------------------
    def void(self) -> bool:
        """Seed 000: at 3+ players, everyone left before anyone went out: nothing moves."""
        return (
            self.s.abandoned_game_void
            and self.n >= 3
            and self.instant is None
            and bool(self.left)
            and not self.outs
        )
