"""The rooms and the live tables in REST: ``GET /api/rooms`` (with the player's right to enter
each), ``GET /api/tables`` and ``POST /api/tables`` (open one). A table is then played
through its socket (:mod:`.table_socket`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from ...engine.rules import PRESETS
from ...money.rooms import ROOMS, can_invite, max_bet
from ..deps import server_of, session_user
from ..errors import ApiError, responses
from ..lobby.registry import lobby_of
from ..lobby.rooms import TURN_SECONDS, lacks, min_chips, why_not
from ..protocol import NewTable, RoomInfo, TableList, TableSummary
from ..store import ledger

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["lobby"])


@router.get("/rooms", response_model=list[RoomInfo], responses=responses())
async def rooms(request: Request) -> list[RoomInfo]:
    """The rooms, with the logged-in player's right to enter each."""
    server = server_of(request)
    user = await session_user(server, request.cookies.get(server.settings.cookie_name))
    chips = 0
    if user is not None:
        async with server.sessions() as db:
            chips = await ledger.balance_of(db, user.id)
    out = []
    for room in ROOMS.values():
        why = None if user is None else why_not(room, chips, user.vip_points)
        lack = None if user is None else lacks(room, chips, user.vip_points)
        out.append(
            RoomInfo(
                key=room.key,
                name_en=room.name_en,
                name_vi=room.name_vi,
                min_bet=room.min_bet,
                max_bet=room.max_bet,
                fee_bp=room.fee_bp,
                min_balance=room.min_balance,
                min_chips=min_chips(room),
                min_vip_points=room.min_vip_points,
                may_enter=None if user is None else why is None,
                why_not=why,
                lacks=None if lack is None else lack[0],
                held=None if lack is None else lack[1],
            )
        )
    return out


@router.get("/tables", response_model=TableList, responses=responses("bad_request", "no_such_room"))
async def tables(
    request: Request,
    room: Annotated[str | None, Query(max_length=20)] = None,
    invite: Annotated[str | None, Query(max_length=64)] = None,
) -> TableList:
    """Live tables (of one room); a private one only for its owner or with its invite."""
    server = server_of(request)
    if room is not None and room not in ROOMS:
        raise ApiError("no_such_room", f"room must be one of {', '.join(ROOMS)}, not {room!r}")
    user = await session_user(server, request.cookies.get(server.settings.cookie_name))
    viewer = None if user is None else user.id
    listed = [
        t.summary(viewer)
        for t in lobby_of(request).tables.values()
        if (room is None or t.room.key == room)
        and (not t.private or viewer == t.owner or (invite is not None and invite == t.invite))
    ]
    return TableList(tables=listed)


@router.post(
    "/tables",
    status_code=201,
    response_model=TableSummary,
    responses=responses(
        "bad_request",
        "not_logged_in",
        "no_such_room",
        "no_such_preset",
        "bad_bet",
        "bad_turn_seconds",
        "bad_seats",
        "room_closed",
        "bet_over_balance",
        "cannot_invite",
        "draining",
    ),
)
async def create_table(request: Request, body: NewTable) -> TableSummary:
    """Open a table; the owner sits down at it through its WebSocket."""
    server = server_of(request)
    room = ROOMS.get(body.room)
    if room is None:
        raise ApiError("no_such_room", f"room must be one of {', '.join(ROOMS)}, not {body.room!r}")
    if body.preset not in PRESETS:
        known = ", ".join(PRESETS)
        raise ApiError("no_such_preset", f"preset must be one of {known}, not {body.preset!r}")
    if not room.allows_bet(body.bet):
        raise ApiError(
            "bad_bet",
            f"bets in {room.name_en} are {room.min_bet} to {room.max_bet}, not {body.bet}",
        )
    if body.turn_seconds not in TURN_SECONDS:
        raise ApiError(
            "bad_turn_seconds", f"the turn timer is 10, 15 or 20 s, not {body.turn_seconds}"
        )
    if not 2 <= body.seats <= 4:
        raise ApiError("bad_seats", f"a table has 2 to 4 seats, not {body.seats}")
    user = await session_user(server, request.cookies.get(server.settings.cookie_name))
    if user is None:
        raise ApiError("not_logged_in", "log in, register or play as a guest first")
    async with server.sessions() as db:
        chips = await ledger.balance_of(db, user.id)
    why = why_not(room, chips, user.vip_points)
    if why is not None:
        raise ApiError("room_closed", why)
    if body.bet > max_bet(chips):
        raise ApiError(
            "bet_over_balance",
            f"you hold {chips} chips: your tables may bet at most {max_bet(chips)}",
        )
    if body.private and not can_invite(chips, body.bet):
        raise ApiError(
            "cannot_invite",
            f"a private table at {body.bet} needs {15 * body.bet} chips; you hold {chips}",
        )
    lobby = lobby_of(request)
    table = lobby.open(
        user.id, room, body.preset, body.bet, body.turn_seconds, body.seats, body.private
    )
    await lobby.writer.flush()  # stored before it is announced: a restart opens it again
    return table.summary(user.id)
