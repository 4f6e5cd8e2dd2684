"""GET /api/games/{id}/replay: a finished game step by step, computed by the engine from the
stored record, for its players only (on SQLite and PostgreSQL)."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime
from typing import Any

from engine_driver import FOUR_PAIRS, OTHER_FOUR_PAIRS, start

from tienlen.engine.cards import mask_ascii, parse_mask
from tienlen.engine.codec import EVENT_TYPES, combination_fields
from tienlen.engine.combos import classify
from tienlen.engine.game import Action, Game
from tienlen.engine.record import parse_record, record_of, replay
from tienlen.engine.rules import RuleSet
from tienlen.money.settlement import settle
from tienlen.server.store.models import GamePlayer, GameRow, TableRow

from .conftest import LiveServer
from .helpers import in_transaction
from .test_lobby import _guest

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _played(seed: int, n: int = 3) -> Game:
    rng = random.Random(seed)
    game = Game.new(RuleSet.preset("bigfun"), n, seed=seed)
    while not game.is_terminal():
        game.apply_action(rng.choice(game.legal_actions()))
    return game


def _store(
    db_url: str,
    users: list[int | None],
    game: Game,
    status: str = "finished",
    number: int = 1,
    preset: str = "bigfun",
) -> tuple[str, dict[str, Any]]:
    """A table and one game at it, as the lobby stores them, played by ``users`` (None: a bot)."""
    table, game_id = "treplay", f"treplay:{number}"
    record = record_of(
        game,
        ruleset=preset,
        players=[f"P{i}" for i in range(game.n)],
        bet=1000,
        extra={"balances": [50_000] * game.n, "house_fee_bp": 600, "users": users},
    ).to_dict()

    owner = next(u for u in users if u)

    async def work(db: Any) -> None:
        if await db.get(TableRow, table) is None:
            db.add(
                TableRow(
                    id=table, room="trainee", preset=preset, bet=1000, turn_seconds=10,
                    seats=game.n, private=False, invite=None, owner_id=owner, opened_at=NOW,
                    closed_at=None,
                )
            )  # fmt: skip
            await db.flush()
        db.add(
            GameRow(
                id=game_id, table_id=table, number=number, start={}, status=status,
                record=record if status == "finished" else None, winner=game.winner,
                void_reason=None, dealt_at=NOW, settled_at=NOW,
            )
        )  # fmt: skip
        await db.flush()
        for seat, user in enumerate(users):
            db.add(
                GamePlayer(
                    game_id=game_id, seat=seat, table_seat=seat, user_id=user, name=f"P{seat}",
                    bot=None if user else "search", balance=50_000, delta=0,
                )
            )  # fmt: skip

    in_transaction(db_url, work)
    return game_id, record


def test_a_finished_game_replays_step_by_step_with_every_hand_face_up(
    live: LiveServer, db_url: str
) -> None:
    (alice, a_id, _), (bob, b_id, _) = _guest(live), _guest(live)
    game = _played(7)
    game_id, record = _store(db_url, [a_id, b_id, None], game)
    r = bob.get(f"/api/games/{game_id}/replay")
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["id"], body["preset"], body["bet"], body["seat"]) == (game_id, "bigfun", 1000, 1)
    assert body["players"] == ["P0", "P1", "P2"]
    steps = body["steps"]
    # The deal first, with every hand as dealt; then one step per engine event, in order.
    assert steps[0]["kind"] == "deal" and steps[0]["action"] is None
    assert steps[0]["hands"] == [mask_ascii(h) for h in game.initial_hands]
    assert steps[0]["turn"] == replay(parse_record(record)).leader
    kinds = [s["kind"] for s in steps[1:]]
    assert kinds == [EVENT_TYPES[type(e)] for e in game.events] and kinds[-1] == "game_over"
    assert steps[-1]["seat"] == game.winner and steps[-1]["turn"] is None
    assert steps[-1]["hands"] == [mask_ascii(h) for h in game.hands]
    # Each play takes exactly its cards from its seat's hand, and is then the play to beat.
    for before, step in itertools.pairwise(steps):
        assert step["cards_left"] == [len(h.split()) for h in step["hands"]]
        if step["kind"] in ("play", "chop"):
            seat, cards = step["seat"], parse_mask(step["cards"])
            assert parse_mask(before["hands"][seat]) == parse_mask(step["hands"][seat]) | cards
            assert step["to_beat"]["seat"] == seat and step["to_beat"]["cards"] == step["cards"]
            # Typed as the engine types it (a chop's too: it has no combination of its own).
            typed = combination_fields(classify(cards))
            assert {k: step["to_beat"][k] for k in typed} == typed
        elif step["kind"] == "pass":
            assert step["hands"] == before["hands"]
    actions = [s["action"] for s in steps[1:]]
    assert actions == sorted(actions) and actions[-1] == len(record["actions"]) - 1
    expected = settle(game, 1000, [50_000] * 3, 600).to_dict()
    assert body["settlement"] == expected
    # Alice may replay it too, and still download the record.
    assert alice.get(f"/api/games/{game_id}/replay").json()["seat"] == 0
    assert alice.get(f"/api/games/{game_id}/record").json()["actions"] == record["actions"]


def test_only_its_players_may_replay_a_finished_game(live: LiveServer, db_url: str) -> None:
    (alice, a_id, _), (other, _, _) = _guest(live), _guest(live)
    finished, _ = _store(db_url, [a_id, None, None], _played(1))
    playing, _ = _store(db_url, [a_id, None, None], _played(2), status="playing", number=2)
    for client, game_id, code, status in [
        (other, finished, "not_your_game", 403),
        (alice, playing, "no_such_game", 404),
        (alice, "tnothing:1", "no_such_game", 404),
        (live.client(), finished, "not_logged_in", 401),
    ]:
        r = client.get(f"/api/games/{game_id}/replay")
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), r.text
    assert alice.get(f"/api/games/{'x' * 101}/replay").json()["error"]["code"] == "bad_request"


def test_the_analysis_reviews_the_askers_decisions_once(live: LiveServer, db_url: str) -> None:
    (alice, a_id, _), (other, _, _) = _guest(live), _guest(live)
    game = _played(7)
    game_id, record = _store(db_url, [None, a_id, None], game)
    r = alice.get(f"/api/games/{game_id}/analysis")
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["id"], body["seat"]) == (game_id, 1) and body["decisions"]
    replayed = alice.get(f"/api/games/{game_id}/replay").json()["steps"]
    for decision in body["decisions"]:
        action = record["actions"][decision["action"]]
        assert action["seat"] == 1
        assert decision["played"] == action.get("play", "")
        # The step the viewer shows it beside: the seat's play or pass of that action.
        [step] = [s for s in replayed if s["action"] == decision["action"] and s["seat"] == 1]
        assert step["kind"] in ("play", "pass")
        assert decision["same"] == (decision["bot"] == decision["played"])
        if decision["same"]:
            assert decision["chips_difference"] == 0
        else:
            assert decision["samples"] > 0 and decision["chips_difference"] is not None
    # Computed once per game and seat: the second answer is the kept one.
    assert live.server is not None
    assert (game_id, 1) in live.server.config.app.state.analyses
    assert alice.get(f"/api/games/{game_id}/analysis").json() == body
    for client, code in [(other, "not_your_game"), (live.client(), "not_logged_in")]:
        assert client.get(f"/api/games/{game_id}/analysis").json()["error"]["code"] == code
    assert alice.get("/api/games/tnothing:1/analysis").json()["error"]["code"] == "no_such_game"


def _offers_and_timers() -> Game:
    """Seat 0 leads 2♠; seat 2 declines its out-of-turn chop, seat 3 chops; later seat 0's
    turn is played by the timer (langvuichoi: chops out of turn)."""
    game = start("langvuichoi", "2s 2c", "", FOUR_PAIRS, OTHER_FOUR_PAIRS, seed=0)
    game.apply(Action.play(0, "2s"))
    game.apply(Action.decline(2))
    game.apply(Action.play(3, OTHER_FOUR_PAIRS))
    rng = random.Random(3)
    while not game.is_terminal():
        if game.current == 0:
            game.apply(Action.timeout(0))
        else:
            game.apply_action(rng.choice(game.legal_actions()))
    return game


def test_the_replay_shows_the_askers_declines_and_the_timers_moves(
    live: LiveServer, db_url: str
) -> None:
    (alice, a_id, _), (bob, b_id, _), (carol, c_id, _) = _guest(live), _guest(live), _guest(live)
    game = _offers_and_timers()
    game_id, record = _store(db_url, [a_id, b_id, c_id, None], game, preset="langvuichoi")
    steps = carol.get(f"/api/games/{game_id}/replay").json()["steps"]
    # Carol (seat 2) declined at action 1: a step of hers, with nothing taken from any hand.
    [decline] = [s for s in steps if s["kind"] == "decline"]
    assert (decline["seat"], decline["action"], decline["cards"]) == (2, 1, None)
    before = steps[steps.index(decline) - 1]
    assert decline["hands"] == before["hands"] and decline["to_beat"]["cards"] == "2s"
    # Declines are private: the others' replays have no such step.
    for client in (alice, bob):
        theirs = client.get(f"/api/games/{game_id}/replay").json()["steps"]
        assert all(s["kind"] != "decline" for s in theirs)
    # Seat 0's turns after its lead were all played by the timer: its plays and passes say so.
    moves = [s for s in steps if s["kind"] in ("play", "pass")]
    timed = [s for s in moves if s["seat"] == 0 and s["action"] > 0]
    assert timed and all(s["auto"] for s in timed)
    assert not any(s["auto"] for s in moves if s not in timed)
    # The analysis reviews carol's offer and alice's timed turns, each beside its step.
    for client, seat, kind in ((carol, 2, "chop"), (alice, 0, "timer")):
        decisions = client.get(f"/api/games/{game_id}/analysis").json()["decisions"]
        shown = client.get(f"/api/games/{game_id}/replay").json()["steps"]
        assert kind in {d["kind"] for d in decisions}
        for d in decisions:
            action = record["actions"][d["action"]]
            assert action["seat"] == seat
            at = (d["action"], seat)
            assert {s["kind"] for s in shown if (s["action"], s["seat"]) == at} & {
                "play",
                "pass",
                "decline",
            }
            if d["kind"] == "chop":
                assert (action.get("decline"), d["played"]) == (True, "")
            if d["kind"] == "timer":
                assert action.get("timeout") is True
