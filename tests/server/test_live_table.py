"""Live tables (server/tables.py): whole games through the protocol, with people and bots.

Every message of every game here is checked as it is sent (table_driver.Harness): JSON that
matches the protocol's schema, numbered one after the other per recipient, and never naming a
card another seat still holds.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from tienlen.engine.cards import mask_ascii
from tienlen.engine.record import parse_record, replay
from tienlen.engine.verify import verify_record
from tienlen.money.settlement import next_game_after, replay_fields

from .table_driver import FAST, Harness, dealing


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def check_games(h: Harness) -> None:
    """Each game settled and recorded consistently, its deal verifiable, and the next one led
    by the preset's lead rules."""
    assert h.problems == []
    previous = None
    for record, settlement in h.games:
        data = record.to_dict()
        game = replay(parse_record(data))
        assert game.over
        assert sum(settlement.deltas) + settlement.fee == 0
        assert replay_fields(game, record) == settlement.to_dict()
        assert verify_record(data).ok, verify_record(data).to_dict()
        if previous is not None and previous.extra["users"] == record.extra["users"]:
            start = next_game_after(replay(previous))
            assert record.first_game == start.first_game
            if not start.first_game:
                assert record.leader == start.leader
        previous = record


# --- whole games ---------------------------------------------------------------------------------
def test_four_people_play_whole_games_to_settlement() -> None:
    async def main() -> Harness:
        h = Harness(balances={"u0": 5_000, "u1": 300, "u2": 10_000, "u3": 10_000})
        h.table.start()
        clients = [h.client(f"u{k}", seed=k) for k in range(4)]
        for seat, client in enumerate(clients):
            client.join(seat)
        watcher = h.client("w", idle=True)
        watcher.join()
        await h.run_until(lambda: len(h.games) >= 3)
        await h.table.close()
        return h

    h = run(main())
    check_games(h)
    assert len(h.games) >= 3
    for client in h.clients.values():
        assert client.errors == []
    # Everyone saw the same public events; the watcher never a hand.
    watcher = [m for m in h.numbered("w") if m["type"] in ("game", "update")]
    assert watcher and all("hand" not in m["view"] for m in watcher)
    players = {u: [m for m in h.numbered(u) if m["type"] == "settlement"] for u in ("u0", "w")}
    assert players["u0"] == [m | {"n": m["n"]} for m in players["u0"]]
    assert [m["settlement"] for m in players["u0"]] == [m["settlement"] for m in players["w"]]
    # The deal came from the published commitment and the clients' seeds.
    commitments = [m for m in h.numbered("u0") if m["type"] == "commitment"]
    for (record, _), published in zip(h.games, commitments, strict=False):
        assert record.extra["deal"]["commitment"] == published["commitment"]
        assert all(seed for seed in record.extra["deal"]["client_seeds"])
    # Balances were read before the game: nobody lost more than they had.
    for record, settlement in h.games:
        for k, user in enumerate(record.extra["users"]):
            assert -settlement.deltas[k] <= record.extra["balances"][k], user


def test_a_person_plays_three_bots() -> None:
    async def main() -> Harness:
        h = Harness(rules="thapthanh")
        h.table.start()
        owner = h.client("u0")
        owner.join(0)
        for seat, level in ((1, "random"), (2, "greedy"), (3, "random")):
            owner.send(type="add_bot", seat=seat, level=level, ref=f"bot{seat}")
        await h.run_until(lambda: len(h.games) >= 2)
        await h.table.close()
        return h

    h = run(main())
    check_games(h)
    acks = [m for m in h.sent["u0"] if m["type"] == "ack"]
    assert [m["ref"] for m in acks] == ["bot1", "bot2", "bot3"]
    table = [m for m in h.numbered("u0") if m["type"] == "table"][-1]
    assert [s["bot"] for s in table["seats"]] == [None, "random", "greedy", "random"]
    assert all(record.extra["users"][1:] == ["bot-1", "bot-2", "bot-3"] for record, _ in h.games)


def test_bots_think_in_a_process_pool() -> None:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    async def main() -> Harness:
        with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
            h = Harness(rules="b52", executor=pool, config=FAST)
            h.table.start()
            owner = h.client("u0")
            owner.join(0)
            owner.send(type="add_bot", seat=2, level="greedy")
            await h.run_until(lambda: len(h.games) >= 1)
            await h.table.close()
        return h

    h = run(main())
    check_games(h)
    record = h.games[0][0]
    # The bot (game seat 1) played its own cards, not the time-out rule's.
    assert any(a["seat"] == 1 and "timeout" not in a for a in record.actions)


def test_a_second_hello_is_answered_like_the_first() -> None:
    """A ``hello`` mid-connection (docs/PROTOCOL.md, "A connection"): ``welcome`` and a fresh
    ``state``, or with ``last_n`` the messages after it, numbered as they were."""

    async def main() -> Harness:
        h = Harness()
        h.table.start()
        h.client("u0").join(seat=0)
        await h.settle()
        h.client("u1").join(seat=1)  # u0 is sent the seat taken (numbered messages)
        await h.settle()
        n = h.clients["u0"].last_n
        assert n >= 2
        before = len(h.sent["u0"])
        h.clients["u0"].send(type="hello", protocol=1, ref="again")
        await h.settle()
        again = h.sent["u0"][before:]
        assert [m["type"] for m in again] == ["welcome", "state"], again
        assert again[0] == {
            "type": "welcome",
            "protocol": 1,
            "table": "t1",
            "user": "u0",
            "resumed": False,
            "ref": "again",
        }
        assert again[1]["n"] == n  # the state is where the client is: nothing renumbered
        before = len(h.sent["u0"])
        h.clients["u0"].last_n = n - 1  # as if the last message had been missed
        h.clients["u0"].send(type="hello", protocol=1, last_n=n - 1)
        await h.settle()
        resumed = h.sent["u0"][before:]
        assert resumed[0]["type"] == "welcome" and resumed[0]["resumed"] is True
        assert [m["n"] for m in resumed[1:]] == [n]  # what came after last_n, as it was sent
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == [] and h.clients["u0"].errors == []


def test_the_message_checks_can_fail() -> None:
    """The harness flags a hidden card, a message off the schema, could_beat and a skipped
    number (so the checks above mean something)."""

    async def main() -> Harness:
        h = Harness(config=dataclasses.replace(FAST, client_seeds=False), dealer=dealing("3s", ""))
        h.table.start()
        h.client("u0", idle=True).join(0)
        h.client("u1", idle=True).join(1)
        await h.advance(FAST.start_wait_s)
        game = h.table.game
        assert game is not None and h.table.phase == "playing"
        h.problems.clear()
        theirs = game.hands[1] & -game.hands[1]
        h.capture(
            "u0",
            {
                "type": "chat",
                "n": 99,
                "id": 1,
                "user": "x",
                "name": "x",
                "seat": None,
                "text": f"seat 1 holds {mask_ascii(theirs)}",
                "at": 0.0,
            },
        )
        h.capture("u0", {"type": "ack"})
        h.capture(
            "u0", {"type": "error", "code": "x", "message": "", "ref": None, "could_beat": True}
        )
        await h.table.close()
        return h

    h = run(main())
    assert len(h.problems) == 5, h.problems  # hidden card, number 99, schema ×2, could_beat
