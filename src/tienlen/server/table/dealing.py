"""The next game between its commitment and its deal (docs/FAIRNESS.md).

A table publishes SHA-256 of a fresh server seed, then waits (a few seconds at most) for each
person dealt in to add a client seed of their own; the deal is the engine's, from both. This
module keeps that pending deal's state — the lineup, the secret seed, the seeds received — so
that the table only decides *when* to deal.
"""

from __future__ import annotations

from collections.abc import Callable

from ...engine.deal import commitment
from ...engine.game import Game
from ...engine.rules import RuleSet
from ..errors import Refused
from .messages import CommitmentInfo
from .seating import Lineup, lead_after


class PendingDeal:
    """A game committed to but not dealt yet."""

    def __init__(
        self, game_no: int, lineup: Lineup, server_seed: bytes, now: float, seconds: float
    ) -> None:
        self.game_no = game_no
        self.lineup = lineup
        self.server_seed = server_seed
        self.collecting = seconds > 0
        """Whether client seeds are awaited (until ``now + seconds``)."""
        self.client_seeds: dict[str, bytes] = {}
        """Client seeds sent, by user."""
        self.commitment: CommitmentInfo = {
            "game": game_no,
            "commitment": commitment(server_seed),
            "players": list(lineup.seats),
            "deadline": now + seconds,
            "seconds": seconds,
        }
        """What the ``commitment`` message says (and ``state`` repeats)."""

    def add_seed(self, user: str, seed: bytes) -> bool:
        """Take ``user``'s client seed; True once every person dealt in has sent theirs."""
        if not self.collecting:
            raise Refused("no_commitment", "client seeds are taken only after a commitment")
        if user not in self.lineup.users:
            raise Refused("not_playing", "you are not dealt in this game")
        if user in self.client_seeds:
            raise Refused("seed_already_sent", "you already sent your client seed")
        self.client_seeds[user] = seed
        people = [u for u, bot in zip(self.lineup.users, self.lineup.bots, strict=True) if not bot]
        return all(u in self.client_seeds for u in people)

    def remove(self, user: str) -> bool:
        """``user`` left before the deal; True when the game can no longer be dealt (fewer
        than two left, or no person among them)."""
        if user in self.lineup.users:
            self.lineup.remove(user)
            self.client_seeds.pop(user, None)
        return len(self.lineup.users) < 2 or all(self.lineup.bots)

    def deal(
        self,
        dealer: Callable[..., Game],
        rules: RuleSet,
        previous: tuple[Game, list[str]] | None,
    ) -> Game:
        """The game, dealt from the seeds (``previous`` game and its players decide the lead)."""
        users = self.lineup.users
        seeds = [self.client_seeds.get(u, b"") for u in users] if self.client_seeds else []
        return dealer(
            rules,
            len(users),
            server_seed=self.server_seed,
            client_seeds=seeds,
            **({} if previous is None else lead_after(previous[0], previous[1], users)),
        )
