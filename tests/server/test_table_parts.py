"""The live table's parts on their own: clocks and alarms, outboxes, settings, the bot pool."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from tienlen.server.botpool import shared_bot_pool, shutdown_bot_pool
from tienlen.server.table.outbox import Outbox, to_json
from tienlen.server.table.seating import Lineup, Occupant, TableConfig
from tienlen.server.table.timers import Alarms, ManualClock, SystemTableClock

from .table_driver import Harness, dealing


def test_a_manual_clock_wakes_sleepers_in_order_and_never_goes_back() -> None:
    async def main() -> list[str]:
        clock = ManualClock(100.0)
        woke: list[str] = []

        async def sleeper(name: str, when: float) -> None:
            await clock.sleep_until(when)
            woke.append(f"{name}@{clock.now()}")

        tasks = [asyncio.create_task(sleeper(n, w)) for n, w in (("b", 105), ("a", 102))]
        await sleeper("past", 50)  # already due: no wait
        await asyncio.sleep(0)
        assert clock.next_wakeup() == 102
        clock.advance(2.5)
        await asyncio.sleep(0)
        clock.set(90)  # never back
        assert clock.now() == 102.5
        clock.set(105)
        await asyncio.gather(*tasks)
        assert clock.next_wakeup() is None
        return woke

    assert run(main()) == ["past@100.0", "a@102.5", "b@105"]


def test_the_system_clock_sleeps_for_real() -> None:
    async def main() -> float:
        clock = SystemTableClock()
        start = time.time()
        await clock.sleep_until(start + 0.02)
        await clock.sleep_until(start - 1)  # in the past: at once
        return clock.now() - start

    assert 0.02 <= run(main()) < 1


def test_an_alarm_set_again_replaces_the_old_one() -> None:
    async def main() -> list[tuple[object, float]]:
        clock = ManualClock(0.0)
        rang: list[tuple[object, float]] = []
        alarms = Alarms(clock, lambda key, when: rang.append((key, when)))
        alarms.set(("turn",), 10)
        alarms.set(("turn",), 20)  # replaces
        alarms.set(("chop", 1), 3)
        alarms.set(("chop", 2), 4)
        alarms.cancel_kinds("chop")
        assert ("turn",) in alarms and ("chop", 1) not in alarms
        await asyncio.sleep(0)
        clock.set(30)
        for _ in range(3):
            await asyncio.sleep(0)
        assert not alarms.due(("turn",), 10)  # a replaced alarm is not due
        assert alarms.due(("turn",), 20) and ("turn",) not in alarms
        alarms.set(("grace", "u"), 40)
        alarms.cancel_all()
        return rang

    assert run(main()) == [(("turn",), 20)]


def test_alarms_on_the_system_clock_ring_in_order_unless_replaced_or_cancelled() -> None:
    async def main() -> list[tuple[object, float]]:
        clock = SystemTableClock()
        rang: list[tuple[object, float]] = []
        alarms = Alarms(clock, lambda key, when: rang.append((key, when)))
        start = clock.now()
        alarms.set(("turn",), start + 0.03)
        alarms.set(("turn",), start + 0.06)  # replaces
        alarms.set(("chop", 1), start + 0.02)
        alarms.set(("chop", 2), start + 0.01)
        alarms.cancel(("chop", 2))
        alarms.set(("grace", "u"), start - 1)  # in the past: at once
        await asyncio.sleep(0.2)
        return [(key, round(when - start, 3)) for key, when in rang]

    assert run(main()) == [(("grace", "u"), -1), (("chop", 1), 0.02), (("turn",), 0.06)]


def test_an_outbox_numbers_keeps_the_latest_and_says_what_was_missed() -> None:
    box = Outbox(3)
    shared = {"type": "chat", "text": "hi"}
    sent = [box.add(shared) for _ in range(5)]
    assert [m["n"] for m in sent] == [1, 2, 3, 4, 5] and "n" not in shared
    assert box.since(5) == []
    assert box.since(2) == sent[2:]
    assert box.since(1) is None  # message 2 is no longer kept
    assert box.since(6) is None  # never given
    assert Outbox(3).since(0) == []


def test_an_outbox_keeps_at_most_its_text_bound_but_always_the_latest() -> None:
    box = Outbox(256, chars=130)
    sent = [box.add({"type": "chat", "text": "x" * 30}) for _ in range(6)]  # 61 characters each
    assert len(sent[0].text) == 61
    assert box.since(4) == sent[4:] and box.since(3) is None  # two fit in 130, not three
    long = box.add({"type": "chat", "text": "y" * 500})
    assert box.since(6) == [long] and box.since(5) is None  # alone over the bound: still kept
    assert box.since(7) == []
    assert sum(len(text) for _, text in box._log) == box._kept == len(long.text)


def test_a_broadcast_written_once_reads_as_each_copy_written_alone() -> None:
    message = {"type": "chat", "text": 'Chào cả bàn \u2665 "ok"', "seat": None, "at": 1.5}
    text = to_json(message)
    one, other = Outbox(3), Outbox(3)
    other.add({"type": "ack"})
    for box in (one, other):
        alone = box.add(message)
        box.n -= 1
        shared = box.add(message, text)
        assert shared == alone and json.loads(shared.text) == json.loads(alone.text) == shared
    assert json.loads(other.add({}, "{}").text) == {"n": 3}  # an empty message, written alone


@pytest.mark.parametrize(
    "bad",
    [
        {"seats": 1},
        {"seats": 5},
        {"turn_s": 0},
        {"turn_s": 10.5},  # whole seconds: turn_seconds is an integer, on the socket as in REST
        {"turn_s": 15.0},
        {"chop_s": -1},
        {"grace_s": "60"},
        {"bot_budget_s": 0},
        {"log_size": 0},
        {"log_chars": 0},
        {"rate": 0},
        {"burst": 0.5},
    ],
)
def test_table_settings_are_checked(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        TableConfig(**bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("turn", [10, 15, 20])
def test_the_socket_says_turn_seconds_as_the_rest_api_does(turn: int) -> None:
    """A whole number of seconds (it was ``10.0`` on the socket, ``10`` in ``/api/tables``)."""
    h = Harness(config=TableConfig(turn_s=turn))
    info = h.table.table_info()
    assert type(info["turn_seconds"]) is int and info["turn_seconds"] == turn
    assert f'"turn_seconds":{turn},' in to_json(info)


def test_a_lineup_loses_a_player_with_their_balance() -> None:
    people = [Occupant("a", "A"), Occupant("b", "B"), Occupant("bot-1", "bot", "greedy")]
    lineup = Lineup.of([0, 2, 3], people, [100, 50, None], 10**12)
    assert lineup.balances == [100, 50, 10**12] and lineup.bots == [False, False, True]
    lineup.remove("b")
    assert (lineup.seats, lineup.users, lineup.balances) == ([0, 3], ["a", "bot-1"], [100, 10**12])
    assert lineup.seat("bot-1") == 1 and lineup.seat("b") is None
    assert Lineup.of([0, 1], people[:2], [None, None], 1).balances is None


def test_the_shared_bot_pool_is_one_pool_until_shut_down() -> None:
    pool = shared_bot_pool(1)
    assert shared_bot_pool() is pool
    shutdown_bot_pool()
    again = shared_bot_pool(1)
    assert again is not pool
    shutdown_bot_pool()
    shutdown_bot_pool()  # nothing to stop: fine


def run(coroutine: object) -> object:
    return asyncio.run(coroutine)  # type: ignore[arg-type]


def test_an_outbox_keeps_each_message_as_its_json_text_only() -> None:
    """Kept dicts of views made Python's garbage collector pause for a second with hundreds of
    tables (docs/BENCHMARKS.md, "Server load"): the outbox keeps text, written once."""
    import gc
    import json

    from tienlen.server.table.outbox import to_json

    box = Outbox(2)
    sent = box.add({"type": "update", "view": {"hand": "3s 4s", "legal": ["3s", "4s"]}})
    assert sent.text == to_json(sent) and json.loads(sent.text) == sent
    assert '"n":1' in sent.text and "đ" in to_json({"name": "đ"})
    assert not any(gc.is_tracked(item) for entry in box._log for item in entry)


def test_timers_ride_in_the_update_and_alone_only_when_no_view_changed() -> None:
    """A change sends each recipient one message with the timers it started for them: the
    turn's to everyone, a chop offer's to its seat alone; a timer started while someone's view
    stayed the same goes to them as a ``timer`` of its own."""
    from tienlen.engine.actions import Action
    from tienlen.engine.rules import RuleSet
    from tienlen.engine.views import PublicLog
    from tienlen.server.table.recipients import Recipients

    sent: dict[str, list[dict[str, object]]] = {"a": [], "b": [], "watcher": []}
    recipients = Recipients(lambda user, message: sent[user].append(message), 16)
    for user in sent:
        recipients.join(user, user).synced = True
    game = dealing("3s", "", leader=0, seed=4)(RuleSet.preset("thapthanh"), 2)
    log = PublicLog(2)
    seat_of = {"a": 0, "b": 1}

    def view_of(user: str):  # type: ignore[no-untyped-def]
        seat = seat_of.get(user)
        return (log.spectator(game), None) if seat is None else (log.view(game, seat), seat)

    turn = {"game": 1, "seat": 0, "kind": "turn", "deadline": 10.0, "seconds": 10}
    chop = {"game": 1, "seat": 1, "kind": "chop", "deadline": 3.0, "seconds": 3}
    recipients.publish(1, [0, 1], view_of, turn, {})
    assert [(m["type"], m["timers"]) for m in sent["a"]] == [("game", [turn])]
    assert sent["watcher"][-1]["timers"] == [turn]
    game.apply(Action.play(0, "3s"))  # type: ignore[arg-type]
    recipients.publish(1, [0, 1], view_of, turn, {1: chop})
    assert [m["type"] for m in sent["b"]] == ["game", "update"]
    assert sent["b"][-1]["timers"] == [turn, chop] and sent["a"][-1]["timers"] == [turn]
    recipients.publish(1, [0, 1], view_of, None, {1: chop})  # nothing changed in any view
    assert [m["type"] for m in sent["b"]] == ["game", "update", "timer"]
    assert {k: v for k, v in sent["b"][-1].items() if k not in ("type", "n")} == chop
    assert len(sent["a"]) == len(sent["watcher"]) == 2
    assert [m["n"] for m in sent["b"]] == [1, 2, 3]


@pytest.mark.parametrize(
    "message",
    [
        {"type": "chat", "text": 'Chào cả bàn \u2665 "ok" </script>\n', "at": 1700000012.5},
        {"x": [1e16, 0.1, 1 / 3, -0.0, 2**63 - 1, None, True], "y": {"a": []}},
        {"big": 2**70},  # over 64 bits: orjson refuses it
        {"keys": {1: "one"}},  # not a string
        {"text": "\ud800"},  # a lone surrogate
    ],
)
def test_messages_are_written_as_the_standard_library_writes_them(message: dict[str, Any]) -> None:
    assert to_json(message) == json.dumps(message, ensure_ascii=False, separators=(",", ":"))
