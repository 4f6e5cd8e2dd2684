"""Accounts: nickname and password rules, argon2id hashes, and cookie sessions.

Every function that writes works inside the caller's database transaction and raises
:class:`AuthError` (with a stable ``code``) before changing anything it should not: the caller
rolls the transaction back on any error, so a refused request changes nothing.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

import anyio.to_thread
from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from .conduct import sanctions
from .errors import ApiError
from .settings import Settings
from .store import ledger
from .store.models import Session, User

__all__ = [
    "BOT_PREFIX",
    "GUEST_PREFIX",
    "NICKNAME_MAX_LENGTH",
    "NICKNAME_MIN_LENGTH",
    "PASSWORD_MAX_LENGTH",
    "AuthError",
    "NewAccount",
    "Passwords",
    "check_nickname",
    "check_password",
    "create_guest",
    "end_session",
    "find_login",
    "hash_token",
    "nickname_key",
    "prepare_account",
    "register",
    "start_session",
    "upgrade_guest",
    "user_for_token",
    "verify_login",
]

NICKNAME_MIN_LENGTH = 3
NICKNAME_MAX_LENGTH = 20
PASSWORD_MAX_LENGTH = 256
"""Longer passwords are refused rather than hashed: bounds the work a request can ask for."""
GUEST_PREFIX = "Khách"
"""Guests are named "Khách 1234"; the pattern is reserved, so no account can pose as a guest."""
BOT_PREFIX = "Bot"
"""House bots are named "Bot 12" (server/house_bots.py); reserved like the guests' names."""

_VOWELS = "aăâeêioôơuưy"
_TONES = ("", "\u0300", "\u0301", "\u0309", "\u0303", "\u0323")
"""No mark, huyền, sắc, hỏi, ngã, nặng."""
VIETNAMESE_LETTERS = frozenset(
    "abcdefghijklmnopqrstuvwxyzđ"
    + "".join(unicodedata.normalize("NFC", v + t) for v in _VOWELS for t in _TONES)
)
"""Lower-case letters allowed in a nickname: ASCII letters, đ, and the Vietnamese vowels
(a ă â e ê i o ô ơ u ư y) with any of the five tone marks. Upper-case forms are allowed too."""
_SEPARATORS = " _"
_GUEST_KEY = re.compile(r"khach[ _]?\d+")
_BOT_KEY = re.compile(r"bot[ _]?\d+")


class AuthError(ApiError):
    """A refused account request; ``code`` is the API error code, the message says why."""


def _is_letter(char: str) -> bool:
    return char.lower() in VIETNAMESE_LETTERS


def nickname_key(nickname: str) -> str:
    """The form two nicknames are compared in: lower case, tone and vowel marks removed,
    đ read as d, underscores as spaces. "Đức", "duc" and "DUC" share the key "duc"."""
    folded = unicodedata.normalize("NFD", nickname.replace("đ", "d").replace("Đ", "D"))
    bare = "".join(c for c in folded if not unicodedata.combining(c))
    return bare.casefold().replace("_", " ")


def check_nickname(nickname: str) -> str:
    """The nickname in its stored form (Unicode NFC), or :class:`AuthError` ``bad_nickname``.

    Rules: 3–20 characters; letters (Vietnamese, with or without diacritics) and digits; single
    spaces or underscores between them, not at either end; at least one letter; not of the forms
    reserved for guests ("Khách 1234") and bots ("Bot 12").
    """
    if not isinstance(nickname, str):
        raise AuthError("bad_nickname", "the nickname must be text")
    name = unicodedata.normalize("NFC", nickname)
    if not NICKNAME_MIN_LENGTH <= len(name) <= NICKNAME_MAX_LENGTH:
        raise AuthError(
            "bad_nickname",
            f"a nickname has {NICKNAME_MIN_LENGTH} to {NICKNAME_MAX_LENGTH} characters, "
            f"not {len(name)}",
        )
    for char in name:
        if not (_is_letter(char) or char in "0123456789" or char in _SEPARATORS):
            raise AuthError(
                "bad_nickname",
                f"{char!r} is not allowed in a nickname: use letters (with Vietnamese marks), "
                "digits, and single spaces or underscores between them",
            )
    if name[0] in _SEPARATORS or name[-1] in _SEPARATORS:
        raise AuthError("bad_nickname", "a nickname cannot start or end with a space or _")
    if any(a in _SEPARATORS and b in _SEPARATORS for a, b in itertools.pairwise(name)):
        raise AuthError("bad_nickname", "a nickname cannot have two spaces or _ in a row")
    if not any(_is_letter(c) for c in name):
        raise AuthError("bad_nickname", "a nickname needs at least one letter")
    if _GUEST_KEY.fullmatch(nickname_key(name)):
        raise AuthError("bad_nickname", f'nicknames like "{GUEST_PREFIX} 1234" are for guests')
    if _BOT_KEY.fullmatch(nickname_key(name)):
        raise AuthError("bad_nickname", f'nicknames like "{BOT_PREFIX} 12" are for bots')
    return name


def check_password(password: str, nickname: str, settings: Settings) -> None:
    """:class:`AuthError` ``weak_password`` unless the password is long enough, not absurdly
    long, and not the nickname itself."""
    if not isinstance(password, str):
        raise AuthError("weak_password", "the password must be text")
    if len(password) < settings.password_min_length:
        raise AuthError(
            "weak_password",
            f"a password needs at least {settings.password_min_length} characters",
        )
    if len(password) > PASSWORD_MAX_LENGTH:
        raise AuthError("weak_password", f"a password has at most {PASSWORD_MAX_LENGTH} characters")
    if not password.strip():
        raise AuthError("weak_password", "a password cannot be only spaces")
    if nickname_key(password.strip()) == nickname_key(nickname):
        raise AuthError("weak_password", "the password cannot be the nickname")


class Passwords:
    """argon2id hashing with the settings' cost; runs in a worker thread, off the event loop."""

    def __init__(self, settings: Settings) -> None:
        self.hasher = PasswordHasher(
            time_cost=settings.argon2_time_cost,
            memory_cost=settings.argon2_memory_kib,
            parallelism=settings.argon2_parallelism,
            type=Type.ID,
        )
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        return await anyio.to_thread.run_sync(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with no stored hash, the same work is done
        against a dummy so that unknown nicknames cannot be told apart by timing."""
        if stored is None:
            if self._dummy is None:
                self._dummy = await self.hash(secrets.token_urlsafe(16))
            stored = self._dummy
            password = "\x00" + password
        try:
            return await anyio.to_thread.run_sync(self.hasher.verify, stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)


# Sessions -------------------------------------------------------------------------------------


def hash_token(token: str) -> str:
    """What is stored of a session token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


async def start_session(db: AsyncSession, user: User, now: datetime, settings: Settings) -> str:
    """A new session for ``user``; returns the token for the cookie (never stored itself)."""
    token = secrets.token_urlsafe(32)
    db.add(
        Session(
            token_hash=hash_token(token),
            user_id=user.id,
            created_at=now,
            expires_at=now + timedelta(days=settings.session_days),
        )
    )
    await db.execute(delete(Session).where(Session.user_id == user.id, Session.expires_at <= now))
    return token


async def user_for_token(db: AsyncSession, token: str | None, now: datetime) -> User | None:
    """The user a session token belongs to, if it is known and not expired; ``banned``
    (saying why and until when) if that user is banned now."""
    if not token or len(token) > 128:
        return None
    row = await db.execute(
        select(User)
        .join(Session, Session.user_id == User.id)
        .where(Session.token_hash == hash_token(token), Session.expires_at > now)
    )
    user = row.scalar_one_or_none()
    if user is not None:
        await sanctions.refuse_banned(db, user.id, now)
    return user


async def end_session(db: AsyncSession, token: str | None) -> None:
    if token:
        await db.execute(delete(Session).where(Session.token_hash == hash_token(token)))


# Accounts -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewAccount:
    """A checked registration: the stored nickname, its key and the password hash."""

    nickname: str
    key: str
    password_hash: str


async def prepare_account(
    nickname: str, password: str, settings: Settings, passwords: Passwords
) -> NewAccount:
    """Check the rules and hash the password, before any transaction is opened (hashing is
    slow; SQLite holds its write lock for the whole transaction)."""
    name = check_nickname(nickname)
    check_password(password, name, settings)
    return NewAccount(name, nickname_key(name), await passwords.hash(password))


async def _ensure_free(db: AsyncSession, key: str, nickname: str) -> None:
    holder = await db.scalar(select(User.nickname).where(User.nickname_key == key))
    if holder is None:
        return
    if holder == nickname:
        raise AuthError("nickname_taken", f"the nickname {nickname!r} is taken")
    raise AuthError(
        "nickname_taken",
        f"the nickname {nickname!r} is taken: {holder!r} differs from it only in case, "
        "marks or _, and counts as the same",
    )


async def _flush_user(db: AsyncSession, nickname: str) -> None:
    """Write the user row; a concurrent request that took the same key first loses here."""
    try:
        await db.flush()
    except IntegrityError as exc:
        if "nickname_key" not in str(exc.orig):
            raise
        raise AuthError("nickname_taken", f"the nickname {nickname!r} was just taken") from None


async def register(
    db: AsyncSession, new: NewAccount, now: datetime, settings: Settings
) -> tuple[User, str]:
    """Create an account with its starting grant and log it in; returns it and its token."""
    await _ensure_free(db, new.key, new.nickname)
    user = User(
        nickname=new.nickname,
        nickname_key=new.key,
        password_hash=new.password_hash,
        is_guest=False,
        created_at=now,
    )
    db.add(user)
    await _flush_user(db, new.nickname)
    await ledger.open_player_account(db, user, now, settings.starting_grant)
    return user, await start_session(db, user, now, settings)


async def create_guest(db: AsyncSession, now: datetime, settings: Settings) -> tuple[User, str]:
    """A guest with a free "Khách NNNN" nickname and the starting grant, logged in."""
    for digits in (4, 4, 4, 6, 6, 8):
        number = secrets.randbelow(9 * 10 ** (digits - 1)) + 10 ** (digits - 1)
        nickname = f"{GUEST_PREFIX} {number}"
        key = nickname_key(nickname)
        if await db.scalar(select(User.id).where(User.nickname_key == key)) is None:
            break
    else:  # pragma: no cover - needs millions of guests
        raise AuthError("nickname_taken", "no free guest nickname was found; try again")
    user = User(
        nickname=nickname, nickname_key=key, password_hash=None, is_guest=True, created_at=now
    )
    db.add(user)
    await _flush_user(db, nickname)
    await ledger.open_player_account(db, user, now, settings.starting_grant)
    return user, await start_session(db, user, now, settings)


async def find_login(db: AsyncSession, nickname: str) -> tuple[int, str | None] | None:
    """The id and password hash of the user whose nickname has the same key, if any."""
    if len(nickname) > 4 * NICKNAME_MAX_LENGTH or not nickname.isprintable():
        return None  # no nickname holds control characters (PostgreSQL refuses a NUL at all)
    row = await db.execute(
        select(User.id, User.password_hash).where(User.nickname_key == nickname_key(nickname))
    )
    found = row.one_or_none()
    return None if found is None else (found[0], found[1])


async def verify_login(
    found: tuple[int, str | None] | None, password: str, passwords: Passwords
) -> int:
    """The user id if ``password`` matches (guests have none), else ``bad_credentials``.
    Run outside any transaction: argon2 is slow on purpose."""
    stored = found[1] if found is not None else None
    ok = await passwords.verify(stored, password[: PASSWORD_MAX_LENGTH + 1])
    if found is None or stored is None or not ok:
        raise AuthError("bad_credentials", "wrong nickname or password")
    return found[0]


async def upgrade_guest(
    db: AsyncSession,
    user: User,
    new: NewAccount,
    old_token: str | None,
    now: datetime,
    settings: Settings,
) -> str:
    """Turn a guest into an account, keeping its id, chips and history; a fresh session
    replaces the guest's. Returns the new token."""
    if not user.is_guest:
        raise AuthError("not_a_guest", "this account is already registered")
    await _ensure_free(db, new.key, new.nickname)
    user.nickname = new.nickname
    user.nickname_key = new.key
    user.password_hash = new.password_hash
    user.is_guest = False
    await _flush_user(db, new.nickname)
    await end_session(db, old_token)
    return await start_session(db, user, now, settings)
