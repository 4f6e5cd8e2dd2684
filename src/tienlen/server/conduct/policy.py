"""The conduct policy as data: offence → sanction, with escalation on repeat (docs/CONDUCT.md).

The table lives in ``conduct_policy.toml`` (seed 000's rules, quoted there), read with
``tomllib`` and checked here: a bad file is refused with the field and the line at fault. The
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
from typing import Any, Literal

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


def _parse_step(text: object) -> Step:
    if not isinstance(text, str):
        raise ValueError(f"a step is text such as 'ban 7d', not {text!r}")
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


class _Reader:
    """Checks one file's values, raising :class:`PolicyError` that says where."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source

    def fail(self, section: str, key: str | None, why: str) -> PolicyError:
        line = _line_of(self.text, section, key)
        where = f"{self.source}, line {line}" if line else self.source
        field = f"{section}.{key}" if key else section
        return PolicyError(f"{where}: {field}: {why}")

    def string(self, table: dict[str, Any], section: str, key: str) -> str:
        value = table.get(key)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(section, key, "must be non-empty text")
        return value

    def offence(self, key: str, table: object) -> Offence:
        section = f"offences.{key}"
        if not _KEY.fullmatch(key):
            raise self.fail(section, None, "an offence key is 1-40 of a-z, 0-9 and _")
        if not isinstance(table, dict):
            raise self.fail(section, None, "must be a table")
        unknown = set(table) - {"title", "title_vi", "steps", "reaches_linked"}
        if unknown:
            raise self.fail(section, sorted(unknown)[0], "is not a known field")
        steps = table.get("steps")
        if not isinstance(steps, list) or not steps:
            raise self.fail(section, "steps", "must be a non-empty list of steps")
        parsed = []
        for index, step in enumerate(steps):
            try:
                parsed.append(_parse_step(step))
            except ValueError as exc:
                raise self.fail(section, "steps", f"step {index + 1}: {exc}") from None
        reaches = table.get("reaches_linked")
        if not isinstance(reaches, bool):
            raise self.fail(section, "reaches_linked", "must be true or false")
        return Offence(
            key=key,
            title=self.string(table, section, "title"),
            title_vi=self.string(table, section, "title_vi"),
            steps=tuple(parsed),
            reaches_linked=reaches,
        )


def parse_policy(text: str, source: str = POLICY_FILE) -> Policy:
    """The policy in ``text``; :class:`PolicyError` naming the field and line at fault."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{source}: not valid TOML: {exc}") from None
    reader = _Reader(text, source)
    unknown = set(data) - {"version", "links", "offences"}
    if unknown:
        name = sorted(unknown)[0]
        raise PolicyError(f"{source}: {name}: is not a known field (version, links, offences)")
    if data.get("version") != 1:
        raise PolicyError(f"{source}: version: must be 1, not {data.get('version')!r}")
    links = data.get("links", {})
    carry = links.get("carry", []) if isinstance(links, dict) else None
    if not isinstance(carry, list) or any(kind not in LINK_KINDS for kind in carry):
        raise reader.fail("links", "carry", f"must be a list of link kinds from {LINK_KINDS}")
    offences = data.get("offences")
    if not isinstance(offences, dict) or not offences:
        raise PolicyError(f"{source}: offences: at least one [offences.<key>] table is needed")
    return Policy(
        version=1,
        offences={key: reader.offence(key, table) for key, table in offences.items()},
        carry_links=frozenset(carry),
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
