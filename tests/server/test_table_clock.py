"""Live tables on the clock: the turn timer, chop offers, reconnecting and the grace period,
when games start. A manual clock moves time; no test waits for real seconds."""

from __future__ import annotations

import asyncio
import dataclasses
import math
from typing import Any

from engine_driver import FOUR_PAIRS

from tienlen.engine.actions import Action

from .table_driver import FAST, Harness, dealing

NO_SEEDS = dataclasses.replace(FAST, client_seeds=False)


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def auto_events(message: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [e for e in message.get("events", []) if e.get("seat") == seat and e.get("auto")]


def started(message: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The timers of ``kind`` a message says started: a ``game`` or ``update`` carries them."""
    if message["type"] == "timer":
        return [message] if message["kind"] == kind else []
    return [t for t in message.get("timers", []) if t["kind"] == kind]


# --- the turn timer ------------------------------------------------------------------------------
def test_the_timer_plays_for_an_idle_player() -> None:
    async def main() -> Harness:
        h = Harness(rules="thapthanh")
        h.table.start()
        h.client("u0").join(0)
        h.client("u1", idle=True).join(1)
        await h.run_until(lambda: len(h.games) >= 1)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    record = h.games[0][0]
    idle = record.extra["users"].index("u1")
    mine = [a for a in record.actions if a["seat"] == idle]
    assert mine and all(a == {"seat": idle, "timeout": True} for a in mine)
    # Each time-out came exactly at the deadline its timer announced, to everyone, in the
    # update that handed the turn on (no message of its own).
    deadline = None
    checked = 0
    for when, message in zip(h.times["u0"], h.sent["u0"], strict=True):
        assert message["type"] != "timer"
        if message["type"] == "update" and auto_events(message, idle):
            assert when == deadline
            checked += 1
        for timer in started(message, "turn"):
            deadline = timer["deadline"] if timer["seat"] == idle else None
            assert timer["seconds"] == FAST.turn_s
    assert checked == len(mine)


# --- chop offers ---------------------------------------------------------------------------------
async def chop_table(*, chopper_chops: bool) -> Harness:
    """Four people; seat 0 leads a 2 and seat 3 holds four consecutive pairs (langvuichoi lets
    them chop out of turn)."""
    h = Harness(config=NO_SEEDS, dealer=dealing("2s", "", "", FOUR_PAIRS, seed=4))
    h.table.start()
    clients = [h.client(f"u{k}", idle=True) for k in range(4)]
    for seat, client in enumerate(clients):
        client.join(seat)
    await h.settle()
    assert h.table.phase == "playing"
    clients[0].send(type="play", cards="2s")
    await h.settle()
    if chopper_chops:
        chop = clients[3].view["legal"][0]  # type: ignore[index]
        clients[3].send(type="play", cards=chop, ref="chop")
        await h.settle()
    return h


def test_a_chop_offer_is_private_and_lapses_as_a_decline() -> None:
    async def main() -> tuple[Harness, dict[str, int], float]:
        h = await chop_table(chopper_chops=False)
        start = h.clock.now()
        counts = {u: len(h.sent[u]) for u in ("u0", "u1", "u2", "u3")}
        await h.advance(FAST.chop_s)
        return h, counts, start

    h, counts, start = run(main())
    assert h.problems == []
    game = h.table.game
    assert game is not None
    assert game.history[-1] == Action.decline(3)
    offers = [m for m in h.sent["u3"] if started(m, "chop")]
    assert len(offers) == 1 and offers[0]["view"]["chop_offer"]  # with the view that offers
    timers = started(offers[0], "chop")
    assert len(timers) == 1 and timers[0]["seat"] == 3
    assert timers[0]["deadline"] == start + FAST.chop_s
    for user in ("u0", "u1", "u2"):
        assert not [m for m in h.sent[user] if started(m, "chop")]
        assert len(h.sent[user]) == counts[user], "others must not learn of the decline"
    last = h.sent["u3"][-1]
    assert last["type"] == "update" and last["events"] == []
    assert last["actions"] == [{"seat": 3, "decline": True}] and not last["view"]["chop_offer"]
    assert game.current == 1  # the turn went on meanwhile: seat 1's timer is still running


def test_a_fresh_state_shows_the_turn_timer_and_your_own_chop_offer_only() -> None:
    async def main() -> Harness:
        h = await chop_table(chopper_chops=False)
        for user in ("u3", "u1"):
            h.clients[user].send(type="hello", protocol=1)
        h.table.receive("stranger", '{"type": "hello", "protocol": 1}')  # never connected
        await h.settle()
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == [] and "stranger" not in h.sent
    timers = {u: h.sent[u][-1]["game"]["timers"] for u in ("u3", "u1")}
    assert [t["kind"] for t in timers["u3"]] == ["turn", "chop"]
    assert [t["kind"] for t in timers["u1"]] == ["turn"]
    assert h.sent["u3"][-1]["game"]["view"]["chop_offer"]


def test_a_person_chops_out_of_turn_in_the_window() -> None:
    h = run(chop_table(chopper_chops=True))
    assert h.problems == []
    assert {"type": "ack", "ref": "chop"} in h.sent["u3"]
    game = h.table.game
    assert game is not None and game.history[-1].seat == 3
    events = [e for m in h.numbered("u1") if m["type"] == "update" for e in m["events"]]
    assert [e["type"] for e in events[-2:]] == ["play", "chop"]
    assert events[-2]["out_of_turn"]


def test_a_bot_in_the_window_is_asked_and_declines() -> None:
    async def main() -> Harness:
        h = Harness(config=NO_SEEDS, dealer=dealing("2s", "", FOUR_PAIRS, "", seed=5))
        h.table.start()
        owner, other, third = h.client("u0", idle=True), h.client("u1"), h.client("u3")
        owner.join(0)
        other.join(1)
        owner.send(type="add_bot", seat=2, level="greedy")  # greedy never chops out of turn
        third.join(3)
        await h.settle()
        owner.send(type="play", cards="2s")
        while h.table.thinking or len(h.table.game.history) < 2:  # type: ignore[union-attr]
            await asyncio.sleep(0.001)
        await h.settle()
        return h

    h = run(main())
    assert h.problems == []
    game = h.table.game
    assert game is not None and Action.decline(2) in game.history
    assert not [m for u in ("u0", "u1", "u3") for m in h.sent[u] if m.get("kind") == "chop"]


# --- reconnecting --------------------------------------------------------------------------------
async def four_playing(log_size: int = 256) -> Harness:
    config = dataclasses.replace(FAST, log_size=log_size, grace_s=1000)
    h = Harness(config=config)
    h.table.start()
    for k in range(4):
        h.client(f"u{k}", seed=k).join(k)
    await h.run_until(lambda: h.table.phase == "playing" and len(h.table.game.history) > 4)  # type: ignore[union-attr]
    return h


def test_a_client_resumes_from_its_last_number_and_keeps_its_seat() -> None:
    async def main() -> tuple[Harness, int, dict[str, Any], list[dict[str, Any]]]:
        h = await four_playing()
        dropped = h.clients["u2"]
        h.table.disconnect("u2")
        dropped.idle = True  # the phone sleeps: the timer plays its turns
        last = dropped.last_n
        await h.settle()
        table = [m for m in h.sent["u0"] if m["type"] == "table"][-1]
        assert not table["seats"][2]["connected"]  # the others see it
        seen = len(h.sent["u2"])
        await h.run_until(lambda: h.clients["u0"].last_n > 20 + last)
        assert len(h.sent["u2"]) == seen  # nothing reaches a closed connection
        h.table.connect("u2", "U2")
        dropped.send(type="hello", protocol=1, last_n=last, ref="back")
        await h.settle()
        replayed = h.sent["u2"][seen:]
        rebuilt = dict(dropped.view or {})
        dropped.send(type="hello", protocol=1)  # a fresh state, to compare with
        await h.settle()
        await h.table.close()
        return h, last, rebuilt, replayed

    h, last, rebuilt, replayed = run(main())
    assert h.problems == []
    assert replayed[0] == {
        "type": "welcome",
        "protocol": 1,
        "table": "t1",
        "user": "u2",
        "resumed": True,
        "ref": "back",
    }
    numbers = [m["n"] for m in replayed[1:]]
    assert numbers == list(range(last + 1, last + 1 + len(numbers))) and len(numbers) > 5
    assert h.table.seats.seat_of("u2") == 2
    state = h.sent["u2"][-1]
    assert state["type"] == "state" and state["n"] == numbers[-1]
    assert state["game"]["view"] == rebuilt  # the updates rebuild the view exactly


def test_a_client_gets_a_fresh_state_when_the_log_no_longer_reaches_back() -> None:
    async def main() -> tuple[Harness, list[dict[str, Any]]]:
        h = await four_playing(log_size=3)
        h.table.disconnect("u1")
        h.clients["u1"].idle = True
        last = h.clients["u1"].last_n
        await h.run_until(lambda: h.clients["u0"].last_n > 10 + last)
        seen = len(h.sent["u1"])
        h.table.connect("u1", "U1")
        h.clients["u1"].send(type="hello", protocol=1, last_n=last)
        h.clients["u1"].send(type="hello", protocol=1, last_n=10**6)  # a number never given
        await h.settle()
        await h.table.close()
        return h, h.sent["u1"][seen:]

    h, answers = run(main())
    assert h.problems == []
    assert [m["type"] for m in answers] == ["welcome", "state", "welcome", "state"]
    assert not answers[0]["resumed"] and not answers[2]["resumed"]
    assert answers[1]["game"]["view"]["hand"]


def test_a_second_tab_replaces_the_first_whose_close_is_then_ignored() -> None:
    async def main() -> Harness:
        h = Harness()
        h.table.start()
        first = h.table.connect("u0", "U0")
        h.clients["u0"] = client = h.client("u0", idle=True)
        client.send(type="hello", protocol=1)
        client.send(type="sit", seat=0)
        await h.settle()
        second = h.table.connect("u0", "U0")  # a reload: the new socket opens first
        client.send(type="hello", protocol=1, last_n=client.last_n)
        h.table.disconnect("u0", first)  # then the old one closes: too late to matter
        await h.advance(FAST.grace_s + 1)
        assert h.table.table_info()["seats"][0]["connected"]
        h.table.disconnect("u0", second)
        await h.advance(FAST.grace_s + 1)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    assert h.table.seats[0] is None  # the latest connection closed: the grace period ran out


# --- the grace period ----------------------------------------------------------------------------
async def two_idle_players() -> Harness:
    h = Harness(config=NO_SEEDS, dealer=dealing("3s", "", leader=0))
    h.table.start()
    h.client("u0", idle=True).join(0)
    h.client("u1", idle=True).join(1)
    await h.advance(FAST.start_wait_s)
    assert h.table.phase == "playing"
    h.table.disconnect("u1")
    await h.settle()
    return h


def test_after_the_grace_period_the_player_leaves() -> None:
    async def main() -> Harness:
        h = await two_idle_players()
        await h.advance(FAST.grace_s - 1)
        assert h.table.seats.seat_of("u1") == 1 and not h.games
        await h.advance(1)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    record, settlement = h.games[0]
    assert {"seat": 1, "leave": True} in record.actions
    assert replay_reason(record) == "left"
    assert settlement.deltas[1] < 0 < settlement.deltas[0]  # seed 000: the one who stays wins
    assert h.table.seats.seat_of("u1") is None
    assert "u1" not in h.table.recipients.members
    table = [m for m in h.sent["u0"] if m["type"] == "table"][-1]
    assert table["seats"][1] is None


def replay_reason(record: Any) -> str:
    from tienlen.engine.record import parse_record, replay

    game = replay(parse_record(record.to_dict()))
    return str(game.events[-1].reason)  # type: ignore[attr-defined]


def test_reconnecting_within_the_grace_period_keeps_the_seat() -> None:
    async def main() -> Harness:
        h = await two_idle_players()
        await h.advance(FAST.grace_s - 5)
        h.table.connect("u1", "U1")
        h.clients["u1"].send(type="hello", protocol=1, last_n=h.clients["u1"].last_n)
        await h.advance(FAST.grace_s)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    game = h.table.game
    assert game is not None and Action.leave(1) not in game.history
    assert h.table.table_info()["seats"][1]["connected"]


def test_standing_up_during_a_game_leaves_it() -> None:
    async def main() -> Harness:
        h = Harness(config=NO_SEEDS, dealer=dealing("3s", ""))
        h.table.start()
        h.client("u0", idle=True).join(0)
        h.client("u1", idle=True).join(1)
        await h.advance(FAST.start_wait_s)
        h.clients["u1"].send(type="stand")
        await h.settle()
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    record, _ = h.games[0]
    assert record.actions == [{"seat": 1, "leave": True}]
    # The one who stood up now watches: the spectator view, no hand.
    game_views = [m for m in h.numbered("u1") if m["type"] == "game"]
    assert "hand" not in game_views[-1]["view"]


# --- when games start ----------------------------------------------------------------------------
def test_a_game_waits_for_everyone_seated_then_starts_with_those_ready() -> None:
    async def main() -> Harness:
        h = Harness(config=NO_SEEDS, balances={"u0": 100, "u1": 100, "u2": 100, "u3": 0})
        h.table.start()
        h.client("u0", idle=True).join(0)
        h.client("u1", idle=True).join(1)
        h.client("u2", idle=True).join(2)
        h.clients["u2"].send(type="ready", ready=False)
        h.client("u3", idle=True).join(3)
        await h.advance(FAST.start_wait_s - 1)
        assert h.table.phase == "waiting"
        await h.advance(1)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    lineup = h.table.lineup
    assert lineup is not None and lineup.users == ["u0", "u1"]  # u2 not ready, u3 has no chips
    assert h.table.seats[3] is None  # refused a seat it could not pay for (seat_rules.py)
    assert [e["code"] for e in h.clients["u3"].errors] == ["not_enough_chips", "not_seated"]


def test_bots_alone_never_start_a_game() -> None:
    async def main() -> Harness:
        h = Harness(config=NO_SEEDS)
        h.table.start()
        owner = h.client("u0")
        owner.join()
        owner.send(type="add_bot", seat=0, level="random")
        owner.send(type="add_bot", seat=1, level="random")
        await h.settle()
        assert h.clock.next_wakeup() is None  # no timer set: nothing will start
        await h.table.close()
        return h

    h = run(main())
    assert h.table.phase == "waiting" and h.table.games == 0


def test_a_full_table_starts_at_once_and_games_follow_each_other() -> None:
    async def main() -> Harness:
        h = Harness(rules="thapthanh")
        h.table.start()
        for k in range(4):
            h.client(f"u{k}", seed=k).join(k)
        await h.run_until(lambda: len(h.games) >= 2)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    sent = list(zip(h.times["u0"], h.sent["u0"], strict=True))
    commitments = [t for t, m in sent if m["type"] == "commitment"]
    settlements = [t for t, m in sent if m["type"] == "settlement"]
    assert commitments[0] == h.times["u0"][0]  # every seat taken and ready: no waiting
    assert commitments[1] - settlements[0] == FAST.between_games_s


# --- client seeds --------------------------------------------------------------------------------
def test_the_deal_waits_for_client_seeds_until_the_deadline() -> None:
    async def main() -> Harness:
        h = Harness()
        h.table.start()
        h.client("u0", idle=True, seeds=False).join(0)
        h.client("u1", idle=True, seeds=False).join(1)
        h.client("w", idle=True).join()
        await h.advance(FAST.start_wait_s)
        assert h.table.phase == "seeding"
        h.clients["u0"].send(type="client_seed", seed="abcd", ref="s")
        h.clients["u0"].send(type="client_seed", seed="abcd", ref="again")
        h.clients["w"].send(type="client_seed", seed="abcd", ref="w")
        await h.advance(FAST.seed_window_s - 0.5)
        assert h.table.phase == "seeding"  # u1 has not sent one: the window stays open
        await h.advance(0.5)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    assert h.table.phase == "playing"
    game = h.table.game
    assert game is not None and game.deal is not None
    assert game.deal["client_seeds"] == ["abcd", ""]
    answers = {m["ref"]: m.get("code") for u in ("u0", "w") for m in h.sent[u] if "ref" in m}
    assert answers == {"s": None, "again": "seed_already_sent", "w": "not_playing"}


def test_without_client_seeds_the_deal_is_sent_with_its_commitment() -> None:
    async def main() -> tuple[Harness, Harness]:
        h = Harness(config=NO_SEEDS)
        h.table.start()
        for k in range(3):
            h.client(f"u{k}", idle=True).join(k)
        await h.advance(FAST.start_wait_s)  # dealt at the start alarm
        await h.table.close()
        h2 = Harness(config=NO_SEEDS)
        h2.table.start()
        for k in range(4):
            h2.client(f"u{k}", idle=True).join(k)
        await h2.table.idle()  # dealt at the fourth "ready": nobody sends anything after it
        await h2.table.close()
        return h, h2

    for h in run(main()):
        assert h.problems == []
        for user in h.clients:
            kinds = [m["type"] for m in h.sent[user]]
            assert "commitment" in kinds and kinds[kinds.index("commitment") + 1] == "game", kinds


def test_standing_up_before_the_deal_calls_it_off() -> None:
    async def main() -> Harness:
        h = Harness()
        h.table.start()
        h.client("u0", idle=True, seeds=False).join(0)
        h.client("u1", idle=True, seeds=False).join(1)
        await h.advance(FAST.start_wait_s)
        assert h.table.phase == "seeding"
        h.clients["u1"].send(type="stand")
        h.clients["u0"].send(type="pass", ref="p")
        await h.advance(FAST.seed_window_s)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    assert h.table.phase == "waiting" and h.table.game is None
    assert [m["code"] for m in h.sent["u0"] if m["type"] == "error"] == ["no_game"]
    tables = [m for m in h.sent["u0"] if m["type"] == "table"]
    assert tables[-1]["phase"] == "waiting" and tables[-1]["seats"][1] is None


# --- bots that answer late -----------------------------------------------------------------------
def test_a_bot_answer_overtaken_by_a_play_is_asked_again() -> None:
    """A bot in the chop window thinks (1 s at least); meanwhile the current player passes,
    which does not end the offer: the bot's answer is for an old state, so it is asked again."""

    async def main() -> tuple[Harness, list[float]]:
        config = dataclasses.replace(NO_SEEDS, bot_delay_s=1.0)
        h = Harness(config=config, dealer=dealing("2s", "", "", FOUR_PAIRS, seed=4))
        h.table.start()
        owner, other = h.client("u0", idle=True), h.client("u1", idle=True)
        owner.join(0)
        other.join(1)
        h.client("u2", idle=True).join(2)
        owner.send(type="add_bot", seat=3, level="greedy")
        await h.settle()
        owner.send(type="play", cards="2s")
        await h.settle()
        other.send(type="pass")
        await h.settle()
        game = h.table.game
        assert game is not None and game.current == 2 and game.chop_window() == (3,)
        start = h.clock.now()
        moments = []
        while Action.decline(3) not in game.history:
            # Wait until the bot has thought and sits out its delay on the clock (before the
            # turn timer at start + 10), then move the clock to the end of the delay.
            while (h.clock.next_wakeup() or math.inf) >= start + FAST.turn_s:
                await asyncio.sleep(0.001)
            h.clock.set(h.clock.next_wakeup())  # type: ignore[arg-type]
            await h.settle()
            moments.append(h.clock.now() - start)
        await h.table.close()
        return h, moments

    h, moments = run(main())
    assert h.problems == []
    assert moments == [1.0, 2.0]  # asked at 0 (stale at 1), asked again at 1, declined at 2


# --- the lead across games -----------------------------------------------------------------------
def test_the_next_game_is_led_by_the_rules_and_a_first_game_when_the_leader_is_gone() -> None:
    from tienlen.engine.game import Game
    from tienlen.engine.record import parse_record, replay
    from tienlen.money.settlement import next_game_after

    deals: list[dict[str, Any]] = []
    starts: list[Any] = []

    def dealer(rules: Any, n: int, **kwargs: Any) -> Game:
        deals.append(kwargs)
        return Game.new(rules, n, **kwargs)

    async def main() -> Harness:
        h = Harness(rules="thapthanh", dealer=dealer)
        h.table.start()
        for k in range(3):
            h.client(f"u{k}", seed=k).join(k)
        for games in (1, 2):
            await h.run_until(lambda: len(h.games) >= games)  # noqa: B023
            record = h.games[-1][0]
            start = next_game_after(replay(parse_record(record.to_dict())))
            leader = None if start.leader is None else record.extra["users"][start.leader]
            starts.append((start, leader))
        if leader is not None:
            h.clients[leader].send(type="stand")  # before the next deal
        await h.run_until(lambda: len(deals) >= 3)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    assert set(deals[0]) == {"server_seed", "client_seeds"}  # the table's first game
    start, _ = starts[0]
    assert deals[1]["first_game"] == start.first_game and deals[1]["leader"] == start.leader
    # Three of four seats taken: the next game comes at the end of the pause all the same.
    sent = list(zip(h.times["u0"], h.sent["u0"], strict=True))
    settled = [t for t, m in sent if m["type"] == "settlement"]
    dealt = [t for t, m in sent if m["type"] == "commitment"]
    assert dealt[1] - settled[0] == FAST.between_games_s
    start, leader = starts[1]
    if leader is not None:
        assert deals[2]["first_game"] and deals[2]["leader"] is None
        assert leader not in h.table.lineup.users  # type: ignore[union-attr]


# --- the game-over hook --------------------------------------------------------------------------
def test_an_async_hook_is_awaited_and_a_failing_one_does_not_stop_the_table() -> None:
    got: list[int] = []

    async def hook(record: Any, settlement: Any) -> None:
        await asyncio.sleep(0)
        got.append(record.extra["game"])
        if len(got) == 1:
            raise RuntimeError("the ledger is down")

    async def main() -> Harness:
        h = Harness(config=NO_SEEDS, on_game_over=hook)
        h.table.start()
        h.client("u0").join(0)
        h.client("u1").join(1)
        await h.run_until(lambda: len(got) >= 2)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == [] and got == [1, 2]
