"""The seeds' worked examples, each played out as a real game record and replayed through
``tienlen replay``: the money must match the seeds' arithmetic to the chip.

The records live in tests/records/scoring_*.json and are built by
tests/records/build_scoring_records.py (checked here to still build exactly the stored files).
Expected amounts are written as the seeds write them: units of the bet, then × bet.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tienlen.cli import app

RECORDS = Path(__file__).resolve().parent / "records"


def _load_builder() -> Any:
    spec = importlib.util.spec_from_file_location(
        "build_scoring_records", RECORDS / "build_scoring_records.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILDER = _load_builder()
SPECS = {spec["name"]: spec for spec in BUILDER.SPECS}


def replay(name: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["replay", str(RECORDS / f"scoring_{name}.json")])
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.output)
    return out


def lines(out: dict[str, Any]) -> list[tuple[int, int, int, str]]:
    return [(i["payer"], i["payee"], i["amount"], i["kind"]) for i in out["items"]]


# name -> (bet, deltas in bets, items as (payer, payee, bets, kind)), in breakdown order.
EXPECTED: dict[str, tuple[int, list[int], list[tuple[int, int, int, str]]]] = {
    # Seed 000: "Bài còn 8 lá trong đó có 3 đôi thông … 8 + 10 = 18 lá".
    "thapthanh_eighteen": (1000, [18, -18], [(1, 0, 8, "cards"), (1, 0, 10, "thoi")]),
    # Seed 000: "Heo đỏ chặt heo đen, Ba đôi thông chặt lên heo đỏ là 15 lá". Every loser also
    # pays cards + thối: seat 3 12 + tứ quý 10, seat 0 12 + 4 đôi thông 10, seat 1 12 + 5 + 10.
    "thapthanh_chop15": (
        1000,
        [-22, -42, 86, -22],
        [
            (1, 2, 15, "chop"),
            (3, 2, 12, "cards"),
            (3, 2, 10, "thoi"),
            (0, 2, 12, "cards"),
            (0, 2, 10, "thoi"),
            (1, 2, 12, "cards"),
            (1, 2, 5, "thoi"),
            (1, 2, 10, "thoi"),
        ],
    ),
    # "… Tứ quý lại chặt 3 đôi thông đó là 25 lá": the red 2 no longer pays.
    "thapthanh_chop25": (
        1000,
        [-22, -27, -32, 81],
        [
            (2, 3, 25, "chop"),
            (2, 3, 7, "cards"),
            (0, 3, 12, "cards"),
            (0, 3, 10, "thoi"),
            (1, 3, 12, "cards"),
            (1, 3, 5, "thoi"),
            (1, 3, 10, "thoi"),
        ],
    ),
    # "… Bốn đôi thông lại chặt Tứ quý đó thì là 35 lá".
    "thapthanh_chop35": (
        1000,
        [77, -27, -7, -43],
        [
            (3, 0, 35, "chop"),
            (2, 0, 7, "cards"),
            (3, 0, 8, "cards"),
            (1, 0, 12, "cards"),
            (1, 0, 5, "thoi"),
            (1, 0, 10, "thoi"),
        ],
    ),
    # Seed 000: "Thua trắng/cóng … 13 lá x 2" and "Thua cóng bị đếm heo / hàng".
    "thapthanh_cong": (
        100,
        [51, -36, -15],
        [(2, 0, 10, "cards"), (2, 0, 5, "thoi"), (1, 0, 26, "cong"), (1, 0, 10, "thoi")],
    ),
    # Seed 000: "Tới trắng không được đếm heo / hàng" — 26 each, three 2s notwithstanding.
    "thapthanh_instant": (
        1000,
        [-26, 78, -26, -26],
        [(0, 1, 26, "instant_win"), (2, 1, 26, "instant_win"), (3, 1, 26, "instant_win")],
    ),
    # Seed 000: "Ván đánh có 2 người: Người chơi thoát ra sẽ bị tính thua".
    "thapthanh_leave_two": (1000, [23, -23], [(1, 0, 13, "cards"), (1, 0, 10, "thoi")]),
    # Seed 000: everyone left before the result: "không ai bị trừ chip và không có người thắng".
    "thapthanh_leave_all": (1000, [0, 0, 0, 0], []),
    # Seed 001: "Người bị chặt cuối cùng ôm hết": 5 + 10 + 15 = 30; thối ×40 for 4 đôi thông.
    "langvuichoi_chop30": (
        1000,
        [-52, -27, -37, 116],
        [
            (2, 3, 30, "chop"),
            (2, 3, 7, "cards"),
            (0, 3, 12, "cards"),
            (0, 3, 40, "thoi"),
            (1, 3, 12, "cards"),
            (1, 3, 5, "thoi"),
            (1, 3, 10, "thoi"),
        ],
    ),
    # Seed 001: "đánh 3 bích cuối cùng … Số Lá Bài x Mức Cược (x3)": 12 × 3 + 5.
    "langvuichoi_three_spades": (
        1000,
        [41, -41],
        [(1, 0, 12, "cards"), (1, 0, 24, "multiplier"), (1, 0, 5, "thoi")],
    ),
    # Seed 001: "Bị cóng = Mức cược x 15 + số tiền bị thối trong bài nếu có".
    "langvuichoi_cong": (1000, [20, -20], [(1, 0, 15, "cong"), (1, 0, 5, "thoi")]),
    # Seed 001: "lá bài cuối là 3 bích thì … bị CÓNG x2 (Tính cả nếu bị thối cũng bị x2)".
    "langvuichoi_cong_three_spades": (
        1000,
        [40, -40],
        [(1, 0, 15, "cong"), (1, 0, 5, "thoi"), (1, 0, 20, "multiplier")],
    ),
    # Seed 001: shared instant win, 13 each split evenly; at a 1-chip bet the odd chip goes to
    # the first winner from the first loser and to the second winner from the second.
    "langvuichoi_shared_instant": (
        1,
        [13, -13, 13, -13],
        [
            (1, 0, 7, "instant_win"),
            (1, 2, 6, "instant_win"),
            (3, 2, 7, "instant_win"),
            (3, 0, 6, "instant_win"),
        ],
    ),
    # Seed 002: seat 1 (cóng, but not everyone is, so counted): Jh 1 + 2♠ 10 + tứ quý 40 +
    # 3 đôi thông 20 + 3♠ 10 = 81; seat 2: 10 ordinary + 2♣ 10 + 2♥ 20 = 40.
    "b52_conversions": (
        1000,
        [121, -81, -40],
        [
            (2, 0, 10, "cards"),
            (2, 0, 10, "thoi"),
            (2, 0, 20, "thoi"),
            (1, 0, 1, "cards"),
            (1, 0, 10, "thoi"),
            (1, 0, 40, "thoi"),
            (1, 0, 20, "thoi"),
            (1, 0, 10, "thoi"),
        ],
    ),
    # Seed 002: "Nếu người chơi bị mất kết nối … tự động bị xử thua … bị xử phạt thúi heo".
    "b52_disconnect": (
        1000,
        [121, -81, -40],
        [
            (2, 0, 10, "cards"),
            (2, 0, 10, "thoi"),
            (2, 0, 20, "thoi"),
            (1, 0, 1, "cards"),
            (1, 0, 10, "thoi"),
            (1, 0, 40, "thoi"),
            (1, 0, 20, "thoi"),
            (1, 0, 10, "thoi"),
        ],
    ),
    # Seed 002: "13×2 = 26 lá (nhưng không tính thúi 2)".
    "b52_instant": (
        1000,
        [-26, 78, -26, -26],
        [(0, 1, 26, "instant_win"), (2, 1, 26, "instant_win"), (3, 1, 26, "instant_win")],
    ),
    # Seed 002: "đánh hết 13 lá … những người còn lại chưa đánh được lá bài nào … 26 lá
    # (đồng thời tính thúi 2)": 26 + 20; 26 + 10 + 10 + 20.
    "b52_sweep": (
        1000,
        [112, -46, -66],
        [
            (1, 0, 26, "cong"),
            (1, 0, 20, "thoi"),
            (2, 0, 26, "cong"),
            (2, 0, 10, "thoi"),
            (2, 0, 10, "thoi"),
            (2, 0, 20, "thoi"),
        ],
    ),
    # Seed 002: "Tính gấp đôi các lá bài khác, trừ lá bài 2 vẫn tính thúi heo": 11 × 2 + 10 + 20
    # and 12 × 2 + 10.
    "b52_first_game_special": (
        1000,
        [86, -52, -34],
        [
            (1, 0, 22, "instant_win"),
            (1, 0, 10, "thoi"),
            (1, 0, 20, "thoi"),
            (2, 0, 24, "instant_win"),
            (2, 0, 10, "thoi"),
        ],
    ),
    # Seed 003: "còn 5 lá bài, trong đó có 1 heo đen, 1 heo đỏ … (3 + 3 + 6)".
    "sanhrong_two_twos": (
        1000,
        [12, -12],
        [(1, 0, 3, "cards"), (1, 0, 3, "thoi"), (1, 0, 6, "thoi")],
    ),
    # Seed 003: "bài thua cóng có một cây 2 đen thì bị tính là ( 12 + 3 ) x 2 = 30 lá".
    "sanhrong_cong": (
        1000,
        [30, -30],
        [(1, 0, 12, "cards"), (1, 0, 3, "thoi"), (1, 0, 15, "multiplier")],
    ),
    # Seed 003: "Người thắng trắng ăn tiền theo số lá kèm theo tiền thối bài": 11 + 3 + 6.
    "sanhrong_instant": (
        1000,
        [20, -20],
        [(1, 0, 11, "instant_win"), (1, 0, 3, "thoi"), (1, 0, 6, "thoi")],
    ),
    # Seed 004, full ranking: bét đền nhất 1 + thối 2♦ 2; ba đền nhì 1.
    "bigfun_places": (
        1000,
        [1, -1, -3, 3],
        [(2, 3, 2, "thoi"), (2, 3, 1, "place"), (1, 0, 1, "place")],
    ),
    # Seed 004: "Cóng 1 nhà … hai người còn lại vẫn tiếp tục chơi để tranh vị thứ 2,3": the
    # cóng player pays 2 + 2♥ 2 to the first; 3rd pays 2nd; 3rd also pays thối 2♣ to the first.
    "bigfun_one_cong": (
        1000,
        [1, -2, 5, -4],
        [(1, 2, 1, "thoi"), (3, 2, 2, "cong"), (3, 2, 2, "thoi"), (1, 0, 1, "place")],
    ),
    # Seed 004: "Cóng 3 nhà … Ai bị đền bài sẽ phải bị phạt thay cho cả làng": seat 2 passed on
    # QQ holding AA. Seat 1: 2 + 2♣ 1; seat 2: 2 + 2♠ 1 + 2♥ 2 + 4 đôi thông 4; seat 3: 2 + 2♦ 2.
    "bigfun_den_bai": (
        1000,
        [16, 0, -16, 0],
        [
            (2, 0, 2, "den_bai"),
            (2, 0, 1, "den_bai"),
            (2, 0, 2, "cong"),
            (2, 0, 1, "thoi"),
            (2, 0, 2, "thoi"),
            (2, 0, 4, "thoi"),
            (2, 0, 2, "den_bai"),
            (2, 0, 2, "den_bai"),
        ],
    ),
}


def test_every_record_has_an_expectation() -> None:
    stored = {p.name[len("scoring_") : -len(".json")] for p in RECORDS.glob("scoring_*.json")}
    assert stored == set(SPECS)
    assert set(EXPECTED) | {"thapthanh_short_balance"} == set(SPECS)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_builder_still_builds_the_stored_record(name: str) -> None:
    spec = SPECS[name]
    stored = (RECORDS / f"scoring_{name}.json").read_text(encoding="utf-8")
    assert BUILDER.render(BUILDER.build(spec)) == stored


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_worked_example(name: str) -> None:
    bet, deltas, items = EXPECTED[name]
    out = replay(name)
    assert out["bet"] == bet
    assert out["deltas"] == [d * bet for d in deltas]
    assert lines(out) == [(p, q, units * bet, kind) for p, q, units, kind in items]
    assert out["fee"] == 0
    assert sum(out["deltas"]) == 0
    for item in out["items"]:
        assert item["owed"] == item["amount"]
        assert item["reason"] and item["reason_vi"]


def test_chop_reasons_name_the_chain() -> None:
    chop = replay("thapthanh_chop15")["items"][0]
    assert chop["reason_vi"] == "chặt heo đỏ (2h): heo đen 5 + heo đỏ 10 = 15 lá"  # JSON: ASCII
    over = replay("thapthanh_chop35")["items"][0]
    assert over["reason_vi"].startswith("chặt chồng tứ quý")
    assert over["reason_vi"].endswith("= 35 lá")
    assert "over-chopped four of a kind" in over["reason"]


def test_breakdown_reasons_read_as_players_say_them() -> None:
    eighteen = replay("thapthanh_eighteen")["items"]
    assert [i["reason_vi"] for i in eighteen] == [
        "còn 8 lá",
        "thối 3 đôi thông (4c 4d 5c 5d 6c 6d): 10 lá",
    ]
    cong = replay("sanhrong_cong")["items"]
    assert cong[-1]["reason_vi"] == "cóng ×2"
    assert replay("bigfun_places")["items"][1]["reason_vi"] == "về bét đền nhất: 1 cược"
    den = replay("bigfun_den_bai")
    assert den["den_bai"] == 2
    assert den["items"][0]["reason_vi"].startswith("đền bài thay ghế 1")


def test_void_game_says_why() -> None:
    out = replay("thapthanh_leave_all")
    assert out["void"] is True
    assert out["chops"], "a chop was made before everyone left, and it pays nothing"
    assert "không ai bị trừ chip" in out["notes"][0]["vi"]


def test_short_balance_and_room_fee() -> None:
    # The loser owes 8 + 10 = 18,000 but holds 5,000: shared in proportion 8 : 10 with the
    # spare chip to the larger remainder; the winner's 5,000 pays the trainee room's 6 %.
    out = replay("thapthanh_short_balance")
    assert [(i["amount"], i["owed"]) for i in out["items"]] == [(2222, 8000), (2778, 10000)]
    assert out["fee"] == 300
    assert out["fees"] == [300, 0]
    assert out["deltas"] == [4700, -5000]
    assert out["fee_bp"] == 600


def test_installed_command_prints_the_settlement() -> None:
    tienlen = Path(sys.executable).parent / "tienlen"
    done = subprocess.run(
        [str(tienlen), "replay", str(RECORDS / "scoring_sanhrong_cong.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(done.stdout)
    assert out["deltas"] == [30000, -30000]
    assert out["items"][0]["reason"] == "12 other cards left"
