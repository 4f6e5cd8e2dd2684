"""API errors: one JSON shape, ``{"error": {"code", "message"}}``, with a stable code per cause.

:data:`CODES` is the catalogue (status and meaning of each code); routes declare theirs with
:func:`responses` so the OpenAPI schema lists them. The handlers here turn every failure —
refused input, unknown route, oversized body, a crash — into that shape.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .protocol import ErrorResponse, SanctionTold

__all__ = [
    "CODES",
    "SOCKET_CODES",
    "ApiError",
    "BodyLimit",
    "Refused",
    "error_response",
    "install_handlers",
    "responses",
]

log = logging.getLogger("tienlen.server")


class Refused(Exception):
    """A command a socket refuses (a table's, the lobby's): it changes nothing and its sender
    gets an ``error`` message, as :class:`ApiError` is a REST request's refusal."""

    def __init__(self, code: str, message: str, sanction: SanctionTold | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.sanction = sanction
        """With ``muted`` and ``banned``: the sanction in force, as the player is told it."""


CODES: dict[str, tuple[int, str]] = {
    "bad_request": (422, "The body or query does not have the documented shape."),
    "bad_nickname": (422, "The nickname breaks the nickname rules."),
    "weak_password": (422, "The password breaks the password rules."),
    "nickname_taken": (409, "Another player has this nickname, ignoring case and diacritics."),
    "not_a_guest": (409, "Only a guest can be upgraded to an account."),
    "bad_credentials": (401, "Wrong nickname or password."),
    "not_logged_in": (401, "No valid session cookie: log in, register or play as a guest."),
    "no_such_room": (422, "There is no room of that name."),
    "no_such_preset": (422, "There is no rule preset of that name."),
    "bad_bet": (422, "The bet is outside the room's range."),
    "bad_turn_seconds": (422, "The turn timer must be 10, 15 or 20 seconds."),
    "bad_seats": (422, "A table has 2 to 4 seats."),
    "room_closed": (403, "The player does not meet the room's entry conditions."),
    "bet_over_balance": (409, "The owner may bet at most 1/10 of their chips."),
    "cannot_invite": (409, "A private table's owner needs at least 15 times the bet."),
    "no_such_game": (404, "No finished game has that id."),
    "not_your_game": (403, "Only the game's players may download its record or replay it."),
    "banned": (403, "The account is banned: the message and ``sanction`` say why and until when."),
    "muted": (403, "The player is muted: the message and ``sanction`` say why and until when."),
    "forbidden": (403, "Only a moderator or an admin (of a higher role) may do this."),
    "no_such_user": (404, "There is no user with that id or nickname."),
    "no_such_report": (404, "There is no report with that id."),
    "no_such_message": (404, "The reported player said no chat line with that id."),
    "no_such_flag": (404, "There is no fair-play flag with that id."),
    "no_such_offence": (422, "The conduct policy has no offence of that name."),
    "bad_duration": (422, "A duration is 30m, 2h, 7d (minutes, hours, days) or permanent."),
    "not_sanctioned": (409, "The user has no sanction of that kind in force."),
    "too_few_chips": (409, "Playing needs 10 times the smallest bet; a daily top-up helps."),
    "too_many_signups": (429, "This address made too many accounts or guests lately."),
    "cannot_report_self": (422, "A player cannot report themselves."),
    "too_many_reports": (429, "The player filed too many reports within the last hour."),
    "too_many_logins": (429, "This address tried to log in too often lately."),
    "login_locked": (429, "Too many failed log-ins for this nickname: it is locked for a while."),
    "draining": (503, "The server is stopping: it opens no table (try again in a moment)."),
    "not_found": (404, "No such route."),
    "method_not_allowed": (405, "The route does not take this HTTP method."),
    "body_too_large": (413, "The request body is larger than the server accepts."),
    "internal_error": (500, "The server failed; nothing was changed."),
}


SOCKET_CODES: dict[str, tuple[str, str]] = {
    "too_large": ("parser", "over 4096 bytes of UTF-8"),
    "bad_json": (
        "parser",
        "not UTF-8, not JSON (NaN, Infinity and -1e999 are not), or nested too deeply",
    ),
    "not_an_object": ("parser", "JSON, but not an object"),
    "missing_type": ("parser", "no type"),
    "unknown_type": ("parser", "a type the socket does not take"),
    "bad_field": ("parser", "a field missing, unknown, of the wrong type or out of range"),
    "bad_cards": ("parser", "cards that cannot be read (unknown card, written twice, none)"),
    "unsupported_version": ("parser", "hello with another protocol version"),
    "chat_empty": ("parser", "a chat line with nothing but spaces"),
    "chat_too_long": ("parser", "a chat line over 200 characters once trimmed"),
    "rate_limited": ("connection", "too many messages: slow down"),
    "chat_too_fast": ("chat", "too many chat lines, lobby and tables together"),
    "muted": ("chat", "the speaker is muted"),
    "banned": ("chat", "the speaker is banned"),
    "hello_first": ("table", "a message before hello"),
    "not_seated": ("table", "stand without a seat"),
    "already_seated": ("table", "sit while seated"),
    "seat_taken": ("table", "sit in a seat someone holds"),
    "no_such_seat": ("table", "a seat the table does not have"),
    "not_enough_chips": ("table", "sit while holding less than the table deals a person in with"),
    "same_device": ("table", "sit where someone seated connected from your device"),
    "same_network": ("table", "sit where someone seated connected from your network address"),
    "not_owner": ("table", "bots: only the table's owner seats and removes them"),
    "no_bot": ("table", "remove_bot where no bot sits"),
    "seat_in_game": ("table", "remove_bot while it plays a game"),
    "no_bots": ("table", "no bots at this table, or none free just now"),
    "no_game": ("table", "no game now"),
    "not_playing": ("table", "you do not play this game"),
    "no_commitment": ("table", "a client seed with no commitment out"),
    "seed_already_sent": ("table", "a second client seed"),
    "not_your_turn": ("engine", "not your turn"),
    "not_in_game": ("engine", "that seat is out of the game"),
    "cards_not_in_hand": ("engine", "cards you do not hold"),
    "not_a_combination": ("engine", "cards that are no combination"),
    "does_not_beat": ("engine", "a play that does not beat the one on the table"),
    "must_contain_card": ("engine", "the play must hold the card the lead requires"),
    "already_passed": ("engine", "you passed this round"),
    "cannot_pass": ("engine", "the leader of a round cannot pass"),
    "no_chop_offer": ("engine", "no chop is offered to you"),
    "game_over": ("engine", "the game is over"),
}
"""The catalogue of every code a socket's ``error`` message may carry (tables' and the lobby's
alike), as :data:`CODES` is for REST: code -> (who refuses, what it means). docs/PROTOCOL.md's
table of errors names exactly these (tests/server/test_protocol_doc.py), and every code the
server's modules refuse with is one of them."""


class ApiError(ValueError):
    """A refused request: answered as ``{"error": {"code", "message"}}`` with the code's status
    from :data:`CODES`. Raised before anything is changed (or inside the transaction that is
    then rolled back)."""

    def __init__(
        self,
        code: str,
        message: str,
        sanction: SanctionTold | None = None,
        *,
        retry_after: str | None = None,
        account: dict[str, int] | None = None,
    ) -> None:
        if code not in CODES:
            raise ValueError(f"unknown API error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = CODES[code][0]
        self.sanction = sanction
        """With ``muted`` and ``banned``: the sanction in force, as the player is told it."""
        self.retry_after = retry_after
        """With the rate limits and the log-in lockout: when to try again (ISO 8601, UTC)."""
        self.account = account
        """With ``banned``: the banned player's chips and ĐKN now (what the ban cost them)."""


def error_response(
    code: str,
    message: str,
    status: int | None = None,
    sanction: SanctionTold | None = None,
    retry_after: str | None = None,
    account: dict[str, int] | None = None,
) -> JSONResponse:
    error: dict[str, Any] = {"code": code, "message": message}
    if sanction is not None:
        error["sanction"] = sanction
    if retry_after is not None:
        error["retry_after"] = retry_after
    if account is not None:
        error["account"] = account
    return JSONResponse({"error": error}, status_code=status or CODES[code][0])


def responses(*codes: str) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for a route that may answer with these codes (and with
    ``body_too_large`` and ``internal_error``, which any route may)."""
    by_status: dict[int, list[str]] = {}
    for code in (*codes, "body_too_large", "internal_error"):
        by_status.setdefault(CODES[code][0], []).append(code)
    return {
        status: {
            "model": ErrorResponse,
            "description": "; ".join(f"`{c}`: {CODES[c][1]}" for c in dict.fromkeys(names)),
        }
        for status, names in sorted(by_status.items())
    }


def _describe_validation(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors()[:5]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request is not valid"


async def _on_api_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(
        exc.code,
        exc.message,
        sanction=exc.sanction,
        retry_after=exc.retry_after,
        account=exc.account,
    )


async def _on_validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    whole_body = any(tuple(error.get("loc", ())) == ("body",) for error in exc.errors())
    content_type = request.headers.get("content-type", "")
    if whole_body and "json" not in content_type:
        message = "send the body as a JSON object with Content-Type: application/json"
        return error_response("bad_request", message)
    return error_response("bad_request", _describe_validation(exc))


async def _on_http(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:  # FastAPI could not read the body at all (not UTF-8, say)
        message = "send the body as a JSON object in UTF-8 with Content-Type: application/json"
        return error_response("bad_request", message)
    known = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}
    code = known.get(exc.status_code, f"http_{exc.status_code}")
    message = str(exc.detail) if code not in ("not_found", "method_not_allowed") else CODES[code][1]
    return error_response(code, message, exc.status_code)


async def _on_crash(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response("internal_error", CODES["internal_error"][1])


def install_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _on_api_error)
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(StarletteHTTPException, _on_http)
    app.add_exception_handler(Exception, _on_crash)


DRAIN_BYTES = 8 * 1024 * 1024
"""How much of a refused body is read (and dropped) before the ``body_too_large`` answer."""
DRAIN_S = 10.0
"""How long that reading may take."""


async def _drain(receive: Receive, seen: int) -> None:
    """Read what is left of a refused body, up to :data:`DRAIN_BYTES` in all (``seen`` read
    already) and for :data:`DRAIN_S`. A server that closes a connection with data unread
    resets it (TCP RST), which may destroy the answer before the client reads it: uvicorn
    closes after answering a request that said ``Connection: close`` (Python's urllib always
    does), and the client still sending its body got a reset, not the 413."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(DRAIN_S):
            while seen <= DRAIN_BYTES:
                received = await receive()
                if received["type"] != "http.request":
                    return
                seen += len(received.get("body", b""))
                if not received.get("more_body", False):
                    return


class BodyLimit:
    """ASGI middleware refusing request bodies over ``limit`` bytes with ``body_too_large``:
    at once when Content-Length announces it, else as soon as the streamed chunks pass it.
    Either way the rest of the body is read first (:func:`_drain`, bounded), so the client
    gets the answer rather than a reset; not when the client waits for ``100 Continue``
    before sending it, or announces more than :data:`DRAIN_BYTES`."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        message = f"the request body is over {self.limit} bytes"
        headers = dict(scope.get("headers", ()))
        announced = headers.get(b"content-length", b"")
        if announced.isdigit() and int(announced) > self.limit:
            waits = b"100-continue" in headers.get(b"expect", b"").lower()
            if int(announced) <= DRAIN_BYTES and not waits:
                await _drain(receive, 0)
            await error_response("body_too_large", message)(scope, receive, send)
            return
        seen = 0

        async def counting_receive() -> Message:
            nonlocal seen
            received = await receive()
            if received["type"] == "http.request":
                seen += len(received.get("body", b""))
                if seen > self.limit:
                    if received.get("more_body", False):
                        await _drain(receive, seen)
                    # FastAPI passes its own HTTPException on to the handlers above.
                    raise HTTPException(413, message)
            return received

        await self.app(scope, counting_receive, send)
