"""docs/PROTOCOL.md stays true: its examples parse (client) or match the schema (server), and
its table of errors names exactly the catalogue of socket error codes (``errors.SOCKET_CODES``),
which holds every code the server's modules refuse with."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from tienlen.engine import errors
from tienlen.server.errors import SOCKET_CODES
from tienlen.server.lobby import protocol as L
from tienlen.server.table import messages as M
from tienlen.server.table import protocol as P

DOC = (Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")


def examples(kind: str) -> list[str]:
    return re.findall(rf"<!-- {kind} -->\n```json\n(.*?)```", DOC, re.S)


@pytest.mark.parametrize("text", examples("client"))
def test_client_examples_parse(text: str) -> None:
    P.parse_client_message(text)


@pytest.mark.parametrize("text", examples("server"))
def test_server_examples_match_the_schema(text: str) -> None:
    M.server_adapter().validate_python(json.loads(text))


@pytest.mark.parametrize("text", examples("lobby-client"))
def test_lobby_client_examples_parse(text: str) -> None:
    L.parse_lobby_message(text)


@pytest.mark.parametrize("text", examples("lobby-server"))
def test_lobby_server_examples_match_the_schema(text: str) -> None:
    L.server_adapter().validate_python(json.loads(text))


def test_there_are_examples_of_both() -> None:
    assert len(examples("client")) >= 5 and len(examples("server")) >= 5
    assert len(examples("lobby-client")) >= 2 and len(examples("lobby-server")) >= 2


SERVER = Path(__file__).resolve().parents[2] / "src" / "tienlen" / "server"
REFUSING = {"Refused", "ProtocolError", "error_message"}
"""What builds a socket's ``error``: a table's or the lobby's refusal, the parser's, the
message itself."""


def codes_refused(source: str) -> set[str]:
    """The codes a module refuses with, written out: the first argument of each call of
    :data:`REFUSING` that is a string."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args:
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            first = node.args[0]
            if (
                name in REFUSING
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
            ):
                found.add(first.value)
    return found


def codes_sent() -> set[str]:
    """Every error code a socket can send: each module's of the server, the parser's, the
    chat guard's (``muted``, ``banned``), the engine's."""
    written = set()
    for path in sorted(SERVER.rglob("*.py")):
        written |= codes_refused(path.read_text(encoding="utf-8"))
    assert {"hello_first", "seat_taken", "not_owner", "same_device", "chat_too_fast"} <= written
    engine = {
        cls.code
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, errors.IllegalAction)
    }
    engine -= {"illegal", "bad_action"}  # the table builds its own actions: never sent
    return set(P.PARSE_ERRORS) | {"muted", "banned"} | written | engine


def test_the_catalogue_holds_every_code_sent() -> None:
    assert codes_sent() - set(SOCKET_CODES) == set()
    assert codes_refused('raise Refused("a", "x")\nP.error_message("b", m)\nRefused(code, m)') == {
        "a",
        "b",
    }


def test_the_error_table_names_exactly_the_catalogue() -> None:
    section = DOC.split("## Errors", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    documented: dict[str, str] = {}
    for row in rows:
        named, where = (cell.strip() for cell in row.strip("|").split("|")[:2])
        documented.update(dict.fromkeys(re.findall(r"`(\w+)`", named), where))
    assert documented == {code: where for code, (where, _) in SOCKET_CODES.items()}
