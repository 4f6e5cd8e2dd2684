"""Settlement: when a game ends, who pays whom, how much, and why.

:func:`settle` reads a finished :class:`~tienlen.game.Game`'s events and hands under its rule
set's :class:`~tienlen.scoring_rules.ScoringRules` and returns a :class:`Settlement`: one
:class:`Item` per payment with its reason in English and Vietnamese, the net chips per seat, and
the house fee. docs/SCORING.md gives each preset's arithmetic and every choice made where the
seeds are silent.

Order of payment: chop money first, chain by chain in the order the chops were made (a chain is
final only when its round closes, since an over-chop moves the whole sum to a new payer), then
the end of the game as one batch. Nobody pays more than they hold at that moment; a short payer's
chips are shared among what they owed in proportion. The house fee comes last, from each
player's net winnings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..engine import combos as C
from ..engine.cards import RANK_TWO, THREE_SPADES, TWOS_MASK, mask_str
from ..engine.events import Chop, Cong, GameOver, InstantWin, Left, Pass, Play, PlayerOut
from ..engine.game import Game
from ..engine.record import RecordError
from ..engine.rules import INSTANT_WIN_HANDS
from ..engine.scoring_rules import ROOM_FEES, ScoringRules

__all__ = ["Item", "Settlement", "SettlementError", "hand_penalties", "replay_fields", "settle"]


class SettlementError(ValueError):
    """Settlement was asked for something it cannot do (an unfinished game, a bad balance…)."""


@dataclass(frozen=True, slots=True)
class Item:
    """One payment of the breakdown."""

    payer: int
    payee: int
    amount: int
    """Chips actually paid."""
    reason_en: str
    reason_vi: str
    kind: str
    """``chop``, ``cards``, ``thoi``, ``cong``, ``multiplier``, ``instant_win``, ``place`` or
    ``den_bai``."""
    owed: int
    """Chips owed before the payer's balance ran short (equal to ``amount`` when paid in full)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "owed": self.owed,
            "reason": self.reason_en,
            "reason_vi": self.reason_vi,
            "kind": self.kind,
        }


@dataclass
class Settlement:
    """The money of one game: the breakdown, the net result per seat and the house fee."""

    items: list[Item]
    deltas: list[int]
    """Net chips per seat after the fee; ``sum(deltas) + fee == 0``."""
    fee: int
    fees: list[int]
    """House fee per seat (from winners only)."""
    bet: int = 1
    fee_percent: float = 0.0
    void: bool = False
    """Seed 000: everyone left before a result, so nothing moves."""
    den_bai: int | None = None
    """The seat that paid for the whole table (đền bài); it leads the next game."""
    notes: list[tuple[str, str]] = field(default_factory=list)
    """(English, Vietnamese) remarks that are not payments, e.g. why nothing moved."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "bet": self.bet,
            "deltas": list(self.deltas),
            "items": [item.to_dict() for item in self.items],
            "fee": self.fee,
            "fees": list(self.fees),
            "fee_percent": self.fee_percent,
            "void": self.void,
            "den_bai": self.den_bai,
        }
        if self.notes:
            out["notes"] = [{"en": en, "vi": vi} for en, vi in self.notes]
        return out


@dataclass
class _Charge:
    """A payment owed, in chips, before balances are applied."""

    payer: int
    payee: int
    amount: int
    en: str
    vi: str
    kind: str


@dataclass(frozen=True)
class Penalty:
    """A heo, hàng or 3♠ held at the end (thối), worth ``units`` bets."""

    cards: int
    units: int
    en: str
    vi: str


# --- what a hand is worth -------------------------------------------------------------------


def _two_value(card: int, scoring: ScoringRules) -> int:
    return scoring.red_two if card & 3 >= 2 else scoring.black_two


def _two_name(card: int) -> tuple[str, str]:
    return ("red 2", "heo đỏ") if card & 3 >= 2 else ("black 2", "heo đen")


def _rank_count(hand: int, rank: int) -> int:
    return C.NIB_COUNT[(hand >> (4 * rank)) & 15]


def _bombs(hand: int, scoring: ScoringRules) -> list[Penalty]:
    """The hàng a hand holds: four of a kinds and runs of 3+ consecutive pairs, no card used
    twice, read the way that charges most; a run counts once, at its length's value."""
    quad_ranks = [r for r in range(RANK_TWO) if _rank_count(hand, r) == 4]
    best: list[Penalty] = []
    best_value = -1
    for choice in range(1 << len(quad_ranks)):
        quads = [r for i, r in enumerate(quad_ranks) if choice >> i & 1]
        found: list[Penalty] = []
        for r in quads:
            cards = 0xF << (4 * r)
            found.append(Penalty(cards, scoring.quad, *C.CATEGORY_NAMES[C.FOUR_KIND]))
        run: list[int] = []
        for r in range(RANK_TWO + 1):
            if r < RANK_TWO and r not in quads and _rank_count(hand, r) >= 2:
                run.append(r)
                continue
            if len(run) >= 3:
                cards = 0
                for q in run:
                    nibble = (hand >> (4 * q)) & 15
                    cards |= _two_lowest(nibble) << (4 * q)
                category = C.PAIRS3 if len(run) == 3 else C.PAIRS4
                units = scoring.pairs3 if len(run) == 3 else scoring.pairs4
                en, vi = C.CATEGORY_NAMES[category]
                if len(run) > 4:
                    en, vi = f"{len(run)} consecutive pairs", f"{len(run)} đôi thông"
                found.append(Penalty(cards, units, en, vi))
            run = []
        value = sum(p.units for p in found)
        if value > best_value:
            best, best_value = found, value
    return best


def _two_lowest(nibble: int) -> int:
    low = nibble & -nibble
    rest = nibble ^ low
    return low | (rest & -rest)


def hand_penalties(hand: int, scoring: ScoringRules) -> list[Penalty]:
    """Everything a hand is caught holding (thối): each 2, its hàng, and 3♠ where it counts.

    Four 2s count as four heo. 3♠ is charged even inside a hàng.
    """
    out: list[Penalty] = []
    twos = hand & TWOS_MASK
    while twos:
        low = twos & -twos
        card = low.bit_length() - 1
        en, vi = _two_name(card)
        out.append(Penalty(low, _two_value(card, scoring), en, vi))
        twos ^= low
    out.extend(_bombs(hand, scoring))
    if scoring.three_spades and hand >> THREE_SPADES & 1:
        out.append(Penalty(1 << THREE_SPADES, scoring.three_spades, "3♠", "3 bích"))
    return [p for p in out if p.units]


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
        self.unit_vi = "lá" if self.s.card else "cược"
        self.den_bai: int | None = None

    def units(self, n: int) -> str:
        return f"{n} {self.unit_vi}"

    # --- chops ----------------------------------------------------------------------------
    def chops(self) -> list[_Charge]:
        if not self.s.chop_pays:
            return []
        events = self.game.events
        chops = [e for e in events if isinstance(e, Chop)]
        superseded = {(e.victim, e.victim_cards) for e in chops}
        charges: list[_Charge] = []
        for chop in chops:
            if (chop.seat, chop.cards) in superseded:
                continue  # over-chopped: the later chop carries the whole chain
            parts = [self._chain_part(seat, cards, code) for seat, cards, code in chop.chain]
            total = sum(units for units, _, _ in parts)
            if not total:
                continue
            over_chop = C.is_bomb(chop.chain[-1][2])
            _, what_en, what_vi = parts[-1]
            sum_en = " + ".join(f"{en} {u}" for u, en, _ in parts)
            sum_vi = " + ".join(f"{vi} {u}" for u, _, vi in parts)
            word_en = "over-chopped" if over_chop else "chopped"
            word_vi = "chặt chồng" if over_chop else "chặt"
            if len(parts) > 1:
                en = f"{word_en} {what_en} ({mask_str(chop.victim_cards)}): {sum_en} = {total}"
                vi = f"{word_vi} {what_vi} ({mask_str(chop.victim_cards)}): {sum_vi} = "
                vi += self.units(total)
            else:
                en = f"{word_en} {what_en} ({mask_str(chop.victim_cards)}): {total}"
                vi = f"{word_vi} {what_vi} ({mask_str(chop.victim_cards)}): {self.units(total)}"
            charges.append(_Charge(chop.victim, chop.seat, total * self.bet, en, vi, "chop"))
        return charges

    def _chain_part(self, seat: int, cards: int, code: int) -> tuple[int, str, str]:
        category = C.category(code)
        s = self.s
        if category in (C.TWO, C.TWO_PAIR, C.TWO_TRIPLE):
            values = [_two_value(card, s) for card in range(48, 52) if cards >> card & 1]
            if category == C.TWO:
                en, vi = _two_name(cards.bit_length() - 1)
                return values[0], en, vi
            en, vi = C.CATEGORY_NAMES[category]
            return sum(values), en, vi
        units = {C.PAIRS3: s.pairs3, C.FOUR_KIND: s.quad}.get(category or "", s.pairs4)
        en, vi = C.CATEGORY_NAMES[category or C.PAIRS4]
        return units, en, vi

    # --- the end of the game ----------------------------------------------------------------
    def end(self) -> list[_Charge]:
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
        charges: list[_Charge] = []
        cong_charges: dict[int, list[_Charge]] = {}
        for seat in losers:
            hand = self.hands[seat]
            if seat in self.cong and cong_rates:
                mine = self._cong(seat, winner, hand, finish_3s)
                cong_charges[seat] = mine
            else:
                mine = self._counted(seat, winner, hand, finish_3s)
            charges.extend(mine)
        if self.rules.full_ranking and s.place_units:
            charges.extend(self._places())
        every_loser_cong = len(losers) >= 2 and all(seat in self.cong for seat in losers)
        if s.den_bai and self.rules.full_ranking and every_loser_cong:
            self._den_bai(losers, cong_charges)
        return charges

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

    def _count_lines(
        self, payer: int, payee: int, hand: int, penalties: bool
    ) -> tuple[list[_Charge], list[_Charge]]:
        """(card-count lines, thối lines) for a hand counted under the preset's arithmetic."""
        s = self.s
        found = hand_penalties(hand, s) if penalties else []
        ordinary = hand.bit_count()
        replace = s.penalty_counting == "replace" and found
        if replace:
            special = 0
            for p in found:
                special |= p.cards
            ordinary -= special.bit_count()
        cards: list[_Charge] = []
        if ordinary and s.card:
            other_en = " other" if replace else ""
            other_vi = " thường" if replace else ""
            times = f" × {s.card}" if s.card != 1 else ""
            cards.append(
                _Charge(
                    payer,
                    payee,
                    ordinary * s.card * self.bet,
                    f"{ordinary}{other_en} card{'s' if ordinary > 1 else ''} left{times}",
                    f"còn {ordinary} lá{other_vi}{times}",
                    "cards",
                )
            )
        return cards, [self._thoi(payer, payee, p) for p in found]

    def _thoi(self, payer: int, payee: int, p: Penalty) -> _Charge:
        return _Charge(
            payer,
            payee,
            p.units * self.bet,
            f"caught holding {p.en} ({mask_str(p.cards)}): {p.units}",
            f"thối {p.vi} ({mask_str(p.cards)}): {self.units(p.units)}",
            "thoi",
        )

    def _counted(self, payer: int, payee: int, hand: int, finish_3s: bool) -> list[_Charge]:
        cards, thoi = self._count_lines(payer, payee, hand, penalties=True)
        mult = self.s.three_spades_finish_multiplier
        extra: list[_Charge] = []
        if finish_3s and mult > 1 and cards:
            base = sum(c.amount for c in cards)
            extra.append(
                _Charge(
                    payer,
                    payee,
                    base * (mult - 1),
                    f"winner finished on 3♠: cards ×{mult}",
                    f"về nhất bằng 3♠: lá ×{mult}",
                    "multiplier",
                )
            )
        return cards + extra + thoi

    def _cong(self, payer: int, payee: int, hand: int, finish_3s: bool) -> list[_Charge]:
        s = self.s
        sweep = s.cong_sweep_only
        if s.cong_units is None:
            cards, thoi = self._count_lines(payer, payee, hand, penalties=True)
            lines = cards + thoi
        else:
            if sweep:
                en = f"swept: winner shed all 13 before anyone played: {s.cong_units}"
                vi = f"tới trắng (đánh hết 13 lá khi chưa ai đánh): {self.units(s.cong_units)}"
            else:
                en = f"cóng (no card played): {s.cong_units}"
                vi = f"cóng: {self.units(s.cong_units)}"
            lines = [_Charge(payer, payee, s.cong_units * self.bet, en, vi, "cong")]
            lines += [self._thoi(payer, payee, p) for p in hand_penalties(hand, s)]
        for mult, en, vi in (
            (s.cong_multiplier, f"cóng ×{s.cong_multiplier}", f"cóng ×{s.cong_multiplier}"),
            (
                s.three_spades_finish_cong_multiplier if finish_3s else 1,
                f"cóng ×{s.three_spades_finish_cong_multiplier}: winner finished on 3♠",
                f"cóng ×{s.three_spades_finish_cong_multiplier} (tới bằng 3♠)",
            ),
        ):
            if mult > 1:
                base = sum(c.amount for c in lines)
                lines.append(_Charge(payer, payee, base * (mult - 1), en, vi, "multiplier"))
        return lines

    def _places(self) -> list[_Charge]:
        ranking = self.over.ranking
        n = len(ranking)
        names = _place_names(n)
        out: list[_Charge] = []
        for k, units in enumerate(self.s.place_units):
            bottom = n - 1 - k
            if bottom <= k:
                break
            payer, payee = ranking[bottom], ranking[k]
            if payer in self.cong or not units:
                continue  # a cóng player pays cóng to the first instead
            en = f"{names[bottom][0]} place pays {names[k][0]}: {units}"
            vi = f"về {names[bottom][1]} đền {names[k][1]}: {self.units(units)}"
            out.append(_Charge(payer, payee, units * self.bet, en, vi, "place"))
        return out

    def _den_bai(self, losers: list[int], cong_charges: dict[int, list[_Charge]]) -> None:
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
            return
        self.den_bai = culprit
        for seat, charges in cong_charges.items():
            if seat == culprit:
                continue
            for charge in charges:
                charge.payer = culprit
                charge.en = f"đền bài for seat {seat}: {charge.en}"
                charge.vi = f"đền bài thay ghế {seat}: {charge.vi}"
                charge.kind = "den_bai"

    def _cong_pays_everyone(self, winner: int) -> list[_Charge]:
        out: list[_Charge] = []
        payees = [winner] + [s for s in self.over.ranking if s != winner and s not in self.cong]
        for seat in self.over.ranking:
            if seat not in self.cong:
                continue
            for payee in payees:
                for charge in self._instant_loss(seat, payee, "cóng"):
                    out.append(charge)
        return out

    # --- instant wins -----------------------------------------------------------------------
    def _instant_win(self, event: InstantWin) -> list[_Charge]:
        winners = list(event.seats)
        hand_names = event.hands[0] if event.hands else ()
        en_hand = ", ".join(INSTANT_WIN_HANDS[h][0] for h in hand_names)
        vi_hand = ", ".join(INSTANT_WIN_HANDS[h][1] for h in hand_names)
        scope = self.rules.instant_scope()
        special = (
            self.s.first_game_instant_doubles
            and bool(hand_names)
            and all(scope.get(h) == "first" for h in hand_names)
        )
        out: list[_Charge] = []
        cursor = 0
        for seat in self.over.ranking:
            if seat in winners:
                continue
            if special:
                lines = self._first_game_special(seat, winners[0], en_hand, vi_hand)
            else:
                lines = self._instant_loss(seat, winners[0], f"tới trắng ({vi_hand})", en_hand)
            if len(winners) == 1:
                out.extend(lines)
                continue
            for line in lines:  # shared win (seed 001): split evenly, spare chips in turn
                share, spare = divmod(line.amount, len(winners))
                for k in range(len(winners)):
                    payee = winners[(cursor + k) % len(winners)]
                    amount = share + (1 if k < spare else 0)
                    if amount:
                        out.append(
                            _Charge(
                                seat,
                                payee,
                                amount,
                                f"{line.en}, shared by {len(winners)} winners",
                                f"{line.vi}, chia đều {len(winners)} người",
                                line.kind,
                            )
                        )
                cursor = (cursor + spare) % len(winners)
        return out

    def _instant_loss(
        self, payer: int, payee: int, label_vi: str, label_en: str | None = None
    ) -> list[_Charge]:
        """What a loser to an instant win pays (also a cóng under cong_pays_everyone)."""
        s = self.s
        hand = self.hands[payer]
        en_label = f"instant win ({label_en})" if label_en is not None else "cóng"
        if s.instant_win_units is not None:
            lines = [
                _Charge(
                    payer,
                    payee,
                    s.instant_win_units * self.bet,
                    f"{en_label}: {s.instant_win_units}",
                    f"{label_vi}: {self.units(s.instant_win_units)}",
                    "instant_win",
                )
            ]
            if s.instant_win_penalties:
                lines += [self._thoi(payer, payee, p) for p in hand_penalties(hand, s)]
            return lines
        cards, thoi = self._count_lines(payer, payee, hand, s.instant_win_penalties)
        for c in cards:
            c.en = f"{en_label}: {c.en}"
            c.vi = f"{label_vi}: {c.vi}"
            c.kind = "instant_win"
        return cards + thoi

    def _first_game_special(
        self, payer: int, payee: int, en_hand: str, vi_hand: str
    ) -> list[_Charge]:
        """Seed 002: "tính gấp đôi các lá bài khác, trừ lá bài 2 vẫn tính thúi heo"."""
        hand = self.hands[payer]
        others = (hand & ~TWOS_MASK).bit_count()
        out = [
            _Charge(
                payer,
                payee,
                others * 2 * self.s.card * self.bet,
                f"instant win in a first game ({en_hand}): {others} cards × 2",
                f"tới trắng ván đầu ({vi_hand}): {others} lá × 2",
                "instant_win",
            )
        ]
        twos = [p for p in hand_penalties(hand & TWOS_MASK, self.s)]
        return out + [self._thoi(payer, payee, p) for p in twos]

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


def _place_names(n: int) -> list[tuple[str, str]]:
    en = ["1st", "2nd", "3rd", "4th"][:n]
    vi = ["nhất", "nhì", "ba", "bét"][:n]
    en[-1] = "last"
    vi[-1] = "bét"
    return list(zip(en, vi, strict=True))


# --- paying ----------------------------------------------------------------------------------


def _share(available: int, owed: Sequence[int]) -> list[int]:
    """Split ``available`` chips over debts in proportion, whole chips by largest remainder
    (ties: the earlier debt first)."""
    total = sum(owed)
    if available >= total:
        return list(owed)
    exact = [Fraction(o * available, total) for o in owed]
    paid = [math.floor(x) for x in exact]
    spare = available - sum(paid)
    order = sorted(range(len(owed)), key=lambda i: (-(exact[i] - paid[i]), i))
    for i in order[:spare]:
        paid[i] += 1
    return paid


def _fee_fraction(percent: float) -> Fraction:
    return Fraction(str(percent)) / 100


def settle(
    game: Game,
    bet: int = 1,
    balances: Sequence[int] | None = None,
    fee_percent: float | None = None,
) -> Settlement:
    """The money of a finished game, at ``bet`` chips a unit.

    ``balances``: each seat's chips before the game (None = unlimited); nobody loses more than
    theirs. ``fee_percent``: the house fee on winnings (None = the rule set's).
    """
    if not game.is_terminal():
        raise SettlementError("the game is not over: settle it when it ends")
    if not isinstance(bet, int) or isinstance(bet, bool) or bet <= 0:
        raise SettlementError("bet must be a positive whole number of chips")
    running: list[int] | None = None
    if balances is not None:
        running = list(balances)
        if len(running) != game.n:
            raise SettlementError(f"balances must list {game.n} seats, not {len(running)}")
        for seat, chips in enumerate(running):
            if not isinstance(chips, int) or isinstance(chips, bool) or chips < 0:
                raise SettlementError(f"balances[{seat}] must be a whole number of chips, 0+")
    if fee_percent is None:
        fee_percent = game.rules.scoring.house_fee_percent
    if (
        isinstance(fee_percent, bool)
        or not isinstance(fee_percent, (int, float))
        or not math.isfinite(fee_percent)
        or not 0 <= fee_percent < 100
    ):
        raise SettlementError("the house fee must be a percentage from 0 to less than 100")

    reckoner = _Reckoner(game, bet)
    if reckoner.void():
        n = game.n
        return Settlement(
            [],
            [0] * n,
            0,
            [0] * n,
            bet,
            fee_percent,
            void=True,
            notes=[
                (
                    "everyone left before the result: nobody pays, nobody wins",
                    "tất cả thoát ra trước khi có kết quả: không ai bị trừ chip, không ai thắng",
                )
            ],
        )
    items: list[Item] = []
    net = [0] * game.n

    def pay(charge: _Charge, amount: int) -> None:
        items.append(
            Item(
                charge.payer,
                charge.payee,
                amount,
                charge.en,
                charge.vi,
                charge.kind,
                charge.amount,
            )
        )
        net[charge.payer] -= amount
        net[charge.payee] += amount
        if running is not None:
            running[charge.payer] -= amount
            running[charge.payee] += amount

    for charge in reckoner.chops():
        pay(charge, charge.amount if running is None else min(charge.amount, running[charge.payer]))
    end = reckoner.end()
    paid = [c.amount for c in end]
    if running is not None:
        for payer in range(game.n):
            mine = [i for i, c in enumerate(end) if c.payer == payer]
            shares = _share(running[payer], [end[i].amount for i in mine])
            for i, share in zip(mine, shares, strict=True):
                paid[i] = share
    for charge, amount in zip(end, paid, strict=True):
        pay(charge, amount)

    fraction = _fee_fraction(fee_percent)
    fees = [math.floor(gain * fraction) if gain > 0 else 0 for gain in net]
    deltas = [gain - fee for gain, fee in zip(net, fees, strict=True)]
    return Settlement(
        items,
        deltas,
        sum(fees),
        fees,
        bet,
        fee_percent,
        den_bai=reckoner.den_bai,
    )


def replay_fields(game: Game, record: Any) -> dict[str, Any]:
    """The settlement fields ``tienlen replay`` prints: bet, deltas, items, fee, fees, ….

    Reads ``record.bet`` and, from ``record.extra``, optional ``balances`` (chips per seat
    before the game), ``house_fee_percent`` and ``room`` (seed 000's room, for its fee).
    """
    extra: dict[str, Any] = getattr(record, "extra", {}) or {}
    fee_percent = extra.get("house_fee_percent")
    room = extra.get("room")
    if room is not None:
        if not isinstance(room, str) or room not in ROOM_FEES:
            known = ", ".join(ROOM_FEES)
            raise RecordError(f"room must be one of {known}, not {room!r}")
        if fee_percent is None:
            fee_percent = ROOM_FEES[room][2]
    balances = extra.get("balances")
    if balances is not None and not isinstance(balances, list):
        raise RecordError("balances must be a list of chips, one per seat")
    try:
        settlement = settle(game, record.bet, balances, fee_percent)
    except SettlementError as exc:
        raise RecordError(str(exc)) from None
    return settlement.to_dict()
