"""REST routes for accounts: register, log in and out, guests, upgrade, profile, leaderboard.

Each route does its database work in one transaction (``async with db.begin()``): any error
rolls it back, so a refused request changes nothing. Slow password hashing happens outside the
transaction. The session token travels only in an HttpOnly cookie. Sign-ups and log-ins are
limited per client address, and repeated failed log-ins lock a nickname for a while
(:class:`~tienlen.server.limits.AccountGuards`, docs/SERVER.md "Abuse limits").
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request, Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import auth
from ..conduct import sanctions, sightings
from ..deps import Server, server_of
from ..errors import ApiError, responses
from ..protocol import Credentials, Leaderboard, LeaderboardEntry, Ok, PlayerInfo, Profile
from ..store import ledger
from ..store.models import Account, User

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["accounts"])


def _token(request: Request, server: Server) -> str | None:
    return request.cookies.get(server.settings.cookie_name)


def _address(request: Request) -> str:
    """The client's address (behind a proxy, the proxy's, unless uvicorn is told to trust its
    forwarding headers)."""
    return request.client.host if request.client is not None else "unknown"


def _until(now: float, wait: float) -> str:
    return datetime.fromtimestamp(math.ceil(now + wait), UTC).isoformat()


def _count_signup(request: Request, server: Server) -> None:
    """Count a new account or guest from this address, or refuse it (``too_many_signups``)."""
    now = server.clock().timestamp()
    wait = server.guards.signups.hit(_address(request), now)
    if wait > 0:
        until = _until(now, wait)
        raise ApiError(
            "too_many_signups",
            f"too many new accounts or guests from your address: try again after {until}",
            retry_after=until,
        )


def _set_cookie(response: Response, token: str, server: Server) -> None:
    settings = server.settings
    response.set_cookie(
        settings.cookie_name,
        token,
        max_age=settings.session_days * 24 * 3600,
        path="/",
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure,
    )


def _clear_cookie(response: Response, server: Server) -> None:
    settings = server.settings
    response.delete_cookie(
        settings.cookie_name,
        path="/",
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure,
    )


async def _profile(db: AsyncSession, user: User, topup: int = 0) -> Profile:
    return Profile(
        id=user.id,
        nickname=user.nickname,
        is_guest=user.is_guest,
        chips=await ledger.balance_of(db, user.id),
        dkn=user.dkn,
        vip_points=user.vip_points,
        games_played=user.games_played,
        games_won=user.games_won,
        created_at=user.created_at,
        last_topup_on=user.last_topup_on,
        topup=topup,
    )


async def _logged_in(db: AsyncSession, request: Request, server: Server) -> User:
    user = await auth.user_for_token(db, _token(request, server), server.clock())
    if user is None:
        raise ApiError("not_logged_in", "log in, register or play as a guest first")
    return user


@router.post(
    "/register",
    status_code=201,
    responses=responses(
        "bad_request", "bad_nickname", "weak_password", "nickname_taken", "too_many_signups"
    ),
)
async def register(body: Credentials, request: Request, response: Response) -> Profile:
    """Create an account with the starting grant and log it in (ends any current session).

    A guest who wants to keep their chips uses `/api/upgrade` instead."""
    server = server_of(request)
    _count_signup(request, server)
    new = await auth.prepare_account(
        body.nickname, body.password, server.settings, server.passwords
    )
    async with server.sessions() as db, db.begin():
        now = server.clock()
        await auth.end_session(db, _token(request, server))
        user, token = await auth.register(db, new, now, server.settings)
        profile = await _profile(db, user)
    _set_cookie(response, token, server)
    await sightings.seen(server, request, response, profile.id)
    return profile


@router.post(
    "/login",
    responses=responses(
        "bad_request", "bad_credentials", "banned", "too_many_logins", "login_locked"
    ),
)
async def login(body: Credentials, request: Request, response: Response) -> Profile:
    """Log in by nickname (compared ignoring case and diacritics) and password; tops the player
    up if due. Limited per address; failed log-ins lock the nickname for a while."""
    server = server_of(request)
    guards, moment = server.guards, server.clock().timestamp()
    wait = guards.logins.hit(_address(request), moment)
    if wait > 0:
        until = _until(moment, wait)
        raise ApiError(
            "too_many_logins",
            f"too many log-ins from your address: try again after {until}",
            retry_after=until,
        )
    key = auth.nickname_key(body.nickname)
    locked = guards.lockout.locked_until(key, moment)
    if locked is not None:
        until = _until(locked, 0)
        raise ApiError(
            "login_locked",
            f"too many failed log-ins for this nickname: try again after {until}",
            retry_after=until,
        )
    async with server.sessions() as db, db.begin():
        found = await auth.find_login(db, body.nickname)
    try:
        user_id = await auth.verify_login(found, body.password, server.passwords)
    except auth.AuthError as exc:
        locked = guards.lockout.fail(key, moment)
        if locked is not None:
            exc.message += f"; this nickname is now locked until {_until(locked, 0)}"
        raise
    guards.lockout.clear(key)
    assert found is not None and found[1] is not None
    rehashed = None
    if server.passwords.needs_rehash(found[1]):
        rehashed = await server.passwords.hash(body.password)
    async with server.sessions() as db, db.begin():
        now = server.clock()
        user = await db.get(User, user_id)
        if user is None or user.password_hash != found[1]:
            raise ApiError("bad_credentials", "wrong nickname or password")
        await sanctions.refuse_banned(db, user.id, now)
        topup = await ledger.claim_daily_topup(db, user, now, server.settings)  # locks first
        if rehashed is not None:
            user.password_hash = rehashed
        await auth.end_session(db, _token(request, server))
        token = await auth.start_session(db, user, now, server.settings)
        profile = await _profile(db, user, topup)
    _set_cookie(response, token, server)
    await sightings.seen(server, request, response, profile.id)
    return profile


@router.post("/logout", responses=responses())
async def logout(request: Request, response: Response) -> Ok:
    """End the current session (if any) and clear the cookie; always succeeds."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        await auth.end_session(db, _token(request, server))
    _clear_cookie(response, server)
    return Ok()


@router.post(
    "/guest",
    status_code=201,
    responses={200: {"model": Profile}, **responses("banned", "too_many_signups")},
)
async def guest(request: Request, response: Response) -> Profile:
    """Play as a guest in one click: a "Khách 1234" player with the starting grant, logged in
    (201). A request already carrying a guest's session gets that guest back (200)."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        now = server.clock()
        current = await auth.user_for_token(db, _token(request, server), now)
        if current is not None and current.is_guest:
            response.status_code = 200
            topup = await ledger.claim_daily_topup(db, current, now, server.settings)
            return await _profile(db, current, topup)
        _count_signup(request, server)
        await auth.end_session(db, _token(request, server))
        user, token = await auth.create_guest(db, now, server.settings)
        profile = await _profile(db, user)
    _set_cookie(response, token, server)
    await sightings.seen(server, request, response, profile.id)
    return profile


@router.post(
    "/upgrade",
    responses=responses(
        "bad_request",
        "not_logged_in",
        "not_a_guest",
        "bad_nickname",
        "weak_password",
        "nickname_taken",
        "banned",
    ),
)
async def upgrade(body: Credentials, request: Request, response: Response) -> Profile:
    """Turn the current guest into an account with this nickname and password, keeping the
    same player (id, chips, ĐKN, games)."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        user = await _logged_in(db, request, server)
        if not user.is_guest:
            raise auth.AuthError("not_a_guest", "this account is already registered")
    new = await auth.prepare_account(
        body.nickname, body.password, server.settings, server.passwords
    )
    async with server.sessions() as db, db.begin():
        now = server.clock()
        user = await _logged_in(db, request, server)
        token = await auth.upgrade_guest(
            db, user, new, _token(request, server), now, server.settings
        )
        profile = await _profile(db, user)
    _set_cookie(response, token, server)
    await sightings.seen(server, request, response, profile.id)
    return profile


@router.get("/me", responses=responses("not_logged_in", "banned"))
async def me(request: Request) -> Profile:
    """The logged-in player's profile; grants the daily top-up first when it is due."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        user = await _logged_in(db, request, server)
        topup = await ledger.claim_daily_topup(db, user, server.clock(), server.settings)
        return await _profile(db, user, topup)


@router.get("/leaderboard", responses=responses("bad_request"))
async def leaderboard(
    request: Request,
    by: Annotated[Literal["dkn", "chips"], Query(description="Rank by ĐKN or by chips.")] = "dkn",
    limit: Annotated[int, Query(ge=1, le=100, description="How many places.")] = 20,
) -> Leaderboard:
    """The best registered players (guests and bots are not ranked) by ĐKN or by chips; ties
    share a rank and are listed oldest account first."""
    server = server_of(request)
    metric = User.dkn if by == "dkn" else Account.balance
    async with server.sessions() as db, db.begin():
        rows = await db.execute(
            select(
                User.nickname,
                User.dkn,
                Account.balance,
                User.games_played,
                User.games_won,
            )
            .join(Account, Account.user_id == User.id)
            .where(User.is_guest.is_(False), User.is_bot.is_(False))
            .order_by(metric.desc(), User.id)
            .limit(limit)
        )
    entries: list[LeaderboardEntry] = []
    for nickname, dkn, chips, played, won in rows:
        value = dkn if by == "dkn" else chips
        previous = entries[-1] if entries else None
        tied = previous is not None and value == (previous.dkn if by == "dkn" else previous.chips)
        rank = previous.rank if tied and previous is not None else len(entries) + 1
        entries.append(
            LeaderboardEntry(
                rank=rank,
                nickname=nickname,
                dkn=dkn,
                chips=chips,
                games_played=played,
                games_won=won,
            )
        )
    return Leaderboard(by=by, entries=entries)


@router.get("/players/{nickname}", responses=responses("bad_request", "no_such_user"))
async def player(
    request: Request, nickname: Annotated[str, Path(min_length=1, max_length=40)]
) -> PlayerInfo:
    """What anyone may see of a player (a person, guest or registered; not a house bot), found
    by nickname as log-in finds it (ignoring case and diacritics)."""
    server = server_of(request)
    async with server.sessions() as db, db.begin():
        user = await db.scalar(
            select(User).where(
                User.nickname_key == auth.nickname_key(nickname), User.is_bot.is_(False)
            )
        )
        if user is None:
            raise ApiError("no_such_user", f"no player is called {nickname!r}")
        return PlayerInfo(
            nickname=user.nickname,
            is_guest=user.is_guest,
            chips=await ledger.balance_of(db, user.id),
            dkn=user.dkn,
            games_played=user.games_played,
            games_won=user.games_won,
            created_at=user.created_at,
        )
