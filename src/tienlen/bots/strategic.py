"""The strategic level: plan the hand, keep control, spend 2s and bombs when they pay.

The bot splits its hand into the fewest, strongest combinations (:mod:`.planner`) and plays
by that plan: it leads its weakest part unless it can run out on parts nobody can beat, follows
with plays that do not break the plan, keeps 2s and bombs for taking control late or for
stopping a player about to go out, always chops when it can (a chop is paid at once), and
plays anything at all rather than be caught cóng. Near the end it spends 2s and bombs it would
otherwise be caught holding (thối) at the preset's price.

The policy works on a :class:`Situation`, built from a seat's view or, inside the search bot's
look-ahead, straight from a sampled game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import combos as C
from ..engine.cards import FULL_DECK, TWOS_MASK
from ..engine.game import PASS, Game
from ..engine.moves import has_runs, sets
from ..engine.rules import RuleSet
from ..engine.views import SeatView
from ..money.hands import thoi_units
from .planner import best_split, counts_key, part_masks, strength

CHOP_BONUS = 0.8
"""Extra worth of chopping (chặt): the victim pays at once and the chopper takes control."""
PASS_THRESHOLD = 0.25
"""How much a play must improve the hand's plan to be worth more than passing."""


@dataclass(slots=True)
class Situation:
    """What a decision needs: the seat's hand and the public state (no other hand)."""

    seat: int
    hand: int
    legal: Sequence[int]
    my_turn: bool
    table_code: int
    table_seat: int
    unseen: int
    cards_left: Sequence[int]
    in_game: int
    played_any: bool
    rules: RuleSet
    required: int

    @classmethod
    def of_view(cls, view: SeatView) -> Situation:
        table = view.table
        return cls(
            seat=view.seat,
            hand=view.hand,
            legal=view.legal,
            my_turn=view.my_turn,
            table_code=table[2] if table else 0,
            table_seat=table[0] if table else -1,
            unseen=view.unseen,
            cards_left=view.cards_left,
            in_game=view.in_game,
            played_any=bool(view.played_by[view.seat]),
            rules=view.rules,
            required=view.required,
        )

    @classmethod
    def of_game(cls, game: Game, seat: int, legal: Sequence[int] | None = None) -> Situation:
        """From a game the caller may see whole (a sampled world): uses only public facts."""
        hands = game.hands
        played = 0
        for initial, held in zip(game.initial_hands, hands, strict=True):
            played |= initial & ~held
        unseen = FULL_DECK & ~hands[seat] & ~played
        return cls(
            seat=seat,
            hand=hands[seat],
            legal=legal if legal is not None else game.legal_actions(seat),
            my_turn=seat == game.current,
            table_code=game.last_code,
            table_seat=game.last_seat,
            unseen=unseen,
            cards_left=[h.bit_count() for h in hands],
            in_game=game.in_game,
            played_any=bool(game.played >> seat & 1),
            rules=game.rules,
            required=game.required,
        )

    def threat(self) -> int:
        """The fewest cards any opponent still in the game holds (14 when none is left)."""
        fewest = 14
        for s, n in enumerate(self.cards_left):
            if s != self.seat and self.in_game >> s & 1 and n < fewest:
                fewest = n
        return fewest

    def most_opponent_cards(self) -> int:
        most = 0
        for s, n in enumerate(self.cards_left):
            if s != self.seat and self.in_game >> s & 1 and n > most:
                most = n
        return most


def can_be_beaten(code: int, unseen: int, max_cards: int) -> bool:
    """Whether the unseen cards hold a play of the same kind that beats ``code``, within
    reach of an opponent holding ``max_cards`` (bombs that chop are not counted)."""
    kind = code >> 16
    length = (code >> 8) & 0xFF
    top = code & 0xFF
    if kind == C.SINGLE:
        return bool(unseen >> (top + 1))
    if kind == C.PAIRS:
        return max_cards >= 2 * length and has_runs(unseen, 2, length, top)
    if kind == C.STRAIGHT:
        return max_cards >= length and has_runs(unseen, 1, length, top)
    size = (0, 0, 2, 3, 0, 4)[kind]
    return max_cards >= size and bool(sets(unseen, size, top))


def _is_precious(mask: int, code: int) -> bool:
    return bool(mask & TWOS_MASK) or C.is_bomb(code)


class StrategicPolicy:
    """The strategic decision rule, shared by the strategic bot and the search's look-ahead."""

    def choose(self, sit: Situation) -> int:
        return self.ranked(sit)[0]

    def ranked(self, sit: Situation) -> list[int]:
        """Actions best first (for the search bot to pick candidates from)."""
        if not sit.my_turn:
            chops = sorted(sit.legal, key=lambda m: m.bit_length())
            return [*chops, PASS]
        if sit.table_code == 0:
            return self._leads(sit)
        return self._follows(sit)

    # --- leading ------------------------------------------------------------------------------
    def _leads(self, sit: Situation) -> list[int]:
        hand = sit.hand
        parts = best_split(counts_key(hand), sit.rules.min_straight)[1]
        masks = part_masks(hand, parts)
        if sit.required:
            holding = [m for m, p in zip(masks, parts, strict=True) if m & sit.required]
            legal_with = [m for m in sit.legal if m & sit.required]
            first = holding[0] if holding and holding[0] in legal_with else None
            rest = sorted(legal_with, key=lambda m: (-m.bit_count(), m.bit_length()))
            return [first, *rest] if first is not None else rest
        if len(parts) == 1:
            return masks
        max_cards = sit.most_opponent_cards()
        unseen = sit.unseen
        scored: list[tuple[float, int]] = []
        boss_flags = []
        for mask in masks:
            code = C.classify(mask)
            boss = not can_be_beaten(code, unseen, max_cards)
            boss_flags.append(boss)
        weak_count = boss_flags.count(False)
        threat = sit.threat()
        for mask, part, boss in zip(masks, parts, boss_flags, strict=True):
            size = mask.bit_count()
            s = strength(part)
            if weak_count <= 1:
                # Run out: lead every part nobody can beat, the unbeatable-looking last.
                score = (10.0 if boss else 0.0) + size * 0.01
            else:
                score = -s + 0.04 * size
                if boss:
                    score -= 0.5  # keep winners to regain the lead later
                if threat == 1 and part[0] == C.SINGLE:
                    score -= 3.0 if not boss else 0.0
                    score += 0.2 * (mask.bit_length() / 52)  # if a single, the highest
                elif threat == 2 and part[0] == C.PAIR and not boss:
                    score -= 1.0
            scored.append((score, mask))
        if threat == 1 and all(p[0] == C.SINGLE for p in parts):
            # Only singles against a player on their last card: lead from the top.
            return sorted(masks, key=lambda m: -m)
        scored.sort(key=lambda t: -t[0])
        return [m for _, m in scored]

    # --- following -----------------------------------------------------------------------------
    def _follows(self, sit: Situation) -> list[int]:
        hand = sit.hand
        plays = [a for a in sit.legal if a != PASS]
        if not plays:
            return [PASS]
        if hand in plays:
            return [hand, *(p for p in plays if p != hand), PASS]
        rules = sit.rules
        min_straight = rules.min_straight
        base = best_split(counts_key(hand), min_straight)[0]
        threat = sit.threat()
        table_seat_cards = sit.cards_left[sit.table_seat] if sit.table_seat >= 0 else 13
        urgent = threat <= 2 or table_seat_cards <= 3
        cong_risk = not sit.played_any and threat <= 6
        table_precious = C.category(sit.table_code) is not None
        max_cards = sit.most_opponent_cards()
        hand_size = hand.bit_count()
        scored: list[tuple[float, int]] = []
        for play in plays:
            after = hand & ~play
            cost_after, _, weak_after = best_split(counts_key(after), min_straight)
            gain = base - cost_after
            code = C.classify(play)
            if _is_precious(play, code):
                if table_precious and C.is_bomb(code):
                    gain += CHOP_BONUS
                elif urgent:
                    gain += thoi_units(play, rules.scoring) / 20
                else:
                    # Early, a 2 or a bomb is worth more in the hand than on this round.
                    gain -= 0.15 * (hand_size - 4)
            if weak_after <= 1 and not can_be_beaten(code, sit.unseen & ~play, max_cards):
                gain += 2.0  # take the lead, then run out
            if urgent:
                gain += 0.05 * (code & 0xFF) / 51  # stop them: the higher the better
            scored.append((gain, play))
        scored.sort(key=lambda t: (-t[0], t[1].bit_length()))
        best_gain = scored[0][0]
        order = [m for _, m in scored]
        if best_gain > PASS_THRESHOLD or urgent or cong_risk:
            return [*order, PASS]
        return [PASS, *order]


class StrategicBot:
    """The strategic level (see the module docstring)."""

    name = "strategic"

    def __init__(self, seed: int | None = None) -> None:
        del seed  # deterministic
        self.policy = StrategicPolicy()

    def act(self, view: SeatView) -> int:
        return self.policy.choose(Situation.of_view(view))
