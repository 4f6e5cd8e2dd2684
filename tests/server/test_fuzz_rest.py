"""A schemathesis fuzz of the REST API through the real server: for every route in
``/api/openapi.json``, requests made from its schema (valid ones and ones that break it) get no
5xx, a response that conforms to the schema (status, content type, body), and — when refused —
the one error shape with a code of the catalogue and its status, having changed nothing in the
database. Half of the requests carry a guest's session cookie, so the routes behind a log-in are
reached too."""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from sqlalchemy import Engine, create_engine, select
from sqlalchemy.engine import make_url

from tienlen.server.app import create_app
from tienlen.server.errors import CODES
from tienlen.server.settings import Settings
from tienlen.server.store.models import Account, Entry, Session, Transaction, User

from .conftest import LiveServer


def _openapi() -> dict[str, Any]:
    """The schema the server serves at /api/openapi.json (checked against the live one below):
    building it needs no data folder or database."""
    settings = Settings.model_validate({"data_dir": "unused", "database_url": "sqlite:///x"})
    return create_app(settings).openapi()


OPENAPI = _openapi()
schema = schemathesis.openapi.from_dict(OPENAPI)

CHECKS = [
    schemathesis.checks.not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


def test_the_fuzzed_schema_is_the_served_one(client: Any) -> None:
    assert client.get("/api/openapi.json").json() == OPENAPI


@pytest.fixture
def database(db_url: str) -> Iterator[Engine]:
    """A synchronous engine on the test's database, to read it cheaply around each request."""
    url = make_url(db_url)
    if url.drivername == "postgresql":
        url = url.set(drivername="postgresql+psycopg")
    engine = create_engine(url)
    yield engine
    engine.dispose()


def _rows(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    with engine.connect() as connection:
        tables = {}
        for model in (User, Session, Account, Transaction, Entry):
            columns = list(model.__table__.columns)
            rows = connection.execute(select(*columns).order_by(columns[0]))
            tables[model.__tablename__] = [tuple(row) for row in rows]
        return tables


def check_error_shape(response: requests.Response) -> None:
    """A refusal has the one error shape, a code of the catalogue and that code's status."""
    if response.status_code < 400:
        return
    body = response.json()
    assert isinstance(body, dict) and list(body) == ["error"], body
    error = body["error"]
    assert isinstance(error, dict) and sorted(error) == ["code", "message"], body
    assert error["code"] in CODES, f"{error['code']!r} is not in errors.CODES"
    assert CODES[error["code"]][0] == response.status_code, (response.status_code, body)
    assert isinstance(error["message"], str) and error["message"].strip(), body


@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_route_answers_its_schema_or_its_error(
    case: Any, live: LiveServer, database: Engine
) -> None:
    session = requests.Session()
    if case.operation.path != "/api/guest" and zlib.crc32(repr(case).encode()) % 2 == 0:
        r = session.post(live.url + "/api/guest", timeout=20)
        assert r.status_code == 201, r.text
    before = _rows(database)
    response = case.call(base_url=live.url, session=session, timeout=20)
    case.validate_response(response, checks=CHECKS)
    check_error_shape(response)  # type: ignore[arg-type]
    if response.status_code >= 400:
        assert _rows(database) == before, f"a refused {case.operation.label} changed the database"
    session.close()


@pytest.mark.parametrize("path", ["/api/register", "/api/login", "/api/upgrade", "/api/tables"])
def test_a_body_that_is_not_utf8_is_a_bad_request(client: Any, path: str) -> None:
    """Found by the fuzz: FastAPI answered 400 ``http_400``, a code outside the catalogue."""
    r = client.post(path, content=b"\xff\x04\xfe", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request", r.text
    assert "UTF-8" in r.json()["error"]["message"]


ODD = ["ab\x00cd", "ab\ud800cd", "\udfff" * 9, "Lan\x00Anh"]
"""Strings no nickname or password may hold, that a database or argon2 cannot even take: a
NUL (PostgreSQL's text refuses it) and lone surrogates (not encodable as UTF-8)."""


@pytest.mark.parametrize("path", ["/api/register", "/api/login", "/api/upgrade"])
@pytest.mark.parametrize("odd", ODD)
@pytest.mark.parametrize("field", ["nickname", "password"])
def test_odd_characters_in_credentials_are_refused_not_crashed(
    live: LiveServer, database: Engine, path: str, odd: str, field: str
) -> None:
    client = live.client()
    assert client.post("/api/guest").status_code == 201
    before = _rows(database)
    body = {"nickname": "Lan Anh", "password": "a good password"} | {field: odd}
    raw = json.dumps(body)  # "\\ud800" in the JSON text: valid JSON, not valid Unicode
    r = client.post(path, content=raw, headers={"Content-Type": "application/json"})
    assert r.status_code < 500, r.text
    check_error_shape(r)  # type: ignore[arg-type]
    assert r.status_code >= 400
    assert _rows(database) == before
