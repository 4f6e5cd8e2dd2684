"""Server settings, read from ``TIENLEN_*`` environment variables (docs/SERVER.md lists them).

The embedded default needs nothing installed or configured: a ``data`` folder in the working
directory holding a SQLite database and a secret key made on first start. Setting
``TIENLEN_DATABASE_URL`` moves the data to PostgreSQL.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["SECRET_KEY_FILE", "Settings", "load_secret_key"]

SECRET_KEY_FILE = "secret_key"
"""The secret key's file name inside the data folder."""
DATABASE_FILE = "tienlen.sqlite3"
"""The embedded database's file name inside the data folder."""


class Settings(BaseSettings):
    """Everything the server reads from its environment; each field is ``TIENLEN_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix="TIENLEN_", extra="ignore", frozen=True)

    data_dir: Path = Field(
        default=Path("data"),
        description="Folder for the embedded SQLite database and the secret key.",
    )
    database_url: str | None = Field(
        default=None,
        description="SQLAlchemy URL; unset means a SQLite file in the data folder. "
        "postgresql://user@host/db uses PostgreSQL through psycopg 3.",
    )
    host: str = Field(default="127.0.0.1", description="Address `tienlen serve` listens on.")
    port: int = Field(default=8000, ge=0, le=65535, description="Port `tienlen serve` uses.")

    cookie_name: str = Field(
        default="tienlen_session",
        pattern=r"^[A-Za-z0-9_\-]{1,64}$",
        description="Name of the session cookie.",
    )
    cookie_secure: bool = Field(
        default=False,
        description="Send the session cookie only over HTTPS; turn on behind TLS.",
    )
    session_days: int = Field(
        default=30, ge=1, le=3650, description="A session lasts this many days after log-in."
    )

    starting_grant: int = Field(
        default=100_000, ge=0, description="Chips each new account or guest receives once."
    )
    topup_floor: int = Field(
        default=10_000,
        ge=0,
        description="A player holding fewer chips than this may be topped up once a day.",
    )
    topup_amount: int = Field(default=10_000, ge=0, description="Chips of one daily top-up.")
    day_utc_offset_hours: int = Field(
        default=7,
        ge=-12,
        le=14,
        description="Offset of the server's day from UTC (Vietnam: +7); a day starts at "
        "midnight there.",
    )

    password_min_length: int = Field(default=8, ge=1, le=128)
    argon2_time_cost: int = Field(default=3, ge=1, description="argon2id passes.")
    argon2_memory_kib: int = Field(default=65536, ge=8, description="argon2id memory (KiB).")
    argon2_parallelism: int = Field(default=4, ge=1, description="argon2id lanes.")

    max_body_bytes: int = Field(
        default=16 * 1024, ge=256, description="Largest request body accepted (bytes)."
    )

    allowed_origins: list[str] = Field(
        default_factory=list,
        description="Origins (scheme://host[:port]) besides the server's own host that may open "
        'table WebSockets; a JSON list, e.g. ["https://tienlen.example"].',
    )
    ws_max_bytes: int = Field(
        default=16 * 1024,
        ge=4096,
        description="Largest WebSocket frame a table accepts; a bigger one closes the socket.",
    )
    ws_compression: bool = Field(
        default=False,
        description="Offer permessage-deflate on the WebSockets (`tienlen serve`): about a "
        "twelfth of the bytes, for about a fifth more server CPU per action.",
    )
    web_dir: Path | None = Field(
        default=None,
        description="Folder of the built web page served at /; unset means the one `web/` "
        "builds into (src/tienlen/server/static).",
    )
    ws_queue: int = Field(
        default=1024,
        ge=16,
        description="Messages waiting for one WebSocket; a socket that falls further behind "
        "is closed (the client resumes).",
    )

    gc_full_collection_minutes: float = Field(
        default=60,
        gt=0,
        le=24 * 60,
        description="`tienlen serve` runs Python's full garbage collection this often, and "
        "never by itself (server/collector.py): each stops every table for 0.1-0.6 s at 500 "
        "tables.",
    )
    empty_table_seconds: int = Field(
        default=60,
        ge=1,
        description="A table where no person has sat or been connected for this many seconds, "
        "with no game on, is closed.",
    )

    house_shards: int = Field(
        default=1,
        ge=1,
        le=1024,
        description="How many rows the house and issuance accounts are each split into "
        "(shards 0..n-1, opened at start-up, never closed): every settlement, grant and stake "
        "locks one, so on PostgreSQL with many tables one row caps settlements at about 400 a "
        "second; 16-64 lifts it. SQLite serialises every write anyway: 1 there.",
    )

    drain_seconds: float = Field(
        default=30.0,
        ge=0,
        description="On SIGTERM (or Ctrl-C), how long `tienlen serve` lets the games in "
        "progress finish before it stops, opening no table and dealing no game meanwhile; "
        "0: stop at once (a game still on resumes at the next start).",
    )

    log_format: Literal["text", "json"] = Field(
        default="text",
        description="How `tienlen serve` writes its logs: uvicorn's text, or one JSON object a "
        "line (ts, level, logger, msg and the ids a line names: table, game, user).",
    )

    journal_max_queue: int = Field(
        default=200_000,
        ge=1,
        description="Writes of the games' journal (deals, actions) held while the database "
        "cannot be reached, tried again until it can; past this many, a game's later writes "
        "are dropped (it can no longer be resumed after a restart).",
    )

    grace_seconds: float = Field(
        default=60.0,
        ge=0,
        le=24 * 3600,
        description="How long a player who lost the connection keeps the seat (the turn timer "
        "plays for them meanwhile) before they are stood up.",
    )
    chop_seconds: float = Field(
        default=3.0,
        ge=0,
        le=60,
        description="How long a person's out-of-turn chop offer stays open.",
    )
    seed_window_seconds: float = Field(
        default=3.0,
        ge=0,
        le=60,
        description="How long a deal waits for the players' client seeds after its "
        "commitment (docs/FAIRNESS.md; 0: no client seeds are asked for).",
    )
    start_wait_seconds: float = Field(
        default=5.0,
        ge=0,
        le=600,
        description="Once two players are ready at a table, how long others have to sit down "
        "before the first deal.",
    )
    between_games_seconds: float = Field(
        default=3.0,
        ge=0,
        le=600,
        description="The pause between a settlement and the next deal.",
    )
    play_now_wait_seconds: float = Field(
        default=5.0,
        ge=0,
        le=600,
        description='How long the first deal of a "play now" table waits, with a countdown, '
        "even when it is full.",
    )
    away_after_turns: int = Field(
        default=2,
        ge=1,
        le=100,
        description="Turns in a row the timer plays for a person before their seat is marked "
        "sitting out (not dealt in again until they come back).",
    )
    bot_delay_seconds: float = Field(
        default=0.8,
        ge=0,
        le=60,
        description="The least time a bot takes over a move, so people can follow (and chop) "
        "its plays.",
    )
    bot_budget_seconds: float = Field(
        default=2.0,
        gt=0,
        le=60,
        description="How long a bot may think before the turn timer's rule acts for it.",
    )

    chat_limit: int = Field(
        default=5,
        ge=0,
        description="Chat lines one person may say in any chat_window_seconds, lobby and "
        "tables together (0: no limit).",
    )
    chat_window_seconds: float = Field(default=10.0, gt=0, le=3600)
    chat_history: int = Field(
        default=50, ge=0, le=500, description="Recent chat lines shown to whoever arrives."
    )

    swear_limit: int = Field(
        default=3,
        ge=0,
        description="Chat lines masked for swearing within swear_window_minutes that make the "
        "conduct policy's swearing offence, applied automatically (0: never automatic).",
    )
    swear_window_minutes: float = Field(default=10.0, gt=0, le=24 * 60)
    flood_limit: int = Field(
        default=10,
        ge=0,
        description="Chat lines refused as too fast (chat_too_fast) within "
        "flood_window_minutes that make the conduct policy's flooding offence, applied "
        "automatically (0: never automatic).",
    )
    flood_window_minutes: float = Field(default=10.0, gt=0, le=24 * 60)
    silence_refresh_seconds: float = Field(
        default=60.0,
        gt=0,
        description="How often the chat reads again the mutes and bans in force (those made "
        "by `tienlen admin` from another process reach a running server within this).",
    )

    same_address_seating: Literal["refuse", "allow"] = Field(
        default="refuse",
        description="refuse: two people connected from one network address may not sit at "
        "one table (seed 000: two nicks at one table), nor are accounts from one address "
        "linked; allow: addresses are all treated as shared networks. Devices are always "
        "checked (docs/CONDUCT.md).",
    )
    shared_networks: list[str] = Field(
        default_factory=lambda: ["127.0.0.0/8", "::1/128"],
        description="Networks whose addresses are shared by strangers (cafés), exempt from the "
        'same-address rule and links, a JSON list: ["203.0.113.0/24", "2001:db8::/48"]. The '
        "default, the loopback, is this machine or a reverse proxy: nobody told apart.",
    )

    dumping_scan_games: int = Field(
        default=20,
        ge=0,
        le=500,
        description="After each settled game, its players' last this many games are scanned "
        "for chip dumping (0: only on demand; docs/CONDUCT.md).",
    )

    analysis_workers: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Processes for game analysis and chip-dumping scans, apart from the bots' "
        "pool (one less than the CPUs) so that live tables' bots never wait behind them.",
    )

    signup_limit: int = Field(
        default=20,
        ge=0,
        description="Accounts and guests one client address may create per "
        "signup_window_minutes (0: no limit).",
    )
    signup_window_minutes: int = Field(default=60, ge=1, le=7 * 24 * 60)
    login_limit: int = Field(
        default=30,
        ge=0,
        description="Log-in attempts one client address may make per login_window_minutes "
        "(0: no limit).",
    )
    login_window_minutes: int = Field(default=10, ge=1, le=24 * 60)
    login_lockout_failures: int = Field(
        default=5,
        ge=0,
        description="Failed log-ins on one nickname within login_lockout_minutes that lock it "
        "for login_lockout_minutes (0: never locked).",
    )
    login_lockout_minutes: int = Field(default=15, ge=1, le=24 * 60)

    @model_validator(mode="after")
    def _networks_are_networks(self) -> Settings:
        for network in self.shared_networks:
            try:
                ipaddress.ip_network(network, strict=False)
            except ValueError:
                raise ValueError(f"shared_networks: {network!r} is not a network") from None
        return self

    @model_validator(mode="after")
    def _argon2_memory_fits_lanes(self) -> Settings:
        if self.argon2_memory_kib < 8 * self.argon2_parallelism:
            raise ValueError("argon2_memory_kib must be at least 8 × argon2_parallelism")
        return self

    @property
    def resolved_database_url(self) -> str:
        """The database URL as given, or the embedded SQLite file in the data folder."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / DATABASE_FILE).resolve()}"

    @property
    def secret_key_path(self) -> Path:
        return self.data_dir / SECRET_KEY_FILE


def load_secret_key(settings: Settings) -> bytes:
    """Read the server's secret key, creating the data folder and the key (mode 0600) if absent.

    The key is for what later slices must sign (WebSocket tickets, CSRF tokens); sessions need
    none, since only a hash of each random token is stored.
    """
    path = settings.secret_key_path
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        try:
            key = bytes.fromhex(path.read_text(encoding="ascii").strip())
        except (UnicodeDecodeError, ValueError):
            raise ValueError(
                f"{path} is not a hex-encoded key; remove it to make a new one"
            ) from None
        if len(key) < 32:
            raise ValueError(f"{path} holds fewer than 32 bytes of key") from None
        return key
    key = secrets.token_bytes(32)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key.hex() + "\n")
    return key
