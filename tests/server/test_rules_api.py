"""``GET /api/rules``: every preset's options as the engine holds them, and each preset's
worked example settled by the money code, checked against docs/SCORING.md's arithmetic."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tienlen.engine import combos as C
from tienlen.engine.cards import mask_ascii
from tienlen.engine.rules import INSTANT_WIN_HANDS, PRESETS, RuleSet
from tienlen.server.api.rules import EXAMPLE_HANDS, example_game

from .test_page import client


@pytest.fixture(scope="module")
def info(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("rules")
    response = client(folder, folder / "no-page").get("/api/rules")
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


def _rule_set(data: dict[str, Any]) -> RuleSet:
    """A RuleSet rebuilt from the route's JSON, to compare with the engine's preset."""
    values = dict(data)
    scoring = values.pop("scoring")
    values["chops"] = frozenset(tuple(p) for p in values["chops"])
    values["instant_wins"] = tuple(tuple(p) for p in values["instant_wins"])
    base = RuleSet(**values)
    return base.replace(scoring=scoring)


def test_every_preset_is_served_with_every_option_the_engine_holds(info: dict[str, Any]) -> None:
    assert [p["key"] for p in info["presets"]] == list(PRESETS)
    for preset in info["presets"]:
        assert _rule_set(preset["rules"]) == PRESETS[preset["key"]], preset["key"]
    assert info["instant_hands"] == {
        k: {"en": en, "vi": vi} for k, (en, vi) in INSTANT_WIN_HANDS.items()
    }
    assert info["categories"]["quad"] == {"en": "four of a kind", "vi": "tứ quý"}
    assert set(info["categories"]) == set(C.CATEGORIES)


# Each preset's example in bets, from docs/SCORING.md: (seat 1 left with 12 cards and the 2♦,
# seat 2 cóng holding the 2♠). Thập Thành: 12 + 10, 26 + 5; Làng Vui Chơi: cóng 15;
# B52: the 2 replaces its card, cóng only on a sweep; Sảnh Rồng: heo 3/6 replace, cóng ×2;
# Bigfun: places pay, cóng 2 + heo 1, the red 2 held 2.
EXPECTED_BETS = {
    "thapthanh": (22, 31),
    "langvuichoi": (22, 20),
    "b52": (31, 22),
    "sanhrong": (17, 30),
    "bigfun": (2, 3),
}


@pytest.mark.parametrize("key", list(PRESETS))
def test_the_worked_example_is_settled_by_the_money_code(info: dict[str, Any], key: str) -> None:
    example = next(p for p in info["presets"] if p["key"] == key)["example"]
    assert (example["room"], example["bet"], example["fee_bp"]) == ("trainee", 1000, 600)
    assert example["room_name"] == {"en": "Trainee", "vi": "Tập sự"}
    assert example["winner"] == 0
    seats = example["seats"]
    assert [s["dealt"] for s in seats] == [
        mask_ascii(h) for h in example_game(PRESETS[key])[0].initial_hands
    ]
    assert [s["cong"] for s in seats] == [False, False, True]
    assert seats[0]["left"] == "" and "2d" in seats[1]["left"].split()
    assert len(seats[1]["left"].split()) == 12 and len(seats[2]["left"].split()) == 13
    paid = {
        payer: sum(line["amount"] for line in example["lines"] if line["payer"] == payer)
        for payer in (1, 2)
    }
    bets = EXPECTED_BETS[key]
    assert (paid[1], paid[2]) == (bets[0] * 1000, bets[1] * 1000)
    assert [s["delta"] for s in seats[1:]] == [-paid[1], -paid[2]]
    won = paid[1] + paid[2]
    assert example["fee"] == won * 600 // 10_000
    assert seats[0]["delta"] == won - example["fee"]
    assert all(
        line["payee"] == 0 and line["reason_en"] and line["reason_vi"] for line in example["lines"]
    )
    assert any("2♦" in line["reason_vi"] for line in example["lines"])
    assert example["plays"][0] == {"seat": 0, "cards": "3s"}
    assert {"seat": 2, "cards": ""} in example["plays"]


def test_the_example_hands_are_a_deal(info: dict[str, Any]) -> None:
    cards = [c for hand in EXAMPLE_HANDS for c in hand.split()]
    assert len(cards) == len(set(cards)) == 39
    for key, rules in PRESETS.items():
        game, _ = example_game(rules)
        assert game.instant_win is None and game.is_terminal(), key


def test_the_route_is_in_the_openapi_document(tmp_path: Path) -> None:
    spec = client(tmp_path, tmp_path / "no-page").get("/api/openapi.json").json()
    assert "/api/rules" in spec["paths"]
