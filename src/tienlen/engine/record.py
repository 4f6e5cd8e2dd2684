"""Game records: a finished (or unfinished) game as JSON, and replaying one action by action.

The format is documented in docs/RECORDS.md. Replaying checks every action with the engine;
the first illegal one stops the replay with a :class:`ReplayError` naming its index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from .cards import CardError, mask_ascii, parse_mask
from .codec import RECORD_FORMAT, action_from_dict, action_to_dict
from .errors import BadAction, IllegalAction
from .game import Game
from .rules import RuleSet, RuleSetError


class RecordError(ValueError):
    """The record itself is malformed (before any action is checked)."""

    code = "bad_record"


class ReplayError(ValueError):
    """An action of the record is illegal or unreadable."""

    def __init__(self, index: int, code: str, message: str) -> None:
        super().__init__(f"action {index}: {message}")
        self.index = index
        self.code = code
        self.message = message

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "code": self.code, "message": self.message}


@dataclass
class GameRecord:
    rules: RuleSet
    hands: list[int]
    actions: list[dict[str, Any]]
    ruleset: Any = "thapthanh"
    """The ``ruleset`` value as written: a preset name or ``{"preset": …, "overrides": …}``."""
    players: list[str] = field(default_factory=list)
    first_game: bool = True
    leader: int | None = None
    bet: int = 1
    barred_instant_winner: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Fields this module does not read (balances, room, …), kept for other layers."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "ruleset": self.ruleset,
            "players": self.players,
            "hands": [mask_ascii(h) for h in self.hands],
            "first_game": self.first_game,
            "leader": self.leader,
            "bet": self.bet,
        }
        if self.barred_instant_winner is not None:
            out["barred_instant_winner"] = self.barred_instant_winner
        out.update(self.extra)
        out["actions"] = self.actions
        return out

    def new_game(self) -> Game:
        try:
            game = Game(
                self.rules,
                self.hands,
                first_game=self.first_game,
                leader=self.leader,
                barred_instant_winner=self.barred_instant_winner,
            )
        except ValueError as exc:
            raise RecordError(str(exc)) from None
        deal = self.extra.get("deal")
        if isinstance(deal, dict):
            game.deal = dict(deal)
        return game


_KNOWN = {
    "format",
    "ruleset",
    "players",
    "hands",
    "first_game",
    "leader",
    "bet",
    "actions",
    "barred_instant_winner",
}


def rules_from_spec(spec: Any) -> RuleSet:
    """A rule set from a record's ``ruleset``: a preset name or a preset with overrides."""
    try:
        if isinstance(spec, str):
            return RuleSet.preset(spec)
        if isinstance(spec, dict) and isinstance(spec.get("preset"), str):
            overrides = spec.get("overrides", {})
            if not isinstance(overrides, dict):
                raise RecordError("ruleset overrides must be an object")
            return RuleSet.preset(spec["preset"], **overrides)
    except (RuleSetError, TypeError) as exc:
        raise RecordError(f"ruleset: {exc}") from None
    raise RecordError('ruleset must be a preset name or {"preset": NAME, "overrides": {...}}')


def parse_record(data: Any) -> GameRecord:
    """Read and check the record's fields (not yet its actions)."""
    if not isinstance(data, dict):
        raise RecordError("a game record is a JSON object")
    if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise RecordError(f"format must be {RECORD_FORMAT!r} (or absent), not {data['format']!r}")
    rules = rules_from_spec(data.get("ruleset", "thapthanh"))
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, list) or not 2 <= len(hands_raw) <= 4:
        raise RecordError("hands must be a list of 2 to 4 hands")
    hands = []
    for seat, hand in enumerate(hands_raw):
        if not isinstance(hand, (str, list)) or not all(isinstance(c, str) for c in hand):
            raise RecordError(f"hands[{seat}] must be a string or a list of card names")
        try:
            hands.append(parse_mask(hand))
        except CardError as exc:
            raise RecordError(f"hands[{seat}]: {exc}") from None
    players = data.get("players") or [f"Seat {i}" for i in range(len(hands))]
    if not isinstance(players, list) or len(players) != len(hands):
        raise RecordError("players must list one name per hand")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    bet = data.get("bet", 1)
    if not isinstance(bet, int) or isinstance(bet, bool) or bet <= 0:
        raise RecordError("bet must be a positive whole number of chips")
    first_game = data.get("first_game", True)
    if not isinstance(first_game, bool):
        raise RecordError("first_game must be true or false")
    leader = data.get("leader")
    if leader is not None and (not isinstance(leader, int) or isinstance(leader, bool)):
        raise RecordError("leader must be a seat number or null")
    barred = data.get("barred_instant_winner")
    if barred is not None and (not isinstance(barred, int) or isinstance(barred, bool)):
        raise RecordError("barred_instant_winner must be a seat number or null")
    if barred is not None and not 0 <= barred < len(hands):
        raise RecordError(f"barred_instant_winner must be a seat from 0 to {len(hands) - 1}")
    record = GameRecord(
        rules=rules,
        hands=hands,
        actions=actions,
        ruleset=data.get("ruleset", "thapthanh"),
        players=[str(p) for p in players],
        first_game=first_game,
        leader=leader,
        bet=bet,
        barred_instant_winner=barred,
        extra={k: v for k, v in data.items() if k not in _KNOWN},
    )
    record.new_game()  # checks the deal
    return record


def apply_record_action(game: Game, index: int, action: Any) -> None:
    """Apply one record action to ``game``, turning any failure into a ReplayError."""
    try:
        parsed = action_from_dict(action)
    except CardError as exc:
        raise ReplayError(index, "bad_cards", str(exc)) from None
    except BadAction as exc:
        raise ReplayError(index, "bad_action", exc.message) from None
    try:
        game.apply(parsed)
    except IllegalAction as exc:
        raise ReplayError(index, exc.code, exc.message) from None


def replay(record: GameRecord) -> Game:
    """Play the record's actions on a fresh game; raises ReplayError on the first bad one."""
    game = record.new_game()
    for index, action in enumerate(record.actions):
        apply_record_action(game, index, action)
    return game


def actions_of(game: Game) -> list[dict[str, Any]]:
    """The game's commands so far, as a record stores them."""
    return cast("list[dict[str, Any]]", [action_to_dict(a) for a in game.history])


def record_of(
    game: Game,
    ruleset: Any = None,
    players: list[str] | None = None,
    bet: int = 1,
    extra: dict[str, Any] | None = None,
) -> GameRecord:
    """The record of a game played so far (usually a finished one)."""
    return GameRecord(
        rules=game.rules,
        hands=list(game.initial_hands),
        actions=actions_of(game),
        ruleset=ruleset if ruleset is not None else game.rules.to_spec(),
        players=players or [f"Seat {i}" for i in range(game.n)],
        first_game=game.first_game,
        leader=None if game.first_game else game.leader,
        bet=bet,
        barred_instant_winner=game.barred_instant_winner,
        extra=({"deal": dict(game.deal)} if game.deal is not None else {}) | (extra or {}),
    )
