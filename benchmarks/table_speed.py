"""Live table speed: what one table's task costs per command, on one core.

Run: ``.venv/bin/python benchmarks/table_speed.py [--games N] [--seed S]``.
Figures and the machine they were measured on are recorded in docs/BENCHMARKS.md.

Four fake clients play whole games at a ``LiveTable`` on a manual clock (no waiting): each
answers its own seat view with a random legal play or pass, sends JSON through
``LiveTable.receive`` and gets every message through the ``send`` callback, which here only
counts it (the web layer would queue it for a socket). One spectator watches. Timed: the
parsing, the engine, the views and their JSON, numbering, timers and settlement — everything the
table's task does; client seeds are off, so deals start at once. CPU time of the process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import time
from typing import Any

from tienlen.engine.rules import RuleSet
from tienlen.server.table.live import LiveTable, TableConfig
from tienlen.server.table.outbox import Numbered, to_json
from tienlen.server.table.timers import ManualClock


async def play(games: int, seed: int) -> dict[str, float]:
    clock = ManualClock()
    rng = random.Random(seed)
    views: dict[str, dict[str, Any]] = {}
    counts = {"messages": 0, "bytes": 0, "commands": 0, "games": 0}

    def send(user: str, message: dict[str, Any]) -> None:
        counts["messages"] += 1
        # The web layer sends a numbered message's text as the table wrote it.
        text = message.text if isinstance(message, Numbered) else to_json(message)
        counts["bytes"] += len(text.encode())
        kind = message["type"]
        if kind == "game" or (kind == "state" and message["game"]):
            views[user] = dict(message["view"] if kind == "game" else message["game"]["view"])
        elif kind == "update":
            views[user].update(message["view"])
        elif kind == "settlement":
            counts["games"] += user == "u0"

    config = TableConfig(client_seeds=False, rate=1e9, burst=1e9, between_games_s=0)
    server_seeds = random.Random(seed + 1)
    table = LiveTable(
        "bench",
        RuleSet.preset("thapthanh"),
        owner="u0",
        send=send,
        config=config,
        clock=clock,
        server_seeds=lambda: server_seeds.randbytes(32),
    )
    table.start()
    users = ["u0", "u1", "u2", "u3", "watcher"]
    for seat, user in enumerate(users):
        table.connect(user, user)
        table.receive(user, '{"type": "hello", "protocol": 1}')
        if seat < 4:
            table.receive(user, json.dumps({"type": "sit", "seat": seat}))
            table.receive(user, '{"type": "ready"}')
    start = time.process_time()
    while counts["games"] < games:
        await table.idle()
        for user in users[:4]:
            view = views.get(user)
            if view and view.get("my_turn") and not view["over"]:
                options = [*view["legal"], None] if view["can_pass"] else view["legal"]
                choice = rng.choice(options)
                message = {"type": "pass"} if choice is None else {"type": "play", "cards": choice}
                view["my_turn"] = False  # until the table says otherwise
                table.receive(user, json.dumps(message))
                counts["commands"] += 1
                break
        else:
            wake = clock.next_wakeup()
            if wake is not None:
                clock.set(wake)
    seconds = time.process_time() - start
    await table.close()
    return {
        "games": counts["games"],
        "seconds": seconds,
        "commands": counts["commands"],
        "messages": counts["messages"],
        "bytes": counts["bytes"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    result = asyncio.run(play(args.games, args.seed))
    games, seconds = result["games"], result["seconds"]
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print(f"{games:.0f} games in {seconds:.2f} s CPU: {games / seconds:.1f} games/s")
    print(f"per command (play or pass): {1e6 * seconds / result['commands']:.0f} µs")
    print(f"messages sent per game: {result['messages'] / games:.0f} to 5 recipients")
    print(f"bytes of JSON per game: {result['bytes'] / games / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
