"""A live table: seats, players and bots, and the series of games they play, in one task.

Everything that changes a table happens in its own asyncio task, one command at a time, taken
from a queue: what clients send (:meth:`LiveTable.receive` / :meth:`LiveTable.submit`),
connections coming and going, timers running out and bots answering. Games change only through
:meth:`Game.apply <tienlen.engine.game.Game.apply>`; what a recipient is sent comes only from
the engine's views (:class:`~tienlen.engine.views.PublicLog`) written by its codec: a seated
player gets their seat view, everyone else the spectator view (docs/PROTOCOL.md).

Time is the table's :class:`.timers.TableClock`'s: the turn timer (at the deadline the engine's
time-out rule plays or passes), each person's private out-of-turn chop offer (it lapses as a
decline), the client seeds' window after the commitment, the grace period of a player who lost
the connection (then seed 000's leaving rules apply), and the pause between games. Bots think
in an executor (a process pool shared by tables); one that fails or overruns its budget is
timed out by the same rule, so a table never stalls. :mod:`.turns` sets a game's timers
and asks its bots; :mod:`.seats` keeps the seats, and :mod:`.seat_rules` says who sits
out (away) and who is stood up for lack of chips.

The web layer plugs in with three calls — :meth:`~LiveTable.connect`, :meth:`~LiveTable.receive`,
:meth:`~LiveTable.disconnect` — and the ``send`` callback it gives the table.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any

from ...engine.actions import Action
from ...engine.deal import new_server_seed
from ...engine.errors import IllegalAction
from ...engine.game import Game
from ...engine.record import GameRecord
from ...engine.rules import RuleSet
from ...engine.views import PublicLog
from ...money.settlement import Settlement, settle
from ..botpool import BotAnswer, BotRunner
from ..conduct.chat import ChatChannel, ChatHub
from ..errors import Refused
from ..protocol import TablePhase
from . import protocol as P
from . import seat_rules
from .dealing import PendingDeal
from .items import Alarm, Command, Connection, Expel, Item
from .journal import Journal
from .messages import NextGame, StateMessage, TableInfo, TimerInfo
from .recipients import Member, Recipients, Send, View
from .seat_rules import FundsOf
from .seating import Lineup, Occupant, Seats, TableConfig
from .seats import BalanceOf, BotUser, TableSeats
from .timers import Alarms, SystemTableClock, TableClock
from .turns import Turns

__all__ = ["BOT_PURSE", "LiveTable", "TableConfig"]

logger = logging.getLogger(__name__)

GameOverHook = Callable[[GameRecord, Settlement], Awaitable[None] | None]

BOT_PURSE = 10**12
"""The balance a bot (or a player whose balance is not known) settles with: unlimited."""


class LiveTable(TableSeats):
    """One table and its series of games (see the module docstring)."""

    def __init__(
        self,
        table_id: str,
        rules: RuleSet,
        *,
        owner: str,
        send: Send,
        bet: int = 1,
        fee_bp: int = 0,
        config: TableConfig | None = None,
        on_game_over: GameOverHook | None = None,
        balance_of: BalanceOf | None = None,
        funds_of: FundsOf | None = None,
        journal: Journal | None = None,
        bot_user: BotUser | None = None,
        chat: ChatChannel | None = None,
        on_table: Callable[[TableInfo], None] | None = None,
        executor: Executor | None = None,
        clock: TableClock | None = None,
        seed: int | None = None,
        dealer: Callable[..., Game] = Game.new,
        server_seeds: Callable[[], bytes] = new_server_seed,
    ) -> None:
        self.table_id = table_id
        self.rules = rules
        self.owner = owner
        self.bet = bet
        self.fee_bp = fee_bp
        self.config = config = config or TableConfig()
        self.clock: TableClock = clock or SystemTableClock()
        self.on_game_over = on_game_over
        """Handed each finished game's record and settlement (the lobby writes the ledger); the
        lobby sets it once the table it belongs to exists."""
        self._balance_of = balance_of
        self._funds_of = funds_of  # what seating and standing up read (seat_rules.py)
        self.journal = journal
        """Told of each deal and action as it happens (the lobby stores them)."""
        self._bot_user = bot_user
        self.chat = chat or ChatHub().channel(f"table:{table_id}")
        self.on_table = on_table
        """Told when what the lobby lists of the table changes (set like ``on_game_over``)."""
        self._rng = random.Random(seed)
        self._dealer = dealer  # Game.new's signature; tests deal chosen hands
        self._server_seeds = server_seeds  # the CSPRNG; tests draw reproducible seeds
        self._queue: asyncio.Queue[Item] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._limits: dict[str, P.RateLimit] = {}
        self._connections: dict[str, int] = {}
        self.recipients = Recipients(send, config.log_size, config.log_chars)
        self._alarms = Alarms(
            self.clock, lambda key, when: self._queue.put_nowait(Alarm(key, when))
        )
        self._bots = BotRunner(
            self.clock, executor, config.bot_budget_s, config.bot_delay_s, self._queue.put_nowait
        )

        self.seats = Seats([None] * config.seats)
        self.phase: TablePhase = "waiting"
        self.games = 0
        """Games dealt or being dealt; the one in :attr:`game` is number :attr:`game_no`."""
        self.game: Game | None = None
        """The game in progress, or the last one (over) until the next is dealt."""
        self.game_no = 0
        self.lineup: Lineup | None = None
        """The players of :attr:`game`."""
        self._log: PublicLog | None = None
        self._pending: PendingDeal | None = None
        self._previous: tuple[Game, list[str]] | None = None
        self._turns = Turns(self._alarms, self._bots, config)
        self._rest_until = 0.0
        self.draining = False
        """Set when the server stops: the game in progress plays on, no new one is dealt."""
        self._start_wait = config.start_wait_s
        self._last_table: TableInfo | None = None
        self._bots_added = 0

    # --- the web layer's calls ------------------------------------------------------------------
    def start(self) -> None:
        """Start the table's task (in the running event loop)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"table {self.table_id}")

    async def close(self) -> None:
        """Stop the task and every timer (a game in progress is abandoned as it is)."""
        self._queue.put_nowait(None)
        if self._task is not None:
            await self._task
        self._alarms.cancel_all()
        self._bots.cancel_all()

    def resume(self, game_no: int, game: Game, lineup: Lineup, people: list[Occupant]) -> None:
        """Take up game ``game_no``, rebuilt after a restart, before :meth:`start`: ``people``
        (seated by the caller) hold their seats as if they had just lost the connection, so
        the grace period and the timers run for them (docs/SERVER.md, "Restarts")."""
        self.games = self.game_no = game_no
        self.game, self.lineup, self.phase = game, lineup, "playing"
        self._log = PublicLog(len(lineup.users))
        for occupant in people:
            self._queue.put_nowait(Connection(occupant.user, occupant.name))
            self._queue.put_nowait(Connection(occupant.user, None))

    def connect(self, user: str, name: str) -> int:
        """A connection of ``user`` opened; it replaces any other (close that socket). It is
        sent numbered messages once it has said ``hello``. Returns its number, for
        :meth:`disconnect`."""
        self._limits[user] = self.config.rate_limit()
        self._connections[user] = number = self._connections.get(user, 0) + 1
        self._queue.put_nowait(Connection(user, name))
        return number

    def disconnect(self, user: str, connection: int | None = None) -> None:
        """A connection of ``user`` closed (ignored when ``connection`` is not their latest):
        the seat is kept for the grace period."""
        if connection is None or connection == self._connections.get(user):
            self._limits.pop(user, None)
            self._queue.put_nowait(Connection(user, None))

    def expel(self, user: str) -> None:
        """``user`` was banned: they leave their seat (and game) now, without a grace period."""
        self._queue.put_nowait(Expel(user))

    def receive(self, user: str, raw: str | bytes) -> bool:
        """A frame from ``user``: refused at once with an ``error`` when malformed or over the
        rate, else queued for the table. False when the client floods: close the connection."""
        limit = self._limits.get(user) or self._limits.setdefault(user, self.config.rate_limit())
        if not limit.allow(self.clock.now()):
            self.recipients.send(user, P.error_message("rate_limited", "too many messages"))
            return not limit.flooding
        try:
            message = P.parse_client_message(raw)
        except P.ProtocolError as exc:
            self.recipients.send(user, exc.to_dict())
            return True
        self.submit(user, message)
        return True

    def submit(self, user: str, message: Any) -> None:
        """Queue an already parsed client message (a :data:`.protocol.ClientMessage`)."""
        self._queue.put_nowait(Command(user, message))

    async def idle(self) -> None:
        """Wait until the table has handled everything queued so far and what that set off at
        once (for tests: bots thinking in the executor are not waited for)."""
        while True:
            await self._queue.join()
            for _ in range(3):
                await asyncio.sleep(0)
            if self._queue.empty():
                return

    @property
    def thinking(self) -> bool:
        """Whether a bot is deciding (tests wait for it before they move a manual clock)."""
        return self._bots.thinking

    # --- the task -------------------------------------------------------------------------------
    async def _run(self) -> None:
        while True:
            item = await self._queue.get()
            try:
                if item is None:
                    return
                await self._handle(item)
                await self._after_change()
            except Exception:  # a bug must not take the table down with it
                logger.exception("table %s: error handling %r", self.table_id, item)
            finally:
                self._queue.task_done()

    async def _handle(self, item: Item) -> None:
        if isinstance(item, Command):
            await self._command(item.user, item.message)
        elif isinstance(item, Alarm):
            if self._alarms.due(item.key, item.when):
                await self._ring(item.key)
        elif isinstance(item, BotAnswer):
            self._bot_answer(item)
        elif isinstance(item, Expel):  # banned: gone now, without the grace period
            self.recipients.drop(item.user)
            self._alarms.cancel(("grace", item.user))
            self._expire(item.user)
        elif isinstance(item, Connection) and item.name is not None:
            self.recipients.join(item.user, item.name)
            self._alarms.cancel(("grace", item.user))
            seat_rules.came_back(self.seats.occupant(item.user))
        elif isinstance(item, Connection) and self.recipients.drop(item.user):
            seat_rules.lost_connection(self.seats.occupant(item.user))
            self._alarms.set(("grace", item.user), self.clock.now() + self.config.grace_s)

    async def _command(self, user: str, message: Any) -> None:
        member = self.recipients.members.get(user)
        if member is None or not member.connected:
            return  # nobody to answer: the connection is gone
        ref = getattr(message, "ref", None)
        if isinstance(message, P.Hello):
            self.recipients.hello(member, message, self.table_id, self._state)
            return
        try:
            if not member.synced:
                raise Refused("hello_first", "send hello before anything else")
            await self._dispatch(member, message)
        except (IllegalAction, Refused) as exc:
            told = exc.sanction if isinstance(exc, Refused) else None
            self.recipients.send(user, P.error_message(exc.code, exc.message, ref, told))
        else:
            if ref is not None:
                self.recipients.send(user, {"type": "ack", "ref": ref})

    async def _dispatch(self, member: Member, message: Any) -> None:
        user = member.user
        if isinstance(message, P.Play | P.Pass | P.DeclineChop):
            self._apply(seat_rules.own_action(message, self._playing_seat(user)))
            seat_rules.acted(self.seats.occupant(user))
        elif isinstance(message, P.Sit):
            await self._sit(member, message.seat)
        elif isinstance(message, P.Stand):
            self._vacate(self.seats.own(user, "you hold no seat"))
        elif isinstance(message, P.Ready):
            occupant = self.seats[self.seats.own(user, "sit down before saying you are ready")]
            if occupant is not None:
                seat_rules.back(occupant, message.ready)
        elif isinstance(message, P.ClientSeed):
            self._client_seed(user, message.seed_bytes)
        elif isinstance(message, P.Chat):
            seat = self.seats.seat_of(user)
            self.recipients.broadcast(self.chat.say(user, member.name, message.text, seat))
        elif isinstance(message, P.AddBot):
            await self.place_bot(message.seat, message.level, by=user)
        elif isinstance(message, P.RemoveBot):
            self._remove_bot(user, message.seat)
        else:  # pragma: no cover - the parser returns only the types above
            raise Refused("unknown_type", f"no handler for {type(message).__name__}")

    # --- playing --------------------------------------------------------------------------------
    def _game_seat(self, user: str) -> int | None:
        """The game seat whose view ``user`` gets: they play :attr:`game` and are still seated."""
        return None if self.lineup is None else self.lineup.seat(user)

    def _playing_seat(self, user: str) -> int:
        if self.phase != "playing" or self.game is None or self.game.over:
            raise Refused("no_game", "no game is being played at this table now")
        seat = self._game_seat(user)
        if seat is None:
            raise Refused("not_playing", "you do not play this game")
        return seat

    def _apply(self, action: Action) -> None:
        """Every action of a game goes through here (and on to the journal)."""
        assert self.game is not None
        self.game.apply(action)
        if self.journal is not None:
            self.journal.on_action(self.game_no, len(self.game.history) - 1, action)

    def _public_count(self) -> int:
        """Commands everyone may know of: declines are private (they tell who holds a bomb)."""
        assert self._log is not None and self.game is not None
        self._log.update(self.game)
        return len(self._log.actions_seen_by(None))

    def _view(self, user: str) -> tuple[View, int | None]:
        assert self.game is not None and self._log is not None
        seat = self._game_seat(user)
        if seat is None:
            return self._log.spectator(self.game), None
        return self._log.view(self.game, seat), seat

    # --- the flow of games -----------------------------------------------------------------------
    async def _after_change(self) -> None:
        await self._publish_game()
        if self.phase == "waiting":
            await self._maybe_start()
            await self._publish_game()  # dealt at once: no client seeds to wait for
        info = self.table_info()
        if info != self._last_table:
            self._last_table = info
            self.recipients.broadcast({"type": "table", **info})
            if self.on_table is not None:
                self.on_table(info)

    async def _publish_game(self) -> None:
        """Send each member what the last change did to the game, and settle it once over."""
        game, lineup = self.game, self.lineup
        if self.phase == "playing" and game is not None and lineup is not None:
            turn, chops = (None, {}) if game.over else self._schedule()
            self.recipients.publish(self.game_no, lineup.seats, self._view, turn, chops)
            if game.over:
                await self._finish_game()

    async def _maybe_start(self, force: bool = False) -> None:
        """Deal when at least two are ready, a person among them: at once when every seat is
        taken and ready (unless the first deal waits, ``first_deal_wait_s``), else
        ``start_wait_s`` later (others may sit down) with those ready — or, after a game, at
        the end of the pause between games."""
        if self.clock.now() < self._rest_until:
            return
        if self.draining:  # the server is stopping: no new game (the lobby's drain)
            self._alarms.cancel(("start",))
            return
        ready = self._dealable()
        if not ready:
            self._alarms.cancel(("start",))
            return
        first_wait = self.config.first_deal_wait_s if self.games == 0 else 0.0
        if force or (len(ready) == len(self.seats) and not first_wait):
            self._alarms.cancel(("start",))
            await self._begin(ready)
        elif ("start",) not in self._alarms:
            self._start_wait = first_wait or self.config.start_wait_s
            self._alarms.set(("start",), self.clock.now() + self._start_wait)

    def _dealable(self) -> list[int]:
        """The seats ready to be dealt in (connected, not away), when they are at least two and
        a person is among them; else none."""
        ready = [
            (seat, o)
            for seat, o in enumerate(self.seats)
            if o is not None and o.ready and (o.level or self.recipients.connected(o.user))
        ]
        if len(ready) < 2 or all(o.level for _, o in ready):
            return []
        return [seat for seat, _ in ready]

    def _next_game(self) -> NextGame | None:
        """When the next deal is due (``next_game``): the start alarm's moment, or the end of
        the pause between games, while there are players to deal in."""
        if self.phase != "waiting" or not self._dealable():
            return None
        start = self._alarms.when(("start",))
        if start is not None:
            return {"deadline": start, "seconds": self._start_wait}
        if self.clock.now() < self._rest_until:
            return {"deadline": self._rest_until, "seconds": self.config.between_games_s}
        return None

    async def _begin(self, seats: list[int]) -> None:
        """Publish the next deal's commitment, then collect client seeds or deal at once."""
        dealt: list[tuple[int, Occupant, int | None]] = []
        for seat in seats:
            o = self.seats[seat]
            if o is None:
                continue
            chips = await self._balance(o.user)  # None: unknown (a bot-k's purse is unlimited)
            short = chips is not None and chips < seat_rules.chips_needed(self.bet)
            if short and o.level is None and not await self._stand_up_if_short(o.user):
                o.ready = False  # their chips are at stake at another table: they sit out
            if not short:
                dealt.append((seat, o, chips))
        if len(dealt) < 2 or all(o.level for _, o, _ in dealt):
            return
        lineup = Lineup.of(
            [s for s, _, _ in dealt], [o for _, o, _ in dealt], [c for _, _, c in dealt], BOT_PURSE
        )
        self.games += 1
        now = self.clock.now()
        collect = self.config.client_seeds and self.config.seed_window_s > 0
        seconds = self.config.seed_window_s if collect else 0.0
        pending = PendingDeal(self.games, lineup, self._server_seeds(), now, seconds)
        self._pending = pending
        self.phase = "seeding"
        self.recipients.broadcast({"type": "commitment", **pending.commitment})
        if collect:
            self._alarms.set(("seeds",), now + seconds)
        else:
            self._deal()

    def _client_seed(self, user: str, seed: bytes) -> None:
        pending = self._pending
        if self.phase != "seeding" or pending is None:
            raise Refused("no_commitment", "client seeds are taken only after a commitment")
        if pending.add_seed(user, seed):
            self._alarms.cancel(("seeds",))
            self._deal()

    def _deal(self) -> None:
        pending = self._pending
        assert pending is not None
        self.game = pending.deal(self._dealer, self.rules, self._previous)
        self.game_no = pending.game_no
        self.lineup = pending.lineup
        self._log = PublicLog(len(pending.lineup.users))
        self._pending = None
        self.phase = "playing"
        for user in self.lineup.users:
            seat_rules.dealt(self.seats.occupant(user))
        if self.journal is not None:
            self.journal.on_deal(self.game_no, self.lineup, self.game)

    async def _finish_game(self) -> None:
        """Settle the game, hand the record to ``on_game_over`` (the lobby writes the ledger),
        then tell everyone and rest: a client that reads its balance on ``settlement`` sees it."""
        game, lineup = self.game, self.lineup
        assert game is not None and lineup is not None
        self._turns.stop()
        self.phase = "waiting"
        self._previous = (game, list(lineup.users))
        result = settle(game, self.bet, lineup.balances, self.fee_bp)
        record = lineup.record(game, self.bet, self.fee_bp, table=self.table_id, game=self.game_no)
        if self.on_game_over is not None:
            try:
                done = self.on_game_over(record, result)
                if inspect.isawaitable(done):
                    await done
            except Exception:
                logger.exception("table %s: on_game_over failed", self.table_id)
        self.recipients.broadcast(
            {
                "type": "settlement",
                "game": self.game_no,
                "seats": list(lineup.seats),
                "players": list(lineup.names),
                "settlement": result.to_dict(),
            }
        )
        self._rest_until = self.clock.now() + self.config.between_games_s
        self._alarms.set(("rest",), self._rest_until)
        for user, bot in zip(lineup.users, lineup.bots, strict=True):
            seat_rules.game_over(self.seats.occupant(user), self.config.away_after)
            if not bot:  # seed 000: "TK về 0 … bị đẩy ra phòng chờ ngoài cùng"
                await self._stand_up_if_short(user)

    # --- timers and bots --------------------------------------------------------------------------
    def _schedule(self) -> tuple[TimerInfo | None, dict[int, TimerInfo]]:
        """Set the turn timer, offer chops to people, and ask bots (:class:`~.table_turns.
        Turns`); returns the timers this started, to go out with the change."""
        game, lineup, log = self.game, self.lineup, self._log
        assert game is not None and lineup is not None and log is not None
        now, public = self.clock.now(), self._public_count()
        return self._turns.schedule(
            self.game_no, game, lineup, log, public, now, self.seats.occupant
        )

    def _bot_answer(self, answer: BotAnswer) -> None:
        self._turns.answered(answer, self.seats.occupant(answer.user), self._rng)
        slot, seat = answer.slot, answer.seat
        game = self.game
        if (
            self.phase != "playing"
            or game is None
            or game.over
            or answer.token != (self.game_no, self._public_count())
        ):
            self._turns.forget(answer.user)  # stale: asked again if still needed
            return
        if game.current == seat if slot == "turn" else seat in game.chop_window():
            action, fallback = answer.actions()
            try:
                self._apply(action)
            except IllegalAction:
                self._apply(fallback)

    async def _ring(self, key: tuple[Any, ...]) -> None:
        kind = key[0]
        game = self.game
        playing = self.phase == "playing" and game is not None and not game.over
        if kind == "turn" and playing and game is not None and self.lineup is not None:
            seat_rules.timed_out(self.seats.occupant(self.lineup.users[game.current]),
                                 self.config.away_after)  # fmt: skip
            self._apply(Action.timeout(game.current))
        elif kind == "chop" and playing and game is not None and key[1] in game.chop_window():
            self._apply(Action.decline(key[1]))
        elif kind == "grace":
            self._expire(key[1])
        elif kind == "seeds" and self.phase == "seeding":
            self._deal()
        elif kind in ("start", "rest") and self.phase == "waiting":
            await self._maybe_start(force=True)  # with those ready now

    def _expire(self, user: str) -> None:
        """The grace period ran out: a player leaves their seat (and game); a spectator is
        forgotten."""
        member = self.recipients.members.get(user)
        if member is not None and member.connected:
            return
        seat = self.seats.seat_of(user)
        if seat is not None:
            self._vacate(seat)
        self.recipients.members.pop(user, None)
        self._connections.pop(user, None)  # gone: no socket of theirs is left to number
        if user == self.owner:  # ownership passes on, to a seated person first
            others = filter(self.recipients.connected, self.recipients.members)
            self.owner = self.seats.next_person(seat, others) or user

    # --- what recipients are sent ----------------------------------------------------------------
    def table_info(self) -> TableInfo:
        """The table as ``table`` messages show it."""
        seats = self.seats.info(self.recipients.connected, self._plays_now)
        return {
            "table": self.table_id,
            "owner": self.owner,
            "bet": self.bet,
            "ruleset": self.rules.to_spec(),  # type: ignore[typeddict-item]  # a name or a spec
            "turn_seconds": self.config.turn_s,
            "phase": self.phase,
            "games": self.games,
            "seats": seats,
            "next_game": self._next_game(),
        }

    def _state(self, member: Member) -> StateMessage:
        """Everything ``member`` may know now; it stands for all their messages so far."""
        game_state = None
        if self.game is not None and self.lineup is not None:
            view, seat = self._view(member.user)
            timers = self._turns.running(seat)
            game_state = self.recipients.game_state(
                member, self.game_no, self.lineup.seats, view, seat, timers
            )
        return {
            "type": "state",
            "n": member.outbox.n,
            "table": self.table_info(),
            "commitment": None if self._pending is None else self._pending.commitment,
            "game": game_state,
            "chat": self.chat.recent(),
        }
