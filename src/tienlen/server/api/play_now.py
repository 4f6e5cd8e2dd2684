"""``POST /api/play-now``: a newcomer's first game against bots, in one call.

A guest clicks "Play now": the server finds them a public table of the preset in the cheapest
room they may enter, at its smallest bet — one they sit at, else one they own with a free
seat, else one with a free seat where another person sits, else a new one they own with three
house bots seated and ready — and answers with the table and the seat to take. It never seats
anyone at a table whose game is in progress, and a new table's first deal waits a few seconds
(``next_game``), so a newcomer sees a countdown, not a running turn. The client opens the
table's WebSocket, says ``hello``, sits at that seat and says ``ready`` (docs/PROTOCOL.md).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request, Response
from pydantic import Field

from ...engine.rules import PRESETS
from ...money.rooms import ROOMS, Room, max_bet
from ..deps import server_of, session_user
from ..errors import ApiError, responses
from ..lobby.registry import LobbyTable, lobby_of
from ..lobby.rooms import TURN_SECONDS, why_not
from ..protocol import PlayNow, TableSummary
from ..store import ledger
from ..table.messages import TopUp
from ..table.protocol import BotLevel
from ..table.seat_rules import next_top_up

__all__ = ["BOT_LEVEL", "PlayNowTable", "router"]

BOT_LEVEL: BotLevel = "strategic"
"""The bots a play-now table opens with: they play sensibly, without searching."""

router = APIRouter(prefix="/api", tags=["lobby"])


class PlayNowTable(TableSummary):
    """The table to play at, and the seat to take there."""

    seat: Annotated[
        int, Field(description="The seat to sit at (the one you hold, if you sit there).")
    ]


def _seat_for(table: LobbyTable, user: str) -> int | None:
    """The seat ``user`` holds at ``table``; else a free one at a table they own, or at one
    where another person sits (a bots' table waiting for its owner is theirs alone), between
    games only."""
    seats = table.live.seats
    mine = seats.seat_of(user)
    if mine is not None or table.live.phase != "waiting":
        return mine
    free = [seat for seat, o in enumerate(seats) if o is None]
    person = any(o is not None and o.level is None for o in seats)
    return free[0] if free and (table.live.owner == user or person) else None


@router.post(
    "/play-now",
    status_code=201,
    response_model=PlayNowTable,
    responses={
        200: {"model": PlayNowTable, "description": "A table already open"},
        **responses("bad_request", "not_logged_in", "no_such_preset", "too_few_chips", "draining"),
    },
)
async def play_now(
    request: Request, response: Response, body: Annotated[PlayNow | None, Body()] = None
) -> PlayNowTable:
    """Find or open a table to play at now, against bots: 200 with a table already open (one
    the player sits at, or owns, first), 201 with a new one they own, three bots seated and
    ready."""
    server = server_of(request)
    preset = (body or PlayNow()).preset  # thapthanh unless the body names another
    if preset not in PRESETS:
        known = ", ".join(PRESETS)
        raise ApiError("no_such_preset", f"preset must be one of {known}, not {preset!r}")
    user = await session_user(server, request.cookies.get(server.settings.cookie_name))
    if user is None:
        raise ApiError("not_logged_in", "log in, register or play as a guest first")
    async with server.sessions() as db:
        chips = await ledger.balance_of(db, user.id)
    top_up = next_top_up(user.last_topup_on, chips, server.clock(), server.settings)
    room, may_open = _cheapest_room(chips, user.vip_points, top_up)
    lobby = lobby_of(request)
    me = str(user.id)
    fitting = [
        t
        for t in lobby.tables.values()
        if not t.private and t.room is room and t.preset == preset and t.bet == room.min_bet
    ]
    fitting.sort(key=lambda t: (t.live.seats.seat_of(me) is None, t.live.owner != me))
    for table in fitting:
        seat = _seat_for(table, me)
        if seat is not None:
            response.status_code = 200
            return PlayNowTable(**table.summary(user.id), seat=seat)
    if not may_open:  # enough to sit at the room's smallest bet, not to set it
        raise _too_few_chips(
            chips,
            top_up,
            f"no {room.name_en} table at {room.min_bet} has a free seat beside a person now, "
            "and opening one",
        )
    bots = [(seat, BOT_LEVEL) for seat in (1, 2, 3)]
    table = await lobby.open_with_bots(
        user.id, room, preset, room.min_bet, TURN_SECONDS[0], 4, bots
    )
    return PlayNowTable(**table.summary(user.id), seat=0)


def _cheapest_room(chips: int, vip_points: int, top_up: TopUp | None) -> tuple[Room, bool]:
    """The cheapest room whose smallest bet the player may set (1/10 of their chips), and
    True; else the cheapest they may sit in (at a table someone else opened, as the room list
    says), and False; else refused with what to do: the daily top-up and when it comes
    (``retry_after``)."""
    open_to_them = [room for room in ROOMS.values() if why_not(room, chips, vip_points) is None]
    for room in open_to_them:
        if room.min_bet <= max_bet(chips):
            return room, True
    if open_to_them:
        return open_to_them[0], False
    raise _too_few_chips(chips, top_up, "playing now")


def _too_few_chips(chips: int, top_up: TopUp | None, doing: str) -> ApiError:
    cheapest = min(ROOMS.values(), key=lambda r: r.min_bet)
    if top_up is None:
        what = "no daily top-up is due: you hold enough for one, or the server gives none"
    else:
        what = (
            f"your daily top-up of {top_up['chips']} chips can be claimed from {top_up['at']}"
            " by logging in or loading your profile"
        )
    return ApiError(
        "too_few_chips",
        f"{doing} needs {cheapest.min_bet * 10} chips (10 × the smallest bet, "
        f"{cheapest.min_bet}); you hold {chips}: {what}",
        retry_after=None if top_up is None else top_up["at"],
    )
