"""The pydantic models of every REST message the server reads or writes.

The live tables' WebSocket messages have their own modules, :mod:`.table_protocol` and
:mod:`.table_messages` (docs/PROTOCOL.md). Inputs are strict
(unknown fields are refused, lengths bounded) so a bad request is answered with a precise error
before any code acts on it; the account rules themselves (auth.check_nickname …) give the
specific codes.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, with_config
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

__all__ = [
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
    "Lack",
    "Leaderboard",
    "LeaderboardEntry",
    "NewTable",
    "Ok",
    "PlayNow",
    "PlayShown",
    "PlayerInfo",
    "Profile",
    "ReplayStep",
    "RoomInfo",
    "SanctionMessage",
    "SanctionTold",
    "TableList",
    "TableSummary",
]


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)


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
    bet: int = Field(description="In the room's range and at most 1/10 of the owner's chips.")
    turn_seconds: int = Field(default=10, description="10, 15 or 20.")
    seats: int = Field(default=4, description="2 to 4.")
    private: bool = Field(
        default=False, description="Private tables are listed and open only with the invite."
    )


class PlayNow(_Input):
    """Play now (the body is optional)."""

    preset: str = Field(default="thapthanh", max_length=20, description="One of the rule presets.")


class TableSummary(BaseModel):
    """A live table as the lobby lists it."""

    id: str
    room: str
    preset: str
    bet: int
    fee_bp: int
    seats_taken: int
    seats: int
    turn_seconds: int
    phase: Literal["waiting", "seeding", "playing"] = Field(
        description="Waiting for players, dealing (client seeds), or a game being played."
    )
    private: bool
    owner: int = Field(description="The owner's user id.")
    invite: str | None = Field(
        default=None, description="The invite code of a private table, for its owner only."
    )


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


class GameHistory(BaseModel):
    """A page of a player's finished games, newest first."""

    games: list[GameSummary]
    total: int = Field(description="How many finished games the player has.")
    next_offset: int | None = Field(description="The offset of the next page; null at the end.")


class PlayShown(BaseModel):
    """A play on the table: who made it, its cards and its combination's name."""

    seat: int
    cards: str
    combination: str


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
    settlement: dict[str, Any] = Field(
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
