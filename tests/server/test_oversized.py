"""Oversized requests get their documented answer, not a reset, through the real server and
from a raw socket (a client whose sending is slow to drain, as over a network): an HTTP body
over ``TIENLEN_MAX_BODY_BYTES`` gets the ``413 body_too_large`` JSON error even when the client
asked to close the connection after it (uvicorn closed with the body unread: a TCP reset, and
a client still sending lost the answer), and a WebSocket frame of 4 MB gets the same 1009
close frame as one of 1 MB (the server closed with the frame unread: a reset that dropped the
connection before the client read the close).

Reproduced before the fix with these very tests: ``ConnectionResetError`` or
``BrokenPipeError`` while sending or reading, for both sizes of both kinds.
"""

from __future__ import annotations

import base64
import json
import os
import socket
from collections.abc import Iterator

import httpx
import pytest

from .conftest import FakeClock, LiveServer, make_settings

SLOW_SEND = 4096
"""The client's send buffer: small, so the server reads the body as it comes, as over a
network (on loopback the kernel would swallow megabytes at once and hide the reset)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server of its own (the answers depend on no database: SQLite only)."""
    folder = tmp_path_factory.mktemp("oversized")
    live = LiveServer(make_settings(folder, f"sqlite:///{folder / 'db.sqlite3'}"), FakeClock())
    live.start()
    yield live
    live.stop()


def _connect(live: LiveServer) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SLOW_SEND)
    sock.settimeout(20)
    sock.connect(("127.0.0.1", int(live.url.rsplit(":", 1)[1])))
    return sock


def _read_to_eof(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes; a reset fails the test."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def _body_request(size: int, *, chunked: bool, close: bool) -> tuple[bytes, list[bytes]]:
    body = json.dumps({"nickname": "Minh", "password": "x" * size}).encode()
    head = b"POST /api/register HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
    head += b"Connection: close\r\n" if close else b""
    head += b"Transfer-Encoding: chunked\r\n" if chunked else b"Content-Length: %d\r\n" % len(body)
    parts = [body[i : i + 8192] for i in range(0, len(body), 8192)]
    if chunked:
        parts = [b"%x\r\n%s\r\n" % (len(p), p) for p in parts] + [b"0\r\n\r\n"]
    return head + b"\r\n", parts


def _answer(data: bytes) -> tuple[int, dict[str, object]]:
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(body)


@pytest.mark.parametrize("size", [200_000, 4_000_000])
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_an_oversized_body_gets_its_413_even_when_the_connection_closes_after_it(
    server: LiveServer, size: int, chunked: bool
) -> None:
    head, parts = _body_request(size, chunked=chunked, close=True)
    with _connect(server) as sock:
        sock.sendall(head)
        for part in parts:  # every byte is taken: the server reads the body it refuses
            sock.sendall(part)
        status, body = _answer(_read_to_eof(sock))
    assert status == 413, body
    assert body == {
        "error": {
            "code": "body_too_large",
            "message": f"the request body is over {server.settings.max_body_bytes} bytes",
        }
    }


def test_an_oversized_body_leaves_a_kept_alive_connection_usable(server: LiveServer) -> None:
    head, parts = _body_request(200_000, chunked=False, close=False)
    with _connect(server) as sock:
        sock.sendall(head + b"".join(parts))
        sock.sendall(b"GET /api/rules HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        data = _read_to_eof(sock)
    first, second = data.split(b"HTTP/1.1 ")[1:]
    assert first.startswith(b"413 ") and b'"body_too_large"' in first
    assert second.startswith(b"200 ")


def _websocket(live: LiveServer) -> socket.socket:
    """A raw socket past the lobby socket's opening handshake."""
    client = live.client()
    assert client.post("/api/guest").status_code == 201
    token = client.cookies[live.settings.cookie_name]
    sock = _connect(live)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/lobby HTTP/1.1\r\nHost: {live.url.removeprefix('http://')}\r\n"
            "Upgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {live.url}\r\nCookie: {live.settings.cookie_name}={token}\r\n\r\n"
        ).encode()
    )
    handshake = b""
    while b"\r\n\r\n" not in handshake:
        handshake += sock.recv(4096)
    assert handshake.startswith(b"HTTP/1.1 101 "), handshake
    return sock


@pytest.mark.parametrize("size", [1_000_000, 4_000_000])
def test_an_oversized_frame_gets_the_1009_close_whatever_its_size(
    server: LiveServer, size: int
) -> None:
    with _websocket(server) as sock:
        mask = b"\x00\x00\x00\x00"  # a client's frames are masked: this mask changes nothing
        sock.sendall(bytes([0x81, 0x80 | 127]) + size.to_bytes(8, "big") + mask)
        payload = b'"' * 65536
        for _ in range(size // len(payload)):
            sock.sendall(payload)  # the server drops the frame as it comes, closing cleanly
        sock.sendall(payload[: size % len(payload)])
        data = _read_to_eof(sock)
    assert data[0] == 0x88, data[:20]  # a close frame, unmasked, with a short payload
    length = data[1]
    code = int.from_bytes(data[2:4], "big")
    reason = data[4 : 2 + length].decode()
    assert code == 1009, (code, reason)
    assert (
        reason == f"frame with {size} bytes exceeds limit of {server.settings.ws_max_bytes} bytes"
    )
    assert len(data) == 2 + length  # and nothing after it: the server's EOF


def test_the_server_still_serves_after_the_oversized_requests(server: LiveServer) -> None:
    assert httpx.get(server.url + "/api/health").status_code == 200
