"""Conduct in the chat, through the real server: a muted player's lines are refused (why, until
when) at tables and in the lobby until the mute ends or is lifted; swear words are masked in
what is sent and stored, the line as typed kept for moderators; repeated swearing is
sanctioned by the policy automatically (and reaches linked accounts); a report names a line
and gets the chat and the game attached by the server."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from websockets.exceptions import ConnectionClosed

from tienlen.server.conduct import chat_filter
from tienlen.server.store.models import AuditEntry, ChatMessage, GameRow, Sanction

from .conftest import START, FakeClock, LiveServer, make_settings
from .helpers import in_transaction
from .test_chat import _next, _open, _send, _stored, _table
from .test_conduct_api import error, moderator, player, rows

SWEARING = ["địt mẹ mày", "đồ chó đẻ", "vãi lồn thật"]


@pytest.fixture
def live(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    """A server of the test's own: the chat's limits and silences are kept in memory."""
    server = LiveServer(make_settings(tmp_path, db_url), FakeClock()).start()
    yield server
    server.stop()


@pytest.fixture
def clock(live: LiveServer) -> FakeClock:
    return live.clock


def _token(live: LiveServer, client: httpx.Client) -> str:
    return client.cookies[live.settings.cookie_name]


async def closed(ws: Any) -> dict[str, Any]:
    """Read until the server closes the socket: its close code and reason."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    except ConnectionClosed as exc:
        assert exc.rcvd is not None, "the server did not close the socket"
        return {"code": exc.rcvd.code, "reason": exc.rcvd.reason}


async def _say(ws: Any, text: str, ref: int, lobby: bool = False) -> dict[str, Any]:
    """What the server answers a chat line with: the ``chat`` line heard, or the ``error``."""
    await _send(ws, type="chat", text=text, ref=ref)
    return await _next(ws, "chat", "error", lobby=lobby)


def test_a_muted_player_cannot_chat_until_the_mute_ends_or_is_lifted(
    live: LiveServer, db_url: str, clock: FakeClock
) -> None:
    mod, _ = moderator(live, db_url)
    client, user = player(live, "Lan")
    token = _token(live, client)
    table = _table(client)
    body = {"user_id": user, "duration": "2h", "reason": "spam", "offence": "flooding"}
    assert mod.post("/api/mod/mute", json=body).status_code == 200

    async def go() -> list[dict[str, Any]]:
        answers = []
        async with (
            _open(live, token, f"/ws/tables/{table}") as ws,
            _open(live, token, "/ws/lobby") as lobby,
        ):
            await _send(ws, type="hello", protocol=1)
            await _next(ws, "state")
            await _send(lobby, type="hello", protocol=1)
            await _next(lobby, "lobby", lobby=True)
            answers.append(await _say(ws, "xin chào", 1))
            answers.append(await _say(lobby, "xin chào", 2, lobby=True))
            clock.advance(hours=2)  # the mute ends by the server's clock
            answers.append(await _say(ws, "lại nói được", 3))
            mute = {**body, "duration": "permanent"}
            assert mod.post("/api/mod/mute", json=mute).status_code == 200
            answers.append(await _say(lobby, "bị cấm", 4, lobby=True))
            lift = {"user_id": user, "reason": "appeal"}
            assert mod.post("/api/mod/unmute", json=lift).status_code == 200
            answers.append(await _say(lobby, "cảm ơn", 5, lobby=True))
        return answers

    answers = asyncio.run(go())
    refused = [a for a in answers if a["type"] == "error"]
    assert [a["code"] for a in refused] == ["muted"] * 3
    assert refused[0]["message"].startswith(
        "you are muted until 2026-03-14 11:00 UTC for Spam kênh chat: spam"
    )
    assert refused[0]["ref"] == 1 and refused[1]["message"] == refused[0]["message"]
    assert "permanently" in refused[2]["message"]
    # Until when and why, as data too (table and lobby alike): the page says it in its words.
    told = {
        "kind": "mute",
        "until": "2026-03-14T11:00:00+00:00",
        "reason": "spam",
        "offence": "flooding",
        "offence_en": refused[0]["sanction"]["offence_en"],
        "offence_vi": "Spam kênh chat",
    }
    assert refused[0]["sanction"] == told and refused[1]["sanction"] == told
    assert told["offence_en"]
    assert refused[2]["sanction"] == {**told, "until": None}
    assert [a["text"] for a in answers if a["type"] == "chat"] == ["lại nói được", "cảm ơn"]
    stored = _stored(db_url, f"table:{table}", 1) + _stored(db_url, "lobby", 1)
    assert [row.text for row in stored] == ["lại nói được", "cảm ơn"]


def test_swearing_is_masked_and_repeated_swearing_is_sanctioned_automatically(
    live: LiveServer, db_url: str, clock: FakeClock
) -> None:
    mod, _ = moderator(live, db_url)
    client, user = player(live, "Tuấn")
    _, other = player(live, "Minh")
    link = {"user_id": user, "other_id": other, "kind": "same_person", "reason": "admitted"}
    assert mod.post("/api/mod/links", json=link).status_code == 200
    token = _token(live, client)
    table = _table(client)
    app: Any = live.server.config.app  # type: ignore[union-attr]
    guard = app.state.server.chat.guard
    assert live.settings.swear_limit == len(SWEARING)

    async def go() -> list[dict[str, Any]]:
        answers = []
        async with _open(live, token, f"/ws/tables/{table}") as ws:
            await _send(ws, type="hello", protocol=1)
            await _next(ws, "state")
            answers.append(await _say(ws, "ván này hay quá", 0))
            answers.append(await _say(ws, SWEARING[0], 1))
            clock.advance(minutes=11)  # that swearing falls out of the 10 minutes' window
            for ref, text in enumerate(SWEARING[1:], 2):
                answers.append(await _say(ws, text, ref))
            assert guard.silence_of(user) is None
            answers.append(await _say(ws, SWEARING[0], 4))
            # The ban reaches the open socket: told why and until when, then closed.
            answers.append(await _next(ws, "sanction"))
            answers.append(await closed(ws))
        return answers

    answers = asyncio.run(go())
    lines, refusal, close = answers[:-2], answers[-2], answers[-1]
    assert all(a["type"] == "chat" for a in lines), answers
    said = ["ván này hay quá", *SWEARING, SWEARING[0]]
    assert [line["text"] for line in lines] == [chat_filter.check(t).masked for t in said]
    assert all("*" in line["text"] for line in lines[1:])
    assert refusal["kind"] == "ban" and "until 2026-03-15 09:11 UTC" in refusal["message"]
    assert refusal["until"] == "2026-03-15T09:11:00+00:00"
    assert (refusal["offence"], refusal["offence_vi"]) == (
        "swearing",
        "Chửi bậy, lời lẽ không văn hóa",
    )
    assert close == {"code": 1008, "reason": "banned until 2026-03-15 09:11 UTC"}
    assert guard.silence_of(user) is not None
    assert "automatic (chat filter): 3 lines masked for swearing" in refusal["message"]
    stored = _stored(db_url, f"table:{table}", len(lines))
    assert [row.id for row in stored] == [line["id"] for line in lines]
    assert [row.original for row in stored] == [None, *said[1:]]

    sanctions = rows(db_url, Sanction)
    assert [(s.user_id, s.kind, s.offence, s.by_user_id) for s in sanctions] == [
        (user, "ban", "swearing", None),
        (other, "ban", "swearing", None),  # the policy's swearing reaches linked accounts
    ]
    assert sanctions[0].ends_at == START + timedelta(minutes=11, days=1)
    assert sanctions[0].evidence["messages"] == [line["id"] for line in lines[2:]]
    audit = [e for e in rows(db_url, AuditEntry) if e.action == "ban"]
    assert [e.actor_id for e in audit] == [None, None]
    assert audit[0].reason.startswith("automatic") and audit[0].details["evidence"]["automatic"]
    assert client.get("/api/me").json()["error"]["code"] == "banned"


def test_a_report_names_a_line_and_gets_the_chat_and_the_game(
    live: LiveServer, db_url: str
) -> None:
    reporter, reporter_id = player(live, "Lan")
    speaker, speaker_id = player(live, "Hải")
    table = _table(speaker)

    async def deal(db: AsyncSession) -> None:
        dealt = START - timedelta(minutes=1)
        for number, at in ((1, dealt - timedelta(minutes=5)), (2, dealt)):
            db.add(
                GameRow(
                    id=f"{table}:{number}",
                    table_id=table,
                    number=number,
                    start={},
                    status="playing",
                    dealt_at=at,
                )
            )

    in_transaction(db_url, deal)

    async def go() -> list[dict[str, Any]]:
        async with (
            _open(live, _token(live, speaker), f"/ws/tables/{table}") as ws,
            _open(live, _token(live, reporter), f"/ws/tables/{table}") as other,
        ):
            for sock in (ws, other):
                await _send(sock, type="hello", protocol=1)
                await _next(sock, "state")
            await _say(other, "chào bạn", 1)
            await _next(ws, "chat")  # the speaker hears it too
            return [await _say(ws, text, i) for i, text in enumerate(["thua rồi", "địt mẹ"], 2)]

    lines = asyncio.run(go())
    body = {"user_id": speaker_id, "text": "chửi", "message_id": lines[1]["id"]}  # as sent
    r = reporter.post("/api/reports", json=body | {"context": {"seen": True}})
    assert r.status_code == 201, r.text
    assert r.json()["message_id"] == lines[1]["id"]
    context = r.json()["context"]
    assert context["client"] == {"seen": True} and context["game_id"] == f"{table}:2"
    assert context["message"]["original"] == "địt mẹ"
    assert [line["text"] for line in context["chat"]] == ["chào bạn", "thua rồi", lines[1]["text"]]
    not_theirs = {**body, "message_id": lines[1]["id"] - 2}  # the reporter's own line
    assert error(reporter.post("/api/reports", json=not_theirs)) == "no_such_message"

    async def count(db: AsyncSession) -> int:
        return len(list(await db.scalars(select(ChatMessage))))

    assert in_transaction(db_url, count) == 3
    assert reporter_id != speaker_id
