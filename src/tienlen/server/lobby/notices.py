"""A new sanction, or a mute or ban lifted, reaches its player's open sockets (docs/CONDUCT.md,
"Enforcement").

The chat guard finds each sanction made since its last reload — by a moderator's route, the
console (``tienlen admin``, another process, within ``TIENLEN_SILENCE_REFRESH_SECONDS``) or an
automatic one — and each mute or ban lifted since (unmute, unban), and hands it to
:func:`deliver`. Every socket of the player, at tables and in the lobby, is sent a ``sanction``
message saying what, until when and why. A ban then closes each of them (1008, the reason
saying until when) and sends the player away from every table: a seat is left at once under
seed 000's leaving rules, without the grace period of a lost connection. A mute, a warning or a
lift changes nothing else (the chat refuses a muted player's lines, and takes them again once
the mute is lifted).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from ..conduct.chat_guard import Notice
from ..sockets import CLOSE_POLICY, close_with, offer

if TYPE_CHECKING:
    from ..sockets import SendQueue
    from ..table.live import LiveTable
    from .feed import LobbyFeed


__all__ = ["Seated", "close_reason", "deliver"]


class Seated(Protocol):
    """What a notice needs of a lobby's table: its sockets and its live table."""

    queues: dict[str, SendQueue]
    live: LiveTable


def close_reason(notice: Notice) -> str:
    """The close frame's reason for a ban: until when (the ``sanction`` message says why)."""
    if notice.ends_at is None:
        return "banned permanently"
    return f"banned until {notice.ends_at:%Y-%m-%d %H:%M} UTC"


def deliver(tables: Iterable[Seated], feed: LobbyFeed, notice: Notice) -> None:
    """Tell ``notice`` to each open socket of its player; a ban closes them and sends the
    player away from every table."""
    user = str(notice.user_id)
    message = notice.to_message()
    banned = notice.kind == "ban"
    for table in list(tables):
        queue = table.queues.get(user)
        if queue is not None:
            told = offer(queue, message)
            if banned or not told:
                table.queues.pop(user, None)
            if banned and told:
                close_with(queue, CLOSE_POLICY, close_reason(notice))
        live = table.live
        if banned and (user in live.recipients.members or live.seats.seat_of(user) is not None):
            live.expel(user)
    for watcher in list(feed.watchers.values()):
        if watcher.user != notice.user_id:
            continue
        if not offer(watcher.queue, message):
            feed.leave(watcher)
        elif banned:
            close_with(watcher.queue, CLOSE_POLICY, close_reason(notice))
            feed.leave(watcher)
