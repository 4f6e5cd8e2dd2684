"""The search level: sample the hidden cards, play each candidate out, keep the best.

At each real choice the bot deals the cards it has not seen to the other seats many times over
(determinisation), each time consistently with everything public: what each seat has played,
how many cards each holds, who led the first round (in a first game the 3♠ holder leads), that
nobody held an instant-win hand, and that the whole history replays legally from that deal
(a passed player given back the turn to chop must hold 4 consecutive pairs, for example).
Passing proves nothing under free passing, so passes are not read as "could not beat" — but
they are evidence: with inference on (the default), the sampled deals are carried through the
game and improved by card swaps towards deals that explain the others' choices
(:mod:`.inference`).

For each sampled deal it tries the strategic policy's few best actions and plays each game out
with the strategic policy at every seat, scoring the end with the preset's settlement, and
keeps the strategic choice unless another candidate does clearly better on the same deals.
The budget is a fixed number of samples and swaps (reproducible) and, when the view carries a
clock or a time limit is set, also a deadline.
"""

from __future__ import annotations

import random
import time

from ..engine.cards import cards_of, mask_of
from ..engine.errors import IllegalAction
from ..engine.game import Action, Game
from ..engine.views import SeatView
from ..money.settlement import settle
from .inference import Inference
from .strategic import Situation, StrategicPolicy

MAX_ROLLOUT_ACTIONS = 400
"""A safety bound on the length of a look-ahead game (real games take well under 100)."""


def replay_actions(game: Game, actions: tuple[Action, ...]) -> None:
    """Apply a public history to a game; raises IllegalAction where it does not fit."""
    for action in actions:
        game.apply(action)


def sample_world(view: SeatView, rng: random.Random, attempts: int = 30) -> Game | None:
    """A game dealt at random consistently with the view and replayed to the present, or None
    when ``attempts`` deals all contradicted the public facts."""
    n = view.n_players
    known = [view.played_by[s] for s in range(n)]
    pool = cards_of(view.unseen)
    needs = [0 if s == view.seat else view.cards_left[s] for s in range(n)]
    for _ in range(attempts):
        rng.shuffle(pool)
        hands = list(known)
        start = 0
        for seat in range(n):
            if needs[seat]:
                hands[seat] |= mask_of(pool[start : start + needs[seat]])
                start += needs[seat]
        world = world_from(view, hands)
        if world is not None:
            return world
    return None


def world_from(view: SeatView, hands: list[int]) -> Game | None:
    """The game dealt ``hands`` (the view's own seat filled in), replayed to the present;
    None when that deal contradicts the public facts: an instant win nobody had, another first
    leader, or a history that does not replay (a passed player given the turn back to chop
    must hold 4 consecutive pairs, for example)."""
    hands = list(hands)
    hands[view.seat] = view.initial_hand
    try:
        world = Game(
            view.rules,
            hands,
            first_game=view.first_game,
            leader=None if view.first_game else view.leader,
            barred_instant_winner=view.barred_instant_winner,
        )
    except ValueError:
        return None
    if world.over or world.leader != view.leader:
        return None
    try:
        replay_actions(world, view.actions)
    except IllegalAction:
        return None
    if world.over or world.current != view.current:
        return None
    return world


def rollout(game: Game, policy: StrategicPolicy) -> None:
    """Play a game to its end with the strategic policy at every seat (chops included)."""
    check_out_of_turn = game.rules.four_pairs_out_of_turn
    for _ in range(MAX_ROLLOUT_ACTIONS):
        if game.over:
            return
        if check_out_of_turn and game.last_code:
            window = game.chop_window()
            if window:
                seat = window[0]
                chops = game.legal_actions(seat)
                game.apply_action(policy.choose(Situation.of_game(game, seat, chops)), seat)
                continue
        seat = game.current
        if game.last_code == 0 and not game.required:
            action = policy.choose(Situation.of_game(game, seat, ()))
        else:
            action = policy.choose(Situation.of_game(game, seat))
        game.apply_action(action, seat)


class SearchBot:
    """The search level (see the module docstring)."""

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 24,
        candidates: int = 3,
        time_limit_s: float | None = None,
        margin: float = 1.0,
        inference: bool = True,
        moves: int | None = None,
    ) -> None:
        if samples < 1 or candidates < 1:
            raise ValueError("samples and candidates must be at least 1")
        self.rng = random.Random(seed)
        self.samples = samples
        """Sampled deals looked ahead on at each decision."""
        self.candidates = candidates
        self.time_limit_s = time_limit_s
        self.margin = margin
        self.inference = inference
        self.moves = moves if moves is not None else 10 * samples
        """Card swaps tried at each decision to make the sampled deals explain the others'
        choices better (with inference)."""
        self.policy = StrategicPolicy()
        self.reading: Inference | None = None

    def act(self, view: SeatView) -> int:
        sit = Situation.of_view(view)
        ranked = self.policy.ranked(sit)
        if not view.my_turn or len(view.legal) == 1 or ranked[0] == view.hand:
            return ranked[0]
        candidates = _distinct(ranked)[: self.candidates]
        if len(candidates) == 1:
            return candidates[0]
        deadline = self._deadline(view)
        values: list[list[float]] = [[] for _ in candidates]
        for world in self._worlds(view, deadline):
            for i, action in enumerate(candidates):
                game = world.copy()
                game.apply_action(action, view.seat)
                rollout(game, self.policy)
                values[i].append(self._value(game, view.seat))
            if deadline is not None and time.perf_counter() > deadline:
                break
        return candidates[self._pick(values)]

    def _worlds(self, view: SeatView, deadline: float | None) -> list[Game]:
        """The sampled deals to look ahead on, replayed to the present. With inference, the
        deals carried from the last decision, improved by ``moves`` card swaps; without,
        fresh ones. Sampling stops half-way to the deadline, leaving the rest to look-ahead."""
        stop = None
        if deadline is not None:
            now = time.perf_counter()
            stop = now + (deadline - now) / 2
        worlds: list[Game] = []
        if not self.inference:
            for _ in range(self.samples):
                if stop is not None and worlds and time.perf_counter() > stop:
                    break
                world = sample_world(view, self.rng)
                if world is not None:
                    worlds.append(world)
            return worlds
        if self.reading is None or not self.reading.follows(view):
            self.reading = Inference(view, self.policy, self.rng)
        reading = self.reading
        reading.update(view, self.samples, stop)
        reading.improve(self.moves, stop=stop)
        for deal in reading.deals:
            world = world_from(view, reading.initial_hands(deal))
            if world is None:
                deal.energy += 1000  # contradicts the history: replaced below
                continue
            worlds.append(world)
        reading.deals = [d for d in reading.deals if d.energy < 1000]
        return worlds

    def _value(self, game: Game, seat: int) -> float:
        return float(settle(game).deltas[seat]) if game.over else 0.0

    def _pick(self, values: list[list[float]]) -> int:
        """The candidate with the best mean; another than the policy's first choice (index 0)
        only when its paired advantage over it stands above the noise by ``margin`` errors."""
        n = len(values[0])
        if n == 0:
            return 0
        best, best_score = 0, 0.0
        for i in range(1, len(values)):
            diffs = [a - b for a, b in zip(values[i], values[0], strict=True)]
            mean = sum(diffs) / n
            if n > 1 and self.margin:
                spread = (sum((d - mean) ** 2 for d in diffs) / (n - 1)) ** 0.5
                mean -= self.margin * spread / n**0.5
            if mean > best_score:
                best, best_score = i, mean
        return best

    def _deadline(self, view: SeatView) -> float | None:
        limits = [t for t in (self.time_limit_s, view.time_budget_s) if t is not None]
        if not limits:
            return None
        # Leave a margin for the last sample in flight.
        return time.perf_counter() + 0.6 * min(limits)


def _distinct(actions: list[int]) -> list[int]:
    """Actions in order, without repeats (PASS included once)."""
    seen: set[int] = set()
    out = []
    for action in actions:
        if action not in seen:
            seen.add(action)
            out.append(action)
    return out
