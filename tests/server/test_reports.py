"""Players' reports through the real app (SQLite and PostgreSQL): the chat line named by its
integer id, ids out of range refused, the limit on reports, and the offences a report may name
(docs/CONDUCT.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tienlen.server.api.moderation import REPORTS_PER_HOUR
from tienlen.server.conduct.policy import default_policy
from tienlen.server.protocol import MAX_ID, MAX_LINE_ID

from .conftest import FakeClock, LiveServer
from .helpers import snapshot
from .test_conduct_api import PASSWORD, error, moderator, player


def test_a_line_is_named_by_its_integer_id(live: LiveServer) -> None:
    reporter, _ = player(live, "Lan")
    _, target = player(live, "Minh")
    body = {"user_id": target, "text": "chửi", "message_id": 4711}
    r = reporter.post("/api/reports", json=body)
    assert (r.status_code, error(r)) == (404, "no_such_message"), r.text
    assert "4711" in r.json()["error"]["message"]
    r = reporter.post("/api/reports", json={**body, "message_id": "not a line"})
    assert (r.status_code, error(r)) == (422, "bad_request")


@pytest.mark.parametrize("huge", [10**20, MAX_ID + 1, 0, -5])
def test_ids_out_of_range_are_refused_not_crashed(live: LiveServer, db_url: str, huge: int) -> None:
    reporter, _ = player(live, "Lan")
    _, target = player(live, "Minh")
    mod, _ = moderator(live, db_url)
    before = snapshot(db_url)
    line = huge if huge != MAX_ID + 1 else MAX_LINE_ID + 1  # a chat line's id is a BIGINT
    for client, path, body in [
        (reporter, "/api/reports", {"user_id": huge, "text": "x"}),
        (reporter, "/api/reports", {"user_id": target, "text": "x", "message_id": line}),
        (mod, "/api/mod/ban", {"user_id": huge, "duration": "1d", "reason": "x"}),
        (mod, "/api/mod/unmute", {"user_id": huge, "reason": "x"}),
        (
            mod,
            "/api/mod/links",
            {"user_id": target, "other_id": huge, "kind": "series", "reason": "x"},
        ),
        (mod, f"/api/mod/reports/{huge}/review", {"outcome": "dismissed", "note": "x"}),
        (mod, f"/api/mod/flags/{huge}/review", {"outcome": "dismissed", "note": "x"}),
    ]:
        r = client.post(path, json=body)
        assert (r.status_code, error(r)) == (422, "bad_request"), (path, r.text)
    r = mod.get(f"/api/mod/sanctions?user_id={huge}")
    assert (r.status_code, error(r)) == (422, "bad_request"), r.text
    assert snapshot(db_url) == before
    at_the_edge = [
        {"user_id": MAX_ID, "text": "x"},
        {"user_id": target, "text": "x", "message_id": MAX_LINE_ID},
    ]
    codes = [error(reporter.post("/api/reports", json=body)) for body in at_the_edge]
    assert codes == ["no_such_user", "no_such_message"]


def test_too_many_reports_are_refused_until_the_hour_is_over(
    live: LiveServer, clock: FakeClock
) -> None:
    reporter, _ = player(live, "Lan")
    _, target = player(live, "Minh")
    for _ in range(REPORTS_PER_HOUR):
        assert (
            reporter.post("/api/reports", json={"user_id": target, "text": "x"}).status_code == 201
        )
        clock.now += timedelta(minutes=1)
    r = reporter.post("/api/reports", json={"user_id": target, "text": "x"})
    assert (r.status_code, error(r)) == (429, "too_many_reports")
    assert r.json()["error"]["retry_after"] == (clock.now + timedelta(minutes=50)).isoformat()
    r = reporter.post("/api/reports", json={"user_id": target, "text": "x", "message_id": 9})
    assert error(r) == "too_many_reports"  # before the line is even looked for
    _, other = player(live, "Tuấn")  # another reporter is not held back
    assert (
        player(live, "Hoa")[0].post("/api/reports", json={"user_id": other, "text": "x"}).is_success
    )
    clock.now += timedelta(minutes=51)
    assert reporter.post("/api/reports", json={"user_id": target, "text": "x"}).status_code == 201


def test_the_offences_a_report_may_name(live: LiveServer) -> None:
    r = live.client().get("/api/conduct/offences")  # no session needed
    assert r.status_code == 200, r.text
    offences = r.json()["offences"]
    policy = default_policy().offences
    assert [o["key"] for o in offences] == list(policy)
    for o in offences:  # players read them: no moderators' notes
        assert "seed" not in o["title_en"].lower() and "seed" not in o["title_vi"].lower(), o
    swearing = next(o for o in offences if o["key"] == "swearing")
    assert swearing == {
        "key": "swearing",
        "title_en": policy["swearing"].title,
        "title_vi": "Chửi bậy, lời lẽ không văn hóa",
    }


def test_a_banned_player_is_told_their_chips_and_dkn(live: LiveServer, db_url: str) -> None:
    mod, _ = moderator(live, db_url)
    banned, user = player(live, "Tuấn")
    profile = banned.get("/api/me").json()
    ban = {"user_id": user, "duration": "1d", "reason": "chửi", "offence": "swearing"}
    assert mod.post("/api/mod/ban", json=ban).status_code == 200
    told = banned.get("/api/me").json()["error"]
    assert told["code"] == "banned" and told["sanction"]["offence_vi"]
    assert told["account"] == {"chips": profile["chips"], "dkn": profile["dkn"]}
    r = live.client().post("/api/login", json={"nickname": "Tuấn", "password": PASSWORD})
    assert r.json()["error"]["account"] == told["account"]
    r = live.client().post("/api/login", json={"nickname": "Tuấn", "password": "wrong one 1"})
    assert "account" not in r.json()["error"]  # a wrong password learns nothing


def test_a_player_is_reported_by_nickname_never_oneself(live: LiveServer, db_url: str) -> None:
    reporter, me = player(live, "Lan")
    _, target = player(live, "Đức Anh")
    r = reporter.post("/api/reports", json={"nickname": "duc anh", "text": "x"})
    assert r.status_code == 201 and r.json()["target_id"] == target, r.text
    before = snapshot(db_url)
    for body, code in [
        ({"user_id": me, "text": "x"}, "cannot_report_self"),
        ({"nickname": "LAN", "text": "x"}, "cannot_report_self"),
        ({"nickname": "nobody here", "text": "x"}, "no_such_user"),
        ({"user_id": target, "nickname": "Đức Anh", "text": "x"}, "bad_request"),
        ({"text": "x"}, "bad_request"),
    ]:
        r = reporter.post("/api/reports", json=body)
        assert error(r) == code, (body, r.text)
    assert "yourself" in reporter.post("/api/reports", json={"user_id": me, "text": "x"}).text
    assert snapshot(db_url) == before
