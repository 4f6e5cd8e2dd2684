"""GET /api/games/{id}/replay: a finished game step by step, computed by the engine from the
stored record, for its players only (on SQLite and PostgreSQL)."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime
from typing import Any

from tienlen.engine.cards import mask_ascii, parse_mask
from tienlen.engine.codec import EVENT_TYPES
from tienlen.engine.game import Game
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
    db_url: str, users: list[int], game: Game, status: str = "finished", number: int = 1
) -> tuple[str, dict[str, Any]]:
    """A table and one game at it, as the lobby stores them, played by ``users`` (None: a bot)."""
    table, game_id = "treplay", f"treplay:{number}"
    record = record_of(
        game,
        players=[f"P{i}" for i in range(game.n)],
        bet=1000,
        extra={"balances": [50_000] * game.n, "house_fee_bp": 600, "users": users},
    ).to_dict()

    owner = next(u for u in users if u)

    async def work(db: Any) -> None:
        if await db.get(TableRow, table) is None:
            db.add(
                TableRow(
                    id=table, room="trainee", preset="bigfun", bet=1000, turn_seconds=10,
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
