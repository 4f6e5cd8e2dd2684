"""The pydantic models of every REST message the server reads or writes.

The live tables' WebSocket messages have their own modules, :mod:`.table.protocol` and
:mod:`.table.messages` (docs/PROTOCOL.md). Inputs are strict
(unknown fields are refused, lengths bounded) so a bad request is answered with a precise error
before any code acts on it; the account rules themselves (auth.check_nickname …) give the
specific codes.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator, with_config
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

from ..engine.rules import RuleSet
from ..engine.wire import ComboKind
from ..money.wire import Settlement

__all__ = [
    "MAX_ID",
    "MAX_INT",
    "MAX_LINE_ID",
    "BannedAccount",
    "Credentials",
    "DecisionReviewInfo",
    "ErrorBody",
    "ErrorResponse",
    "GameAnalysis",
    "GameHistory",
    "GamePlayerInfo",
    "GameReplay",
    "GameSummary",
    "Health",
    "Int64",
    "Lack",
    "Leaderboard",
    "LeaderboardEntry",
    "NewReport",
    "NewTable",
    "OffenceInfo",
    "Offences",
    "Ok",
    "PlayNow",
    "PlayShown",
    "PlayerInfo",
    "PresetRules",
    "Profile",
    "ReplayStep",
    "RoomInfo",
    "RuleExample",
    "RuleExampleLine",
    "RuleExamplePlay",
    "RuleExampleSeat",
    "RuleNames",
    "RulesInfo",
    "SanctionMessage",
    "SanctionTold",
    "TableList",
    "TablePhase",
    "TableSummary",
]


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)


MAX_INT = 2**63 - 1
"""The largest integer a client may send anywhere, in a REST body, query or path or in a
WebSocket message (a signed 64-bit integer: what the databases' ``BIGINT`` holds). An integer
outside ``-2**63 .. 2**63 - 1`` is refused (``bad_request``, ``bad_field``) before any code
acts on it; fields with a tighter range say so."""

TablePhase = Literal["waiting", "seeding", "playing"]
"""A table's phase: waiting for players, dealing (collecting client seeds), or playing a game
(the same in REST, on the table socket and in the lobby's feed)."""

Int64 = Annotated[int, Field(ge=-MAX_INT - 1, le=MAX_INT)]
"""An integer a client sends, in the signed 64-bit range (:data:`MAX_INT`): every integer field
of a client's message is one, or has a narrower range, so none reaches a database (or a reply)
out of range."""

MAX_ID = 2**31 - 1
"""The largest id a user, report or flag has (an ``INTEGER`` column: 32 bits in PostgreSQL):
a larger one names nothing, and is refused as ``bad_request`` before it reaches the database
(which would overflow)."""

MAX_LINE_ID = MAX_INT
"""The largest id a chat line has (``BIGINT``), likewise."""


class NewReport(_Input):
    """A player's report of another player, or of one of their chat lines (docs/CONDUCT.md)."""

    user_id: int | None = Field(
        default=None, ge=1, le=MAX_ID, description="The player reported (or `nickname`)."
    )
    nickname: str | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        description="The player reported, by nickname (as log-in finds it), instead of `user_id`.",
    )
    text: str = Field(min_length=1, max_length=1000, description="What happened.")
    message_id: int | None = Field(
        default=None,
        ge=1,
        le=MAX_LINE_ID,
        description="The chat line reported, if one: its `id` (a whole number).",
    )
    context: dict[str, Any] = Field(
        default_factory=dict,
        description="Anything the client adds (the page: the offence chosen, `offence`); kept "
        "under `client` beside what the server attaches (the chat and the game).",
    )

    @model_validator(mode="after")
    def _one_target(self) -> NewReport:
        if (self.user_id is None) == (self.nickname is None):
            raise ValueError("name the player reported by user_id or by nickname (one of them)")
        return self


class OffenceInfo(BaseModel):
    key: str = Field(description="The conduct policy's key (what a moderator's `offence` names).")
    title_en: str
    title_vi: str


class Offences(BaseModel):
    """The conduct policy's offences, in its order: the reasons a report may give."""

    offences: list[OffenceInfo]


class Credentials(_Input):
    """Register, log in, or turn a guest into an account."""

    nickname: str = Field(
        max_length=100,
        description="3-20 characters: letters (with Vietnamese marks), digits, single spaces or "
        "underscores between them (docs/SERVER.md).",
        examples=["Đức Anh"],
    )
    password: str = Field(max_length=1024, description="At least 8 characters (by default).")


class Profile(BaseModel):
    """The logged-in player: identity, chips and record."""

    id: int
    nickname: str
    is_guest: bool
    chips: int = Field(description="Balance of the player's ledger account.")
    dkn: int = Field(description="ĐKN (điểm kinh nghiệm): experience points.")
    vip_points: int
    games_played: int
    games_won: int
    created_at: datetime
    last_topup_on: date | None = Field(description="Server day of the latest daily top-up.")
    topup: int = Field(
        default=0, description="Chips of a daily top-up granted by this very request (else 0)."
    )


class PlayerInfo(BaseModel):
    """What anyone may see of a player (``GET /api/players/{nickname}``): no id, no VIP points,
    nothing about their sessions or sanctions."""

    nickname: str
    is_guest: bool
    chips: int = Field(description="Balance of the player's ledger account.")
    dkn: int = Field(description="ĐKN (điểm kinh nghiệm): experience points.")
    games_played: int
    games_won: int
    created_at: datetime


class LeaderboardEntry(BaseModel):
    rank: int = Field(description="1 for the best; equal values share a rank.")
    nickname: str
    dkn: int
    chips: int
    games_played: int
    games_won: int


class Leaderboard(BaseModel):
    by: Literal["dkn", "chips"]
    entries: list[LeaderboardEntry]


class Ok(BaseModel):
    ok: Literal[True] = True


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    database: str = Field(description="The database backend: sqlite or postgresql.")


class SanctionTold(TypedDict):
    """A mute or ban in force, as its player is told it: with a ``muted`` or ``banned`` error
    (REST and both WebSockets), so a page can say until when in its own language and clock."""

    kind: Literal["mute", "ban"]
    until: Annotated[
        str | None, Field(description="When it ends (ISO 8601, UTC); null: permanently.")
    ]
    reason: Annotated[str, Field(description="The moderator's (or the automatic) reason.")]
    offence: Annotated[
        str | None, Field(description="The conduct policy's offence key; null: a moderator's call.")
    ]
    offence_en: Annotated[str | None, Field(description="The offence's title in English.")]
    offence_vi: Annotated[str | None, Field(description="The offence's title in Vietnamese.")]


@with_config(ConfigDict(extra="forbid"))
class SanctionMessage(TypedDict):
    """You were just warned, muted or banned, or your mute or ban was lifted (unmute, unban:
    you may chat again, or log in again), docs/CONDUCT.md. After a ban the server closes the
    socket (1008)."""

    type: Literal["sanction"]
    kind: Literal["warn", "mute", "ban", "unmute", "unban"]
    until: str | None
    """When it ends (ISO 8601, UTC); null: permanently, a warning or a lift."""
    reason: str
    """Why: the sanction's reason, or the lift's."""
    offence: str | None
    """The conduct policy's offence key; null: a moderator's call (always, for a lift)."""
    offence_en: str | None
    offence_vi: str | None
    message: str
    """What, until when (UTC) and why: ``you are muted until 2026-03-14 11:00 UTC for …``,
    ``your mute is lifted: appeal accepted``."""


class BannedAccount(BaseModel):
    chips: int = Field(description="Balance of the player's ledger account.")
    dkn: int = Field(description="ĐKN (điểm kinh nghiệm): experience points.")


class ErrorBody(BaseModel):
    code: str = Field(description="Stable machine-readable reason, e.g. nickname_taken.")
    message: str = Field(description="What was wrong, for people.")
    sanction: SanctionTold | None = Field(
        default=None, description="With ``muted`` and ``banned`` only: the sanction in force."
    )
    retry_after: str | None = Field(
        default=None,
        description="With ``too_many_signups``, ``too_many_logins`` and ``login_locked`` only: "
        "when the request may be made again (ISO 8601, UTC).",
    )
    account: BannedAccount | None = Field(
        default=None,
        description="With ``banned`` only (told only to the account's owner, after the "
        "password or with their session): their chips and ĐKN now, so a page shows what the "
        "ban cost (a game left under the leaving rules).",
    )


class ErrorResponse(BaseModel):
    """Every error the API returns has this shape."""

    error: ErrorBody


Lack = Literal["chips", "vip_points"]
"""What keeps a player out of a room."""


class RoomInfo(BaseModel):
    """A room of the lobby (money/rooms.py) and whether the asking player may enter it."""

    key: str = Field(description="trainee, tycoon or vip.")
    name_en: str
    name_vi: str
    min_bet: int
    max_bet: int
    fee_bp: int = Field(description="House fee on each winner's net winnings, basis points.")
    min_balance: int = Field(description="Chips a player needs to enter.")
    min_chips: int = Field(
        description="Chips a player needs to play there: min_balance, and at least one"
        " smallest bet (what a table deals a person in with)."
    )
    min_vip_points: int = Field(description="VIP points a player needs to enter.")
    may_enter: bool | None = Field(description="For a logged-in player; null otherwise.")
    why_not: str | None = Field(
        description="Why the player may not enter, when they may not: an English sentence."
    )
    lacks: Lack | None = Field(
        description="What keeps the player out, when they may not enter: chips (fewer than"
        " min_balance) or vip_points (fewer than min_vip_points).",
    )
    held: int | None = Field(
        description="The player's chips or VIP points, whichever lacks names; null with it.",
    )


class NewTable(_Input):
    """Open a table in a room."""

    room: str = Field(max_length=20, examples=["trainee"])
    preset: str = Field(max_length=20, description="One of the rule presets.", examples=["bigfun"])
    bet: Int64 = Field(description="In the room's range and at most 1/10 of the owner's chips.")
    turn_seconds: Int64 = Field(default=10, description="10, 15 or 20.")
    seats: Int64 = Field(default=4, description="2 to 4.")
    private: bool = Field(
        default=False, description="Private tables are listed and open only with the invite."
    )


class PlayNow(_Input):
    """Play now (the body is optional)."""

    preset: str = Field(default="thapthanh", max_length=20, description="One of the rule presets.")


class TableSummary(TypedDict):
    """A live table as the lobby lists it (in REST answers and on the lobby's socket, one
    shape: the lobby builds it as this dict)."""

    id: str
    room: str
    preset: str
    bet: int
    fee_bp: int
    seats_taken: int
    seats: int
    turn_seconds: int
    phase: Annotated[
        TablePhase,
        Field(description="Waiting for players, dealing (client seeds), or a game being played."),
    ]
    private: bool
    owner: Annotated[int, Field(description="The owner's user id.")]
    invite: Annotated[
        str | None,
        Field(description="The invite code of a private table, for its owner only (else null)."),
    ]


class TableList(BaseModel):
    tables: list[TableSummary]


class GamePlayerInfo(BaseModel):
    """A player of a finished game."""

    seat: int = Field(description="The game seat (0 leads a first game's play order).")
    table_seat: int
    name: str
    user: int | None = Field(description="The player's user id; null for a bot.")
    bot: str | None = Field(description="A bot's level; null for a person.")
    delta: int | None = Field(description="Chips won (+) or lost (-), after the house fee.")


class GameSummary(BaseModel):
    """One finished game in a player's history."""

    id: str = Field(description="The game's id, ``<table id>:<number>``.")
    table: str
    number: int = Field(description="The game's number at its table, from 1.")
    room: str
    preset: str
    bet: int
    settled_at: datetime = Field(description="When it was settled (UTC).")
    players: list[GamePlayerInfo]
    seat: int = Field(description="The asking player's game seat.")
    delta: int = Field(description="What the asking player won (+) or lost (-).")
    won: bool = Field(description="Whether the asking player won it.")
    balance: int | None = Field(
        default=None,
        description="The asking player's chips just after it (before it, plus delta); null "
        "where the game did not record them.",
    )


class GameHistory(BaseModel):
    """A page of a player's finished games, newest first."""

    games: list[GameSummary]
    total: int = Field(description="How many finished games the player has.")
    next_offset: int | None = Field(description="The offset of the next page; null at the end.")


class PlayShown(BaseModel):
    """A play on the table: who made it, its cards and its combination (its English name, and
    typed: its kind and length, as in a table's views)."""

    seat: int
    cards: str
    combination: str = Field(description="The engine's English name (``straight of 5``).")
    kind: ComboKind
    length: int = Field(description="The cards in it; for consecutive pairs, the pairs.")


class ReplayStep(BaseModel):
    """One step of a finished game's replay: what happened, and every hand after it (the game
    is over, so all hands are shown face up)."""

    kind: Literal[
        "deal",
        "play",
        "chop",
        "pass",
        "round_won",
        "player_out",
        "left",
        "instant_win",
        "cong",
        "game_over",
        "decline",
    ] = Field(
        description="``deal`` first, then the engine's event types (docs/PROTOCOL.md); "
        "``decline``: the asking player let an out-of-turn chop offer go (declines are "
        "private, so only the asker's own are steps)."
    )
    seat: int | None = Field(description="The game seat it is about (the winner at the end).")
    cards: str | None = Field(description="The cards played or chopped with, else null.")
    place: int | None = Field(default=None, description="For ``player_out``: the place.")
    auto: bool = Field(
        default=False, description="For ``play`` and ``pass``: made by the turn timer."
    )
    seats: list[int] = Field(
        default_factory=list, description="For ``instant_win`` and ``cong``: the seats."
    )
    action: int | None = Field(description="The index of the record action behind it.")
    hands: list[str] = Field(description="Every seat's cards after it, by game seat.")
    cards_left: list[int]
    to_beat: PlayShown | None = Field(description="The play on the table after it.")
    turn: int | None = Field(description="Whose turn it is after it; null once the game is over.")


class GameReplay(BaseModel):
    """A finished game step by step, computed by the engine from its stored record."""

    id: str
    preset: str
    bet: int
    players: list[str] = Field(description="The players' names, by game seat.")
    seat: int = Field(description="The asking player's game seat.")
    steps: list[ReplayStep]
    settlement: Settlement = Field(
        description="The settlement, as the table's ``settlement`` message carries it."
    )


class DecisionReviewInfo(BaseModel):
    """One decision of the asking player, beside what the search bot would have played."""

    action: int = Field(description="The index of the record action (a replay step's action).")
    kind: Literal["turn", "timer", "chop"] = Field(
        description="``turn``: a play or pass with another choice open; ``timer``: a turn the "
        "turn timer played (its play or pass reviewed as the player's); ``chop``: an "
        "out-of-turn chop offer, taken (``played``: the chop) or declined (``played`` empty)."
    )
    played: str = Field(
        description="The cards the player (or the timer) played; empty for a pass or a decline."
    )
    bot: str = Field(
        description="The cards the search bot would have played; empty: pass (or decline)."
    )
    same: bool = Field(description="Whether the bot would have played the same.")
    chips_difference: float | None = Field(
        description="The bot's choice's expected chips minus the player's (estimated on the "
        "same sampled deals; 0 when the same; null when no deal could be sampled)."
    )
    samples: int = Field(description="The sampled deals behind the estimate.")


class GameAnalysis(BaseModel):
    """The search bot's review of the asking player's decisions in a finished game."""

    id: str
    seat: int = Field(description="The asking player's game seat.")
    decisions: list[DecisionReviewInfo]


class RuleNames(BaseModel):
    """A name in both languages, as the engine writes it."""

    en: str
    vi: str


class RuleExampleSeat(BaseModel):
    """One player of a preset's worked example."""

    seat: int
    dealt: str = Field(description="The hand dealt, in the records' ASCII (``3s 4c 10h``).")
    left: str = Field(description="The cards still held when the game ended.")
    cong: bool = Field(description="Whether the player never played a card (cóng).")
    delta: int = Field(description="Chips won (+) or lost (-), after the house fee.")


class RuleExamplePlay(BaseModel):
    """One turn of the worked example."""

    seat: int
    cards: str = Field(description="The cards played, in ASCII; empty: a pass.")


class RuleExampleLine(BaseModel):
    """A settlement line of the worked example, as the server's money code writes it."""

    payer: int
    payee: int
    amount: int = Field(description="Chips paid.")
    kind: str
    reason_en: str
    reason_vi: str


class RuleExample(BaseModel):
    """A small game settled by the server's own money code for a preset: the first player
    goes out while one player is left with a 2 and another never played (cóng)."""

    bet: int
    room: str = Field(description="The room whose house fee is taken.")
    room_name: RuleNames = Field(description="The room's name as a page shows it.")
    fee_bp: int
    plays: list[RuleExamplePlay] = Field(description="What was played, in order.")
    seats: list[RuleExampleSeat]
    winner: int
    lines: list[RuleExampleLine]
    fee: int = Field(description="The house fee taken, in chips.")


class PresetRules(BaseModel):
    """One preset: every option of its :class:`~tienlen.engine.rules.RuleSet` as the engine
    holds it, and its worked example."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    key: str
    rules: RuleSet
    example: RuleExample


class RulesInfo(BaseModel):
    """``GET /api/rules``: every preset, with the engine's names of the instant-win hands and
    of the chop categories, for the page to word each option."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    presets: list[PresetRules]
    instant_hands: dict[str, RuleNames] = Field(
        description="Instant-win (tới trắng) hands: identifier → names."
    )
    categories: dict[str, RuleNames] = Field(
        description="Chop categories (what is chopped, what chops): identifier → names."
    )
