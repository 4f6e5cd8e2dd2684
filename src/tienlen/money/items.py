"""A settlement line as data: who pays whom, how much, and the facts that make it owed.

Each :class:`Item` carries one *facts* object saying why it is owed — the chop chain and the
bomb, the cards counted, the heo or hàng caught in hand, the multiplier, the place… — in
plain numbers and card masks. The English and Vietnamese reasons are made from those facts by
:mod:`.words` only when someone reads them, so a look-ahead that settles thousands of games
never builds a sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from ..engine import combos as C
from ..engine.cards import TWOS_MASK, mask_ascii

Kind = Literal["chop", "cards", "thoi", "cong", "multiplier", "instant_win", "place", "den_bai"]
"""What a line pays for; ``den_bai`` is a line paid for another player (its facts say what)."""

PenaltyKind = Literal["black_two", "red_two", "quad", "pairs", "three_spades"]


@dataclass(frozen=True, slots=True)
class Penalty:
    """A heo, a hàng or 3♠ caught in hand at the end (thối), worth ``units`` bets."""

    kind: PenaltyKind
    cards: int
    """The cards it is made of (a mask)."""
    units: int

    @property
    def pairs(self) -> int:
        """How many consecutive pairs, for a ``pairs`` hàng (0 otherwise)."""
        return self.cards.bit_count() // 2 if self.kind == "pairs" else 0

    def to_dict(self) -> dict[str, Any]:
        return {"penalty": self.kind, "cards": mask_ascii(self.cards), "units": self.units}


@dataclass(frozen=True, slots=True)
class Link:
    """One play of a chop chain: a heo or a hàng laid in the round."""

    seat: int
    cards: int
    category: str
    """Its chop category (:data:`tienlen.engine.combos.CATEGORIES`)."""
    units: int
    """What it adds to the chain's money, in bets."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "cards": mask_ascii(self.cards),
            "category": self.category,
            "units": self.units,
        }


@dataclass(frozen=True, slots=True)
class ChopFacts:
    """A chop chain (chặt, chặt chồng): the last one chopped pays the whole chain."""

    what: ClassVar[Kind] = "chop"
    bomb: int
    """The chopper's cards."""
    bomb_category: str
    chain: tuple[Link, ...]
    """Oldest first, ending with the play chopped."""

    @property
    def chopped(self) -> Link:
        return self.chain[-1]

    @property
    def over_chop(self) -> bool:
        """The play chopped was itself a bomb (chặt chồng)."""
        return self.chopped.category in C.BOMB_CATEGORIES

    @property
    def twos(self) -> int:
        """Every 2 in the chain (a mask)."""
        out = 0
        for link in self.chain:
            out |= link.cards & TWOS_MASK
        return out

    @property
    def units(self) -> int:
        return sum(link.units for link in self.chain)

    def to_dict(self) -> dict[str, Any]:
        return {
            "bomb": mask_ascii(self.bomb),
            "bomb_category": self.bomb_category,
            "chopped": mask_ascii(self.chopped.cards),
            "twos": mask_ascii(self.twos),
            "over_chop": self.over_chop,
            "chain": [link.to_dict() for link in self.chain],
            "units": self.units,
        }


@dataclass(frozen=True, slots=True)
class CardsFacts:
    """Cards counted at the end (đếm lá)."""

    what: ClassVar[Kind] = "cards"
    count: int
    per_card: int
    """Bets per card (the rule set's ``card``)."""
    others_only: bool = False
    """Heo and hàng were charged apart, instead of being counted here ("replace")."""

    @property
    def units(self) -> int:
        return self.count * self.per_card

    def to_dict(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "per_card": self.per_card,
            "others_only": self.others_only,
            "units": self.units,
        }


@dataclass(frozen=True, slots=True)
class ThoiFacts:
    """A heo, hàng or 3♠ caught in hand (thối)."""

    what: ClassVar[Kind] = "thoi"
    penalty: Penalty

    @property
    def units(self) -> int:
        return self.penalty.units

    def to_dict(self) -> dict[str, Any]:
        return self.penalty.to_dict()


@dataclass(frozen=True, slots=True)
class CongFacts:
    """Cóng: a loser who never played a card pays a fixed sum instead of the count."""

    what: ClassVar[Kind] = "cong"
    units: int
    sweep: bool = False
    """Seed 002's sweep: the winner shed all 13 before anyone else played."""

    def to_dict(self) -> dict[str, Any]:
        return {"units": self.units, "sweep": self.sweep}


MultiplierCause = Literal["three_spades_finish", "cong", "cong_three_spades"]


@dataclass(frozen=True, slots=True)
class MultiplierFacts:
    """The extra of a multiplied loss: ``base`` bets × (``factor`` − 1)."""

    what: ClassVar[Kind] = "multiplier"
    factor: int
    base: int
    """The bets multiplied (the card count, or all a cóng loser pays)."""
    cause: MultiplierCause

    @property
    def units(self) -> int:
        return self.base * (self.factor - 1)

    def to_dict(self) -> dict[str, Any]:
        return {"factor": self.factor, "base": self.base, "cause": self.cause, "units": self.units}


@dataclass(frozen=True, slots=True)
class InstantWinFacts:
    """A loss to an instant win (tới trắng), or a cóng paid as one (``cong_pays_everyone``)."""

    what: ClassVar[Kind] = "instant_win"
    hands: tuple[str, ...]
    """The winner's instant-win hands (names from :data:`tienlen.engine.rules.INSTANT_WIN_HANDS`);
    empty for a cóng."""
    units: int
    cards: CardsFacts | None = None
    """The loser's cards, where they are counted instead of a fixed sum."""
    doubled: bool = False
    """Seed 002's first-game hands: the cards other than 2s count twice."""
    cong: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hands": list(self.hands), "units": self.units}
        if self.cards is not None:
            out["cards"] = self.cards.to_dict()
        if self.doubled:
            out["doubled"] = True
        if self.cong:
            out["cong"] = True
        return out


@dataclass(frozen=True, slots=True)
class PlaceFacts:
    """Full ranking: the k-th from the bottom pays the k-th from the top."""

    what: ClassVar[Kind] = "place"
    place: int
    """The payer's place, 1 = first."""
    paid_place: int
    players: int
    units: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "paid_place": self.paid_place,
            "players": self.players,
            "units": self.units,
        }


Facts = (
    ChopFacts | CardsFacts | ThoiFacts | CongFacts | MultiplierFacts | InstantWinFacts | PlaceFacts
)


@dataclass(frozen=True, slots=True)
class Item:
    """One payment of the breakdown."""

    payer: int
    payee: int
    amount: int
    """Chips actually paid."""
    owed: int
    """Chips owed before the payer's balance ran short (equal to ``amount`` when paid in full)."""
    facts: Facts
    for_seat: int | None = None
    """Đền bài: the seat whose debt this payer pays."""
    shared_by: int = 1
    """A shared instant win: how many winners split this loser's line."""
    in_cards: bool = True
    """The table counts money in cards (lá), not bets (cược): only the Vietnamese differs."""

    @property
    def kind(self) -> Kind:
        if self.for_seat is not None:
            return "den_bai"
        return self.facts.what

    @property
    def units(self) -> int:
        """What the line is worth in bets, before any sharing out."""
        return self.facts.units

    # The words sit above the data (words.py reads these classes), hence the imports below.
    @property
    def reason_en(self) -> str:
        from .words import english

        return english(self)

    @property
    def reason_vi(self) -> str:
        from .words import vietnamese

        return vietnamese(self)

    def to_dict(self) -> dict[str, Any]:
        """The facts and the words, for ``tienlen replay`` and the server."""
        facts = {"what": self.facts.what, **self.facts.to_dict()}
        if self.for_seat is not None:
            facts["for_seat"] = self.for_seat
        if self.shared_by > 1:
            facts["shared_by"] = self.shared_by
        return {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "owed": self.owed,
            "reason": self.reason_en,
            "reason_vi": self.reason_vi,
            "kind": self.kind,
            "facts": facts,
        }
