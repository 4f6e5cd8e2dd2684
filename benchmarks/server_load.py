"""Server load: bot clients over real WebSockets against one ``tienlen serve`` on 127.0.0.1.

Run: ``.venv/bin/python benchmarks/server_load.py [--tables 50] [--seconds 30] [--rate 1]``
(``--help`` for the rest). Figures and the machine they were measured on are recorded in
docs/BENCHMARKS.md ("Server load").

It starts ``tienlen serve`` in a subprocess pinned to one core (``--server-core``), on a free
port with a fresh data folder (SQLite), and pins itself to another (``--client-core``). It makes
4 guests per table (``POST /api/guest``, one cookie each), opens the tables
(``POST /api/tables``, trainee room, 4 seats, 20 s turns), and connects each guest's WebSocket
the way a browser does (Origin, cookie, offering permessage-deflate: the server takes it when
``TIENLEN_WS_COMPRESSION`` is on). The four sit down, say ready, send client seeds and play:
whoever's seat view says it is their turn plays a random legal play (or passes, one time in
four when it may), paced so that each table acts about ``--rate`` times a second; chop
offers are declined at once. After ``--warmup`` seconds it measures for
``--seconds``: actions per second, and for each action the delay from the moment its sender
sent it to the moment each of the three other players received the ``update`` carrying it
(median, 99th percentile, worst); the server's CPU (user + system, from /proc) and its resident
memory, before the tables and with them, per table; the load generator's own CPU, so a
saturated generator (whose lag would count as delay) shows.

``--env TIENLEN_NAME=VALUE`` passes settings to the server; the limit on guests made from one
address is off (``TIENLEN_SIGNUP_LIMIT=0``: every guest comes from 127.0.0.1) unless set
there. ``--profile FILE`` runs the server under cProfile and writes its stats; ``--py-spy FILE``
samples it with py-spy (``pip install py-spy``) while measuring and writes the collapsed stacks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
ACTED = ("play", "pass", "chop")
"""Event types of a player's own command (a timed-out play or pass is marked ``auto``)."""


# --- the server process ---------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc."""
    return sum(user_system_seconds(pid))


def user_system_seconds(pid: int) -> tuple[float, float]:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS


def waited_seconds(pid: int) -> float:
    """Time the process's main thread (the event loop) spent ready to run but waiting for a
    core (/proc/PID/schedstat): high when other work on the machine takes its core."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def start_server(args: argparse.Namespace, data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TIENLEN_")}
    env |= {"TIENLEN_DATA_DIR": str(data_dir), "TIENLEN_HOST": "127.0.0.1"}
    env |= {"TIENLEN_PORT": str(port)}
    env |= {"TIENLEN_SIGNUP_LIMIT": "0"}  # every guest comes from 127.0.0.1
    for item in args.env:
        name, _, value = item.partition("=")
        env[name] = value
    tienlen = shutil.which("tienlen", path=str(Path(sys.executable).parent)) or "tienlen"
    command = [tienlen, "serve"]
    if args.profile:
        command = [sys.executable, "-m", "cProfile", "-o", args.profile, tienlen, "serve"]
    core = args.server_core

    def pin() -> None:
        os.sched_setaffinity(0, {core})
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)

    log = (data_dir / "server.log").open("wb")
    return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, preexec_fn=pin)


async def wait_healthy(base: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    async with httpx.AsyncClient(base_url=base, timeout=5) as http:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise SystemExit(f"the server stopped:\n{log.read_text()[-3000:]}")
            try:
                if (await http.get("/api/health")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.2)
    raise SystemExit("the server did not answer within 60 s")


# --- the players ----------------------------------------------------------------------------------
@dataclass
class Stats:
    recording: bool = False
    delays: list[float] = field(default_factory=list)
    actions: int = 0
    auto: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    dealt: set[str] = field(default_factory=set)
    lags: list[float] = field(default_factory=list)
    handshakes: list[float] = field(default_factory=list)
    messages: int = 0
    bytes: int = 0
    wire_bytes: int = 0
    """What the players' sockets read, frames and all (compressed when deflate is on)."""
    retries: int = 0
    extensions: set[str] = field(default_factory=set)
    """The extensions the server accepted (permessage-deflate when it compresses)."""


async def watch_lag(stats: Stats, every: float = 0.01) -> None:
    """How late this generator's event loop wakes: its own lag, which would count as delay."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(every)
        if stats.recording:
            stats.lags.append(loop.time() - before - every)


@dataclass
class Table:
    id: str
    interval: float
    next_at: float = 0.0
    """When the table's next action may be sent (the pacing)."""
    pending: dict[str, Any] | None = None
    """The last action sent: its game, game seat, send time and who has received it."""


class Player:
    """A guest at one table who answers from its own seat view only."""

    def __init__(self, table: Table, seat: int, ws: ClientConnection, stats: Stats) -> None:
        self.table, self.seat, self.ws, self.stats = table, seat, ws, stats
        self.rng = random.Random(hash((table.id, seat)))
        self.view: dict[str, Any] = {}
        self.game = 0
        self.acting = False
        self.declined: tuple[int, int] | None = None

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def run(self) -> None:
        await self.send(type="hello", protocol=1)
        await self.send(type="sit", seat=self.seat)
        await self.send(type="ready")
        async for raw in self.ws:
            received = time.perf_counter()
            if self.stats.recording:
                self.stats.messages += 1
                self.stats.bytes += len(raw)
            message = json.loads(raw)
            kind = message["type"]
            if kind == "update":
                self._measure(message, received)
                self.view.update(message["view"])
                self._answer()
            elif kind == "game":
                self.game, self.view = message["game"], dict(message["view"])
                self.stats.dealt.add(self.table.id)
                self._answer()
            elif kind == "commitment" and self.seat in message["players"]:
                await self.send(type="client_seed", seed=self.rng.randbytes(16).hex())
            elif kind == "settlement" and self.seat == 0 and self.stats.recording:
                self.stats.games += 1
            elif kind == "error":
                code = message["code"]
                self.stats.errors[code] = self.stats.errors.get(code, 0) + 1

    def _measure(self, message: dict[str, Any], received: float) -> None:
        pending = self.table.pending
        for event in message["events"]:
            if event["type"] not in ACTED:
                continue
            if event.get("auto") and self.stats.recording and self.view.get("seat") == 0:
                self.stats.auto += 1
            if (
                pending is not None
                and pending["game"] == message["game"]
                and event["seat"] == pending["seat"]
                and self.seat not in pending["seen"]
            ):
                pending["seen"].add(self.seat)
                if pending["recorded"]:
                    self.stats.delays.append(received - pending["sent"])

    def _answer(self) -> None:
        view = self.view
        if view.get("over"):
            return
        if view.get("my_turn") and not self.acting:
            self.acting = True
            asyncio.get_running_loop().create_task(self._act(self.game, view["seq"]))
        elif view.get("chop_offer") and self.declined != (self.game, view["seq"]):
            self.declined = (self.game, view["seq"])
            asyncio.get_running_loop().create_task(self._decline())

    async def _decline(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            await self.send(type="decline_chop")

    async def _act(self, game: int, seq: int) -> None:
        """Play or pass at the table's next slot, if it is still this seat's turn then."""
        try:
            loop = asyncio.get_running_loop()
            now = loop.time()
            at = max(now, self.table.next_at)
            self.table.next_at = at + self.table.interval * self.rng.uniform(0.8, 1.2)
            await asyncio.sleep(at - now)
            view = self.view
            if self.game != game or view["seq"] != seq or not view["my_turn"] or view["over"]:
                return
            legal = view["legal"]
            if legal and not (view["can_pass"] and self.rng.random() < 0.25):
                message = {"type": "play", "cards": self.rng.choice(legal)}
            else:
                message = {"type": "pass"}
            recording = self.stats.recording
            self.table.pending = {
                "game": game,
                "seat": view["seat"],
                "seen": {self.seat},
                "recorded": recording,
                "sent": time.perf_counter(),
            }
            await self.ws.send(json.dumps(message))
            self.stats.actions += recording
        except ConnectionClosed:
            pass
        finally:
            self.acting = False


# --- the run --------------------------------------------------------------------------------------
def count_wire_bytes(ws: ClientConnection, stats: Stats) -> None:
    """Count the bytes the socket reads while recording (the protocol's own hook, wrapped)."""
    received = ws.data_received

    def counted(data: bytes) -> None:
        if stats.recording:
            stats.wire_bytes += len(data)
        received(data)

    ws.data_received = counted  # type: ignore[method-assign]


async def make_guests(base: str, count: int, workers: int = 8) -> list[str]:
    """``count`` guests' session cookies (``name=value``)."""
    cookies: list[str] = []

    async def work(share: int) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            for _ in range(share):
                http.cookies.clear()
                r = await http.post("/api/guest")
                if r.status_code != 201:
                    raise SystemExit(f"POST /api/guest: {r.status_code} {r.text}")
                name, value = next(iter(r.cookies.items()))
                cookies.append(f"{name}={value}")

    shares = [count // workers + (k < count % workers) for k in range(workers)]
    await asyncio.gather(*(work(s) for s in shares if s))
    return cookies


async def open_tables(base: str, owners: list[str], turn: int) -> list[str]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        ids = []
        for cookie in owners:
            http.cookies.clear()
            body = {"room": "trainee", "preset": "thapthanh", "bet": 1000, "turn_seconds": turn}
            r = await http.post("/api/tables", json=body, headers={"Cookie": cookie})
            if r.status_code != 201:
                raise SystemExit(f"POST /api/tables: {r.status_code} {r.text}")
            ids.append(r.json()["id"])
        return ids


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    data_dir = Path(tempfile.mkdtemp(prefix="tienlen-load-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(args, data_dir, port)
    tasks: list[asyncio.Task[None]] = []
    sockets: list[ClientConnection] = []
    try:
        await wait_healthy(base, server, data_dir / "server.log")
        print(f"server pid {server.pid} on {base}", file=sys.stderr)
        idle_rss = rss_bytes(server.pid)
        started = time.perf_counter()
        cookies = await make_guests(base, 4 * args.tables)
        table_ids = await open_tables(base, cookies[::4], args.turn_seconds)
        setup_s = time.perf_counter() - started
        stats = Stats()
        tables = [Table(t, 1.0 / args.rate) for t in table_ids]
        gate = asyncio.Semaphore(20)

        async def join(table: Table, seat: int, cookie: str) -> None:
            for attempt in range(5):
                try:
                    async with gate:
                        began = time.perf_counter()
                        ws = await connect(
                            base.replace("http", "ws") + f"/ws/tables/{table.id}",
                            origin=base,  # type: ignore[arg-type]
                            additional_headers={"Cookie": cookie},
                            compression=None if args.no_compression else "deflate",
                            open_timeout=120,
                            max_size=2**20,
                        )
                        stats.handshakes.append(time.perf_counter() - began)
                    break
                except (OSError, InvalidHandshake) as exc:
                    stats.retries += 1
                    if attempt == 4:
                        raise SystemExit(f"cannot connect: {exc!r}") from exc
                    await asyncio.sleep(1 + attempt)
            sockets.append(ws)
            if ws.response is not None:
                stats.extensions.add(ws.response.headers.get("Sec-WebSocket-Extensions", ""))
            count_wire_bytes(ws, stats)
            await Player(table, seat, ws, stats).run()

        tasks.append(asyncio.create_task(watch_lag(stats)))
        for k, table in enumerate(tables):
            for seat in range(4):
                tasks.append(asyncio.create_task(join(table, seat, cookies[4 * k + seat])))
        deadline = time.monotonic() + args.warmup + 60
        while len(stats.dealt) < len(tables) and time.monotonic() < deadline:
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
            await asyncio.sleep(0.2)
        connected_s = time.perf_counter() - started
        await asyncio.sleep(args.warmup)
        system0 = user_system_seconds(server.pid)[1]
        cpu0, client0, wall0 = cpu_seconds(server.pid), time.process_time(), time.perf_counter()
        wait0, client_wait0 = waited_seconds(server.pid), waited_seconds(os.getpid())
        spy = None
        if args.py_spy:
            spy_command = [str(Path(sys.executable).parent / "py-spy"), "record"]
            spy_command += ["--pid", str(server.pid), "--duration", str(round(args.seconds))]
            spy_command += ["--format", "raw", "--output", args.py_spy]
            spy = subprocess.Popen(spy_command, stdout=subprocess.DEVNULL)
        stats.recording = True
        await asyncio.sleep(args.seconds)
        stats.recording = False
        cpu1, client1, wall1 = cpu_seconds(server.pid), time.process_time(), time.perf_counter()
        system1 = user_system_seconds(server.pid)[1]
        wait1, client_wait1 = waited_seconds(server.pid), waited_seconds(os.getpid())
        loaded_rss = rss_bytes(server.pid)
        if spy is not None:
            spy.wait(timeout=60)
        wall = wall1 - wall0
        delays_ms = [1000 * d for d in stats.delays]
        return {
            "tables": len(tables),
            "clients": 4 * len(tables),
            "tables_dealt": len(stats.dealt),
            "setup_s": round(setup_s, 1),
            "connected_s": round(connected_s, 1),
            "handshake_p99_ms": round(1000 * percentile(stats.handshakes, 99), 1),
            "connect_retries": stats.retries,
            "seconds": round(wall, 1),
            "target_actions_per_s": round(args.rate * len(tables), 1),
            "actions_per_s": round(stats.actions / wall, 1),
            "messages_per_s": round(stats.messages / wall, 1),
            "bytes_per_message": round(stats.bytes / max(1, stats.messages)),
            "wire_bytes_per_message": round(stats.wire_bytes / max(1, stats.messages)),
            "games_finished": stats.games,
            "timed_out_actions": stats.auto,
            "errors": stats.errors,
            "deliveries": len(delays_ms),
            "delay_median_ms": round(percentile(delays_ms, 50), 2),
            "delay_p99_ms": round(percentile(delays_ms, 99), 2),
            "delay_max_ms": round(max(delays_ms, default=float("nan")), 2),
            "client_lag_p99_ms": round(1000 * percentile(stats.lags, 99), 2),
            "server_cpu_percent": round(100 * (cpu1 - cpu0) / wall, 1),
            "server_cpu_ms_per_action": round(1000 * (cpu1 - cpu0) / max(1, stats.actions), 2),
            "server_system_share": round((system1 - system0) / max(1e-9, cpu1 - cpu0), 2),
            "server_waited_percent": round(100 * (wait1 - wait0) / wall, 1),
            "client_cpu_percent": round(100 * (client1 - client0) / wall, 1),
            "client_waited_percent": round(100 * (client_wait1 - client_wait0) / wall, 1),
            "server_rss_idle_mib": round(idle_rss / 2**20, 1),
            "server_rss_mib": round(loaded_rss / 2**20, 1),
            "rss_per_table_kib": round((loaded_rss - idle_rss) / 1024 / max(1, len(tables)), 1),
            "compression": sorted(stats.extensions),
        }
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
        if args.keep_data:
            print(f"data folder and server log kept in {data_dir}", file=sys.stderr)
        else:
            shutil.rmtree(data_dir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="4-player tables (default 50)")
    parser.add_argument(
        "--seconds", type=float, default=30, help="measured seconds, after the warm-up"
    )
    parser.add_argument("--rate", type=float, default=1.0, help="actions a second per table")
    parser.add_argument("--warmup", type=float, default=5, help="seconds played before measuring")
    parser.add_argument("--turn-seconds", type=int, default=20, choices=(10, 15, 20))
    parser.add_argument("--server-core", type=int, default=0, help="the server's CPU (0)")
    parser.add_argument("--client-core", type=int, default=1, help="this generator's CPU (1)")
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="TIENLEN_NAME=VALUE",
        help="a setting for the server (repeatable)",
    )
    parser.add_argument(
        "--no-compression",
        action="store_true",
        help="the players do not offer permessage-deflate (the server uses it only when "
        "TIENLEN_WS_COMPRESSION is on: --env TIENLEN_WS_COMPRESSION=true)",
    )
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="scheduling priority of the server and this generator, and of their session's "
        "autogroup (below 0 needs root): on a machine shared with other work, -10 keeps them "
        "from waiting for a core",
    )
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile")
    parser.add_argument(
        "--py-spy",
        metavar="FILE",
        help="sample the server with py-spy (in the same environment) while measuring; "
        "FILE gets the collapsed stacks",
    )
    parser.add_argument("--keep-data", action="store_true", help="keep the data folder and log")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    if args.tables < 1 or args.seconds <= 0 or args.rate <= 0:
        parser.error("--tables, --seconds and --rate must be positive")
    for item in args.env:
        if not item.startswith("TIENLEN_") or "=" not in item:
            parser.error(f"--env takes TIENLEN_NAME=VALUE, not {item!r}")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it too
    if hard < 8 * args.tables + 100:
        parser.error(f"{4 * args.tables} sockets need more file descriptors than {hard}")
    os.sched_setaffinity(0, {args.client_core})
    os.setpriority(os.PRIO_PROCESS, 0, args.nice)
    if args.nice:  # with autogroups, a nice value counts only inside the session's group
        with contextlib.suppress(OSError):
            Path("/proc/self/autogroup").write_text(str(args.nice))
    results = asyncio.run(run(args))
    results["machine"] = f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.node()}"
    results["python"] = platform.python_version()
    results["nice"] = args.nice
    results["load_average"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for key, value in results.items():
        print(f"{key:24} {value}")


if __name__ == "__main__":
    main()
