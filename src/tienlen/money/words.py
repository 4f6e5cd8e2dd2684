"""The words of a settlement line, in English and Vietnamese, made from its facts.

A player reads them without help, so they name the cards and show the arithmetic as the seeds
write it: ``chặt heo đỏ (2♥): heo đen 5 + heo đỏ 10 = 15 lá``. Amounts are in bets, and every
amount says so: "lá" / "cards" where the table counts cards, "cược" / "units" where it does not
(bigfun); either way N of them cost N × the bet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import combos as C
from ..engine.cards import mask_str
from ..engine.rules import INSTANT_WIN_HANDS
from .items import (
    CardsFacts,
    ChopFacts,
    CongFacts,
    InstantWinFacts,
    Link,
    MultiplierFacts,
    Penalty,
    ThoiFacts,
)

if TYPE_CHECKING:
    from .items import Item

__all__ = ["english", "penalty_name", "place_names", "vietnamese"]

_PENALTY_NAMES = {
    "black_two": ("black 2", "heo đen"),
    "red_two": ("red 2", "heo đỏ"),
    "quad": C.CATEGORY_NAMES[C.FOUR_KIND],
    "three_spades": ("3♠", "3 bích"),
}


def english(item: Item) -> str:
    """The English reason for a line."""
    text = _english(item)
    if item.shared_by > 1:
        text = f"{text}, shared by {item.shared_by} winners"
    if item.for_seat is not None:
        text = f"đền bài for seat {item.for_seat}: {text}"
    return text


def vietnamese(item: Item) -> str:
    """The Vietnamese reason for a line."""
    text = _vietnamese(item)
    if item.shared_by > 1:
        text = f"{text}, chia đều {item.shared_by} người"
    if item.for_seat is not None:
        text = f"đền bài thay ghế {item.for_seat}: {text}"
    return text


def penalty_name(penalty: Penalty) -> tuple[str, str]:
    """(English, Vietnamese) name of a heo, hàng or 3♠: ``red 2``, ``3 đôi thông``, …"""
    if penalty.kind == "pairs":
        n = penalty.pairs
        return f"{n} consecutive pairs", f"{n} đôi thông"
    return _PENALTY_NAMES[penalty.kind]


def place_names(n: int) -> list[tuple[str, str]]:
    """(English, Vietnamese) names of the places at an ``n``-player table, first to last."""
    en = ["1st", "2nd", "3rd", "4th"][:n]
    vi = ["nhất", "nhì", "ba", "bét"][:n]
    en[-1] = "last"
    vi[-1] = "bét"
    return list(zip(en, vi, strict=True))


def _link_name(link: Link) -> tuple[str, str]:
    if link.category == C.TWO:
        red = (link.cards.bit_length() - 1) & 3 >= 2
        return ("red 2", "heo đỏ") if red else ("black 2", "heo đen")
    return C.CATEGORY_NAMES[link.category]


def _hand_names(hands: tuple[str, ...]) -> tuple[str, str]:
    return (
        ", ".join(INSTANT_WIN_HANDS[h][0] for h in hands),
        ", ".join(INSTANT_WIN_HANDS[h][1] for h in hands),
    )


def _amount_en(units: int, in_cards: bool) -> str:
    """An amount in bets with its unit: ``5 cards``, ``1 unit``."""
    word = "card" if in_cards else "unit"
    return f"{units} {word}{'' if units == 1 else 's'}"


def _cards_en(f: CardsFacts) -> str:
    other = " other" if f.others_only else ""
    times = f" × {f.per_card}" if f.per_card != 1 else ""
    return f"{f.count}{other} card{'s' if f.count > 1 else ''} left{times}"


def _cards_vi(f: CardsFacts) -> str:
    other = " thường" if f.others_only else ""
    times = f" × {f.per_card}" if f.per_card != 1 else ""
    return f"còn {f.count} lá{other}{times}"


def _english(item: Item) -> str:
    f = item.facts
    in_cards = item.in_cards
    if isinstance(f, ChopFacts):
        word = "over-chopped" if f.over_chop else "chopped"
        what = _link_name(f.chopped)[0]
        head = f"{word} {what} ({mask_str(f.chopped.cards)})"
        if len(f.chain) > 1:
            parts = " + ".join(f"{_link_name(link)[0]} {link.units}" for link in f.chain)
            return f"{head}: {parts} = {_amount_en(f.units, in_cards)}"
        return f"{head}: {_amount_en(f.units, in_cards)}"
    if isinstance(f, CardsFacts):
        return _cards_en(f)
    if isinstance(f, ThoiFacts):
        p = f.penalty
        held = f"{penalty_name(p)[0]} ({mask_str(p.cards)})"
        return f"caught holding {held}: {_amount_en(p.units, in_cards)}"
    if isinstance(f, CongFacts):
        if f.sweep:
            return (
                f"swept: winner shed all 13 before anyone played: {_amount_en(f.units, in_cards)}"
            )
        return f"cóng (no card played): {_amount_en(f.units, in_cards)}"
    if isinstance(f, MultiplierFacts):
        if f.cause == "three_spades_finish":
            return f"winner finished on 3♠: cards ×{f.factor}"
        if f.cause == "cong_three_spades":
            return f"cóng ×{f.factor}: winner finished on 3♠"
        return f"cóng ×{f.factor}"
    if isinstance(f, InstantWinFacts):
        hands = _hand_names(f.hands)[0]
        if f.doubled and f.cards is not None:
            return f"instant win in a first game ({hands}): {f.cards.count} cards × 2"
        label = "cóng" if f.cong else f"instant win ({hands})"
        if f.cards is not None:
            return f"{label}: {_cards_en(f.cards)}"
        return f"{label}: {_amount_en(f.units, in_cards)}"
    names = place_names(f.players)
    paid = f"{names[f.place - 1][0]} place pays {names[f.paid_place - 1][0]}"
    return f"{paid}: {_amount_en(f.units, in_cards)}"


def _vietnamese(item: Item) -> str:
    f = item.facts
    unit = "lá" if item.in_cards else "cược"
    if isinstance(f, ChopFacts):
        word = "chặt chồng" if f.over_chop else "chặt"
        what = _link_name(f.chopped)[1]
        head = f"{word} {what} ({mask_str(f.chopped.cards)})"
        if len(f.chain) > 1:
            parts = " + ".join(f"{_link_name(link)[1]} {link.units}" for link in f.chain)
            return f"{head}: {parts} = {f.units} {unit}"
        return f"{head}: {f.units} {unit}"
    if isinstance(f, CardsFacts):
        return _cards_vi(f)
    if isinstance(f, ThoiFacts):
        p = f.penalty
        return f"thối {penalty_name(p)[1]} ({mask_str(p.cards)}): {p.units} {unit}"
    if isinstance(f, CongFacts):
        if f.sweep:
            return f"tới trắng (đánh hết 13 lá khi chưa ai đánh): {f.units} {unit}"
        return f"cóng: {f.units} {unit}"
    if isinstance(f, MultiplierFacts):
        if f.cause == "three_spades_finish":
            return f"về nhất bằng 3♠: lá ×{f.factor}"
        if f.cause == "cong_three_spades":
            return f"cóng ×{f.factor} (tới bằng 3♠)"
        return f"cóng ×{f.factor}"
    if isinstance(f, InstantWinFacts):
        hands = _hand_names(f.hands)[1]
        if f.doubled and f.cards is not None:
            return f"tới trắng ván đầu ({hands}): {f.cards.count} lá × 2"
        label = "cóng" if f.cong else f"tới trắng ({hands})"
        if f.cards is not None:
            return f"{label}: {_cards_vi(f.cards)}"
        return f"{label}: {f.units} {unit}"
    names = place_names(f.players)
    return f"về {names[f.place - 1][1]} đền {names[f.paid_place - 1][1]}: {f.units} {unit}"
