"""A Hypothesis fuzz of a live table's WebSocket through the real server: every bad frame —
random JSON, valid messages with fields removed, mutated or of the wrong type, oversized
strings, unknown types, binary frames, out-of-turn and illegal plays, commands a player or a
spectator may not give — is answered with exactly one ``error`` (its code, a message, the
frame's ``ref``), changes nothing (the game, the seats, everyone's message numbers, the
balances), and leaves the connection open. Only a frame over the socket's size limit and a
flood close it (1009, 1008), and then too nothing changes for the table.

The table keeps a clock that stands still, so no timer plays for anyone while the fuzz runs: a
game dealt at the start stays exactly as it was dealt.
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tienlen.engine.cards import card_ascii, cards_of, mask_ascii, mask_str, parse_mask
from tienlen.engine.codec import snapshot_of
from tienlen.server.table import protocol as P
from tienlen.server.table.seating import TableConfig
from tienlen.server.table.timers import ManualClock

from .conftest import FakeClock, LiveServer, make_settings

UNLIMITED = TableConfig(rate=1e9, burst=1e9)
"""No rate limit: the clock stands still, so a spent token would never come back."""
FUZZ = settings(
    max_examples=250, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
TABLE_CODES = {
    "rate_limited",
    "hello_first",
    "not_seated",
    "already_seated",
    "seat_taken",
    "no_such_seat",
    "not_owner",
    "no_bot",
    "seat_in_game",
    "no_bots",
    "no_game",
    "not_playing",
    "no_commitment",
    "seed_already_sent",
    "not_your_turn",
    "not_in_game",
    "cards_not_in_hand",
    "not_a_combination",
    "does_not_beat",
    "must_contain_card",
    "already_passed",
    "cannot_pass",
    "no_chop_offer",
    "game_over",
}
"""The table's and the engine's refusals, as docs/PROTOCOL.md lists them."""
PEOPLE = ("owner", "player", "watcher", "stranger")
"""Who sends: the two players (the owner at seat 0), a spectator who said hello, and someone
connected who never said hello."""


def ws_url(live: LiveServer, table: str) -> str:
    return live.url.replace("http://", "ws://") + f"/ws/tables/{table}"


def open_socket(live: LiveServer, token: str, table: str) -> ClientConnection:
    return connect(
        ws_url(live, table),
        origin=live.url,  # type: ignore[arg-type]
        additional_headers={"Cookie": f"{live.settings.cookie_name}={token}"},
        open_timeout=10,
    )


def receive(ws: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while (message := receive(ws))["type"] != kind:
        pass
    return message


def drain(ws: ClientConnection) -> list[dict[str, Any]]:
    """What has been sent to ``ws`` and not yet read."""
    out = []
    while True:
        try:
            out.append(receive(ws, timeout=0.3))
        except TimeoutError:
            return out


@dataclass
class Table:
    """A 2-seat chip table with a game dealt and standing still, and a socket per person."""

    live: LiveServer
    id: str
    sockets: dict[str, ClientConnection]
    clients: dict[str, httpx.Client]
    views: dict[str, dict[str, Any]] = field(default_factory=dict)
    probes: int = 0

    @property
    def live_table(self) -> Any:
        app: Any = self.live.server.config.app  # type: ignore[union-attr]
        return app.state.lobby.tables[self.id].live

    def state(self) -> str:
        """The game, the seats and everyone's message numbers, as JSON."""
        table = self.live_table
        game = table.game
        numbers = {u: m.outbox.n for u, m in table.recipients.members.items()}
        snapshot = None if game is None else snapshot_of(game)
        return json.dumps([snapshot, table.table_info(), numbers, table.phase], sort_keys=True)

    def exchange(self, who: str, frame: str | bytes) -> list[dict[str, Any]]:
        """Send ``frame``, then a probe the table itself refuses (it is answered after
        everything the frame caused); return what came before the probe's answer."""
        ws = self.sockets[who]
        ws.send(frame)
        self.probes += 1
        probe = f"probe-{self.probes}"
        ws.send(json.dumps({"type": "remove_bot", "seat": 3, "ref": probe}))
        before = []
        while (message := receive(ws)).get("ref") != probe:
            before.append(message)
        assert message["type"] == "error", message
        return before

    def chips(self) -> list[int]:
        return [self.clients[who].get("/api/me").json()["chips"] for who in ("owner", "player")]


@pytest.fixture
def table(db_url: str, tmp_path: Path) -> Iterator[Table]:
    live = LiveServer(
        make_settings(tmp_path, db_url),
        FakeClock(),
        table_config=UNLIMITED,
        table_clock=ManualClock(),
    ).start()
    sockets: dict[str, ClientConnection] = {}
    try:
        clients, tokens = {}, {}
        for who in PEOPLE:
            clients[who] = client = live.client()
            assert client.post("/api/guest").status_code == 201
            tokens[who] = client.cookies[live.settings.cookie_name]
        r = clients["owner"].post(
            "/api/tables", json={"room": "trainee", "preset": "thapthanh", "bet": 1000, "seats": 2}
        )
        assert r.status_code == 201, r.text
        table = Table(live, r.json()["id"], sockets, clients)
        for who in PEOPLE:
            sockets[who] = open_socket(live, tokens[who], table.id)
        for seat, who in enumerate(("owner", "player")):
            for message in (
                {"type": "hello", "protocol": 1},
                {"type": "sit", "seat": seat},
                {"type": "ready"},
            ):
                sockets[who].send(json.dumps(message))
        for who in ("owner", "player"):
            until(sockets[who], "commitment")
            sockets[who].send(json.dumps({"type": "client_seed", "seed": "ab" * 16}))
        for who in ("owner", "player"):
            table.views[who] = until(sockets[who], "game")["view"]
        sockets["watcher"].send(json.dumps({"type": "hello", "protocol": 1}))
        until(sockets["watcher"], "state")
        table.exchange("watcher", "{}")  # the table is done (a dealt tới trắng is settled)
        for ws in sockets.values():
            drain(ws)
        yield table
    finally:
        for ws in sockets.values():
            ws.close()
        live.stop()


def expected_ref(frame: str | bytes) -> int | str | None:
    """The ``ref`` an answer to ``frame`` must carry: the frame's own when it is a JSON object
    of at most 4096 bytes with a valid ``ref`` (a 64-bit integer, or up to 64 printable ASCII)."""
    raw = frame.encode("utf-8", "surrogatepass") if isinstance(frame, str) else frame
    if len(raw) > P.MAX_MESSAGE_BYTES:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeError, ValueError, RecursionError):
        return None
    ref = data.get("ref") if isinstance(data, dict) else None
    if isinstance(ref, bool):
        return None
    if isinstance(ref, int):
        return ref if -(2**63) <= ref < 2**63 else None
    ok = isinstance(ref, str) and len(ref) <= 64 and all(32 <= ord(c) < 127 for c in ref)
    return ref if ok else None


def check_answer(answer: list[dict[str, Any]], frame: str | bytes, codes: set[str]) -> str:
    """Exactly one ``error``, of one of ``codes``, with a message and the frame's ``ref``."""
    assert len(answer) == 1, answer
    error = answer[0]
    assert set(error) == {"type", "code", "message", "ref"}, error
    assert error["type"] == "error" and error["code"] in codes, (error, frame)
    assert isinstance(error["message"], str) and error["message"], error
    assert error["ref"] == expected_ref(frame), (error, frame)
    code: str = error["code"]
    return code


# --- frames of every malformed kind ---------------------------------------------------------------
odd_text = st.text(
    st.characters(codec=None, categories=["L", "N", "P", "S", "Z", "Cc", "Cs", "Mn"]), max_size=30
)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(2**80), 2**80)
    | st.floats()
    | st.text(max_size=20)
    | odd_text
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(odd_text, inner, max_size=4),
    max_leaves=12,
)
TEMPLATES: list[dict[str, Any]] = [
    {"type": "hello", "protocol": 1, "last_n": 3},
    {"type": "sit", "seat": 1},
    {"type": "stand"},
    {"type": "ready", "ready": False},
    {"type": "play", "cards": "3s 4s 5s"},
    {"type": "play", "cards": ["10h", "Jh", "Qh"]},
    {"type": "pass"},
    {"type": "decline_chop"},
    {"type": "client_seed", "seed": "00ff"},
    {"type": "chat", "text": "xin chào"},
    {"type": "add_bot", "seat": 3, "level": "greedy"},
    {"type": "remove_bot", "seat": 1},
]
KEYS = ["type", "ref", "seat", "cards", "text", "protocol", "last_n", "ready", "seed", "level"]
wrong_types = st.sampled_from(
    [None, True, 0, -1, 4, 2**64, 1.5, "1", "", "x" * 65, [], [1], {}, {"a": 1}, "3s 3s", "zz"]
)


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    """A valid message with fields removed, replaced (wrong types, odd values) or added."""
    message = dict(draw(st.sampled_from(TEMPLATES)))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(sorted(message) + KEYS) | odd_text)
        if draw(st.booleans()):
            message.pop(key, None)
        else:
            message[key] = draw(wrong_types | json_values)
    return message


oversized = st.builds(
    lambda n, ch, key: {"type": "chat", key: ch * n},
    st.integers(1000, 5400),
    st.sampled_from(["a", "đ", "ữ", "😀", "\x00"]),
    st.sampled_from(["text", "cards", "ref", "seed"]),
)


@st.composite
def frames(draw: st.DrawFn) -> str | bytes:
    """A frame as a client might send it: JSON text (escaped or not) or bytes, or junk."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=200) | st.text(max_size=200))
    unknown = st.builds(lambda kind, ref: {"type": kind, "ref": ref}, odd_text, json_values)
    data = draw(json_values | mutated() | oversized | unknown | st.dictionaries(odd_text, scalars))
    try:
        text = json.dumps(data, ensure_ascii=draw(st.booleans()))
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: only escaped JSON can carry it
        text = json.dumps(data)
    raw = text.encode("utf-8")
    assume(len(raw) <= 16_384)  # past the socket's limit the socket closes: tested below
    return raw if draw(st.booleans()) else text


def test_any_malformed_frame_is_refused_and_changes_nothing(table: Table) -> None:
    before, chips = table.state(), table.chips()
    seen: set[str] = set()

    @FUZZ
    @given(frame=frames(), who=st.sampled_from(PEOPLE))
    def check(frame: str | bytes, who: str) -> None:
        try:
            parsed = P.parse_client_message(frame)
        except P.ProtocolError as exc:
            expected = {exc.code}
        else:  # well formed after all: refused only to someone who never said hello
            assume(not isinstance(parsed, P.Hello))
            who, expected = "stranger", {"hello_first"}
        seen.add(check_answer(table.exchange(who, frame), frame, expected))
        assert table.state() == before

    check()
    assert table.chips() == chips
    assert {"bad_json", "bad_field", "unknown_type", "too_large"} <= seen, seen
    for ws in table.sockets.values():
        assert drain(ws) == []  # nobody was sent anything more


def _cards(draw: st.DrawFn, mask: int) -> str | list[str]:
    """``mask`` written as a client may write it: ASCII or symbols, any case, or a list."""
    style = draw(st.sampled_from(["ascii", "symbols", "upper", "list", "commas"]))
    if style == "list":
        return [card_ascii(c) for c in cards_of(mask)]
    if style == "symbols":
        return mask_str(mask)
    if style == "commas":
        return mask_ascii(mask, sep=",")
    text = mask_ascii(mask)
    return text.upper() if style == "upper" else text


def _subset(draw: st.DrawFn, mask: int, most: int = 13) -> int:
    cards = cards_of(mask)
    chosen = draw(st.lists(st.sampled_from(cards), min_size=1, max_size=most, unique=True))
    return parse_mask([card_ascii(c) for c in chosen])


refs = (
    st.none()
    | st.integers(-(2**63), 2**63 - 1)
    | st.text(string.ascii_letters + string.digits + " -", max_size=64)
)


def test_commands_the_table_refuses_change_nothing(table: Table) -> None:
    before, chips = table.state(), table.chips()
    turn = "owner" if table.views["owner"]["my_turn"] else "player"
    waiting = "player" if turn == "owner" else "owner"
    view = table.views[turn]
    if view["over"]:
        pytest.skip("the deal was a tới trắng: the game is over before anyone plays")
    assert table.views[waiting]["my_turn"] is False
    hands = {who: parse_mask(table.views[who]["hand"]) for who in ("owner", "player")}
    legal = {parse_mask(cards) for cards in view["legal"]}
    deck = (1 << 52) - 1
    seen: set[str] = set()

    @FUZZ
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        draw = data.draw
        kind = draw(st.sampled_from(sorted(CASES)))
        who, message, codes = CASES[kind](draw)
        ref = draw(refs)
        if ref is not None:
            message["ref"] = ref
        frame = json.dumps(message, ensure_ascii=draw(st.booleans()))
        seen.add(check_answer(table.exchange(who, frame), frame, codes))
        assert table.state() == before

    def out_of_turn(draw: st.DrawFn) -> tuple[str, dict[str, Any], set[str]]:
        mask = _subset(draw, hands[waiting], most=1)  # a single card: always a combination
        return waiting, {"type": "play", "cards": _cards(draw, mask)}, {"not_your_turn"}

    def out_of_turn_any(draw: st.DrawFn) -> tuple[str, dict[str, Any], set[str]]:
        mask = _subset(draw, draw(st.sampled_from([hands[waiting], deck])))
        codes = {"not_your_turn", "not_a_combination", "cards_not_in_hand"}
        return waiting, {"type": "play", "cards": _cards(draw, mask)}, codes

    def illegal(draw: st.DrawFn) -> tuple[str, dict[str, Any], set[str]]:
        mask = _subset(draw, draw(st.sampled_from([hands[turn], deck])), most=6)
        assume(mask not in legal)
        codes = {"cards_not_in_hand", "not_a_combination", "does_not_beat", "must_contain_card"}
        return turn, {"type": "play", "cards": _cards(draw, mask)}, codes

    def no_pass(draw: st.DrawFn) -> tuple[str, dict[str, Any], set[str]]:
        assume(not view["can_pass"])  # a game's first play cannot be a pass
        return turn, {"type": "pass"}, {"cannot_pass"}

    def seated(draw: st.DrawFn) -> tuple[str, dict[str, Any], set[str]]:
        who = draw(st.sampled_from(["owner", "player"]))
        owner = who == "owner"
        message, codes = draw(
            st.sampled_from(
                [
                    ({"type": "decline_chop"}, {"no_chop_offer"}),
                    ({"type": "sit", "seat": 2}, {"already_seated"}),
                    ({"type": "client_seed", "seed": "abcd"}, {"no_commitment"}),
                    (
                        {"type": "add_bot", "seat": 2},
                        {"no_bots", "no_such_seat"} if owner else {"not_owner"},
                    ),
                    ({"type": "remove_bot", "seat": 1}, {"no_bot" if owner else "not_owner"}),
                    ({"type": "hello", "protocol": 2}, {"unsupported_version"}),
                ]
            )
        )
        return who, dict(message), codes

    def watcher(draw: st.DrawFn) -> tuple[str, dict[str, Any], set[str]]:
        seat = draw(st.integers(0, 3))
        message, codes = draw(
            st.sampled_from(
                [
                    ({"type": "play", "cards": "3s"}, {"not_playing"}),
                    ({"type": "pass"}, {"not_playing"}),
                    ({"type": "decline_chop"}, {"not_playing"}),
                    ({"type": "stand"}, {"not_seated"}),
                    ({"type": "ready"}, {"not_seated"}),
                    ({"type": "sit", "seat": seat}, {"seat_taken" if seat < 2 else "no_such_seat"}),
                    ({"type": "add_bot", "seat": seat}, {"not_owner"}),
                    ({"type": "client_seed", "seed": "00"}, {"no_commitment"}),
                ]
            )
        )
        return "watcher", dict(message), codes

    def stranger(draw: st.DrawFn) -> tuple[str, dict[str, Any], set[str]]:
        message = dict(draw(st.sampled_from([t for t in TEMPLATES if t["type"] != "hello"])))
        return "stranger", message, {"hello_first"}

    CASES = {
        "out_of_turn": out_of_turn,
        "out_of_turn_any": out_of_turn_any,
        "illegal": illegal,
        "no_pass": no_pass,
        "seated": seated,
        "watcher": watcher,
        "stranger": stranger,
    }
    check()
    assert table.chips() == chips
    assert {"not_your_turn", "hello_first", "not_playing"} <= seen, seen
    assert seen & {"cards_not_in_hand", "not_a_combination", "does_not_beat"}, seen
    for ws in table.sockets.values():
        assert drain(ws) == []


def _closed_with(ws: ClientConnection) -> int | None:
    try:
        while True:
            ws.recv(timeout=10)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


def test_an_oversized_frame_closes_only_its_socket_and_changes_nothing(table: Table) -> None:
    before, chips = table.state(), table.chips()
    ws = table.sockets["watcher"]
    ws.send("x" * (table.live.settings.ws_max_bytes + 1))
    assert _closed_with(ws) == 1009
    check_answer(table.exchange("owner", '{"type": "stand", "x": 1}'), "{}", {"bad_field"})
    assert table.state() == before
    assert table.chips() == chips


def test_a_flood_closes_only_its_socket_and_changes_nothing(db_url: str, tmp_path: Path) -> None:
    """With the table's clock standing still no token comes back: 20 messages are taken, the
    next ones are each refused with ``rate_limited``, and the 21st of those closes the socket."""
    live = LiveServer(
        make_settings(tmp_path, db_url), FakeClock(), table_clock=ManualClock()
    ).start()
    try:
        owner, flooder = live.client(), live.client()
        for client in (owner, flooder):
            assert client.post("/api/guest").status_code == 201
        table_id = owner.post(
            "/api/tables", json={"room": "trainee", "preset": "bigfun", "bet": 1000}
        ).json()["id"]
        token = flooder.cookies[live.settings.cookie_name]
        with open_socket(live, token, table_id) as ws:
            ws.send(json.dumps({"type": "hello", "protocol": 1}))
            until(ws, "state")
            app: Any = live.server.config.app  # type: ignore[union-attr]
            before = app.state.lobby.tables[table_id].live.table_info()
            codes = []
            for k in range(60):
                try:
                    ws.send(json.dumps({"type": "stand", "ref": k}))
                    codes.append(receive(ws)["code"])
                except ConnectionClosed:
                    break
            # hello took one token; the refusal that makes it a flood closes the socket,
            # which may cut its own error off
            assert codes[:19] == ["not_seated"] * 19, codes
            assert codes[19:] in (["rate_limited"] * 20, ["rate_limited"] * 21), codes
            assert _closed_with(ws) == 1008
            assert app.state.lobby.tables[table_id].live.table_info() == before
    finally:
        live.stop()
