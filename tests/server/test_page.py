"""The page at ``/``: served when built, explained when not; the API unchanged either way."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from tienlen.cli.schemas import rest_schema
from tienlen.engine.wire import render
from tienlen.server.app import create_app
from tienlen.server.settings import Settings

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "schemas" / "rest.json"


class Client:
    """Requests straight to the app, without its lifespan: these routes need neither the
    database nor the lobby."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def request(self, method: str, path: str) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                response = await http.request(method, path)
                await response.aread()
                return response

        return asyncio.run(go())

    def get(self, path: str) -> httpx.Response:
        return self.request("GET", path)

    def post(self, path: str) -> httpx.Response:
        return self.request("POST", path)


def client(tmp_path: Path, web_dir: Path) -> Client:
    return Client(create_app(Settings(data_dir=tmp_path / "data", web_dir=web_dir)))


def test_without_a_built_page_the_root_says_how_to_build_it(tmp_path: Path) -> None:
    http = client(tmp_path, tmp_path / "nothing-here")
    response = http.get("/")
    assert response.status_code == 200
    assert "not built" in response.text and "make run" in response.text
    assert http.get("/api/nope").json()["error"]["code"] == "not_found"


def test_a_built_page_is_served_with_its_assets(tmp_path: Path) -> None:
    web = tmp_path / "web"
    (web / "assets").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><title>page</title>", encoding="utf-8")
    (web / "favicon.svg").write_text("<svg/>", encoding="utf-8")
    (web / "assets" / "index-abc123.js").write_text("console.log(1)", encoding="utf-8")
    http = client(tmp_path, web)
    page = http.get("/")
    assert page.text.startswith("<!doctype html>") and page.headers["cache-control"] == "no-cache"
    asset = http.get("/assets/index-abc123.js")
    assert asset.status_code == 200 and "immutable" in asset.headers["cache-control"]
    assert http.get("/favicon.svg").text == "<svg/>"
    assert http.get("/assets/missing.js").status_code == 404
    # The API answers as without the page: unknown routes 404, wrong methods 405, as JSON.
    assert http.get("/api/nope").json()["error"]["code"] == "not_found"
    assert http.get("/api/guest").json()["error"]["code"] == "method_not_allowed"
    assert http.post("/api/play-later").json()["error"]["code"] == "not_found"
    assert http.get("/elsewhere").json()["error"]["code"] == "not_found"


def test_the_rest_schema_the_page_is_typed_against_is_up_to_date() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == render(rest_schema()), (
        f"{SCHEMA} is out of date: run python -m tienlen.cli.schemas docs/schemas"
    )
    assert {"Profile", "RoomInfo", "TableSummary", "NewTable"} <= set(rest_schema()["$defs"])
