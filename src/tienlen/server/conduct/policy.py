"""The conduct policy as data: offence → sanction, with escalation on repeat (docs/CONDUCT.md).

The table lives in ``conduct_policy.toml`` (seed 000's rules, quoted there), read with
``tomllib`` and checked by a pydantic model of the file: a bad file is refused with the field and
the line at fault. The
one decision, :func:`sanction_for`, is a pure function of the offence and how many earlier
sanctions for it stand — no sanction is written as a code branch.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from datetime import timedelta
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError
from pydantic_core import ErrorDetails

__all__ = [
    "LINK_KINDS",
    "SANCTION_KINDS",
    "Decision",
    "Offence",
    "Policy",
    "PolicyError",
    "Step",
    "default_policy",
    "load_policy",
    "parse_duration",
    "parse_policy",
    "sanction_for",
]

SANCTION_KINDS = ("warn", "mute", "ban")
LINK_KINDS = ("series", "same_person", "shared_address", "shared_device")
"""How two accounts may be linked: a ``series`` of look-alike nicknames (seed 000), two
accounts of the ``same_person`` (both by moderators; a series also by the server), or seen
from one network address or device (by the server, server/sightings.py)."""
POLICY_FILE = "conduct_policy.toml"
_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")
_DURATION = re.compile(r"([1-9][0-9]{0,5})([mhd])")
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}
_LONGEST = timedelta(days=3650)

SanctionKind = Literal["warn", "mute", "ban"]


class PolicyError(ValueError):
    """The policy file is not valid; the message names the file, the field and the line."""


@dataclass(frozen=True, slots=True)
class Step:
    """One rung of an offence's escalation. ``duration`` None: permanent (or a warning)."""

    kind: SanctionKind
    duration: timedelta | None

    def __str__(self) -> str:
        if self.kind == "warn":
            return "warn"
        return f"{self.kind} {describe_duration(self.duration)}"


@dataclass(frozen=True, slots=True)
class Offence:
    key: str
    title: str
    title_vi: str
    steps: tuple[Step, ...]
    reaches_linked: bool


@dataclass(frozen=True, slots=True)
class Policy:
    version: int
    offences: dict[str, Offence]
    carry_links: frozenset[str]
    """Link kinds through which a sanction that ``reaches_linked`` falls on other accounts."""


@dataclass(frozen=True, slots=True)
class Decision:
    """What the policy prescribes for one more offence."""

    offence: Offence
    number: int
    """1 for a first offence, 2 for the first repeat, …"""
    step: Step

    @property
    def kind(self) -> SanctionKind:
        return self.step.kind

    @property
    def duration(self) -> timedelta | None:
        return self.step.duration

    @property
    def reaches_linked(self) -> bool:
        return self.offence.reaches_linked and self.step.kind != "warn"


def describe_duration(duration: timedelta | None) -> str:
    """``1d``, ``7d``, ``1h``, ``30m`` or ``permanent``."""
    if duration is None:
        return "permanent"
    minutes = int(duration.total_seconds() // 60)
    for unit, size in (("d", 1440), ("h", 60)):
        if minutes % size == 0:
            return f"{minutes // size}{unit}"
    return f"{minutes}m"


def parse_duration(text: str) -> timedelta | None:
    """``30m``, ``2h``, ``7d`` or ``permanent`` (None); ValueError otherwise. At most 10 years."""
    if text == "permanent":
        return None
    found = _DURATION.fullmatch(text)
    if found is None:
        raise ValueError(
            f"{text!r} is not a duration: write a whole number of minutes, hours or days "
            "(30m, 2h, 7d) or permanent"
        )
    duration = timedelta(**{_UNITS[found[2]]: int(found[1])})
    if duration > _LONGEST:
        raise ValueError(f"{text!r} is over 10 years: write permanent")
    return duration


def _parse_step(text: str) -> Step:
    if text == "warn":
        return Step("warn", None)
    kind, _, duration = text.partition(" ")
    if kind not in ("mute", "ban") or not duration:
        raise ValueError(f"{text!r} is not a step: write warn, mute <duration> or ban <duration>")
    return Step("mute" if kind == "mute" else "ban", parse_duration(duration))


def _line_of(text: str, section: str, key: str | None) -> int | None:
    """The 1-based line of ``key`` in ``[section]`` (of the header when ``key`` is None)."""
    lines = text.splitlines()
    header = re.compile(r"\s*\[\s*" + re.escape(section).replace(r"\.", r"\s*\.\s*") + r"\s*\]")
    for number, line in enumerate(lines, 1):
        if header.match(line):
            if key is None:
                return number
            for offset, inner in enumerate(lines[number:], number + 1):
                if inner.lstrip().startswith("["):
                    return number
                if re.match(rf"\s*{re.escape(key)}\s*=", inner):
                    return offset
            return number
    return None


# The file's shape, read by pydantic; :func:`parse_policy` words its first error with the field
# and line at fault (_WHY: what each field must be).
_FILE = ConfigDict(extra="forbid", strict=True, frozen=True)
_Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class _OffenceFile(BaseModel):
    model_config = _FILE
    title: _Text
    title_vi: _Text
    steps: Annotated[list[str], Field(min_length=1)]
    reaches_linked: bool


class _LinksFile(BaseModel):
    model_config = _FILE
    carry: list[Literal["series", "same_person", "shared_address", "shared_device"]] = []


class _PolicyFile(BaseModel):
    model_config = _FILE
    version: int
    links: _LinksFile = _LinksFile()
    offences: dict[str, _OffenceFile]


assert get_args(get_args(_LinksFile.model_fields["carry"].annotation)[0]) == LINK_KINDS

_NO_OFFENCE = "at least one [offences.<key>] table is needed"
_WHY = {
    "title": "must be non-empty text",
    "title_vi": "must be non-empty text",
    "steps": "must be a non-empty list of steps",
    "reaches_linked": "must be true or false",
    "carry": f"must be a list of link kinds from {LINK_KINDS}",
}


class _Reader:
    """Words :class:`PolicyError` for one file: the field and the line at fault."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source

    def fail(self, section: str, key: str | None, why: str) -> PolicyError:
        line = _line_of(self.text, section, key)
        where = f"{self.source}, line {line}" if line else self.source
        field = f"{section}.{key}" if key else section
        return PolicyError(f"{where}: {field}: {why}")

    def refusal(self, error: ErrorDetails) -> PolicyError:
        """The first error pydantic found, as the file's author would fix it."""
        loc = [str(part) for part in error["loc"]]
        if error["type"] == "extra_forbidden":
            if len(loc) == 1:
                known = "version, links, offences"
                return PolicyError(f"{self.source}: {loc[0]}: is not a known field ({known})")
            return self.fail(".".join(loc[:-1]), loc[-1], "is not a known field")
        if loc[0] == "offences" and len(loc) >= 3:
            return self.fail(f"offences.{loc[1]}", loc[2], _WHY.get(loc[2], error["msg"]))
        if loc[0] == "offences" and len(loc) == 2:
            return self.fail(f"offences.{loc[1]}", None, "must be a table")
        if loc[0] == "offences":
            return PolicyError(
                f"{self.source}: offences: at least one [offences.<key>] table is needed"
            )
        if loc[0] == "links":
            return self.fail("links", "carry", _WHY["carry"])
        return PolicyError(f"{self.source}: {'.'.join(loc)}: {error['msg']}")

    def offence(self, key: str, read: _OffenceFile) -> Offence:
        section = f"offences.{key}"
        if not _KEY.fullmatch(key):
            raise self.fail(section, None, "an offence key is 1-40 of a-z, 0-9 and _")
        steps = []
        for index, step in enumerate(read.steps):
            try:
                steps.append(_parse_step(step))
            except ValueError as exc:
                raise self.fail(section, "steps", f"step {index + 1}: {exc}") from None
        return Offence(key, read.title, read.title_vi, tuple(steps), read.reaches_linked)


def parse_policy(text: str, source: str = POLICY_FILE) -> Policy:
    """The policy in ``text``; :class:`PolicyError` naming the field and line at fault."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{source}: not valid TOML: {exc}") from None
    reader = _Reader(text, source)
    try:
        read = _PolicyFile.model_validate(data)
    except ValidationError as exc:
        raise reader.refusal(exc.errors()[0]) from None
    if read.version != 1:
        raise PolicyError(f"{source}: version: must be 1, not {read.version!r}")
    if not read.offences:
        raise PolicyError(f"{source}: offences: {_NO_OFFENCE}")
    return Policy(
        version=1,
        offences={key: reader.offence(key, table) for key, table in read.offences.items()},
        carry_links=frozenset(read.links.carry),
    )


def load_policy(path: Path | None = None) -> Policy:
    """The policy in ``path``, or the one shipped with the package."""
    if path is None:
        return parse_policy(files(__package__).joinpath(POLICY_FILE).read_text("utf-8"))
    return parse_policy(path.read_text(encoding="utf-8"), str(path))


@functools.cache
def default_policy() -> Policy:
    return load_policy()


def sanction_for(policy: Policy, offence: str, prior: int) -> Decision:
    """The sanction for one more ``offence`` by a player with ``prior`` standing sanctions for
    it: step ``prior + 1`` of its escalation, the last step once they run out. KeyError names
    the known offences when ``offence`` is not one."""
    found = policy.offences.get(offence)
    if found is None:
        raise KeyError(f"no offence {offence!r}; the policy has {', '.join(policy.offences)}")
    if prior < 0:
        raise ValueError(f"prior sanctions cannot be negative ({prior})")
    return Decision(found, prior + 1, found.steps[min(prior, len(found.steps) - 1)])
