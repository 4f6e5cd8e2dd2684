"""Multiple accounts: two people from one network address or device may not sit at one table
(unless the network is a shared one), accounts seen from one address or device are linked, and
a series of look-alike nicknames so seen is linked as a series that sanctions reach."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from tienlen.server.conduct.sightings import DEVICE_COOKIE, Networks, Presence, series_stem
from tienlen.server.errors import Refused
from tienlen.server.settings import Settings
from tienlen.server.store.models import AccountLink, AuditEntry, Sanction
from tienlen.server.table.seating import Occupant

from .conftest import FakeClock, LiveServer, make_settings
from .test_chat import _next, _send, _table
from .test_conduct_api import PASSWORD, error, moderator, rows

Start = Callable[..., LiveServer]


@pytest.fixture
def start(db_url: str, tmp_path: Path) -> Iterator[Start]:
    started: list[LiveServer] = []

    def go(**settings: Any) -> LiveServer:
        live = LiveServer(make_settings(tmp_path, db_url, **settings), FakeClock()).start()
        started.append(live)
        return live

    yield go
    for live in started:
        live.stop()


def test_series_stems() -> None:
    assert [series_stem(n) for n in ("tuan01", "Tuấn_02", "TUAN 3", "tuan.004")] == ["tuan"] * 4
    assert [series_stem(n) for n in ("Tuấn", "ab1", "007", "lan1a")] == [None] * 4


def test_networks_and_the_seating_rule() -> None:
    def settings(**values: Any) -> Settings:
        return make_settings(Path("."), None, **values)

    cafe = Networks.of(settings(same_address_seating="refuse", shared_networks=["10.1.0.0/16"]))
    assert cafe.is_shared("10.1.2.3") and not cafe.is_shared("10.2.0.1")
    assert cafe.is_shared("unknown") and cafe.is_shared(None)
    assert Networks.of(settings(same_address_seating="allow")).is_shared("203.0.113.9")
    with pytest.raises(ValueError, match="not a network"):
        settings(shared_networks=["10.1.0.0/99"])

    presence = Presence(cafe)
    lan, minh, cafe_a, cafe_b = (Occupant(u, u) for u in ("lan", "minh", "ca", "cb"))
    presence.arrive("lan", "203.0.113.9", "device-of-lan-000")
    presence.arrive("minh", "203.0.113.9", None)
    presence.arrive("ca", "10.1.0.1", "device-a-00000000")
    presence.arrive("cb", "10.1.0.2", "device-a-00000000")
    with pytest.raises(Refused) as refused:
        presence.guard(minh, [lan])
    assert refused.value.code == "same_network" and "lan is seated" in refused.value.message
    presence.guard(cafe_a, [lan, minh])  # the café's network is shared
    with pytest.raises(Refused) as refused:
        presence.guard(cafe_b, [cafe_a])  # but not one device
    assert refused.value.code == "same_device"


def _register(live: LiveServer, nickname: str, client: httpx.Client | None = None) -> int:
    client = client or live.client()
    r = client.post("/api/register", json={"nickname": nickname, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def _cookies(client: httpx.Client) -> str:
    return "; ".join(f"{k}={v}" for k, v in client.cookies.items())


def _second_sits(live: LiveServer, table: str, first: str, second: str) -> str | None:
    """Seat the first (kept connected), then say what the second's ``sit`` is refused with;
    each a Cookie header."""

    async def go() -> str | None:
        url = live.url.replace("http://", "ws://") + f"/ws/tables/{table}"
        async with (
            connect(url, origin=live.url, additional_headers={"Cookie": first}) as ws,  # type: ignore[arg-type]
            connect(url, origin=live.url, additional_headers={"Cookie": second}) as ws2,  # type: ignore[arg-type]
        ):
            for sock in (ws, ws2):
                await _send(sock, type="hello", protocol=1)
                await _next(sock, "state")
            await _send(ws, type="sit", seat=0, ref=0)
            assert (await _next(ws, "ack", "error"))["type"] == "ack"
            await _send(ws2, type="sit", seat=1, ref=1)
            answer = await _next(ws2, "ack", "error")
        code: str | None = answer.get("code")
        return code

    return asyncio.run(go())


@pytest.mark.parametrize(
    ("settings", "refusal"),
    [
        ({"shared_networks": []}, "same_network"),
        ({"shared_networks": [], "same_address_seating": "allow"}, None),
        ({}, None),  # the default: the loopback is shared (this machine, or a proxy)
    ],
)
def test_one_address_may_not_seat_two_unless_shared(
    start: Start, db_url: str, settings: dict[str, Any], refusal: str | None
) -> None:
    live = start(**settings)
    owner, other = live.client(), live.client()
    lan, minh = _register(live, "Lan", owner), _register(live, "Minh", other)
    table = _table(owner)
    assert _second_sits(live, table, _cookies(owner), _cookies(other)) == refusal
    links = [(link.user_a, link.user_b, link.kind) for link in rows(db_url, AccountLink)]
    assert links == ([(lan, minh, "shared_address")] if refusal else [])


def test_one_device_may_not_seat_two_and_links_them(start: Start, db_url: str) -> None:
    live = start()  # 127.0.0.1 is shared by default: the device alone
    browser = live.client()
    first = _register(live, "Hoa", browser)
    device = browser.cookies[DEVICE_COOKIE]
    again = live.client()  # another window of the same browser: its device id
    again.cookies.set(DEVICE_COOKIE, device)
    second = _register(live, "Bình", again)
    assert again.cookies[DEVICE_COOKIE] == device
    table = _table(again)
    assert _second_sits(live, table, _cookies(again), _cookies(browser)) == "same_device"
    links = [(link.user_a, link.user_b, link.kind) for link in rows(db_url, AccountLink)]
    assert links == [(first, second, "shared_device")]


def test_a_series_of_look_alike_nicks_is_linked_and_sanctioned_together(
    start: Start, db_url: str
) -> None:
    live = start(shared_networks=[])
    series = [_register(live, name) for name in ("tuan01", "Tuấn_02", "tuan03")]
    stranger = _register(live, "tuan")  # no digits: not a series
    kinds = {(a.user_a, a.user_b): a.kind for a in rows(db_url, AccountLink) if a.kind == "series"}
    assert sorted(kinds) == [(series[0], series[1]), (series[0], series[2]), (series[1], series[2])]
    audit = [e for e in rows(db_url, AuditEntry) if e.action == "link"]
    assert len(audit) == 3 and all(e.reason.startswith("automatic") for e in audit)
    mod, _ = moderator(live, db_url)
    for _ in (1, 2):
        body = {"user_id": series[2], "offence": "swearing", "reason": "chửi"}
        assert mod.post("/api/mod/offence", json=body).status_code == 200
    made = rows(db_url, Sanction)
    assert sorted(s.user_id for s in made) == sorted(series * 2)
    assert stranger not in {s.user_id for s in made}
    ends = {s.user_id: s.ends_at for s in made[3:]}  # the second offence: 7 days, for all three
    assert len(set(ends.values())) == 1 and set(ends) == set(series)
    assert (
        error(live.client().post("/api/login", json={"nickname": "tuan01", "password": PASSWORD}))
        == "banned"
    )
