"""The seat rules of a live table (server/seat_rules.py): away is not playing, a player who
cannot pay is stood up, and the table says when the next game starts. A manual clock moves
time; every message is checked against the protocol as it is sent (table_driver.Harness)."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, date, datetime
from typing import Any

import pytest
from conftest import deal

from tienlen.engine.game import Game
from tienlen.engine.record import GameRecord
from tienlen.money.settlement import Settlement
from tienlen.server.settings import Settings
from tienlen.server.table import seat_rules
from tienlen.server.table.seating import Occupant

from .table_driver import FAST, Harness

NO_SEEDS = dataclasses.replace(FAST, client_seeds=False)


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def seat_info(h: Harness, seat: int) -> dict[str, Any]:
    info = h.table.table_info()["seats"][seat]
    assert info is not None
    return dict(info)


def last_table(h: Harness, user: str) -> dict[str, Any]:
    return [m for m in h.sent[user] if m["type"] == "table"][-1]


def test_the_count_of_time_outs_in_a_row_marks_a_person_away() -> None:
    person, bot = Occupant("u1", "An", ready=True), Occupant("b", "Bot", "random", ready=True)
    seat_rules.timed_out(person, 2)
    seat_rules.acted(person)  # their own action: the count starts again
    seat_rules.timed_out(person, 2)
    assert (person.timeouts, person.away, person.ready) == (1, False, True)
    seat_rules.timed_out(person, 2)
    assert (person.away, person.ready) == (True, False)
    for _ in range(3):
        seat_rules.timed_out(bot, 2)
    assert (bot.away, bot.ready) == (False, True)  # bots are never away


def test_an_idle_person_is_marked_away_finishes_by_the_timer_and_is_not_dealt_in_again() -> None:
    async def main() -> Harness:
        h = Harness(config=NO_SEEDS, rules="thapthanh", seed=3)
        h.table.start()
        h.client("u0", seed=1).join(0)
        idle = h.client("u1", idle=True)
        idle.join(1)
        h.clients["u0"].send(type="add_bot", seat=2, level="random")
        await h.run_until(lambda: h.table.phase == "playing")
        occupant = h.table.seats[1]
        assert occupant is not None
        # Acting themselves starts the count again: one time-out, a play, then one more.
        await h.run_until(lambda: occupant.timeouts == 1 or bool(h.games))
        assert not h.games, "the first game ended before the test could look"
        idle.idle = False
        await h.run_until(lambda: occupant.timeouts == 0)
        idle.idle = True
        await h.run_until(lambda: occupant.timeouts == 1)
        assert not occupant.away and seat_info(h, 1)["ready"]
        await h.run_until(lambda: occupant.away or bool(h.games))
        assert not h.games, "the first game ended before the second time-out"
        away = seat_info(h, 1)
        assert (away["away"], away["ready"], away["playing"]) == (True, False, True)
        assert last_table(h, "u0")["seats"][1]["away"]  # everyone sees it
        # The timer plays the rest of the game for them; the next one is dealt without them.
        await h.run_until(lambda: len(h.games) >= 2)
        second = h.games[1][0].extra["users"]
        assert "u1" not in second and "u0" in second
        # "I'm back": ready again, dealt into the game after.
        idle.idle = False
        idle.send(type="ready", ready=True)
        await h.settle()
        assert (seat_info(h, 1)["away"], seat_info(h, 1)["ready"]) == (False, True)
        await h.run_until(lambda: len(h.games) >= 3)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    first = h.games[0][0]
    idle_seat = first.extra["users"].index("u1")
    assert {"seat": idle_seat, "timeout": True} in first.actions
    assert "u1" in h.games[2][0].extra["users"]


def test_a_disconnected_player_in_the_grace_period_is_not_dealt_the_next_game() -> None:
    async def main() -> tuple[Harness, dict[str, Any]]:
        h = Harness(config=dataclasses.replace(NO_SEEDS, grace_s=1000), rules="thapthanh", seed=5)
        h.table.start()
        h.client("u0", seed=1).join(0)
        h.client("u1", seed=2).join(1)
        h.clients["u0"].send(type="add_bot", seat=2, level="random")
        await h.run_until(lambda: h.table.phase == "playing")
        h.table.disconnect("u1")
        del h.clients["u1"]  # nobody answers for it now: the timer plays
        await h.settle()
        gone = seat_info(h, 1)
        await h.run_until(lambda: len(h.games) >= 2)
        assert h.table.seats.seat_of("u1") == 1  # still within the grace period
        await h.table.close()
        return h, gone

    h, gone = run(main())
    assert h.problems == []
    assert (gone["connected"], gone["away"], gone["ready"]) == (False, True, False)
    assert "u1" in h.games[0][0].extra["users"]
    assert "u1" not in h.games[1][0].extra["users"]  # not dealt in while away


def test_a_reload_costs_nothing_but_an_absence_the_timer_played_through_stays_away() -> None:
    async def main() -> list[tuple[bool, bool, bool]]:
        h = Harness(config=dataclasses.replace(NO_SEEDS, grace_s=1000), rules="thapthanh", seed=5)
        h.table.start()
        h.client("u0", seed=1).join(0)
        gone = h.client("u1", seed=2)
        gone.join(1)
        h.clients["u0"].send(type="add_bot", seat=2, level="random")
        await h.run_until(lambda: h.table.phase == "playing")
        occupant = h.table.seats[1]
        assert occupant is not None
        seen = []

        async def come_back() -> None:
            h.table.connect("u1", "U1")
            gone.send(type="hello", protocol=1, last_n=gone.last_n)
            await h.settle()

        def look() -> None:
            info = seat_info(h, 1)
            seen.append((info["connected"], info["away"], info["ready"]))

        h.table.disconnect("u1")  # a reload: gone and back at once
        await h.settle()
        look()
        await come_back()
        look()
        gone.idle = True
        h.table.disconnect("u1")  # a long absence: the timer plays for them twice
        await h.run_until(lambda: occupant.timeouts >= 2 or bool(h.games))
        assert not h.games, "the game ended before the second time-out"
        await come_back()
        look()
        await h.table.close()
        assert h.problems == []
        return seen

    reload_gone, reload_back, absence_back = run(main())
    assert reload_gone == (False, True, False)  # everyone sees it while it lasts
    assert reload_back == (True, False, True)  # and nothing is left of it
    assert absence_back == (True, True, False)  # away until they say "I'm back"


def test_next_game_says_when_a_deal_is_due() -> None:
    async def main() -> tuple[Harness, list[Any]]:
        h = Harness(config=NO_SEEDS, rules="thapthanh", seed=2)
        h.table.start()
        seen: list[Any] = []
        h.client("u0", seed=1).join(0)
        await h.settle()
        seen.append(h.table.table_info()["next_game"])  # one ready: nothing due
        start = h.clock.now()
        h.client("u1", seed=2).join(1)
        await h.settle()
        seen.append((h.table.table_info()["next_game"], start))  # two of four: the start wait
        await h.run_until(lambda: h.table.phase == "playing")
        seen.append(h.table.table_info()["next_game"])  # a game on: null
        await h.run_until(lambda: len(h.games) >= 1)
        seen.append((h.table.table_info()["next_game"], h.clock.now()))  # the pause
        h.clients["u1"].send(type="ready", ready=False)
        await h.settle()
        seen.append(h.table.table_info()["next_game"])  # only one ready: nothing due
        await h.table.close()
        return h, seen

    h, seen = run(main())
    assert h.problems == []
    alone, (waiting, start), playing, (resting, over), unready = seen
    assert alone is None and playing is None and unready is None
    assert waiting == {"deadline": start + FAST.start_wait_s, "seconds": FAST.start_wait_s}
    assert resting == {"deadline": over + FAST.between_games_s, "seconds": FAST.between_games_s}
    shown = [m["next_game"] for m in h.sent["u0"] if m["type"] == "table"]
    assert waiting in shown and resting in shown and None in shown


def test_a_first_deal_wait_holds_even_a_full_ready_table() -> None:
    config = dataclasses.replace(NO_SEEDS, seats=2, first_deal_wait_s=4.0)

    async def main() -> tuple[Harness, Any, float]:
        h = Harness(config=config, rules="thapthanh", seed=2)
        h.table.start()
        h.client("u0", seed=1).join(0)
        h.clients["u0"].send(type="add_bot", seat=1, level="random")
        await h.settle()
        start = h.clock.now()
        due = h.table.table_info()["next_game"]
        await h.advance(3.9)
        assert h.table.phase == "waiting" and h.table.games == 0
        await h.advance(0.1)
        assert h.table.phase == "playing"
        await h.table.close()
        return h, due, start

    h, due, start = run(main())
    assert h.problems == []
    assert due == {"deadline": start + 4.0, "seconds": 4.0}


class Bank:
    """Balances a table deals from, moved by each settlement as the ledger would."""

    def __init__(self, harness: Harness, balances: dict[str, int]) -> None:
        self.harness, self.balances = harness, balances

    def settle(self, record: GameRecord, result: Settlement) -> None:
        self.harness.games.append((record, result))
        for user, delta in zip(record.extra["users"], result.deltas, strict=True):
            if user in self.balances:  # bots' purses are unlimited
                self.balances[user] += delta


def test_a_person_who_cannot_pay_is_refused_a_seat_and_stood_up_after_a_settlement() -> None:
    balances = {"u0": 10, "u1": 10, "u2": 500, "u3": 9}

    async def main() -> Harness:
        h = Harness(
            config=dataclasses.replace(NO_SEEDS, seats=3),
            rules="thapthanh",
            bet=10,
            balances=balances,
        )
        h.table.on_game_over = Bank(h, balances).settle
        h.table.start()
        h.client("u3").join(0)  # 9 chips, the bet is 10: refused
        await h.settle()
        assert h.table.seats[0] is None
        h.client("u2").join(2)
        await h.settle()
        balances["u2"] = 5  # spent elsewhere before the deal: stood up when it is dealt
        h.client("u0", seed=1).join(0)
        h.client("u1", seed=2).join(1)
        await h.run_until(lambda: len(h.games) >= 1)
        await h.settle()
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    assert [e["code"] for e in h.clients["u3"].errors][:1] == ["not_enough_chips"]
    assert "9 chips" in h.clients["u3"].errors[0]["message"]
    record, settlement = h.games[0]
    assert record.extra["users"] == ["u0", "u1"]  # u2 was stood up at the deal
    stood = [m for m in h.sent["u2"] if m["type"] == "stood_up"]
    told_u2 = {"seat": 2, "reason": "no_chips", "chips": 5, "needs": 10, "top_up": None}
    assert [{k: v for k, v in m.items() if k not in ("type", "n")} for m in stood] == [told_u2]
    loser = record.extra["users"][settlement.deltas.index(min(settlement.deltas))]
    winner = "u1" if loser == "u0" else "u0"
    told = [m for m in h.sent[loser] if m["type"] == "stood_up"]
    assert len(told) == 1 and told[0]["chips"] == balances[loser] < 10
    kinds = [m["type"] for m in h.numbered(loser)]
    assert kinds.index("stood_up") > kinds.index("settlement")
    assert kinds[kinds.index("stood_up") + 1] == "table"  # the emptied seat follows
    assert h.table.seats.seat_of(loser) is None and h.table.seats.seat_of(winner) is not None
    assert h.table.recipients.connected(loser)  # still watching
    assert not [m for m in h.sent[winner] if m["type"] == "stood_up"]
    assert h.table.table_info()["next_game"] is None  # nobody left to play with


def test_the_next_top_up_is_now_or_at_the_next_server_day() -> None:
    settings = Settings(topup_floor=10_000, topup_amount=10_000, day_utc_offset_hours=7)
    now = datetime(2026, 12, 3, 11, 30, tzinfo=UTC)  # 18:30 in Vietnam, on the 3rd
    due = seat_rules.next_top_up(None, 0, now, settings)
    assert due == {"chips": 10_000, "at": "2026-12-03T11:30:00+00:00"}
    claimed = seat_rules.next_top_up(date(2026, 12, 3), 0, now, settings)
    assert claimed == {"chips": 10_000, "at": "2026-12-03T17:00:00+00:00"}  # 00:00 on the 4th
    assert seat_rules.next_top_up(date(2026, 12, 2), 500, now, settings) == due
    assert seat_rules.next_top_up(None, 10_000, now, settings) is None  # holds enough
    none = Settings(topup_amount=0)
    assert seat_rules.next_top_up(None, 0, now, none) is None


@pytest.mark.parametrize("how", ["silent", "tab_closed"])
def test_a_person_who_stops_acting_loses_at_most_the_game_on_and_one_more(how: str) -> None:
    """The tester's guest, whose open tab was dealt in game after game until 100 000 chips
    were gone: here they stop acting (connected and silent, or the tab closed) during the
    second game at a table of bots and another person, who plays on for several games."""
    balances = {"u0": 100_000, "u9": 100_000}

    async def main() -> tuple[Harness, int]:
        h = Harness(
            config=NO_SEEDS,
            rules="thapthanh",
            bet=1000,
            balances=balances,
            seed=11,
        )
        h.table.on_game_over = Bank(h, balances).settle
        h.table.start()
        gone = h.client("u0", seed=1)
        gone.join(0)
        h.client("u9", seed=9).join(1)
        for seat in (2, 3):
            gone.send(type="add_bot", seat=seat, level="random")
        await h.run_until(lambda: h.table.games == 2 and h.table.phase == "playing")
        stopped_in = h.table.games
        if how == "silent":
            gone.idle = True
        else:
            h.table.disconnect("u0")
            del h.clients["u0"]
        await h.run_until(lambda: len(h.games) >= 7)
        await h.table.close()
        return h, stopped_in

    h, stopped_in = run(main())
    assert h.problems == []
    dealt_after = [r.extra["game"] for r, _ in h.games if r.extra["game"] > stopped_in
                   and "u0" in r.extra["users"]]  # fmt: skip
    assert len(dealt_after) <= 1  # the game in progress, and at most one more
    assert all(number == stopped_in + 1 for number in dealt_after)
    assert len(h.games) - stopped_in >= 4  # the others played on without them
    lost = 0
    for record, settlement in h.games:
        if record.extra["game"] >= stopped_in and "u0" in record.extra["users"]:
            lost -= settlement.deltas[record.extra["users"].index("u0")]
    start = 100_000 + sum(
        s.deltas[r.extra["users"].index("u0")]
        for r, s in h.games
        if r.extra["game"] < stopped_in and "u0" in r.extra["users"]
    )
    assert balances["u0"] == start - lost > 0  # never the whole balance
    seat = h.table.seats.seat_of("u0")
    if seat is not None:  # still seated (silent): away, for everyone to see
        assert (seat_info(h, seat)["away"], seat_info(h, seat)["ready"]) == (True, False)


def test_a_dealt_toi_trang_counts_against_a_player_the_timer_was_already_playing_for() -> None:
    """A tới trắng ends before anyone has a turn, so the timer cannot count one for a silent
    player: without counting the game itself, one who went quiet late in a game (one time-out)
    lost that game, the tới trắng and the game after it."""
    person = Occupant("u1", "An", ready=True)
    seat_rules.dealt(person)
    seat_rules.timed_out(person, 2)
    seat_rules.game_over(person, 2)  # the timer acted in it: counted once, no more
    assert (person.timeouts, person.away) == (1, False)
    seat_rules.dealt(person)
    seat_rules.game_over(person, 2)  # nobody acted for them: a second time-out
    assert (person.away, person.ready) == (True, False)
    present = Occupant("u2", "Bình", ready=True)
    seat_rules.dealt(present)
    seat_rules.game_over(present, 2)  # not counted when it began: nothing changes
    seat_rules.timed_out(present, 2)
    seat_rules.back(present, True)  # their "ready" says they are there: the count starts again
    seat_rules.dealt(present)
    seat_rules.game_over(present, 2)
    assert (present.timeouts, present.away, present.ready) == (0, False, True)

    balances = {"u0": 100_000, "u9": 100_000}
    counted: dict[int, int] = {}
    deals = []

    def dealer(rules: Any, n: int, **kw: Any) -> Any:
        deals.append(n)
        if len(deals) != 3:
            return Game.new(rules, n, **kw)
        game = Game(rules, deal("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c", players=n), first_game=False)
        assert game.instant_win is not None  # seat 0 of the game holds six pairs
        return game

    async def main() -> Harness:
        h = Harness(config=NO_SEEDS, rules="thapthanh", bet=1000, balances=balances, seed=8,
                    dealer=dealer)  # fmt: skip
        bank = Bank(h, balances)

        def settle(record: GameRecord, result: Settlement) -> None:
            occupant = h.table.seats.occupant("u0")
            counted[record.extra["game"]] = -1 if occupant is None else occupant.timeouts
            bank.settle(record, result)

        h.table.on_game_over = settle
        h.table.start()
        gone = h.client("u0", seed=1)
        gone.join(0)
        h.client("u9", seed=9).join(1)
        for seat in (2, 3):
            gone.send(type="add_bot", seat=seat, level="random")
        await h.run_until(lambda: h.table.games == 2 and h.table.phase == "playing")
        game = h.table.game
        assert game is not None
        # Quiet near the end of the game: the timer takes one turn of theirs before it ends.
        await h.run_until(lambda: min(game.cards_left()) <= 1 or game.over)
        gone.idle = True
        await h.run_until(lambda: len(h.games) >= 5)
        await h.table.close()
        return h

    h = run(main())
    assert h.problems == []
    assert counted[2] == 1, "pick another seed: the timer did not take exactly one turn"
    assert h.games[2][0].extra["game"] == 3 and h.games[2][0].actions == []  # the tới trắng
    dealt_after = [r.extra["game"] for r, _ in h.games if r.extra["game"] > 2
                   and "u0" in r.extra["users"]]  # fmt: skip
    assert dealt_after == [3]  # the tới trắng (dealt before it was known), and no more
