"""The leaderboard, the health check and the OpenAPI description, through the live server."""

from __future__ import annotations

import httpx
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from tienlen.server.errors import CODES
from tienlen.server.store import ledger
from tienlen.server.store.models import User

from .conftest import START, LiveServer
from .helpers import in_transaction

PASSWORD = "12345678"


def _set_dkn(db_url: str, dkn: dict[int, int]) -> None:
    async def work(db: AsyncSession) -> None:
        for user_id, value in dkn.items():
            await db.execute(update(User).where(User.id == user_id).values(dkn=value))

    in_transaction(db_url, work)


def test_leaderboards_by_dkn_and_by_chips(live: LiveServer, db_url: str) -> None:
    ids = {}
    for name in ("Anh", "Bình", "Chi", "Dũng"):
        r = live.client().post("/api/register", json={"nickname": name, "password": PASSWORD})
        ids[name] = r.json()["id"]
    rich_guest = live.client().post("/api/guest").json()["id"]
    in_transaction(
        db_url,
        lambda db: ledger.settle_game(
            db, "lb", {ids["Chi"]: 50_000, rich_guest: 40_000, ids["Anh"]: -90_000}, 0, START
        ),
    )
    _set_dkn(
        db_url, {ids["Anh"]: 30, ids["Bình"]: 12, ids["Chi"]: 12, ids["Dũng"]: 5, rich_guest: 99}
    )
    client = live.client()

    by_dkn = client.get("/api/leaderboard", params={"by": "dkn"}).json()
    assert by_dkn["by"] == "dkn"
    ranked = [(e["rank"], e["nickname"], e["dkn"]) for e in by_dkn["entries"]]
    assert ranked == [(1, "Anh", 30), (2, "Bình", 12), (2, "Chi", 12), (4, "Dũng", 5)]

    by_chips = client.get("/api/leaderboard", params={"by": "chips"}).json()
    ranked = [(e["rank"], e["nickname"], e["chips"]) for e in by_chips["entries"]]
    assert ranked == [(1, "Chi", 150_000), (2, "Bình", 100_000), (2, "Dũng", 100_000),
                      (4, "Anh", 10_000)]  # fmt: skip
    assert client.get("/api/leaderboard").json() == by_dkn, "ĐKN is the default"

    top2 = client.get("/api/leaderboard", params={"by": "chips", "limit": 2}).json()
    assert [e["nickname"] for e in top2["entries"]] == ["Chi", "Bình"]


def test_anyone_may_see_a_players_public_profile(live: LiveServer, db_url: str) -> None:
    me = live.client()
    mine = me.post("/api/register", json={"nickname": "Đức Anh", "password": PASSWORD}).json()
    guest = live.client().post("/api/guest").json()
    _set_dkn(db_url, {mine["id"]: 42})
    anyone = live.client()  # no session needed, as for the leaderboard
    for asked in ("Đức Anh", "duc anh", "DUC_ANH"):  # found as log-in finds a nickname
        r = anyone.get(f"/api/players/{asked}")
        assert r.status_code == 200, r.text
        assert r.json() == {
            "nickname": "Đức Anh",
            "is_guest": False,
            "chips": 100_000,
            "dkn": 42,
            "games_played": 0,
            "games_won": 0,
            "created_at": mine["created_at"],
        }
    assert anyone.get(f"/api/players/{guest['nickname']}").json()["is_guest"] is True
    # No id, no VIP points, nothing private.
    assert set(r.json()) == {
        "nickname", "is_guest", "chips", "dkn", "games_played", "games_won", "created_at"
    }  # fmt: skip
    r = anyone.get("/api/players/Nobody")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "no_such_user")
    assert "Nobody" in r.json()["error"]["message"]
    r = anyone.get(f"/api/players/{'x' * 41}")
    assert (r.status_code, r.json()["error"]["code"]) == (422, "bad_request")


def test_house_bots_have_no_public_profile(live: LiveServer, db_url: str) -> None:
    async def work(db: AsyncSession) -> None:
        db.add(
            User(
                nickname="Máy 1", nickname_key="may 1", is_guest=True, is_bot=True,
                created_at=START,
            )
        )  # fmt: skip

    in_transaction(db_url, work)
    r = live.client().get("/api/players/Máy 1")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "no_such_user")


def test_leaderboard_refuses_bad_queries(client: httpx.Client) -> None:
    for params in ({"by": "money"}, {"limit": 0}, {"limit": 101}, {"limit": "ten"}):
        r = client.get("/api/leaderboard", params=params)
        assert r.status_code == 422
        assert r.json()["error"]["code"] == "bad_request"
        assert next(iter(params)) in r.json()["error"]["message"]


def test_health_names_the_backend(client: httpx.Client, db_url: str) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "database": db_url.split(":")[0]}


def test_openapi_describes_every_route_and_its_errors(client: httpx.Client) -> None:
    schema = client.get("/api/openapi.json").json()
    paths = schema["paths"]
    expected = {
        ("post", "/api/register"): {"201", "409", "413", "422", "429", "500"},
        ("post", "/api/login"): {"200", "401", "403", "413", "422", "429", "500"},
        ("post", "/api/logout"): {"200", "413", "500"},
        ("post", "/api/guest"): {"200", "201", "403", "413", "429", "500"},
        ("post", "/api/upgrade"): {"200", "401", "403", "409", "413", "422", "500"},
        ("get", "/api/me"): {"200", "401", "403", "413", "500"},
        ("get", "/api/leaderboard"): {"200", "413", "422", "500"},
        ("get", "/api/players/{nickname}"): {"200", "404", "413", "422", "500"},
        ("get", "/api/health"): {"200", "413", "500"},
        ("get", "/api/health/live"): {"200", "413", "500", "503"},
        ("get", "/api/health/ready"): {"200", "413", "500", "503"},
    }
    for (method, path), statuses in expected.items():
        responses = paths[path][method]["responses"]
        assert set(responses) == statuses, (method, path)
        for status, response in responses.items():
            if status.startswith(("4", "5")):
                ref = response["content"]["application/json"]["schema"]["$ref"]
                # a probe's 503 is its own answer, with the reasons: not an error
                assert ref.endswith("/ErrorResponse") or status == "503", (path, status)
    register_409 = paths["/api/register"]["post"]["responses"]["409"]["description"]
    assert "nickname_taken" in register_409
    upgrade_409 = paths["/api/upgrade"]["post"]["responses"]["409"]["description"]
    assert "nickname_taken" in upgrade_409 and "not_a_guest" in upgrade_409
    described = " ".join(
        r["description"]
        for p in paths.values()
        for op in p.values()
        for r in op["responses"].values()
    )
    for code in CODES:
        # muted: answered by the chat (conduct.refuse_muted), whose routes are not in yet
        if code not in ("not_found", "method_not_allowed", "muted"):
            assert f"`{code}`" in described, code
    profile = schema["components"]["schemas"]["Profile"]["properties"]
    assert {"chips", "dkn", "vip_points", "games_played", "games_won"} <= set(profile)
    assert schema["components"]["schemas"]["Credentials"]["additionalProperties"] is False


def test_no_page_loads_code_from_elsewhere(client: httpx.Client) -> None:
    """Swagger UI would load its scripts from a CDN (docs/SERVER.md): it is not served."""
    assert client.get("/api/docs").status_code == 404
    assert client.get("/api/redoc").status_code == 404
    assert client.get("/api/openapi.json").status_code == 200
