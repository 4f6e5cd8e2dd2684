"""The table protocol (server/table_protocol.py, table_messages.py): the one parser of client
messages, its error codes, the flood limit, and the committed JSON Schemas."""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tienlen.cli.schemas import write_schemas
from tienlen.engine.cards import parse_mask
from tienlen.engine.wire import render
from tienlen.server.table import messages as M
from tienlen.server.table import protocol as P
from tienlen.server.table.protocol import ProtocolError, parse_client_message

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "docs" / "schemas"


def refused(raw: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        parse_client_message(raw if isinstance(raw, str | bytes) else json.dumps(raw))
    return info.value


# --- what parses ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "kind"),
    [
        ({"type": "hello", "protocol": 1}, P.Hello),
        ({"type": "hello", "protocol": 1, "last_n": 17, "ref": "r1"}, P.Hello),
        ({"type": "sit", "seat": 3}, P.Sit),
        ({"type": "stand"}, P.Stand),
        ({"type": "ready"}, P.Ready),
        ({"type": "ready", "ready": False}, P.Ready),
        ({"type": "play", "cards": "3s 4s 5s"}, P.Play),
        ({"type": "play", "cards": ["2h", "2d"], "ref": 7}, P.Play),
        ({"type": "pass"}, P.Pass),
        ({"type": "decline_chop"}, P.DeclineChop),
        ({"type": "client_seed", "seed": "00ff10"}, P.ClientSeed),
        ({"type": "chat", "text": "xin chào"}, P.Chat),
        ({"type": "add_bot", "seat": 1}, P.AddBot),
        ({"type": "add_bot", "seat": 1, "level": "greedy"}, P.AddBot),
        ({"type": "remove_bot", "seat": 2}, P.RemoveBot),
    ],
)
def test_every_client_message_parses(data: dict[str, Any], kind: type) -> None:
    message = parse_client_message(json.dumps(data))
    assert type(message) is kind
    assert parse_client_message(json.dumps(data).encode()) == message
    assert message.ref == data.get("ref")


KINDS = [
    P.Hello,
    P.Sit,
    P.Stand,
    P.Ready,
    P.Play,
    P.Pass,
    P.DeclineChop,
    P.ClientSeed,
    P.Chat,
    P.AddBot,
    P.RemoveBot,
]


def test_the_parser_knows_every_message_type() -> None:
    assert tuple(m.model_fields["type"].annotation.__args__[0] for m in KINDS) == P.CLIENT_TYPES


def test_fields_are_read_into_their_values() -> None:
    play = parse_client_message('{"type": "play", "cards": "5h 3♠ 4S"}')
    assert play.cards == "3s 4s 5h" and play.mask == parse_mask("3s 4s 5h")
    seed = parse_client_message('{"type": "client_seed", "seed": "00ff"}')
    assert seed.seed_bytes == b"\x00\xff"
    assert parse_client_message('{"type": "chat", "text": "  hi \\t "}').text == "hi"
    longest = parse_client_message('{"type": "chat", "text": "  ' + "ă" * 200 + ' "}')
    assert longest.text == "ă" * 200  # the limit counts characters once trimmed
    assert parse_client_message('{"type": "add_bot", "seat": 0}').level == "search"


# --- what is refused, and how --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("x" * (P.MAX_MESSAGE_BYTES + 1), "too_large"),
        (b"{" + b" " * P.MAX_MESSAGE_BYTES + b"}", "too_large"),
        ('{"type": "chat", "text": "' + "é" * 2100 + '"}', "too_large"),  # 2 bytes each
        ("{not json", "bad_json"),
        (b"\xff\xfe", "bad_json"),
        ("[" * 2000 + "]" * 2000, "bad_json"),
        ("\ud800", "bad_json"),
        ("[1, 2]", "not_an_object"),
        ('"hello"', "not_an_object"),
        ("{}", "missing_type"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": 3}', "unknown_type"),
        ('{"type": "sit"}', "bad_field"),
        ('{"type": "sit", "seat": 4}', "bad_field"),
        ('{"type": "sit", "seat": "1"}', "bad_field"),
        ('{"type": "sit", "seat": true}', "bad_field"),
        ('{"type": "sit", "seat": 1.0}', "bad_field"),
        ('{"type": "stand", "extra": 1}', "bad_field"),
        ('{"type": "ready", "ready": "yes"}', "bad_field"),
        ('{"type": "play", "cards": "3s 3s"}', "bad_cards"),
        ('{"type": "play", "cards": "1z"}', "bad_cards"),
        ('{"type": "play", "cards": ""}', "bad_cards"),
        ('{"type": "play", "cards": 5}', "bad_field"),
        ('{"type": "play", "cards": ["3s", 4]}', "bad_field"),
        ('{"type": "client_seed", "seed": "ABCD"}', "bad_field"),
        ('{"type": "client_seed", "seed": "abc"}', "bad_field"),
        ('{"type": "client_seed", "seed": "' + "00" * 257 + '"}', "bad_field"),
        ('{"type": "chat", "text": "   "}', "chat_empty"),
        ('{"type": "chat", "text": "a\\u0000b"}', "bad_field"),
        ('{"type": "chat", "text": "' + "a" * 201 + '"}', "chat_too_long"),
        ('{"type": "chat", "text": ""}', "chat_empty"),
        ('{"type": "add_bot", "seat": 0, "level": "god"}', "bad_field"),
        ('{"type": "hello", "protocol": 2}', "unsupported_version"),
        ('{"type": "hello", "protocol": 1, "last_n": -1}', "bad_field"),
        ('{"type": "pass", "ref": "' + "r" * 65 + '"}', "bad_field"),
        ('{"type": "pass", "ref": ["r"]}', "bad_field"),
        ('{"type": "sit", "seat": NaN}', "bad_json"),
        ('{"type": "sit", "seat": Infinity}', "bad_json"),
        ('{"type": "pass", "ref": -Infinity}', "bad_json"),
        ('{"type": "sit", "seat": -1e999}', "bad_json"),
        # Integers outside 64 bits: refused, not carried on (or echoed) to where they overflow.
        ('{"type": "pass", "ref": 9223372036854775808}', "bad_field"),
        ('{"type": "pass", "ref": -9223372036854775809}', "bad_field"),
        ('{"type": "pass", "ref": ' + "9" * 400 + "}", "bad_field"),
        ('{"type": "hello", "protocol": 100000000000000000000}', "bad_field"),
        ('{"type": "hello", "protocol": 1, "last_n": 9223372036854775808}', "bad_field"),
        ('{"type": "sit", "seat": 100000000000000000000}', "bad_field"),
        ('{"type": "sit", "seat": 0, "ref": 100000000000000000000}', "bad_field"),
    ],
)
def test_bad_messages_get_a_stable_code_and_a_message(raw: str | bytes, code: str) -> None:
    error = refused(raw)
    assert error.code == code
    assert error.message and isinstance(error.message, str)
    assert error.to_dict() == {"type": "error", "code": code, "message": error.message, "ref": None}


def test_a_refused_message_still_gets_its_ref_back() -> None:
    assert refused({"type": "sit", "seat": 9, "ref": "abc"}).ref == "abc"
    assert refused({"type": "teleport", "ref": 12}).ref == 12
    assert refused({"type": "teleport", "ref": True}).ref is None
    assert refused({"type": "teleport", "ref": "\x07bell"}).ref is None
    assert refused({"type": "teleport", "ref": 2**63 - 1}).ref == 2**63 - 1
    assert refused({"type": "teleport", "ref": -(2**63)}).ref == -(2**63)
    assert refused({"type": "teleport", "ref": 2**63}).ref is None


def test_error_messages_say_what_is_wrong() -> None:
    assert refused({"type": "sit", "seat": 9}).message == "seat: Input should be less than 4"
    assert refused({"type": "stand", "seat": 1}).message == "seat: unknown field"
    assert "written twice" in refused({"type": "play", "cards": "3s 3s"}).message
    assert "hello, sit, stand" in refused({"type": "nope"}).message
    assert refused({"type": "pass", "ref": "r" * 65}).message == (
        "ref: a ref is an integer from -2**63 to 2**63 - 1 or at most 64 printable ASCII characters"
    )
    assert "not a JSON number" in refused('{"type": "sit", "seat": NaN}').message


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
near_messages = st.fixed_dictionaries(
    {"type": st.sampled_from([*P.CLIENT_TYPES, "x"])},
    optional={
        k: json_values | st.integers(-2, 5) | st.sampled_from(["3s", "3s 4s", "ab", "random"])
        for k in ("seat", "cards", "text", "seed", "level", "ready", "protocol", "last_n", "ref")
    },
)


def parse_or_refuse(raw: str | bytes) -> None:
    try:
        message = parse_client_message(raw)
    except ProtocolError as exc:
        assert exc.code in P.PARSE_ERRORS
        return
    assert type(message) in KINDS


@settings(max_examples=300, deadline=None)
@given(st.one_of(json_values, near_messages))
def test_any_json_parses_or_is_refused(data: Any) -> None:
    parse_or_refuse(json.dumps(data))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300))
def test_any_bytes_or_text_parse_or_are_refused(raw: bytes | str) -> None:
    parse_or_refuse(raw)


# --- flood control -------------------------------------------------------------------------------
def test_the_rate_limit_refuses_bursts_and_names_a_flood() -> None:
    limit = P.RateLimit(rate=10, burst=5, flood_strikes=3)
    assert all(limit.allow(0.0) for _ in range(5))
    assert not limit.allow(0.0) and not limit.flooding
    assert limit.allow(0.1)  # one token back after 0.1 s
    for _ in range(3):
        limit.allow(0.1)
    assert limit.flooding
    assert limit.allow(10.0) and not limit.flooding  # it forgives with time


# --- the schemas ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["protocol_client", "protocol_server"])
def test_committed_protocol_schema_is_current(name: str) -> None:
    path = SCHEMA_DIR / f"{name}.json"
    assert path.exists(), f"{path} is missing: run python -m tienlen.cli.schemas docs/schemas"
    assert path.read_text(encoding="utf-8") == render(M.json_schemas()[name]), (
        f"{path} is out of date: run python -m tienlen.cli.schemas docs/schemas"
    )


def test_the_schema_writer_writes_the_protocol_too(tmp_path: Path) -> None:
    names = {p.name for p in write_schemas(tmp_path)}
    assert {"protocol_client.json", "protocol_server.json", "seat_view.json"} <= names


def test_the_client_schema_accepts_what_the_parser_accepts() -> None:
    adapter = P.client_adapter()
    adapter.validate_python({"type": "sit", "seat": 1, "ref": "x"})
    with pytest.raises(ValidationError):
        adapter.validate_python({"type": "sit", "seat": 1, "spy": True})
    with pytest.raises(ValidationError):
        M.server_adapter().validate_python({"type": "ack"})


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet=string.printable, max_size=12),
    st.sampled_from(["3s 4s", "2h", "10d Jd Qd", "ab" * 8, "search", "greedy"]),
    st.lists(st.sampled_from(["3s", "4s", "2h", "zz", 3]), max_size=14),
)


@settings(max_examples=400, deadline=None)
@given(
    message=st.fixed_dictionaries(
        {"type": st.sampled_from(P.CLIENT_TYPES)},
        optional={
            k: _VALUES
            for k in ("seat", "cards", "ref", "seed", "text", "level", "ready", "last_n", "x")
        },
    )
)
def test_the_quick_read_of_a_message_agrees_with_the_careful_one(message: dict[str, Any]) -> None:
    """parse_message reads plain ASCII JSON with pydantic's own JSON reader first: it must
    accept exactly what json.loads and validation accept, as the same message."""
    text = json.dumps(message)
    adapter = P.client_adapter()
    try:
        quick = adapter.validate_json(text)
    except ValidationError:
        quick = None
    try:
        careful = adapter.validate_python(json.loads(text))
    except ValidationError:
        careful = None
    assert quick == careful
    if careful is not None and careful.type != "hello":
        assert P.parse_client_message(text) == careful
