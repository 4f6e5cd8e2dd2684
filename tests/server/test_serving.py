"""The sockets' protocol under uvicorn (server/serving.py): it reads ahead of the app up to
READ_AHEAD messages, then stops reading until the app catches up."""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.uri import parse_uri

from tienlen.server.serving import READ_AHEAD, SocketProtocol, uvicorn_options
from tienlen.server.settings import Settings


class Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.paused = 0
        self.resumed = 0
        self.written: list[bytes] = []
        self.closing = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name)

    def pause_reading(self) -> None:
        self.paused += 1

    def resume_reading(self) -> None:
        self.resumed += 1

    def write(self, data: Any) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True


def test_a_socket_reads_ahead_of_the_app_then_waits_for_it() -> None:
    received: list[Any] = []
    release = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await release.wait()
        for _ in range(READ_AHEAD + 4):
            received.append((await receive())["text"])

    async def main() -> Transport:
        config = uvicorn.Config(app, **uvicorn_options(Settings()))
        config.load()
        protocol = SocketProtocol(config=config, server_state=ServerState(), app_state={})
        transport = Transport()
        protocol.connection_made(transport)
        client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws"))
        client.send_request(client.connect())
        protocol.data_received(b"".join(client.data_to_send()))
        for _ in range(5):
            await asyncio.sleep(0)
        client.receive_data(b"".join(transport.written))
        for k in range(READ_AHEAD - 1):
            client.send_text(f"m{k}".encode())
            protocol.data_received(b"".join(client.data_to_send()))
        assert transport.paused == 0  # uvicorn's own stops reading after each message
        for k in range(READ_AHEAD - 1, READ_AHEAD + 4):
            client.send_text(f"m{k}".encode())
            protocol.data_received(b"".join(client.data_to_send()))
        assert transport.paused == 1
        release.set()
        for _ in range(READ_AHEAD + 10):
            await asyncio.sleep(0)
        return transport

    transport = asyncio.run(main())
    assert received == [f"m{k}" for k in range(READ_AHEAD + 4)]
    assert transport.resumed == 1


def test_a_socket_closed_by_the_app_reads_on_to_the_clients_close_reply() -> None:
    """The app closes (a flood: 1008) with READ_AHEAD messages unread: the socket must not
    stop reading again, or the client's close reply waits behind what it sent before it saw
    the close, for uvicorn's close timeout (the flood tests took 10 s a close)."""
    flooded = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await flooded.wait()
        await send({"type": "websocket.close", "code": 1008})

    async def main() -> tuple[Transport, ClientProtocol]:
        config = uvicorn.Config(app, **uvicorn_options(Settings()))
        config.load()
        protocol = SocketProtocol(config=config, server_state=ServerState(), app_state={})
        transport = Transport()
        protocol.connection_made(transport)
        client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws"))
        client.send_request(client.connect())
        protocol.data_received(b"".join(client.data_to_send()))
        for _ in range(5):
            await asyncio.sleep(0)
        client.receive_data(b"".join(transport.written))
        transport.written.clear()
        for k in range(READ_AHEAD):  # the app reads none of them: the socket stops reading
            client.send_text(f"m{k}".encode())
            protocol.data_received(b"".join(client.data_to_send()))
        assert transport.paused == 1
        flooded.set()
        for _ in range(5):
            await asyncio.sleep(0)
        assert transport.resumed == 1  # uvicorn reads on after the app's close ...
        for k in range(5):  # ... what the client sent before it saw the close
            client.send_text(f"late{k}".encode())
            protocol.data_received(b"".join(client.data_to_send()))
        assert transport.paused == 1  # ... without stopping again
        client.receive_data(b"".join(transport.written))  # the close: the client replies
        protocol.data_received(b"".join(client.data_to_send()))
        return transport, client

    transport, client = asyncio.run(main())
    assert client.close_rcvd is not None and client.close_rcvd.code == 1008
    assert transport.closing  # the closing handshake is done at once, not after a timeout


def test_compression_is_a_setting_and_off_by_default() -> None:
    assert uvicorn_options(Settings())["ws_per_message_deflate"] is False
    assert uvicorn_options(Settings(ws_compression=True))["ws_per_message_deflate"] is True
