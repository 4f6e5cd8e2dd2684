"""The wire format: what the codec writes matches the committed JSON Schemas, and they are
current with the types in tienlen.engine.wire."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from pydantic import ValidationError

from tienlen.engine.codec import (
    event_to_dict,
    seat_view_to_dict,
    snapshot_of,
    spectator_view_to_dict,
)
from tienlen.engine.game import Action, Game
from tienlen.engine.record import record_of
from tienlen.engine.rules import PRESETS, RuleSet
from tienlen.engine.views import PublicLog
from tienlen.engine.wire import SCHEMAS, adapter, json_schemas, render

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "docs" / "schemas"


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_committed_schema_is_current(name: str) -> None:
    path = SCHEMA_DIR / f"{name}.json"
    assert path.exists(), f"{path} is missing: run python -m tienlen.cli.schemas docs/schemas"
    assert path.read_text(encoding="utf-8") == render(json_schemas()[name]), (
        f"{path} is out of date: run python -m tienlen.cli.schemas docs/schemas"
    )


def random_game(preset: str, seed: int) -> tuple[Game, list[dict[str, object]]]:
    """A random game with chops, declines, time-outs and leaves; every seat's views on the way."""
    rng = random.Random(seed)
    game = Game.new(RuleSet.preset(preset), rng.choice([2, 3, 4]), seed=seed)
    log = PublicLog(game.n)
    views: list[dict[str, object]] = []
    while not game.is_terminal():
        views += [seat_view_to_dict(log.view(game, s)) for s in range(game.n)]
        views.append(spectator_view_to_dict(log.spectator(game)))
        window = game.chop_window()
        roll = rng.random()
        if window:
            seat = window[0]
            if roll < 0.5:
                game.apply(Action.play(seat, rng.choice(game.legal_actions(seat))))
            else:
                game.apply(Action.decline(seat))
        elif roll < 0.03:
            game.apply(
                Action.leave(rng.choice([s for s in range(game.n) if game.in_game >> s & 1]))
            )
        elif roll < 0.08:
            game.apply(Action.timeout(game.current))
        else:
            game.apply_action(rng.choice(game.legal_actions()))
    views += [seat_view_to_dict(log.view(game, s)) for s in range(game.n)]
    return game, views


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_codec_output_validates_against_the_schemas(preset: str) -> None:
    for seed in range(6):
        game, views = random_game(preset, seed)
        events = adapter("event")
        for event in game.events:
            events.validate_python(json.loads(json.dumps(event_to_dict(event))))
        for view in views:
            name = "seat_view" if "hand" in view else "spectator_view"
            adapter(name).validate_python(json.loads(json.dumps(view)))
        adapter("record").validate_python(record_of(game).to_dict())
        adapter("snapshot").validate_python(json.loads(json.dumps(snapshot_of(game))))


def test_schemas_refuse_unknown_fields_and_types() -> None:
    game, views = random_game("langvuichoi", 1)
    event = event_to_dict(game.events[0]) | {"secret": 1}
    with pytest.raises(ValidationError):
        adapter("event").validate_python(event)
    with pytest.raises(ValidationError):
        adapter("event").validate_python({"type": "teleport", "seq": 1, "action": 1})
    with pytest.raises(ValidationError):
        adapter("seat_view").validate_python(views[0] | {"others_hands": []})
    with pytest.raises(ValidationError):
        adapter("action").validate_python({"seat": 0, "pass": False})


def test_every_play_is_typed_as_the_engine_names_it() -> None:
    """A play's ``kind`` and ``length`` say what its English ``combination`` says."""
    words = {"single": "single", "pair": "pair", "triple": "triple", "quad": "four of a kind"}
    seen = set()
    for preset in sorted(PRESETS):
        for seed in range(6):
            game, views = random_game(preset, seed)
            plays = [event_to_dict(event) for event in game.events]
            plays = [p for p in plays if p["type"] == "play"]
            plays += [p for view in views for p in view["round"]]  # type: ignore[union-attr]
            for play in plays:
                kind, length, cards = play["kind"], play["length"], len(play["cards"].split())
                seen.add(kind)
                if kind == "straight":
                    assert (play["combination"], cards) == (f"straight of {length}", length)
                elif kind == "pairs":
                    assert (play["combination"], cards) == (
                        f"{length} consecutive pairs",
                        2 * length,
                    )
                else:
                    assert (play["combination"], length, cards) == (words[kind], cards, cards)
    assert seen >= {"single", "pair", "straight"}, seen


def test_the_presets_schema_says_each_presets_redeal_rule() -> None:
    """``presets.json``: every preset, each with its ``redeal_four_twos`` as a const (the web
    page verifies a record's deal by it)."""
    schema = json.loads((SCHEMA_DIR / "presets.json").read_text(encoding="utf-8"))
    consts = {name: prop["const"] for name, prop in schema["properties"].items()}
    assert consts == {name: rules.redeal_four_twos for name, rules in PRESETS.items()}
    assert set(schema["required"]) == set(PRESETS) and schema["additionalProperties"] is False
    with pytest.raises(ValidationError):
        adapter("presets").validate_python(consts | {"thapthanh": not consts["thapthanh"]})
