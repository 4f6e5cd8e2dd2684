"""A live table under test: fake clients, a manual clock, and checks on every message sent.

``Harness`` runs a :class:`LiveTable` with a :class:`ManualClock` and a thread pool for bots,
and captures every message. Each message is checked as it is sent: it is JSON, it matches the
protocol's server schema, its number follows the recipient's last one, and it names no card
that another seat still holds unplayed (the check of tests/test_views.py). ``Client`` is a fake
player that answers from its own seat view only, at random. Test modules import these directly
(``from table_driver import ...``).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from conftest import deal

from tienlen.engine.cards import parse_mask
from tienlen.engine.game import Game
from tienlen.engine.record import GameRecord
from tienlen.engine.rules import RuleSet
from tienlen.money.settlement import Settlement
from tienlen.server.table import messages as M
from tienlen.server.table.live import LiveTable, TableConfig
from tienlen.server.table.timers import ManualClock

FAST = TableConfig(
    turn_s=10,
    chop_s=3,
    grace_s=30,
    seed_window_s=2,
    start_wait_s=5,
    between_games_s=3,
    bot_budget_s=5,
    bot_delay_s=0,
    rate=1e9,
    burst=1e9,
)
"""Seed 000's clocks, with bots that answer at once; no rate limit (a manual clock stands still
while clients act)."""

_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([scdh♠♣♦♥])(?![0-9A-Za-z])")


def cards_written(data: Any) -> int:
    """Every card named anywhere in a JSON value."""
    if isinstance(data, str):
        found = 0
        for rank, suit in _CARD.findall(data):
            found |= parse_mask(rank + suit)
        return found
    if isinstance(data, dict):
        return cards_written(list(data)) | cards_written(list(data.values()))
    if isinstance(data, list):
        found = 0
        for value in data:
            found |= cards_written(value)
        return found
    return 0


def dealing(*hands: str, leader: int = 0, seed: int = 0) -> Callable[..., Game]:
    """A dealer that deals a later game (not a first one) led by ``leader``, seat ``i``
    holding ``hands[i]`` topped up at random; it ignores the seeds (the game has no deal)."""

    def dealer(rules: RuleSet, n: int, **_: Any) -> Game:
        game = Game(rules, deal(*hands, players=n, seed=seed), first_game=False, leader=leader)
        assert game.instant_win is None, "the filler dealt an instant win: pick another seed"
        return game

    return dealer


_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="test-bots")


class Harness:
    """One table, its clock and everything it sent."""

    def __init__(
        self,
        *,
        config: TableConfig = FAST,
        rules: str = "langvuichoi",
        bet: int = 10,
        fee_bp: int = 600,
        balances: dict[str, int] | None = None,
        dealer: Callable[..., Game] = Game.new,
        executor: Any = _POOL,
        seed: int = 0,
        on_game_over: Callable[[GameRecord, Settlement], Any] | None = None,
    ) -> None:
        self.clock = ManualClock()
        self.sent: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
        self.times: defaultdict[str, list[float]] = defaultdict(list)
        """The clock's time at each message of ``sent``."""
        self.problems: list[str] = []
        self.games: list[tuple[GameRecord, Settlement]] = []
        self.clients: dict[str, Client] = {}
        self.written: dict[str, int] = {}
        """The cards each user named in their last message."""
        self.balances = balances
        server_seeds = random.Random(f"server/{seed}")
        self.table = LiveTable(
            "t1",
            RuleSet.preset(rules),
            owner="u0",
            send=self.capture,
            bet=bet,
            fee_bp=fee_bp,
            config=config,
            on_game_over=on_game_over
            or (lambda record, result: self.games.append((record, result))),
            balance_of=None if balances is None else self.balances_of,
            executor=executor,
            clock=self.clock,
            seed=seed,
            dealer=dealer,
            server_seeds=lambda: server_seeds.randbytes(32),  # reproducible deals
        )

    async def balances_of(self, user: str) -> int | None:
        assert self.balances is not None
        return self.balances.get(user)

    # --- every message, checked as it is sent ----------------------------------------------------
    def capture(self, user: str, message: dict[str, Any]) -> None:
        text = json.dumps(message)
        data = json.loads(text)
        if '"could_beat"' in text:
            self.problems.append(f"{user} was told whether a seat could beat: {data}")
        try:
            M.server_adapter().validate_python(data)
        except ValueError as exc:
            self.problems.append(f"{user}: {message['type']} does not match the schema: {exc}")
        leaked = cards_written(data) & self.hidden_from(user)
        if message["type"] == "error":  # it may quote the cards its sender wrote
            leaked &= ~self.written.get(user, 0)
        if leaked:
            self.problems.append(f"{user} was sent hidden cards {leaked:#x}: {data}")
        self.sent[user].append(data)
        self.times[user].append(self.clock.now())
        client = self.clients.get(user)
        if client is not None:
            client.receive(data)

    def hidden_from(self, user: str) -> int:
        """The cards ``user`` may not see now: other seats' unplayed ones while a game runs."""
        table = self.table
        game, lineup = table.game, table.lineup
        if game is None or lineup is None or game.over or table.phase != "playing":
            return 0
        seat = lineup.seat(user)
        hidden = 0
        for other, hand in enumerate(game.hands):
            if other != seat:
                hidden |= hand
        return hidden  # the first play's card too: only its holder, the leader, is told it

    # --- driving ---------------------------------------------------------------------------------
    def receive(self, user: str, raw: str) -> bool:
        """Hand the table a frame from ``user`` (as the web layer does)."""
        self.written[user] = cards_written(raw)
        return self.table.receive(user, raw)

    def client(self, user: str, **options: Any) -> Client:
        client = Client(self, user, **options)
        self.clients[user] = client
        return client

    async def settle(self) -> None:
        await self.table.idle()

    async def run_until(self, done: Callable[[], bool], max_steps: int = 20_000) -> None:
        """Let the clients act, bots think and the clock move until ``done()``."""
        for _ in range(max_steps):
            await self.table.idle()
            if done():
                return
            acted = [client.act() for client in self.clients.values()]
            if any(acted):
                continue
            if self.table.thinking:
                await asyncio.sleep(0.001)
                continue
            wake = self.clock.next_wakeup()
            assert wake is not None, "the table is stuck: nobody can act and no timer runs"
            self.clock.set(wake)
        raise AssertionError("the table did not get there")

    async def advance(self, seconds: float) -> None:
        """Move the clock by ``seconds``, waking timers in order (clients do not act)."""
        target = self.clock.now() + seconds
        while True:
            await self.table.idle()
            wake = self.clock.next_wakeup()
            if wake is None or wake > target:
                break
            self.clock.set(wake)
        self.clock.set(target)
        await self.table.idle()

    def numbered(self, user: str) -> Iterator[dict[str, Any]]:
        return (m for m in self.sent[user] if "n" in m and m["type"] != "state")


class Client:
    """A fake player: sends JSON through ``LiveTable.receive`` and answers its own view.

    ``idle``: never plays (the timer must); ``chop``: the chance of chopping when offered
    (``None``: never answers a chop offer, so it lapses); ``seeds``: sends a client seed after
    each commitment.
    """

    def __init__(
        self,
        harness: Harness,
        user: str,
        *,
        idle: bool = False,
        chop: float | None = 0.5,
        seeds: bool = True,
        seed: int = 0,
    ) -> None:
        self.harness = harness
        self.user = user
        self.idle = idle
        self.chop = chop
        self.seeds = seeds
        self.rng = random.Random(f"{user}/{seed}")
        self.last_n = 0
        self.game_no = 0
        self.view: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.commitment: dict[str, Any] | None = None
        self._acted: Any = None

    def send(self, **data: Any) -> bool:
        return self.harness.receive(self.user, json.dumps(data))

    def join(self, seat: int | None = None, name: str | None = None) -> None:
        self.harness.table.connect(self.user, name or self.user.upper())
        self.send(type="hello", protocol=1)
        if seat is not None:
            self.send(type="sit", seat=seat)
            self.send(type="ready")

    def receive(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "state":
            self.last_n = message["n"]
            game = message["game"]
            self.view = None if game is None else game["view"]
            self.game_no = 0 if game is None else game["game"]
            self.commitment = message["commitment"]
            return
        if kind == "error":
            self.errors.append(message)
        if "n" not in message:
            return
        if message["n"] != self.last_n + 1:
            self.harness.problems.append(f"{self.user}: {message['n']} after {self.last_n}")
        self.last_n = message["n"]
        if kind == "game":
            self.view, self.game_no = dict(message["view"]), message["game"]
        elif kind == "update":
            assert self.view is not None and message["game"] == self.game_no
            self.view.update(message["view"])
            self.view["events"] = self.view["events"] + message["events"]
            self.view["actions"] = self.view["actions"] + message["actions"]
        elif kind == "commitment":
            self.commitment = message

    def act(self) -> bool:
        """Answer what the view asks for now (once per state of the view)."""
        commitment, table = self.commitment, self.harness.table
        if commitment is not None and self.seeds and table.phase == "seeding":
            self.commitment = None
            if table.seats.seat_of(self.user) in commitment["players"]:
                self.send(type="client_seed", seed=self.rng.randbytes(16).hex())
                return True
        view = self.view
        if self.idle or view is None or "hand" not in view or view["over"]:
            return False
        key = (self.game_no, view["seq"], view["my_turn"], view["chop_offer"])
        if key == self._acted:
            return False
        if view["my_turn"]:
            options: list[str | None] = list(view["legal"])
            if view["can_pass"]:
                options.append(None)
            choice = self.rng.choice(options)
            self._acted = key
            if choice is None:
                return self.send(type="pass") or True
            return self.send(type="play", cards=choice) or True
        if view["chop_offer"] and self.chop is not None:
            self._acted = key
            if self.rng.random() < self.chop:
                return self.send(type="play", cards=self.rng.choice(view["legal"])) or True
            return self.send(type="decline_chop") or True
        return False
