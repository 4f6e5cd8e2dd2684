"""Where accounts come from: network addresses and devices, the links they make between
accounts, and the seating rule they enforce (docs/CONDUCT.md, "Multiple accounts").

Seed 000 forbids two nicks of one person at one table ("chơi 2 nick trong 1 bàn chơi") and
locks a series of look-alike nicks together. The server sees each account's client address and
a device id — a random id in the ``tienlen_device`` cookie, which the server sets once (10
years, HttpOnly) and every browser then sends with each request and WebSocket:

- a *sighting* is stored at sign-up, log-in, guest creation and upgrade; two accounts seen from
  one address or device are linked (``shared_address``, ``shared_device``: for the moderators,
  not carried by sanctions), and two whose nicknames are one stem with different digits
  (``tuan01``, ``tuan02``) so seen are linked as a ``series`` (carried: seed 000's rule);
- a person may not sit at a table where someone seated connected from the same address
  (``same_network``) or device (``same_device``). Addresses of shared networks (cafés; by
  default the loopback: this machine or a reverse proxy) are exempt from both, by
  ``TIENLEN_SHARED_NETWORKS``, or every address by ``TIENLEN_SAME_ADDRESS_SEATING=allow``;
  devices are never exempt.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from fastapi import Request, Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..auth import nickname_key
from ..errors import Refused
from ..settings import Settings
from ..store.models import AccountLink, AuditEntry, Sighting, User

if TYPE_CHECKING:
    from ..deps import Server

__all__ = [
    "DEVICE_COOKIE",
    "Networks",
    "Presence",
    "device_of",
    "record",
    "seen",
    "series_stem",
]

log = logging.getLogger("tienlen.server")

DEVICE_COOKIE = "tienlen_device"
_DEVICE = re.compile(r"[A-Za-z0-9_-]{16,64}")
LINKS_PER_SIGHTING = 10
"""Other accounts one sighting is compared with (the latest seen there): bounds the work."""
_SERIES = re.compile(r"(.*[a-z])[ ._-]*[0-9]+")
STEM_MIN = 3


def device_of(cookies: Mapping[str, str]) -> str | None:
    """The device id a client sent, if it is one."""
    value = cookies.get(DEVICE_COOKIE)
    return value if value is not None and _DEVICE.fullmatch(value) else None


def series_stem(nickname: str) -> str | None:
    """The stem of a nickname that ends in digits (``Tuấn_01`` → ``tuan``), else None: two
    nicknames of one stem are a series."""
    found = _SERIES.fullmatch(nickname_key(nickname).strip())
    if found is None or len(found[1].strip()) < STEM_MIN:
        return None
    return found[1].strip()


@dataclass(frozen=True)
class Networks:
    """Which client addresses say nothing about who plays (shared networks)."""

    allow_all: bool
    shared: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]

    @classmethod
    def of(cls, settings: Settings) -> Networks:
        nets = tuple(ipaddress.ip_network(n, strict=False) for n in settings.shared_networks)
        return cls(settings.same_address_seating == "allow", nets)

    def is_shared(self, address: str | None) -> bool:
        if self.allow_all or address is None:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return True  # "unknown", a test client: nothing to compare
        return any(ip in net for net in self.shared)


class Person(Protocol):
    """Whoever sits or is about to sit at a table, as the seating rule sees them (a table's
    ``Occupant``)."""

    @property
    def user(self) -> str: ...

    @property
    def name(self) -> str: ...


class Presence:
    """Where each person at a table connected from (kept in memory by the lobby), and the
    seating rule (:attr:`~tienlen.server.table.seating.Seats.guard` of every table)."""

    def __init__(self, networks: Networks) -> None:
        self.networks = networks
        self.at: dict[str, tuple[str | None, str | None]] = {}

    def arrive(self, user: str, address: str | None, device: str | None) -> None:
        self.at[user] = (address, device)

    def keep(self, users: set[str]) -> None:
        """Forget everyone but ``users`` (those at a table: nobody else is asked about)."""
        for user in [u for u in self.at if u not in users]:
            del self.at[user]

    def guard(self, occupant: Person, seated: Sequence[Person]) -> None:
        address, device = self.at.get(occupant.user, (None, None))
        for other in seated:
            their_address, their_device = self.at.get(other.user, (None, None))
            if device is not None and device == their_device:
                raise Refused(
                    "same_device",
                    f"{other.name} is seated here from your device: two accounts of one "
                    "person may not play at one table",
                )
            if address == their_address and not self.networks.is_shared(address):
                raise Refused(
                    "same_network",
                    f"{other.name} is seated here from your network address: two accounts of "
                    "one network may not play at one table (a café's network can be allowed "
                    "by the server's operator)",
                )


async def _link(db: AsyncSession, a: int, b: int, kind: str, now: datetime) -> bool:
    low, high = sorted((a, b))
    exists = await db.scalar(
        select(AccountLink.id).where(
            AccountLink.user_a == low, AccountLink.user_b == high, AccountLink.kind == kind
        )
    )
    if exists is None:
        db.add(AccountLink(user_a=low, user_b=high, kind=kind, created_at=now, by_user_id=None))
    return exists is None


async def record(
    db: AsyncSession,
    user: User,
    address: str | None,
    device: str | None,
    now: datetime,
    networks: Networks,
) -> list[tuple[int, str]]:
    """Store that ``user`` was seen from ``address`` and ``device``; link the accounts seen
    from the same (not shared) ones. Returns the new links: (other user, kind)."""
    made: list[tuple[int, str]] = []
    stem = series_stem(user.nickname)
    seen = [("device", device)] if device is not None else []
    if address is not None and not networks.is_shared(address):
        seen.append(("address", address))
    for kind, value in seen:
        row = await db.scalar(
            select(Sighting).where(
                Sighting.user_id == user.id, Sighting.kind == kind, Sighting.value == value
            )
        )
        if row is None:
            db.add(Sighting(user_id=user.id, kind=kind, value=value, first_at=now, last_at=now))
        else:
            row.last_at = now
        others = await db.execute(
            select(User.id, User.nickname)
            .join(Sighting, Sighting.user_id == User.id)
            .where(Sighting.kind == kind, Sighting.value == value, User.id != user.id)
            .order_by(Sighting.last_at.desc())
            .limit(LINKS_PER_SIGHTING)
        )
        for other, nickname in others:
            if await _link(db, user.id, other, f"shared_{kind}", now):
                made.append((other, f"shared_{kind}"))
            series = stem is not None and series_stem(nickname) == stem
            if series and await _link(db, user.id, other, "series", now):
                made.append((other, "series"))
                why = f"automatic: look-alike nicknames seen from one {kind}"
                details: dict[str, object] = {"with": other, "kind": "series", "seen": kind}
                db.add(
                    AuditEntry(
                        at=now,
                        actor_id=None,
                        action="link",
                        target_id=user.id,
                        reason=why,
                        details=details,
                    )
                )
    return made


def _address(request: Request) -> str | None:
    return request.client.host if request.client is not None else None


async def seen(server: Server, request: Request, response: Response, user_id: int) -> None:
    """After a sign-up, log-in, guest or upgrade: give the browser a device id if it has none,
    and record the sighting (in its own transaction; a failure is logged, never the
    player's)."""
    device = device_of(request.cookies)
    if device is None:
        device = secrets.token_urlsafe(18)
        response.set_cookie(
            DEVICE_COOKIE,
            device,
            max_age=10 * 365 * 24 * 3600,
            path="/",
            httponly=True,
            samesite="lax",
            secure=server.settings.cookie_secure,
        )
    try:
        async with server.sessions() as db, db.begin():
            user = await db.get(User, user_id)
            if user is not None:
                networks = Networks.of(server.settings)
                await record(db, user, _address(request), device, server.clock(), networks)
    except Exception:
        log.exception("the sighting of user %s could not be stored", user_id)
