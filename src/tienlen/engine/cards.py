"""Cards, card notation and card sets.

A card is a small int ``rank * 4 + suit`` so that plain integer order is the game's order:
rank first (3 lowest … A, 2 highest), then suit (♠ < ♣ < ♦ < ♥). 3♠ is 0 and 2♥ is 51.
A set of cards is a 52-bit mask; :class:`CardSet` wraps one behind a set-like interface.

Notation: a rank (``3``–``9``, ``10`` or ``T``, ``J``, ``Q``, ``K``, ``A``, ``2``) followed by a
suit letter (``s c d h``) or symbol (``♠ ♣ ♦ ♥``), case-insensitive. The canonical text uses
symbols (``10♥``); :func:`card_ascii` gives the ASCII form (``10h``) used in game records.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

Card = int

RANK_NAMES: Final = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUIT_SYMBOLS: Final = ("♠", "♣", "♦", "♥")
SUIT_LETTERS: Final = ("s", "c", "d", "h")
SUIT_NAMES_VI: Final = ("bích", "chuồn", "rô", "cơ")

RANK_TWO: Final = 12
"""Index of the rank 2 (heo), the highest rank."""
THREE_SPADES: Final[Card] = 0
TWO_HEARTS: Final[Card] = 51
FULL_DECK: Final = (1 << 52) - 1
TWOS_MASK: Final = 0xF << (4 * RANK_TWO)

_RANK_PARSE = {name.lower(): i for i, name in enumerate(RANK_NAMES)} | {"t": 7}
_SUIT_PARSE = {ch: i for i, ch in enumerate(SUIT_LETTERS)} | {
    ch: i for i, ch in enumerate(SUIT_SYMBOLS)
}
# Emoji-style variants some keyboards and chat clients produce.
_SUIT_PARSE |= {"♤": 0, "♧": 1, "♢": 2, "♡": 3, "\u2660\ufe0f": 0, "\u2663\ufe0f": 1}
_SUIT_PARSE |= {"\u2666\ufe0f": 2, "\u2665\ufe0f": 3}
_CARD_RE = re.compile(r"(10|[2-9tjqka])([scdh♠♣♦♥♤♧♢♡])\ufe0f?", re.IGNORECASE)


class CardError(ValueError):
    """A card or list of cards could not be read."""


def rank_of(card: Card) -> int:
    return card >> 2


def suit_of(card: Card) -> int:
    return card & 3


def make_card(rank: int, suit: int) -> Card:
    return rank * 4 + suit


def card_str(card: Card) -> str:
    """Canonical text of a card, with a suit symbol: ``10♥``."""
    return RANK_NAMES[card >> 2] + SUIT_SYMBOLS[card & 3]


def card_ascii(card: Card) -> str:
    """ASCII text of a card: ``10h``."""
    return RANK_NAMES[card >> 2] + SUIT_LETTERS[card & 3]


def parse_card(text: str) -> Card:
    """Read one card such as ``3s``, ``Th``, ``10h`` or ``2♥``."""
    token = text.strip()
    match = _CARD_RE.fullmatch(token)
    if match is None:
        raise CardError(f"not a card: {text!r} (write a rank 3-10/J/Q/K/A/2 and a suit s/c/d/h)")
    return make_card(_RANK_PARSE[match.group(1).lower()], _SUIT_PARSE[match.group(2).lower()])


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas (or already split), refusing duplicates."""
    if isinstance(text, str):
        tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
        # Also accept cards written together, like "3s4s5h".
        if len(tokens) == 1 and len(tokens[0]) > 3:
            joined = tokens[0]
            found = _CARD_RE.findall(joined)
            if "".join(r + s for r, s in found).lower() == joined.lower().replace("\ufe0f", ""):
                tokens = [r + s for r, s in found]
    else:
        tokens = list(text)
    cards = [parse_card(t) for t in tokens]
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        dup = next(c for c in cards if c in seen or seen.add(c))  # type: ignore[func-returns-value]
        raise CardError(f"card {card_str(dup)} is written twice")
    return cards


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_str(mask: int, sep: str = " ") -> str:
    return sep.join(card_str(c) for c in cards_of(mask))


def mask_ascii(mask: int, sep: str = " ") -> str:
    return sep.join(card_ascii(c) for c in cards_of(mask))


def parse_mask(text: str | Iterable[str]) -> int:
    return mask_of(parse_cards(text))


def is_red(card: Card) -> bool:
    return (card & 3) >= 2


class CardSet:
    """An immutable set of cards backed by a 52-bit mask.

    Iteration yields cards lowest first; ``str`` gives the canonical notation.
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card] | str | int | CardSet = 0) -> None:
        if isinstance(cards, CardSet):
            mask = cards.mask
        elif isinstance(cards, int):
            if cards < 0 or cards > FULL_DECK:
                raise CardError(f"not a card mask: {cards}")
            mask = cards
        elif isinstance(cards, str):
            mask = parse_mask(cards)
        else:
            mask = 0
            for c in cards:
                if not 0 <= c < 52:
                    raise CardError(f"not a card: {c}")
                mask |= 1 << c
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str) -> CardSet:
        return cls(parse_mask(text))

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def issubset(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __str__(self) -> str:
        return mask_str(self.mask)

    def ascii(self) -> str:
        return mask_ascii(self.mask)

    def __repr__(self) -> str:
        return f"CardSet({mask_ascii(self.mask)!r})"


HAND_CARDS: Final = 13
"""Cards dealt to each seat."""


def check_hands(hands: Sequence[int]) -> int:
    """Refuse (ValueError, naming the seat) hands that are not 13 distinct cards each; returns
    every card dealt: what a game checks of the hands it is given."""
    seen = 0
    for seat, mask in enumerate(hands):
        if mask < 0 or mask & ~FULL_DECK:
            raise ValueError(f"seat {seat}: not a set of cards")
        if mask.bit_count() != HAND_CARDS:
            raise ValueError(f"seat {seat} holds {mask.bit_count()} cards, not {HAND_CARDS}")
        if mask & seen:
            raise ValueError(f"seat {seat}: {mask_str(mask & seen)} dealt twice")
        seen |= mask
    return seen
