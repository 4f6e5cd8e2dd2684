"""The conduct policy file: seed 000's table, the escalation, and clear errors for a bad file."""

from __future__ import annotations

import tomllib
from datetime import timedelta
from pathlib import Path

import pytest

from tienlen.server.conduct.policy import (
    Policy,
    PolicyError,
    default_policy,
    load_policy,
    parse_duration,
    parse_policy,
    sanction_for,
)

DAY = timedelta(days=1)


def ladder(offence: str, repeats: int = 4) -> list[str]:
    policy = default_policy()
    return [str(sanction_for(policy, offence, prior).step) for prior in range(repeats)]


@pytest.mark.parametrize(
    ("offence", "expected"),
    [
        # Seed 000, from 14 Apr 2012: each line below is one of its rules.
        ("chip_trading", ["ban permanent"] * 4),
        ("swearing", ["ban 1d", "ban 7d", "ban permanent", "ban permanent"]),
        ("bug_exploit", ["ban permanent"] * 4),
        ("stalling", ["ban permanent"] * 4),
        ("hacking", ["ban permanent"] * 4),
        ("multi_account_table", ["ban 7d", "ban permanent", "ban permanent", "ban permanent"]),
        ("collusion", ["ban 7d", "ban permanent", "ban permanent", "ban permanent"]),
        ("flooding", ["warn", "mute 1h", "mute 1d", "mute 7d"]),
    ],
)
def test_the_shipped_policy_is_seed_000s(offence: str, expected: list[str]) -> None:
    assert ladder(offence) == expected


def test_seed_000_sanctions_reach_look_alike_accounts() -> None:
    policy = default_policy()
    assert policy.carry_links == {"series", "same_person"}
    for key in ("chip_trading", "swearing", "bug_exploit", "hacking", "collusion"):
        assert sanction_for(policy, key, 0).reaches_linked
    assert not sanction_for(policy, "flooding", 1).reaches_linked
    decision = sanction_for(policy, "swearing", 1)
    assert (decision.number, decision.kind, decision.duration) == (2, "ban", 7 * DAY)
    assert sanction_for(policy, "chip_trading", 0).duration is None


def test_an_unknown_offence_or_a_negative_count_is_refused() -> None:
    with pytest.raises(KeyError, match="no offence 'spitting'; the policy has chip_trading"):
        sanction_for(default_policy(), "spitting", 0)
    with pytest.raises(ValueError, match="negative"):
        sanction_for(default_policy(), "swearing", -1)


def test_durations() -> None:
    assert parse_duration("30m") == timedelta(minutes=30)
    assert parse_duration("2h") == timedelta(hours=2)
    assert parse_duration("permanent") is None
    for bad in ("0d", "1w", "1.5d", "d", "-1d", "99999d", " 1d"):
        with pytest.raises(ValueError):
            parse_duration(bad)


GOOD = """\
version = 1

[links]
carry = ["series"]

[offences.swearing]
title = "Swearing"
title_vi = "Chửi bậy"
steps = ["ban 1d", "ban 7d"]
reaches_linked = true
"""


def test_a_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(GOOD, encoding="utf-8")
    policy = load_policy(path)
    assert list(policy.offences) == ["swearing"]
    assert ladder_of(policy) == ["ban 1d", "ban 7d", "ban 7d"]


def ladder_of(policy: Policy) -> list[str]:
    return [str(sanction_for(policy, "swearing", n).step) for n in range(3)]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("ban 7d", "ban 7 days"),
            "line 9: offences.swearing.steps: step 2: '7 days' is not a duration",
        ),
        (("ban 1d", "kick 1d"), "line 9: offences.swearing.steps: step 1: 'kick 1d' is not a step"),
        (('["ban 1d", "ban 7d"]', "[]"), "line 9: offences.swearing.steps: must be a non-empty"),
        (("reaches_linked = true", "reaches_linked = 1"), "line 10: offences.swearing.reaches"),
        (('title = "Swearing"\n', ""), "line 6: offences.swearing.title: must be non-empty text"),
        (('carry = ["series"]', 'carry = ["cousins"]'), "line 4: links.carry: must be a list"),
        (("version = 1", "version = 2"), "version: must be 1, not 2"),
        (("reaches_linked = true", "reaches_linked = true\nfine = 1"), "line 11: offences.swea"),
        (("[offences.swearing]", "[offences.Swearing]"), "line 6: offences.Swearing: an offence"),
        (('steps = ["ban 1d"', "steps = [ban"), "not valid TOML: "),
        (("version = 1", "version = 1\nlevels = 3"), "levels: is not a known field (version, "),
        (("version = 1", 'version = "1"'), "version: Input should be a valid integer"),
    ],
)
def test_a_bad_file_is_refused_naming_the_field_and_line(
    change: tuple[str, str], message: str
) -> None:
    text = GOOD.replace(*change)
    assert text != GOOD
    with pytest.raises(PolicyError) as caught:
        parse_policy(text, "policy.toml")
    assert str(caught.value).startswith("policy.toml")
    assert message in str(caught.value)


def test_the_data_files_ship_with_the_package() -> None:
    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = data["tool"]["setuptools"]["package-data"]["tienlen"]
    for name in ("conduct_policy.toml", "chat_words.toml"):
        assert (root / "src" / "tienlen" / "server" / "conduct" / name).is_file()
        assert f"server/conduct/{name}" in shipped
