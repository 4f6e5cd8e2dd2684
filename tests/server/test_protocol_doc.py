"""docs/PROTOCOL.md stays true: its examples parse (client) or match the schema (server), and
its table of errors names every code the server can send."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

from tienlen.engine import errors
from tienlen.server import chat, chat_guard, seating, sightings, table_seats, tables
from tienlen.server import lobby_protocol as L
from tienlen.server import table_messages as M
from tienlen.server import table_protocol as P

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


def codes_sent() -> set[str]:
    """Every error code a table can send: the parser's, the table's, the chat's, the engine's."""
    modules = (tables, table_seats, seating, chat, chat_guard, sightings)
    source = "".join(inspect.getsource(module) for module in modules)
    table = set(re.findall(r'Refused\(\s*"(\w+)"', source))
    assert {"hello_first", "seat_taken", "not_owner"} <= table
    engine = {
        cls.code
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, errors.IllegalAction)
    }
    engine -= {"illegal", "bad_action"}  # the table builds its own actions: never sent
    return set(P.PARSE_ERRORS) | {"rate_limited"} | table | engine


def test_the_error_table_names_every_code() -> None:
    section = DOC.split("## Errors", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"`(\w+)`", section))
    assert codes_sent() - documented == set()
