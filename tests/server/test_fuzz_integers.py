"""Integers a client sends outside their range — past 64 bits above all, which SQLite cannot
even convert ("Python int too large to convert") and PostgreSQL's columns overflow on — are
refused with the documented error through the real server, on SQLite and PostgreSQL: every
integer of every REST route (path, query, body: found in ``/api/openapi.json``, so a new one is
covered as it comes) gets ``422 bad_request`` naming the field, changing nothing; every integer
field of the table's and the lobby's socket gets ``bad_field`` and the connection stays open.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine
from websockets.sync.client import ClientConnection, connect

from tienlen.server.lobby.protocol import client_adapter as lobby_adapter
from tienlen.server.protocol import MAX_INT
from tienlen.server.table.protocol import client_adapter as table_adapter

from .conftest import LiveServer
from .test_fuzz_rest import OPENAPI, _rows, check_error_shape
from .test_fuzz_rest import database as database  # the fixture, for this module's tests

BEYOND_64_BITS = (MAX_INT + 1, 2**64, 10**20, 2**200, -MAX_INT - 2, -(10**20), -(2**200))
"""Just past 64 bits either way, and far past. Fixed values, not Hypothesis: the edges are what
matter, and Hypothesis drawing unbounded integers once spun for minutes in a full run. On a
socket each costs two refusals (the value's and the probe's): 14 stay below the flood's 20."""


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        schema = root.get("components", root).get("schemas", root.get("$defs", {}))[name]
    return schema


def _integer(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The integer branch of a field's schema (``int | None`` is an ``anyOf``), or None."""
    if schema.get("type") == "integer":
        return schema
    for branch in schema.get("anyOf", ()):
        if branch.get("type") == "integer":
            return dict(branch)
    return None


def _bounds(schema: dict[str, Any]) -> tuple[int, int]:
    """The documented range (64 bits' where none is). FastAPI writes a body's bounds as floats
    (2⁶³ − 1 becomes 2⁶³): a bound a float cannot hold exactly is 64 bits' too."""
    low, high = schema.get("minimum", -MAX_INT - 1), schema.get("maximum", MAX_INT)
    low = int(low) if abs(low) < 2**53 else -MAX_INT - 1
    high = int(high) if abs(high) < 2**53 else MAX_INT
    return low, high


def _sample(schema: dict[str, Any]) -> Any:
    """A value of the documented shape, for the fields around the one under test."""
    schema = _integer(schema) or schema
    if "enum" in schema:
        return schema["enum"][0]
    if "examples" in schema:
        return schema["examples"][0]
    kind = schema.get("type")
    if kind == "integer":
        return _bounds(schema)[0]
    if kind == "string":
        return "x" * max(1, schema.get("minLength", 1))
    if kind == "boolean":
        return False
    if kind == "object":
        return {}
    return None


def _integer_inputs() -> list[tuple[str, str, str, str, dict[str, Any]]]:
    """Every integer a REST route takes: (method, path, where, name, its schema)."""
    found = []
    for path, operations in OPENAPI["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", ()):
                schema = _integer(parameter["schema"])
                if schema is not None:
                    found.append((method, path, parameter["in"], parameter["name"], schema))
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                body = content["application/json"]["schema"]
                body = _resolve(next(iter(body.get("anyOf", [body]))), OPENAPI)
                for name, prop in body.get("properties", {}).items():
                    schema = _integer(prop)
                    if schema is not None:
                        found.append((method, path, "body", name, schema))
    return found


INPUTS = _integer_inputs()


def test_every_integer_a_route_takes_has_a_documented_range() -> None:
    assert len(INPUTS) >= 15, INPUTS  # the history's offset, the mod routes' ids, a table's bet…
    for method, path, where, name, schema in INPUTS:
        assert "minimum" in schema and "maximum" in schema, (method, path, where, name)
        low, high = _bounds(schema)
        assert -MAX_INT - 1 <= low <= high <= MAX_INT, (method, path, where, name)


def _request(
    method: str, path: str, where: str, name: str, value: int
) -> tuple[str, dict[str, Any], Any]:
    """The route's path, query and body with ``value`` as ``name``, valid values elsewhere."""
    operation = OPENAPI["paths"][path][method]
    for parameter in operation.get("parameters", ()):
        if parameter["in"] == "path":
            shown = value if parameter["name"] == name else _sample(parameter["schema"])
            path = path.replace("{" + parameter["name"] + "}", str(shown))
    query = {name: value} if where == "query" else {}
    body = None
    content = operation.get("requestBody", {}).get("content", {})
    if "application/json" in content:
        schema = content["application/json"]["schema"]
        schema = _resolve(next(iter(schema.get("anyOf", [schema]))), OPENAPI)
        body = {p: _sample(schema["properties"][p]) for p in schema.get("required", ())}
        if where == "body":
            body[name] = value
    return path, query, body


def _out_of_range(schema: dict[str, Any]) -> list[int]:
    """Integers past 64 bits, and just past the field's own range where it is narrower."""
    low, high = _bounds(schema)
    values = list(BEYOND_64_BITS)
    if high < MAX_INT:
        values += [high + 1, high + 10**6]
    if low > -MAX_INT - 1:
        values += [low - 1, low - 10**6]
    return values


def _refuse_on_route(
    client: httpx.Client, method: str, path: str, where: str, name: str, schema: dict[str, Any]
) -> None:
    for value in _out_of_range(schema):
        url, query, body = _request(method, path, where, name, value)
        r = client.request(method, url, params=query, json=body)
        route = f"{method.upper()} {url} {where}.{name}={value}"
        assert r.status_code == 422, (route, r.status_code, r.text)
        check_error_shape(r)  # type: ignore[arg-type]
        error = r.json()["error"]
        assert error["code"] == "bad_request", (route, error)
        assert f"{name}:" in error["message"], (route, error)


def test_an_integer_out_of_range_is_a_bad_request_on_every_route(
    live: LiveServer, database: Engine
) -> None:
    client = live.client()
    assert client.post("/api/guest").status_code == 201
    before = _rows(database)
    for method, path, where, name, schema in INPUTS:
        _refuse_on_route(client, method, path, where, name, schema)
    assert _rows(database) == before


# --- the sockets ---------------------------------------------------------------------------------
def _socket_integers(adapter: Any) -> list[tuple[str, str]]:
    """Every integer field of a socket's client messages: (message type, field)."""
    schema = adapter.json_schema()
    found = []
    for ref in schema["discriminator"]["mapping"].values():
        message = _resolve({"$ref": ref}, schema)
        kind = message["properties"]["type"]["const"]
        for name, prop in message["properties"].items():
            if _integer(_resolve(prop, schema)) is not None or any(
                _integer(_resolve(b, schema)) for b in prop.get("anyOf", ())
            ):
                found.append((kind, name))
    return found


TABLE_INTEGERS = _socket_integers(table_adapter())
LOBBY_INTEGERS = _socket_integers(lobby_adapter())
VALID: dict[str, dict[str, Any]] = {
    "hello": {"protocol": 1},
    "play": {"cards": "3s"},
    "client_seed": {"seed": "ab" * 16},
    "chat": {"text": "xin chào"},
    "sit": {"seat": 0},
    "add_bot": {"seat": 1},
    "remove_bot": {"seat": 1},
}
"""The fields a message needs, beside the one under test."""


def test_the_sockets_integer_fields_are_found() -> None:
    assert {("hello", "protocol"), ("hello", "last_n"), ("sit", "seat"), ("pass", "ref")} <= set(
        TABLE_INTEGERS
    )
    assert {("hello", "protocol"), ("watch", "ref")} <= set(LOBBY_INTEGERS)


def _open(live: LiveServer, path: str, token: str) -> ClientConnection:
    return connect(
        live.url.replace("http://", "ws://") + path,
        origin=live.url,  # type: ignore[arg-type]
        additional_headers={"Cookie": f"{live.settings.cookie_name}={token}"},
        open_timeout=10,
    )


@pytest.fixture
def sockets(live: LiveServer) -> Iterator[Callable[[str], ClientConnection]]:
    """Opens a table's socket (the owner's) or a lobby socket, hello said: a fresh one for each
    field, as a connection's refusals past 20 close it for flooding."""
    client = live.client()
    assert client.post("/api/guest").status_code == 201
    token = client.cookies[live.settings.cookie_name]
    r = client.post("/api/tables", json={"room": "trainee", "preset": "bigfun", "bet": 1000})
    assert r.status_code == 201, r.text
    paths = {"table": f"/ws/tables/{r.json()['id']}", "lobby": "/ws/lobby"}
    opened: list[ClientConnection] = []

    def open_socket(which: str) -> ClientConnection:
        ws = _open(live, paths[which], token)
        opened.append(ws)
        ws.send(json.dumps({"type": "hello", "protocol": 1}))
        first = "state" if which == "table" else "lobby"
        while json.loads(ws.recv(timeout=10))["type"] != first:
            pass
        return ws

    yield open_socket
    for ws in opened:
        ws.close()


def _answer(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message``, then a probe that is refused; return the answer before the probe's."""
    ws.send(json.dumps(message))
    ws.send(json.dumps({"type": "nope", "ref": "probe"}))
    answers = []
    while (answer := json.loads(ws.recv(timeout=10))).get("ref") != "probe":
        answers.append(answer)
    assert len(answers) == 1, answers
    return answers[0]


def _refuse_on_socket(ws: ClientConnection, kind: str, name: str) -> None:
    for value in BEYOND_64_BITS:
        message = {"type": kind, **VALID.get(kind, {}), name: value}
        answer = _answer(ws, message)
        assert answer["type"] == "error" and answer["code"] == "bad_field", (message, answer)
        assert answer["message"].startswith(f"{name}:"), (message, answer)
        assert answer["ref"] is None, (message, answer)  # nor is an out-of-range ref echoed


def test_an_integer_out_of_range_is_a_bad_field_on_the_sockets(
    sockets: Callable[[str], ClientConnection],
) -> None:
    fields = [("table", k, n) for k, n in TABLE_INTEGERS]
    for socket, kind, name in fields + [("lobby", k, n) for k, n in LOBBY_INTEGERS]:
        _refuse_on_socket(sockets(socket), kind, name)
