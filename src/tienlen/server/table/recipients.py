"""Who a table sends to, and what: each recipient's numbered messages, from the engine's views.

A seated player is sent their :class:`~tienlen.engine.views.SeatView`, anyone else the
:class:`~tienlen.engine.views.SpectatorView`, written by the engine's codec: nothing else
decides what someone may see. A ``game`` message carries a whole view (a new game, or someone
who has not seen this game from this seat yet); after that each ``update`` carries the events
and actions that are new in the recipient's view and the rest of the view as it now is. A
recipient whose view did not change is sent nothing — so a decline, which only the declining
seat's view shows, reaches nobody else, not even as a message. The timers a change starts (a
turn's for everyone, a chop offer's for its seat) ride in its ``game`` or ``update``
(``timers``): one message per recipient and change, not two.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...engine.codec import (
    action_to_dict,
    event_to_dict,
    seat_delta,
    seat_view_to_dict,
    spectator_view_to_dict,
    table_to_dict,
)
from ...engine.views import SeatView, SpectatorView
from ...engine.wire import Action, Event, SeatTable, TableState
from ...engine.wire import SeatView as SeatViewDict
from ...engine.wire import SpectatorView as SpectatorViewDict
from .messages import (
    Body,
    Direct,
    GameBody,
    GameState,
    StateMessage,
    TimerInfo,
    UpdateBody,
    WelcomeMessage,
)
from .outbox import Numbered, Outbox, to_json
from .protocol import PROTOCOL_VERSION, Hello

logger = logging.getLogger(__name__)

Send = Callable[[str, Mapping[str, Any]], None]
"""Hands one message to a user's connection. It must not block or raise: the web layer queues
the message for the socket (and drops a connection that cannot keep up; it will resume)."""
View = SeatView | SpectatorView
ViewOf = Callable[[str], tuple[View, int | None]]
"""A user's view of the current game and the game seat it is for (None: a spectator's)."""


@dataclass
class Member:
    """Someone at the table, seated or watching, and what they were last sent of the game."""

    user: str
    name: str
    outbox: Outbox
    connected: bool = False
    synced: bool = False
    """Said ``hello`` on this connection: numbered messages flow to it live."""
    game: int = 0
    perspective: int | None = None
    """The game seat whose view they were sent (None: the spectator view)."""
    events: int = 0
    actions: int = 0
    delta: SeatTable | TableState | None = None


def full_view(view: View) -> SeatViewDict | SpectatorViewDict:
    if isinstance(view, SeatView):
        return seat_view_to_dict(view)
    return spectator_view_to_dict(view)


def view_delta(view: View) -> SeatTable | TableState:
    """The view without its events and actions (an update carries the new ones)."""
    table = table_to_dict(view)
    return seat_delta(view, table) if isinstance(view, SeatView) else table


class Recipients:
    """The members of one table and the messages they are sent."""

    def __init__(self, send: Send, log_size: int, log_chars: int | None = None) -> None:
        self._send_hook = send
        self._log_size = log_size
        self._log_chars = log_chars
        self.members: dict[str, Member] = {}

    def connected(self, user: str) -> bool:
        member = self.members.get(user)
        return member is not None and member.connected

    def join(self, user: str, name: str) -> Member:
        """A connection of ``user`` opened; numbered messages reach it after ``hello``."""
        member = self.members.get(user)
        if member is None:
            member = self.members[user] = Member(
                user, name, Outbox(self._log_size, self._log_chars)
            )
        member.name = name
        member.connected = True
        member.synced = False
        return member

    def drop(self, user: str) -> bool:
        """The connection of ``user`` closed; False if there was none."""
        member = self.members.get(user)
        if member is None or not member.connected:
            return False
        member.connected = member.synced = False
        return True

    def send(self, user: str, message: Direct | Numbered) -> None:
        """Send an unnumbered message (``welcome``, ``state``, ``error``, ``ack``) now."""
        try:
            self._send_hook(user, message)
        except Exception:
            logger.exception("send to %s failed", user)

    def emit(self, member: Member, message: Body, text: str | None = None) -> None:
        """Number a table message for ``member``, keep it for resuming, and send it if their
        connection is live (``text``: its JSON, when already written)."""
        numbered = member.outbox.add(message, text)
        if member.connected and member.synced:
            self.send(member.user, numbered)

    def broadcast(self, message: Body) -> None:
        text = to_json(message)  # once for everyone
        for member in list(self.members.values()):
            self.emit(member, message, text)

    def hello(
        self, member: Member, hello: Hello, table: str, state: Callable[[Member], StateMessage]
    ) -> None:
        """Answer ``hello``: ``welcome``, then the messages after its ``last_n`` exactly as
        they were numbered, or a fresh ``state`` when they are not all kept (or none was
        named)."""
        last_n = hello.last_n
        missed = None if last_n is None else member.outbox.since(last_n)
        welcome: WelcomeMessage = {
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "table": table,
            "user": member.user,
            "resumed": missed is not None,
        }
        if hello.ref is not None:
            welcome["ref"] = hello.ref
        self.send(member.user, welcome)
        if missed is not None:
            for message in missed:
                self.send(member.user, message)
        else:
            self.send(member.user, state(member))
        member.synced = True

    def game_state(
        self,
        member: Member,
        game_no: int,
        seats: list[int],
        view: View,
        seat: int | None,
        timers: list[TimerInfo],
    ) -> GameState:
        """The ``game`` part of a ``state`` message; what follows builds on it."""
        self._mark(member, game_no, view, seat)
        return {"game": game_no, "seats": list(seats), "view": full_view(view), "timers": timers}

    def publish(
        self,
        game_no: int,
        seats: list[int],
        view_of: ViewOf,
        turn: TimerInfo | None = None,
        chops: dict[int, TimerInfo] | None = None,
    ) -> None:
        """Send each member what changed in the game for them (see the module docstring),
        with the timers this change started for them: ``turn`` for everyone, a chop offer's
        (``chops``, by game seat) for its seat alone."""
        events_written: dict[int, Event] = {}
        actions_written: dict[int, Action] = {}
        table: TableState | None = None  # the views' shared part, written once
        for member in list(self.members.values()):
            view, seat = view_of(member.user)
            timers = [] if turn is None else [turn]
            if chops and seat in chops:
                timers.append(chops[seat])
            if member.game != game_no or member.perspective != seat:
                dealt: GameBody = {
                    "type": "game",
                    "game": game_no,
                    "seats": list(seats),
                    "view": full_view(view),
                    "timers": timers,
                }
                self.emit(member, dealt)
                self._mark(member, game_no, view, seat)
                continue
            if table is None:
                table = table_to_dict(view)
            delta: SeatTable | TableState = (
                seat_delta(view, table) if isinstance(view, SeatView) else table
            )
            n_events, n_actions = len(view.events), len(view.actions)
            if n_events == member.events and n_actions == member.actions and delta == member.delta:
                # Nothing this member may see has changed (a timer never starts then; should
                # one, it goes on its own).
                for timer in timers:
                    self.emit(member, {"type": "timer", **timer})
                continue
            events = []
            for i in range(member.events, n_events):
                event = events_written.get(i)
                if event is None:
                    event = events_written[i] = event_to_dict(view.events[i])
                events.append(event)
            actions = []
            for i in range(member.actions, n_actions):
                done = actions_written.get(id(view.actions[i]))
                if done is None:
                    done = actions_written[id(view.actions[i])] = action_to_dict(view.actions[i])
                actions.append(done)
            update: UpdateBody = {
                "type": "update",
                "game": game_no,
                "events": events,
                "actions": actions,
                "view": delta,
                "timers": timers,
            }
            self.emit(member, update)
            member.events, member.actions, member.delta = n_events, n_actions, delta

    @staticmethod
    def _mark(member: Member, game_no: int, view: View, seat: int | None) -> None:
        member.game = game_no
        member.perspective = seat
        member.events = len(view.events)
        member.actions = len(view.actions)
        member.delta = view_delta(view)
