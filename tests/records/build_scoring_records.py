"""Build the scoring records: each worked example of the seeds, played out as a real game.

Every record below is a deal and a script of actions that the engine plays from the first card
to the end; the result is written with :func:`tienlen.engine.record.record_of` as
``tests/records/scoring_<name>.json``. tests/test_scoring_records.py replays each file through
``tienlen replay`` and checks the money against the seeds' arithmetic, and checks that this
script still builds exactly the stored files.

Run from the repository root: ``.venv/bin/python tests/records/build_scoring_records.py``.

Seats are numbered in turn order (the player to the right of seat 0 is seat 1). An action is
``"SEAT CARDS"`` (a play), ``"SEAT pass"``, ``"SEAT leave"`` or ``"SEAT timeout"``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tienlen.engine.actions import ACTION_KINDS, Action
from tienlen.engine.game import Game
from tienlen.engine.record import record_of, rules_from_spec

HERE = Path(__file__).resolve().parent

# One deal for the three chop-chain records (seed 000, and seed 001's over-chop): seat 0 holds
# a black 2 and 4 consecutive pairs, seat 1 a red 2, seat 2 three consecutive pairs and seat 3
# four 3s. Seat 3 leads a single; the 2s go on it and the bombs chop along the chain.
CHAIN_HANDS = [
    "2s 7d 7h 8d 8h 9d 9h 10d 10h Jd Qc Kd As",
    "2h 2c 2d 4h 5h 6h 7c Jh Qd Qh Kh Ac Ad",
    "4c 4d 5c 5d 6c 6d 8s 9s 10s Js Qs Ks Ah",
    "Kc 3s 3c 3d 3h 4s 5s 6s 7s 8c 9c 10c Jc",
]
CHAIN_TO_2H = ["3 Kc", "0 2s", "1 2h", "2 4c 4d 5c 5d 6c 6d"]
CHAIN_TO_QUAD = [*CHAIN_TO_2H, "3 3s 3c 3d 3h"]

# Two players: seat 0 sheds a 10-card straight, KK, and a 2; seat 1 plays AA, JJ and 10♥ and is
# caught with 8 cards, 3 consecutive pairs among them (seed 000: 8 + 10 = 18).
EIGHTEEN_HANDS = [
    "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Kh Kd 2h",
    "As Ac Jc Jd 10h 4c 4d 5c 5d 6c 6d 9h Ks",
]
EIGHTEEN_ACTIONS = [
    "0 3s 4s 5s 6s 7s 8s 9s 10s Js Qs",
    "1 pass",
    "0 Kh Kd",
    "1 As Ac",
    "0 pass",
    "1 Jc Jd",
    "0 pass",
    "1 10h",
    "0 2h",
]

# Seed 001: seat 0 holds 3♠, a straight 4♠–K♠, 5♥ and 2♥; seat 1 holds a black 2.
LVC_HANDS = [
    "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks 5h 2h",
    "9c 2c As Ac Ah 3c 3d 4h 6d 7d 8h 10h Jd",
]
LVC_STRAIGHT = "4s 5s 6s 7s 8s 9s 10s Js Qs Ks"

# Seed 003: seat 0 leads with 3♠ in a straight and sheds JJ, QQ and K♥.
SANHRONG_WINNER = "3s 4s 5s 6s 7s 8s 9s 10s Jh Jd Qh Qd Kh"

# Full ranking (seed 004), first game: each seat holds a 3-to-A straight of one suit and its 2.
SUITED_HANDS = [
    "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2s",
    "3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2c",
    "3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad 2d",
    "3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah 2h",
]

SPECS: list[dict[str, Any]] = [
    {
        "name": "thapthanh_eighteen",
        "description": "Seed 000: a loser caught with 8 cards, 3 consecutive pairs among them, "
        "pays 8 + 10 = 18 bets.",
        "ruleset": "thapthanh",
        "hands": EIGHTEEN_HANDS,
        "bet": 1000,
        "actions": EIGHTEEN_ACTIONS,
    },
    {
        "name": "thapthanh_chop15",
        "description": "Seed 000: red 2 on black 2, chopped by 3 consecutive pairs: the red 2 "
        "pays 5 + 10 = 15.",
        "ruleset": "thapthanh",
        "hands": CHAIN_HANDS,
        "first_game": False,
        "leader": 3,
        "bet": 1000,
        "actions": [*CHAIN_TO_2H, "3 pass", "0 pass", "1 pass", "2 8s 9s 10s Js Qs Ks Ah"],
    },
    {
        "name": "thapthanh_chop25",
        "description": "Seed 000: the 3 consecutive pairs over-chopped by four of a kind: their "
        "player pays 5 + 10 + 10 = 25, the red 2 nothing.",
        "ruleset": "thapthanh",
        "hands": CHAIN_HANDS,
        "first_game": False,
        "leader": 3,
        "bet": 1000,
        "actions": [*CHAIN_TO_QUAD, "0 pass", "1 pass", "2 pass", "3 4s 5s 6s 7s 8c 9c 10c Jc"],
    },
    {
        "name": "thapthanh_chop35",
        "description": "Seed 000: the four of a kind over-chopped by 4 consecutive pairs: its "
        "player pays 5 + 10 + 10 + 10 = 35.",
        "ruleset": "thapthanh",
        "hands": CHAIN_HANDS,
        "first_game": False,
        "leader": 3,
        "bet": 1000,
        "actions": [
            *CHAIN_TO_QUAD,
            "0 7d 7h 8d 8h 9d 9h 10d 10h",
            "1 pass",
            "2 pass",
            "3 pass",
            "0 Jd Qc Kd As",
        ],
    },
    {
        "name": "thapthanh_cong",
        "description": "Seed 000: a cóng loser pays 13 × 2 = 26 plus heo/hàng (a red 2: 10); "
        "the other loser pays for the cards left.",
        "ruleset": "thapthanh",
        "hands": [
            "3s 4s 5s 6s 7s 8s 9s 10s Jh Jd Qh Qd Kh",
            "2h 3c 4c 5c 6c 7c 9c Jc Kc Ac 3d 8d Ad",
            "Ks Kd 2s 5d 6d 7d 9d 10d 4h 6h 8h 10h Ah",
        ],
        "first_game": False,
        "leader": 0,
        "bet": 100,
        "actions": [
            "0 3s 4s 5s 6s 7s 8s 9s 10s",
            "1 pass",
            "2 pass",
            "0 Jh Jd",
            "1 pass",
            "2 Ks Kd",
            "0 pass",
            "2 5d",
            "0 Kh",
            "1 pass",
            "2 pass",
            "0 Qh Qd",
        ],
    },
    {
        "name": "thapthanh_instant",
        "description": "Seed 000: a dragon straight wins at the deal; each loser pays 26, and "
        "their heo/hàng are not counted.",
        "ruleset": "thapthanh",
        "hands": [
            "3c 3d 3h 5c 5d 5h 7c 7d 7h 9c 9d 9h Jc",
            "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2s",
            "4c 4d 4h 6c 6d 6h 8c 8d 8h 10c 10d 10h Jd",
            "Jh Qc Qd Qh Kc Kd Kh Ac Ad Ah 2c 2d 2h",
        ],
        "first_game": False,
        "leader": 0,
        "bet": 1000,
        "actions": [],
    },
    {
        "name": "thapthanh_leave_two",
        "description": "Seed 000: at a 2-player table the one who leaves loses (counted as a "
        "loser with the cards held) and the other wins.",
        "ruleset": "thapthanh",
        "hands": EIGHTEEN_HANDS,
        "bet": 1000,
        "actions": ["0 3s 4s 5s 6s 7s 8s 9s 10s Js Qs", "1 pass", "0 Kh Kd", "1 leave"],
    },
    {
        "name": "thapthanh_leave_all",
        "description": "Seed 000: at 3+ players, everyone left before the result: no chips "
        "move, even for a chop already made.",
        "ruleset": "thapthanh",
        "hands": CHAIN_HANDS,
        "first_game": False,
        "leader": 3,
        "bet": 1000,
        "actions": [*CHAIN_TO_2H, "0 leave", "1 leave", "3 leave"],
    },
    {
        "name": "thapthanh_short_balance",
        "description": "Seed 000's 18 in the trainee room (6 % fee) with the loser holding "
        "only 5,000 chips: they pay what they hold, shared in proportion.",
        "ruleset": "thapthanh",
        "hands": EIGHTEEN_HANDS,
        "bet": 1000,
        "extra": {"room": "trainee", "balances": [50000, 5000]},
        "actions": EIGHTEEN_ACTIONS,
    },
    {
        "name": "langvuichoi_chop30",
        "description": "Seed 001: black 2, red 2, 3 consecutive pairs chopped: the last one "
        "chopped pays 5 + 10 + 15 = 30 (the table, not the text's 4 + 6).",
        "ruleset": "langvuichoi",
        "hands": CHAIN_HANDS,
        "first_game": False,
        "leader": 3,
        "bet": 1000,
        "actions": [*CHAIN_TO_QUAD, "0 pass", "1 pass", "2 pass", "3 4s 5s 6s 7s 8c 9c 10c Jc"],
    },
    {
        "name": "langvuichoi_three_spades",
        "description": "Seed 001: the winner's last card is 3♠: the loser's cards count × 3; "
        "the black 2 still pays × 5.",
        "ruleset": "langvuichoi",
        "hands": LVC_HANDS,
        "bet": 1000,
        "actions": [
            f"0 {LVC_STRAIGHT}",
            "1 pass",
            "0 5h",
            "1 9c",
            "0 2h",
            "1 pass",
            "0 3s",
        ],
    },
    {
        "name": "langvuichoi_cong",
        "description": "Seed 001: a cóng loser pays × 15 plus thối (a black 2: × 5).",
        "ruleset": "langvuichoi",
        "hands": LVC_HANDS,
        "bet": 1000,
        "actions": [
            "0 3s",
            "1 pass",
            f"0 {LVC_STRAIGHT}",
            "1 pass",
            "0 5h",
            "1 pass",
            "0 2h",
        ],
    },
    {
        "name": "langvuichoi_cong_three_spades",
        "description": "Seed 001: all 13 shed before the other played, 3♠ last: cóng × 2, "
        "thối included: (15 + 5) × 2 = 40.",
        "ruleset": "langvuichoi",
        "hands": LVC_HANDS,
        "bet": 1000,
        "actions": [
            f"0 {LVC_STRAIGHT}",
            "1 pass",
            "0 5h",
            "1 pass",
            "0 2h",
            "1 pass",
            "0 3s",
        ],
    },
    {
        "name": "langvuichoi_shared_instant",
        "description": "Seed 001: two instant winners in a later game share the win: each "
        "loser's 13 is split evenly, the odd chip in turn.",
        "ruleset": "langvuichoi",
        "hands": [
            "3s 3c 5s 5c 7s 7c 9s 9c Js Jc Ks Kc As",
            "4s 4c 6s 6c 8s 10s Qs 2s 3h 5h 7h 9h Jh",
            "3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad 2d",
            "4h 6h 8c 8h 10c 10h Qc Qh Kh Ac Ah 2c 2h",
        ],
        "first_game": False,
        "leader": 0,
        "bet": 1,
        "actions": [],
    },
    {
        "name": "b52_conversions",
        "description": "Seed 002: 3♠ 10, black 2 10, red 2 20, 3 consecutive pairs 20, four "
        "of a kind 40 counted instead of their cards; ordinary cards 1 each.",
        "ruleset": "b52",
        "hands": [
            "3c 4c 5h 6h 7h 8h Js Qs Ks As 10c 10d 2d",
            "3s 2s 5c 5d 6c 6d 7c 7d 9s 9c 9d 9h Jh",
            "Qd 3d 4s 4d 5s 6s 7s 8c 10h 2h Kd Ah 2c",
        ],
        "first_game": False,
        "leader": 0,
        "bet": 1000,
        "actions": [
            "0 3c 4c 5h 6h 7h 8h",
            "1 pass",
            "2 pass",
            "0 10c",
            "1 pass",
            "2 Qd",
            "0 2d",
            "2 pass",
            "0 10d",
            "1 pass",
            "2 pass",
            "0 Js Qs Ks As",
        ],
    },
    {
        "name": "b52_instant",
        "description": "Seed 002: a dragon straight wins at the deal: each loser pays 26, "
        "their 2s not counted.",
        "ruleset": "b52",
        "hands": [
            "3c 3d 3h 5c 5d 5h 7c 7d 7h 9c 9d 9h Jc",
            "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2s",
            "4c 4d 4h 6c 6d 6h 8c 8d 8h 10c 10d 10h Jd",
            "Jh Qc Qd Qh Kc Kd Kh Ac Ad Ah 2c 2d 2h",
        ],
        "first_game": False,
        "leader": 0,
        "bet": 1000,
        "actions": [],
    },
    {
        "name": "b52_sweep",
        "description": "Seed 002: all 13 shed before anyone else played a card: each loser "
        "pays 26 plus thối.",
        "ruleset": "b52",
        "hands": [
            "3s 4s 5s 6s 7s 8s 9s 10h 10d Jh Qh Kh 2d",
            "2h 3c 3d 4c 5c 6c 7c 8c 9c Js Qs Ks As",
            "2c 2s 4d 4h 5d 5h 6d 6h 8d 9d Jd Qd Ad",
        ],
        "first_game": False,
        "leader": 0,
        "bet": 1000,
        "actions": [
            "0 3s 4s 5s 6s 7s 8s 9s",
            "1 pass",
            "2 pass",
            "0 10h 10d",
            "1 pass",
            "2 pass",
            "0 Jh Qh Kh",
            "1 pass",
            "2 pass",
            "0 2d",
        ],
    },
    {
        "name": "b52_first_game_special",
        "description": "Seed 002: 3 consecutive pairs with 3♠ in a first game: each loser's "
        "cards count double, their 2s still pay thối.",
        "ruleset": "b52",
        "hands": [
            "3s 3c 4s 4c 5s 5c 7d 8d 9d 10d Jd Qd Kd",
            "2s 2h 3d 4d 5d 6s 7s 8s 9s 10s Js Qs As",
            "2c 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ks",
        ],
        "bet": 1000,
        "actions": [],
    },
    {
        "name": "b52_disconnect",
        "description": "Seed 002: a player who disconnects loses at once, paying for the cards "
        "held with heo and hàng converted.",
        "ruleset": "b52",
        "hands": [
            "3c 4c 5h 6h 7h 8h Js Qs Ks As 10c 10d 2d",
            "3s 2s 5c 5d 6c 6d 7c 7d 9s 9c 9d 9h Jh",
            "Qd 3d 4s 4d 5s 6s 7s 8c 10h 2h Kd Ah 2c",
        ],
        "first_game": False,
        "leader": 0,
        "bet": 1000,
        "actions": [
            "0 3c 4c 5h 6h 7h 8h",
            "1 leave",
            "2 pass",
            "0 10c",
            "2 Qd",
            "0 2d",
            "2 pass",
            "0 10d",
            "2 pass",
            "0 Js Qs Ks As",
        ],
    },
    {
        "name": "sanhrong_two_twos",
        "description": "Seed 003: 5 cards with a black and a red 2: 3 + 3 + 6 = 12 (the 2s "
        "count at their thối value instead of 1).",
        "ruleset": "sanhrong",
        "hands": [SANHRONG_WINNER, "Ks Kc 3c 4c 5c 6c 7c 8d 2s 2h 9h Jc Ad"],
        "bet": 1000,
        "actions": [
            "0 3s 4s 5s 6s 7s 8s 9s 10s",
            "1 pass",
            "0 Jh Jd",
            "1 Ks Kc",
            "0 pass",
            "1 3c 4c 5c 6c 7c",
            "0 pass",
            "1 8d",
            "0 Kh",
            "1 pass",
            "0 Qh Qd",
        ],
    },
    {
        "name": "sanhrong_cong",
        "description": "Seed 003: cóng holding a black 2: (12 + 3) × 2 = 30.",
        "ruleset": "sanhrong",
        "hands": [SANHRONG_WINNER, "2c Ks Kc 3c 4c 5c 6c 7c 8d 9h Jc Ad As"],
        "bet": 1000,
        "actions": [
            "0 3s 4s 5s 6s 7s 8s 9s 10s",
            "1 pass",
            "0 Jh Jd",
            "1 pass",
            "0 Qh Qd",
            "1 pass",
            "0 Kh",
        ],
    },
    {
        "name": "sanhrong_instant",
        "description": "Seed 003: four triples win at the deal; the loser pays the count with "
        "thối (black 2: 3, red 2: 6).",
        "ruleset": "sanhrong",
        "hands": [
            "3s 3c 3d 5s 5c 5d 7s 7c 7d 9s 9c 9d Js",
            "2s 2h 4h 6h 8h 10h Qh Kh Ah 4s 6s 8s 10s",
        ],
        "bet": 1000,
        "actions": [],
    },
    {
        "name": "bigfun_places",
        "description": "Seed 004, full ranking: bét pays nhất one bet plus thối, ba pays nhì "
        "one bet.",
        "ruleset": "bigfun",
        "hands": SUITED_HANDS,
        "bet": 1000,
        "actions": [
            "0 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As",
            "1 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac",
            "2 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad",
            "3 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah",
            "0 pass",
            "1 pass",
            "2 pass",
            "3 2h",
            "0 pass",
            "1 pass",
            "2 pass",
            "0 2s",
            "1 2c",
        ],
    },
    {
        "name": "bigfun_one_cong",
        "description": "Seed 004: one player cóng pays 2 bets plus heo/hàng to the first; the "
        "other two play on for 2nd and 3rd.",
        "ruleset": "bigfun",
        "hands": SUITED_HANDS,
        "bet": 1000,
        "actions": [
            "0 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As",
            "1 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac",
            "2 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad",
            "3 pass",
            "0 pass",
            "1 pass",
            "2 2d",
            "0 pass",
            "1 pass",
            "0 2s",
        ],
    },
    {
        "name": "bigfun_den_bai",
        "description": "Seed 004: three players cóng; the last one who passed while able to "
        "beat pays for the whole table (đền bài).",
        "ruleset": "bigfun",
        "hands": [
            "3s 4s 5s 6s 7s 8s 9s 10s Js Jc Qs Qc Ks",
            "3d 4c 5d 6c 7d 8c 9d Kh Ad 2c 4d 6d 8d",
            "As Ac 2s 2h Kc Kd Qd Qh Jd Jh 3c 7c 9c",
            "3h 4h 5c 5h 6h 7h 8h 9h 10c 10d 10h Ah 2d",
        ],
        "bet": 1000,
        "actions": [
            "0 3s 4s 5s 6s 7s 8s 9s 10s",
            "1 pass",
            "2 pass",
            "3 pass",
            "0 Js Jc",
            "1 pass",
            "2 pass",
            "3 pass",
            "0 Qs Qc",
            "1 pass",
            "2 pass",
            "3 pass",
            "0 Ks",
        ],
    },
]


def _apply(game: Game, step: str) -> None:
    seat_text, _, what = step.partition(" ")
    seat = int(seat_text)
    game.apply(Action(seat, what) if what in ACTION_KINDS else Action.play(seat, what))


def build(spec: dict[str, Any]) -> dict[str, Any]:
    """Play a spec's script on the engine and return the game record as JSON data."""
    rules = rules_from_spec(spec["ruleset"])
    game = Game(
        rules,
        spec["hands"],
        first_game=spec.get("first_game", True),
        leader=spec.get("leader"),
    )
    for step in spec["actions"]:
        _apply(game, step)
    if not game.is_terminal():
        raise AssertionError(f"{spec['name']}: the script ends before the game does")
    extra = {"description": spec["description"], **spec.get("extra", {})}
    record = record_of(game, ruleset=spec["ruleset"], bet=spec.get("bet", 1), extra=extra)
    return record.to_dict()


def render(data: dict[str, Any]) -> str:
    """JSON with one action per line, so that a record reads like a score sheet."""
    lines = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        value = data[key]
        if key == "actions" and value:
            lines.append(f'  "{key}": [')
            for j, action in enumerate(value):
                sep = "," if j < len(value) - 1 else ""
                lines.append("    " + json.dumps(action, ensure_ascii=False) + sep)
            lines.append("  ]" + comma)
        elif key == "hands":
            lines.append(f'  "{key}": [')
            for j, hand in enumerate(value):
                sep = "," if j < len(value) - 1 else ""
                lines.append("    " + json.dumps(hand, ensure_ascii=False) + sep)
            lines.append("  ]" + comma)
        else:
            lines.append(f'  "{key}": ' + json.dumps(value, ensure_ascii=False) + comma)
    lines.append("}")
    return "\n".join(lines) + "\n"


def path_of(spec: dict[str, Any]) -> Path:
    return HERE / f"scoring_{spec['name']}.json"


def main() -> None:
    for spec in SPECS:
        path_of(spec).write_text(render(build(spec)), encoding="utf-8")
        print(f"wrote {path_of(spec).relative_to(HERE.parent.parent)}")


if __name__ == "__main__":
    main()
