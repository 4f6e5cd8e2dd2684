"""Checking a game record's deal against its revealed seeds (``tienlen verify``).

A record that carries ``deal: {scheme, commitment, server_seed, client_seeds}`` can be checked
by anyone: the server seed must hash to the commitment, and the seeds must deal exactly the
record's hands (docs/FAIRNESS.md). :func:`verify_record` lists every difference it finds
instead of stopping at the first, so a disputed game shows at once what was changed.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from typing import Any

from .cards import CardError, mask_ascii, parse_mask
from .deal import (
    SCHEME,
    SERVER_SEED_BYTES,
    DealError,
    check_client_seeds,
    commitment,
    deal_game,
    deal_hands,
    needs_redeal,
    seed_from_hex,
)
from .record import RecordError, rules_from_spec


@dataclass(frozen=True)
class Mismatch:
    """One thing in the record that its seeds do not bear out."""

    code: str
    """``no_deal``, ``bad_deal``, ``unknown_scheme``, ``missing_commitment``,
    ``bad_commitment``, ``missing_server_seed``, ``bad_server_seed``, ``bad_client_seeds``,
    ``commitment_mismatch`` or ``hand_mismatch``."""
    message: str
    seat: int | None = None
    missing: int = 0
    """Cards the seeds deal to ``seat`` that the record's hand lacks."""
    extra: int = 0
    """Cards in the record's hand that the seeds do not deal to ``seat``."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.seat is not None:
            out |= {"seat": self.seat, "missing": mask_ascii(self.missing)}
            out["extra"] = mask_ascii(self.extra)
        return out


@dataclass(frozen=True)
class Verification:
    """What :func:`verify_record` found: ``ok`` when nothing is listed in ``mismatches``."""

    mismatches: list[Mismatch] = field(default_factory=list)
    commitment: str | None = None
    """The commitment written in the record (when it is well-formed hex)."""
    deal_index: int | None = None
    """Which deal of the seeds the hands come from (see ``redeal_four_twos``), once computed."""
    redealt: list[str] = field(default_factory=list)
    """Why each earlier deal index was dealt again."""
    hands: list[int] | None = None
    """The hands the seeds deal, when the seeds could be read."""

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "commitment": self.commitment,
            "deal_index": self.deal_index,
            "redealt": self.redealt,
            "hands": None if self.hands is None else [mask_ascii(h) for h in self.hands],
            "mismatches": [m.to_dict() for m in self.mismatches],
        }


def record_hands(data: dict[str, Any]) -> list[int]:
    """The record's hands, read card by card (no check that they make a valid deal: a card
    moved from one seat to another should be reported against each seat, not refused)."""
    raw = data.get("hands")
    if not isinstance(raw, list) or not 2 <= len(raw) <= 4:
        raise RecordError("hands must be a list of 2 to 4 hands")
    hands = []
    for seat, hand in enumerate(raw):
        if not isinstance(hand, str | list):
            raise RecordError(f"hands[{seat}] must be a string or a list of card names")
        try:
            hands.append(parse_mask(hand))
        except CardError as exc:
            raise RecordError(f"hands[{seat}]: {exc}") from None
    return hands


def _hand_mismatch(seat: int, dealt: int, written: int) -> Mismatch:
    missing, extra = dealt & ~written, written & ~dealt
    parts = []
    if missing:
        parts.append(f"the seeds deal {mask_ascii(missing)} that the record's hand lacks")
    if extra:
        parts.append(f"the record's hand has {mask_ascii(extra)} that the seeds do not deal it")
    message = f"seat {seat}: " + "; ".join(parts)
    return Mismatch("hand_mismatch", message, seat=seat, missing=missing, extra=extra)


def verify_record(data: Any) -> Verification:
    """Recompute a record's deal from its ``deal`` field and list everything that differs.

    Raises :class:`RecordError` when the record cannot be read at all (not an object, hands
    that are not cards, an unknown rule set); a missing, malformed or wrong ``deal`` is not an
    error but a mismatch in the result.
    """
    if not isinstance(data, dict):
        raise RecordError("a game record is a JSON object")
    hands = record_hands(data)
    rules = rules_from_spec(data.get("ruleset", "thapthanh"))
    n_players = len(hands)
    if "deal" not in data:
        message = "the record has no deal field: nothing proves how it was dealt"
        return Verification([Mismatch("no_deal", message)])
    deal = data["deal"]
    if not isinstance(deal, dict):
        message = "deal must be an object {scheme, commitment, server_seed, client_seeds}"
        return Verification([Mismatch("bad_deal", message)])

    found: list[Mismatch] = []
    scheme = deal.get("scheme")
    if scheme != SCHEME:
        what = "has no scheme" if scheme is None else f"names the scheme {scheme!r}"
        message = f"the deal {what}; this engine verifies only {SCHEME!r}"
        return Verification([Mismatch("unknown_scheme", message)])

    written_commitment: str | None = None
    if "commitment" not in deal:
        found.append(Mismatch("missing_commitment", "the deal has no commitment"))
    else:
        try:
            if len(seed_from_hex(deal["commitment"], "commitment")) != 32:
                raise DealError("commitment must be 64 hex digits (a SHA-256)")
            written_commitment = deal["commitment"]
        except DealError as exc:
            found.append(Mismatch("bad_commitment", str(exc)))

    server_seed: bytes | None = None
    if "server_seed" not in deal:
        message = "the deal has no server_seed (it is revealed only after the game)"
        found.append(Mismatch("missing_server_seed", message))
    else:
        try:
            server_seed = seed_from_hex(deal["server_seed"], "server_seed")
            if len(server_seed) != SERVER_SEED_BYTES:
                raise DealError(
                    f"server_seed must be {SERVER_SEED_BYTES} bytes "
                    f"({2 * SERVER_SEED_BYTES} hex digits), not {len(server_seed)}"
                )
        except DealError as exc:
            server_seed = None
            found.append(Mismatch("bad_server_seed", str(exc)))

    client_seeds: list[bytes] | None = None
    raw_client = deal.get("client_seeds", [])
    try:
        if not isinstance(raw_client, list):
            raise DealError("client_seeds must be a list of hex strings, one per seat")
        client_seeds = [seed_from_hex(s, f"client_seeds[{i}]") for i, s in enumerate(raw_client)]
        check_client_seeds(client_seeds, n_players)
    except DealError as exc:
        client_seeds = None
        found.append(Mismatch("bad_client_seeds", str(exc)))

    if server_seed is not None and written_commitment is not None:
        actual = commitment(server_seed)
        if not hmac.compare_digest(actual, written_commitment):
            message = f"SHA-256 of server_seed is {actual}, not the commitment {written_commitment}"
            found.append(Mismatch("commitment_mismatch", message))

    if server_seed is None or client_seeds is None:
        return Verification(found, written_commitment)

    dealt = deal_game(server_seed, client_seeds, n_players, redeal_four_twos=rules.redeal_four_twos)
    redealt = []
    for index in range(dealt.deal_index):
        earlier = deal_hands(server_seed, client_seeds, n_players, index)
        seat = next(s for s, hand in enumerate(earlier) if needs_redeal([hand]))
        redealt.append(f"deal {index}: seat {seat} held all four 2s")
    for seat, (want, have) in enumerate(zip(dealt.hands, hands, strict=True)):
        if want != have:
            found.append(_hand_mismatch(seat, want, have))
    return Verification(found, written_commitment, dealt.deal_index, redealt, dealt.hands)
