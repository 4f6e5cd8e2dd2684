"""What the server attaches to a player's report: the chat and the game, from what it stored.

A report names a player and, if it is about one line, the line's ``id`` (every ``chat``
message carries it). The server does not trust the client for the evidence: it reads the
reported line (which must be the reported player's), the lines said before it in its channel,
and the game being played at that table when it was said; for a report of a player alone,
that player's latest lines and the latest game the two played together. What the client sent
is kept too, under ``client``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from ..errors import ApiError
from ..store.models import ChatMessage, GamePlayer, GameRow, User

__all__ = ["CHAT_LINES", "report_context"]

CHAT_LINES = 20
"""Lines of chat attached to a report."""


def _line(row: ChatMessage) -> dict[str, Any]:
    return {
        "id": row.id,
        "channel": row.channel,
        "user_id": row.user_id,
        "name": row.nickname,
        "text": row.text,
        "original": row.original,
        "at": row.created_at.isoformat(),
    }


async def _message(db: AsyncSession, message_id: int, target: int) -> ChatMessage:
    row = await db.get(ChatMessage, message_id)
    if row is None or row.user_id != target:
        raise ApiError("no_such_message", f"user {target} said no chat line with id {message_id}")
    return row


async def _game_at(db: AsyncSession, message: ChatMessage) -> str | None:
    """The game dealt last at the message's table before it was said."""
    if not message.channel.startswith("table:"):
        return None
    table_id = message.channel.removeprefix("table:")
    game: str | None = await db.scalar(
        select(GameRow.id)
        .where(GameRow.table_id == table_id, GameRow.dealt_at <= message.created_at)
        .order_by(GameRow.dealt_at.desc(), GameRow.number.desc())
        .limit(1)
    )
    return game


async def _game_together(db: AsyncSession, one: int, other: int) -> str | None:
    """The latest game ``one`` and ``other`` played together."""
    mine, theirs = aliased(GamePlayer), aliased(GamePlayer)
    game: str | None = await db.scalar(
        select(GameRow.id)
        .join(mine, mine.game_id == GameRow.id)
        .join(theirs, theirs.game_id == GameRow.id)
        .where(mine.user_id == one, theirs.user_id == other)
        .order_by(GameRow.dealt_at.desc())
        .limit(1)
    )
    return game


async def report_context(
    db: AsyncSession,
    reporter: int,
    target: int,
    message_id: int | None,
    client: dict[str, Any],
) -> dict[str, Any]:
    """The evidence stored with a report; ``no_such_user``, or ``no_such_message`` when
    ``message_id`` names no line of ``target``'s."""
    if await db.get(User, target) is None:
        raise ApiError("no_such_user", f"there is no user {target}")
    context: dict[str, Any] = {"client": client}
    if message_id is not None:
        message = await _message(db, message_id, target)
        rows = await db.scalars(
            select(ChatMessage)
            .where(ChatMessage.channel == message.channel, ChatMessage.id <= message.id)
            .order_by(ChatMessage.id.desc())
            .limit(CHAT_LINES)
        )
        context["message"] = _line(message)
        context["game_id"] = await _game_at(db, message)
    else:
        rows = await db.scalars(
            select(ChatMessage)
            .where(ChatMessage.user_id == target)
            .order_by(ChatMessage.id.desc())
            .limit(CHAT_LINES)
        )
        context["game_id"] = await _game_together(db, reporter, target)
    context["chat"] = [_line(row) for row in reversed(list(rows))]
    return context
