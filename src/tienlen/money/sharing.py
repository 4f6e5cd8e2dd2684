"""Paying: charges against balances, short payments shared out, and the house fee.

Order of payment: chop money first, chain by chain in the order the chops were made (a chain is
final only when its round closes, since an over-chop moves the whole sum to a new payer), then
the end of the game as one batch. Nobody pays more than they hold at that moment; a short
payer's chips are shared among what they owed in proportion, whole chips by largest remainder.
The house fee comes last, from each player's net winnings, in basis points (600 = 6 %),
rounded down.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from fractions import Fraction

from .items import Item

__all__ = ["BASIS_POINTS", "house_fees", "pay", "share"]

BASIS_POINTS = 10_000
"""A whole: a fee of ``fee_bp`` takes ``fee_bp / BASIS_POINTS`` of the winnings."""


def share(available: int, owed: Sequence[int]) -> list[int]:
    """Split ``available`` chips over debts in proportion, whole chips by largest remainder
    (ties: the earlier debt first). Debts are paid in full when there is enough."""
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


def pay(
    chops: Sequence[Item], end: Sequence[Item], balances: Sequence[int] | None, n: int
) -> tuple[list[Item], list[int]]:
    """The lines as paid, and each seat's net chips before the fee.

    ``balances``: each seat's chips before the game, or None for no limit.
    """
    running = None if balances is None else list(balances)
    items: list[Item] = []
    net = [0] * n

    def book(item: Item, amount: int) -> None:
        items.append(item if amount == item.amount else dataclasses.replace(item, amount=amount))
        net[item.payer] -= amount
        net[item.payee] += amount
        if running is not None:
            running[item.payer] -= amount
            running[item.payee] += amount

    for item in chops:
        book(item, item.owed if running is None else min(item.owed, running[item.payer]))
    paid = [item.owed for item in end]
    if running is not None:
        for payer in range(n):
            mine = [i for i, item in enumerate(end) if item.payer == payer]
            shares = share(running[payer], [end[i].owed for i in mine])
            for i, amount in zip(mine, shares, strict=True):
                paid[i] = amount
    for item, amount in zip(end, paid, strict=True):
        book(item, amount)
    return items, net


def house_fees(net: Sequence[int], fee_bp: int) -> list[int]:
    """The house fee per seat: ``floor(winnings × fee_bp / 10,000)`` from each winner, none
    from losers (rounded down, in the player's favour)."""
    return [gain * fee_bp // BASIS_POINTS if gain > 0 else 0 for gain in net]
