"""Bad input at a live table: every kind gets its ``error`` (code, message, ref) and changes
nothing — not the game, not the seats, not anyone's message numbers. Bots that fail or overrun
are played for by the time-out rule; a client that floods is cut off."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from typing import Any

import pytest

from tienlen.engine.codec import snapshot_of
from tienlen.engine.views import SeatView
from tienlen.server.table import protocol as P

from .table_driver import FAST, Harness, dealing

NO_SEEDS = dataclasses.replace(FAST, client_seeds=False)

BAD: list[tuple[str, Any, str]] = [
    # the parser
    ("u1", "{oops", "bad_json"),
    ("u1", "[]", "not_an_object"),
    ("u1", {"type": "fly"}, "unknown_type"),
    ("u1", {"type": "sit", "seat": "0"}, "bad_field"),
    ("u1", {"type": "play", "cards": "3s 3s"}, "bad_cards"),
    ("u1", "x" * (P.MAX_MESSAGE_BYTES + 1), "too_large"),
    ("w", {"type": "hello", "protocol": 99}, "unsupported_version"),
    # the engine: the game refuses
    ("u1", {"type": "play", "cards": "4d"}, "not_your_turn"),
    ("u0", {"type": "play", "cards": "4d"}, "cards_not_in_hand"),
    ("u0", {"type": "play", "cards": "3s 6h"}, "not_a_combination"),
    ("u0", {"type": "pass"}, "cannot_pass"),
    ("u1", {"type": "decline_chop"}, "no_chop_offer"),
    # the table
    ("w", {"type": "play", "cards": "3s"}, "not_playing"),
    ("w", {"type": "pass"}, "not_playing"),
    ("w", {"type": "stand"}, "not_seated"),
    ("w", {"type": "ready"}, "not_seated"),
    ("w", {"type": "sit", "seat": 0}, "seat_taken"),
    ("u0", {"type": "sit", "seat": 2}, "already_seated"),
    ("w", {"type": "add_bot", "seat": 3}, "not_owner"),
    ("w", {"type": "remove_bot", "seat": 1}, "not_owner"),
    ("u0", {"type": "add_bot", "seat": 1}, "seat_taken"),
    ("u0", {"type": "remove_bot", "seat": 3}, "no_bot"),
    ("u0", {"type": "remove_bot", "seat": 1}, "no_bot"),
    ("u0", {"type": "client_seed", "seed": "00"}, "no_commitment"),
]


def table_state(h: Harness) -> str:
    game = h.table.game
    assert game is not None
    numbers = {u: m.outbox.n for u, m in h.table.recipients.members.items()}
    return json.dumps([snapshot_of(game), h.table.table_info(), numbers, h.table.phase])


def test_every_bad_message_gets_its_error_and_changes_nothing() -> None:
    async def main() -> Harness:
        h = Harness(config=NO_SEEDS, dealer=dealing("3s 4s 5s 6h", "4d", seed=1))
        h.table.start()
        h.client("u0", idle=True).join(0)
        h.client("u1", idle=True).join(1)
        h.client("w", idle=True).join()
        await h.advance(FAST.start_wait_s)
        assert h.table.phase == "playing" and h.table.game.current == 0  # type: ignore[union-attr]
        before = table_state(h)
        for k, (user, data, code) in enumerate(BAD):
            raw = data if isinstance(data, str) else json.dumps(data | {"ref": k})
            seen = len(h.sent[user])
            assert h.receive(user, raw)
            await h.settle()
            answer = h.sent[user][seen:]
            ref = None if isinstance(data, str) else k  # even a refused message gets its ref
            assert len(answer) == 1, (code, answer)
            assert answer[0]["type"] == "error" and answer[0]["code"] == code, (code, answer)
            assert answer[0]["message"] and answer[0]["ref"] == ref
            assert table_state(h) == before, f"{code} changed the table"
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []


def test_a_connection_must_say_hello_first() -> None:
    async def main() -> Harness:
        h = Harness()
        h.table.start()
        h.table.connect("x", "X")
        h.table.receive("x", json.dumps({"type": "sit", "seat": 0, "ref": "s"}))
        await h.settle()
        await h.table.close()
        return h

    h = run(main())
    assert h.sent["x"] == [
        {
            "type": "error",
            "code": "hello_first",
            "message": "send hello before anything else",
            "ref": "s",
        }
    ]
    assert h.table.seats[0] is None


def test_a_playing_bot_cannot_be_removed_and_a_small_table_has_fewer_seats() -> None:
    async def main() -> Harness:
        h = Harness(config=dataclasses.replace(NO_SEEDS, seats=3), dealer=dealing("3s", ""))
        h.table.start()
        owner = h.client("u0", idle=True)
        owner.join(0)
        owner.send(type="add_bot", seat=1, level="greedy")
        await h.advance(FAST.start_wait_s)
        assert h.table.phase == "playing"
        owner.send(type="remove_bot", seat=1)
        owner.send(type="add_bot", seat=3)
        h.client("w").join()
        h.clients["w"].send(type="sit", seat=3)
        await h.settle()
        await h.table.close()
        return h

    h = run(main())
    codes = [m["code"] for m in h.sent["u0"] + h.sent["w"] if m["type"] == "error"]
    assert codes == ["seat_in_game", "no_such_seat", "no_such_seat"]


def test_a_client_that_floods_is_refused_then_cut_off() -> None:
    async def main() -> tuple[Harness, list[bool]]:
        h = Harness(config=dataclasses.replace(NO_SEEDS, rate=10, burst=5))
        h.table.start()
        h.client("u0").join()
        await h.settle()
        seen = len(h.sent["u0"])
        allowed = [h.table.receive("u0", '{"type": "chat", "text": "hi"}') for _ in range(40)]
        await h.settle()
        await h.table.close()
        return h, [*allowed, seen]  # type: ignore[list-item]

    h, allowed = run(main())
    seen = allowed.pop()
    # 4 left of the burst of 5 after hello, then 20 refusals forgiven, then cut off
    assert allowed == [True] * 24 + [False] * 16
    answers = h.sent["u0"][seen:]
    refused = [m for m in answers if m["type"] == "error"]
    assert {m["code"] for m in refused} == {"rate_limited"}
    chats = [m for m in answers if m["type"] == "chat"]
    assert len(chats) == 4


# --- bots that fail ------------------------------------------------------------------------------
class BrokenBot:
    name = "broken"

    def act(self, view: SeatView) -> int:
        raise RuntimeError("the bot crashed")


class SlowBot:
    name = "slow"

    def act(self, view: SeatView) -> int:
        time.sleep(0.2)
        return view.legal[-1]


class CheatingBot:
    name = "cheat"

    def act(self, view: SeatView) -> int:
        return view.unseen & -view.unseen  # a card it does not hold


@pytest.mark.parametrize("bot", [BrokenBot(), SlowBot(), CheatingBot()], ids=lambda b: b.name)
def test_a_bot_that_fails_is_played_for_by_the_time_out_rule(bot: Any) -> None:
    async def main() -> Harness:
        config = dataclasses.replace(NO_SEEDS, bot_budget_s=0.05)
        h = Harness(config=config, rules="b52", dealer=dealing("3s", ""))
        h.table.start()
        owner = h.client("u0")
        owner.join(0)
        owner.send(type="add_bot", seat=1, level="random")
        await h.settle()
        occupant = h.table.seats[1]
        assert occupant is not None
        occupant.bot = bot
        await h.run_until(lambda: len(h.games) >= 1)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    record = h.games[0][0]
    mine = [a for a in record.actions if a["seat"] == 1]
    assert mine and mine[0] == {"seat": 1, "timeout": True}


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)
