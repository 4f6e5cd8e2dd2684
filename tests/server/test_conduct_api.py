"""Conduct through the real app (SQLite and PostgreSQL): roles, sanctions and their escalation
across linked accounts, bans enforced at log-in and on sessions, reports, the audit log, and
``tienlen admin``'s conduct commands."""

from __future__ import annotations

import json
from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from typer.testing import CliRunner

from tienlen.cli import app
from tienlen.server.conduct import sanctions as conduct
from tienlen.server.errors import ApiError
from tienlen.server.store.models import AuditEntry, Sanction

from .conftest import FakeClock, LiveServer
from .helpers import in_transaction, snapshot

PASSWORD = "mật khẩu 123"
runner = CliRunner()


def player(live: LiveServer, nickname: str) -> tuple[httpx.Client, int]:
    client = live.client()
    r = client.post("/api/register", json={"nickname": nickname, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return client, int(r.json()["id"])


def admin(db_url: str, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["admin", *args, "--database-url", db_url])
    return result.exit_code, result.output


def error(r: httpx.Response) -> str:
    assert r.status_code >= 400, r.text
    return str(r.json()["error"]["code"])


def moderator(live: LiveServer, db_url: str, nickname: str = "Mod") -> tuple[httpx.Client, int]:
    client, user = player(live, nickname)
    assert admin(db_url, "grant-role", nickname, "moderator", "--reason", "trusted")[0] == 0
    return client, user


def rows(db_url: str, model: Any) -> list[Any]:
    async def read(db: AsyncSession) -> list[Any]:
        return list(await db.scalars(select(model).order_by(model.id)))

    return in_transaction(db_url, read)


def test_players_may_not_moderate(live: LiveServer, db_url: str) -> None:
    client, _ = player(live, "Lan")
    _, other = player(live, "Minh")
    before = snapshot(db_url)
    for path, body in [
        ("/api/mod/ban", {"user_id": other, "duration": "1d", "reason": "x"}),
        ("/api/mod/warn", {"user_id": other, "reason": "x"}),
        ("/api/mod/offence", {"user_id": other, "offence": "swearing", "reason": "x"}),
    ]:
        r = client.post(path, json=body)
        assert (r.status_code, error(r)) == (403, "forbidden")
    assert error(client.get("/api/mod/audit")) == "forbidden"
    assert error(live.client().get("/api/mod/reports")) == "not_logged_in"
    assert snapshot(db_url) == before
    assert rows(db_url, AuditEntry) == []


def test_a_ban_stops_log_in_and_sessions_and_says_why_until_when(
    live: LiveServer, db_url: str, clock: FakeClock
) -> None:
    mod, _ = moderator(live, db_url)
    banned, user = player(live, "Tuấn")
    r = mod.post(
        "/api/mod/ban",
        json={
            "user_id": user,
            "duration": "1d",
            "reason": "chửi bậy",
            "offence": "swearing",
            "evidence": {"messages": ["m1"]},
        },
    )
    assert r.status_code == 200, r.text
    (made,) = r.json()["sanctions"]
    assert made["kind"] == "ban" and made["evidence"] == {"messages": ["m1"]}

    r = banned.get("/api/me")
    assert (r.status_code, error(r)) == (403, "banned")
    message = r.json()["error"]["message"]
    assert "until 2026-03-15 09:00 UTC" in message and "chửi bậy" in message
    assert "Chửi bậy, lời lẽ không văn hóa" in message  # the policy's title
    told = r.json()["error"]["sanction"]
    assert told == {
        "kind": "ban",
        "until": "2026-03-15T09:00:00+00:00",
        "reason": "chửi bậy",
        "offence": "swearing",
        "offence_en": "Swearing or uncivil language in chat (lobby, public or table chat)",
        "offence_vi": "Chửi bậy, lời lẽ không văn hóa",
    }
    r = live.client().post("/api/login", json={"nickname": "tuan", "password": PASSWORD})
    assert error(r) == "banned" and r.json()["error"]["sanction"] == told
    r = live.client().post("/api/login", json={"nickname": "tuan", "password": "wrong password"})
    assert error(r) == "bad_credentials", "a ban is told only to the owner of the password"

    clock.advance(days=1)
    assert banned.get("/api/me").status_code == 200, "the ban is over"
    r = live.client().post("/api/login", json={"nickname": "tuan", "password": PASSWORD})
    assert r.status_code == 200


def test_unban_lifts_and_is_audited(live: LiveServer, db_url: str) -> None:
    mod, mod_id = moderator(live, db_url)
    banned, user = player(live, "Tuấn")
    mod.post("/api/mod/ban", json={"user_id": user, "duration": "permanent", "reason": "hack"})
    refused = banned.get("/api/me").json()["error"]
    assert "permanently" in refused["message"]
    assert refused["sanction"]["until"] is None and refused["sanction"]["offence"] is None
    assert refused["sanction"]["reason"] == "hack"
    r = mod.post("/api/mod/unban", json={"user_id": user, "reason": "wrong player"})
    assert r.status_code == 200 and r.json()["sanctions"][0]["lift_reason"] == "wrong player"
    assert banned.get("/api/me").status_code == 200
    assert error(mod.post("/api/mod/unban", json={"user_id": user, "reason": "again"})) == (
        "not_sanctioned"
    )
    log = mod.get("/api/mod/audit").json()["entries"]
    assert [(e["action"], e["actor_id"], e["target_id"]) for e in log[:2]] == [
        ("unban", mod_id, user),
        ("ban", mod_id, user),
    ]
    assert log[1]["details"]["duration"] == "permanent"


def test_swearing_escalates_by_the_policy_and_reaches_linked_accounts(
    live: LiveServer, db_url: str, clock: FakeClock
) -> None:
    mod, _ = moderator(live, db_url)
    _, offender = player(live, "Hùng1")
    look_alikes = [player(live, name)[1] for name in ("Hùng2", "Hùng3")]
    _, stranger = player(live, "Bảo")
    # a series of look-alike nicks, linked pair by pair
    for a, b in [(offender, look_alikes[0]), (look_alikes[0], look_alikes[1])]:
        body = {"user_id": a, "other_id": b, "kind": "series", "reason": "same pattern"}
        assert mod.post("/api/mod/links", json=body).status_code == 200

    steps = []
    for i in range(4):
        body = {"user_id": offender, "offence": "swearing", "reason": "chửi", "evidence": {}}
        r = mod.post("/api/mod/offence", json=body)
        assert r.status_code == 200, (i, clock(), r.text)
        made = r.json()["sanctions"]
        assert [s["user_id"] for s in made] == [offender, *look_alikes]
        assert all(s["linked_from_id"] == made[0]["id"] for s in made[1:])
        ends = made[0]["ends_at"]
        steps.append((r.json()["step"], ends[:10] if ends else None))
        clock.advance(days=9)  # each ban over, the sessions (30 days) not
    assert steps == [(1, "2026-03-15"), (2, "2026-03-30"), (3, None), (4, None)]
    banned = {s.user_id for s in rows(db_url, Sanction)}
    assert stranger not in banned


def test_a_moderator_cannot_act_on_staff_and_only_admins_grant_roles(
    live: LiveServer, db_url: str
) -> None:
    mod, mod_id = moderator(live, db_url)
    other_mod, other_id = moderator(live, db_url, "Mod2")
    body = {"user_id": other_id, "duration": "1d", "reason": "x"}
    assert error(mod.post("/api/mod/ban", json=body)) == "forbidden"
    body = {"user_id": mod_id, "role": "player", "reason": "x"}
    assert error(other_mod.post("/api/mod/roles", json=body)) == "forbidden"
    boss, _ = player(live, "Sếp")
    assert admin(db_url, "grant-role", "sep", "admin", "--reason", "owner")[0] == 0
    assert boss.post("/api/mod/roles", json=body).status_code == 200
    assert error(mod.get("/api/mod/audit")) == "forbidden"
    body = {"user_id": other_id, "duration": "1d", "reason": "abuse"}
    assert boss.post("/api/mod/ban", json=body).status_code == 200


def test_bad_moderation_requests_change_nothing(live: LiveServer, db_url: str) -> None:
    mod, _ = moderator(live, db_url)
    _, user = player(live, "Lan")
    before = snapshot(db_url)
    sanctions = rows(db_url, Sanction)
    for path, body, code in [
        ("/api/mod/ban", {"user_id": user, "duration": "1 week", "reason": "x"}, "bad_duration"),
        ("/api/mod/mute", {"user_id": 999999, "duration": "1h", "reason": "x"}, "no_such_user"),
        (
            "/api/mod/offence",
            {"user_id": user, "offence": "spit", "reason": "x"},
            "no_such_offence",
        ),
        ("/api/mod/ban", {"user_id": user, "duration": "1d", "reason": ""}, "bad_request"),
        ("/api/mod/warn", {"user_id": user, "reason": "x", "extra": 1}, "bad_request"),
        ("/api/mod/unmute", {"user_id": user, "reason": "x"}, "not_sanctioned"),
    ]:
        assert error(mod.post(path, json=body)) == code, (path, body)
    assert snapshot(db_url) == before and rows(db_url, Sanction) == sanctions
    assert rows(db_url, AuditEntry)[-1].action == "grant_role"


def test_mutes_are_for_the_chat_to_enforce(live: LiveServer, db_url: str, clock: FakeClock) -> None:
    mod, _ = moderator(live, db_url)
    muted, user = player(live, "Lan")
    body = {"user_id": user, "duration": "2h", "reason": "spam", "offence": "flooding"}
    assert mod.post("/api/mod/mute", json=body).status_code == 200
    assert muted.get("/api/me").status_code == 200, "a muted player still plays"

    async def check(db: AsyncSession) -> tuple[str | None, str]:
        mute = await conduct.mute_of(db, user, clock())
        until = None if mute is None or mute.ends_at is None else mute.ends_at.isoformat()
        try:
            await conduct.refuse_muted(db, user, clock())
        except ApiError as exc:
            return until, f"{exc.code}: {exc.message}"
        return until, "allowed"

    until, said = in_transaction(db_url, check)
    assert until == "2026-03-14T11:00:00+00:00"
    assert said.startswith("muted: you are muted until 2026-03-14 11:00 UTC for Spam kênh chat")
    clock.advance(hours=2)
    assert in_transaction(db_url, check) == (None, "allowed")


def test_reports_are_filed_reviewed_and_audited(live: LiveServer, db_url: str) -> None:
    mod, mod_id = moderator(live, db_url)
    reporter, _ = player(live, "Lan")
    _, target = player(live, "Minh")
    body = {
        "user_id": target,
        "text": "chửi tục trong bàn",
        "context": {"table": "t1", "game": 3, "chat": ["a", "b"]},
    }
    assert error(reporter.post("/api/reports", json={**body, "message_id": "42"})) == (
        "no_such_message"
    )
    r = reporter.post("/api/reports", json=body)
    assert r.status_code == 201, r.text
    report_id = r.json()["id"]
    assert error(reporter.post("/api/reports", json={**body, "user_id": r.json()["reporter_id"]}))
    assert error(live.client().post("/api/reports", json=body)) == "not_logged_in"
    queue = mod.get("/api/mod/reports").json()["reports"]
    found = [(q["id"], q["context"]["client"]["game"], q["status"]) for q in queue]
    assert found == [(report_id, 3, "open")]
    assert queue[0]["context"]["chat"] == [] and queue[0]["context"]["game_id"] is None
    review = {"outcome": "actioned", "note": "banned 1 day"}
    r = mod.post(f"/api/mod/reports/{report_id}/review", json=review)
    assert r.status_code == 200 and r.json()["reviewed_by_id"] == mod_id
    assert mod.get("/api/mod/reports").json()["reports"] == []
    assert error(mod.post(f"/api/mod/reports/{report_id}/review", json=review)) == "bad_request"
    assert error(mod.post("/api/mod/reports/99999/review", json=review)) == "no_such_report"
    assert mod.get("/api/mod/audit").json()["entries"][0]["action"] == "review_report"


def test_the_console_commands(live: LiveServer, db_url: str) -> None:
    _, user = player(live, "Đức Anh")
    player(live, "Đức Em")
    assert admin(db_url, "warn", "duc anh", "--reason", "nhắc nhở")[0] == 0
    code, out = admin(db_url, "mute", "duc anh", "1h", "--reason", "spam")
    assert code == 0 and "mute 1h until 2026-" in out
    code, out = admin(db_url, "link", "Đức Anh", "duc em", "--reason", "look-alike")
    assert code == 0
    code, out = admin(db_url, "offence", "Đức Anh", "chip_trading", "--reason", "bán chip")
    assert code == 0 and out.splitlines()[0] == "offence 1 of chip_trading: ban permanent"
    assert len(out.splitlines()) == 3, "the linked account is banned too"
    code, out = admin(db_url, "unban", "duc em", "--reason", "not the same person")
    assert code == 0
    code, out = admin(db_url, "ban", "nobody", "1d", "--reason", "x")
    assert (code, out.strip()) == (1, "error: there is no player named 'nobody'")
    assert admin(db_url, "ban", "duc anh", "1 day", "--reason", "x")[0] == 1
    code, out = admin(db_url, "sanctions", "duc anh", "--json")
    assert code == 0
    assert [s["kind"] for s in json.loads(out)] == ["ban", "mute", "warn"]
    code, out = admin(db_url, "audit", "--limit", "3")
    assert code == 0
    assert [line.split()[3] for line in out.splitlines()] == ["unban", "ban", "ban"]
    assert all(" console " in line for line in out.splitlines())
    assert user in {s.user_id for s in rows(db_url, Sanction)}
