"""Rules without a database: nicknames, passwords, settings, the secret key, URLs, the day."""

from __future__ import annotations

import stat
import unicodedata
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from tienlen.server.auth import (
    VIETNAMESE_LETTERS,
    AuthError,
    check_nickname,
    check_password,
    nickname_key,
)
from tienlen.server.clock import server_day
from tienlen.server.settings import Settings, load_secret_key
from tienlen.server.store.db import DatabaseUrlError, async_url, redacted


@pytest.mark.parametrize(
    "name",
    ["Đức Anh", "Nguyễn_Văn_A", "ÂU CƠ", "abc", "a1b", "Lê Thị Hồng Nhung", "Phượng99",
     "ỷ ỵ ỹ", "x" * 20, "Trần Hưng Đạo"],
)  # fmt: skip
def test_good_nicknames(name: str) -> None:
    assert check_nickname(name) == name


def test_every_vietnamese_letter_is_allowed_in_both_cases() -> None:
    assert len(VIETNAMESE_LETTERS) == 26 + 1 + 12 * 6 - 6  # plain a e i o u y counted once
    for letter in VIETNAMESE_LETTERS:
        for form in (letter, letter.upper()):
            assert check_nickname(f"ab{form}") == f"ab{form}"


def test_decomposed_input_is_stored_composed() -> None:
    decomposed = unicodedata.normalize("NFD", "Nguyễn Đức")
    assert decomposed != "Nguyễn Đức"
    assert check_nickname(decomposed) == "Nguyễn Đức"


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("ab", "3 to 20 characters, not 2"),
        ("a" * 21, "not 21"),
        ("Đức!", "'!' is not allowed"),
        ("Zoë", "'ë' is not allowed"),
        ("Señor", "'ñ' is not allowed"),
        ("Đức\tAnh", "is not allowed"),
        ("_Đức", "start or end"),
        ("Đức ", "start or end"),
        ("Đức _Anh", "two spaces or _ in a row"),
        ("123 456", "at least one letter"),
        ("Khách 1234", "for guests"),
        ("khach_77", "for guests"),
        ("KHÁCH99", "for guests"),
        ("Bot 12", "for bots"),
        ("bot_7", "for bots"),
        ("BOT2026", "for bots"),
    ],
)
def test_bad_nicknames_say_why(name: str, says: str) -> None:
    with pytest.raises(AuthError, match=says) as caught:
        check_nickname(name)
    assert caught.value.code == "bad_nickname"


def test_a_guest_like_name_with_letters_is_fine() -> None:
    assert check_nickname("Khách quen") == "Khách quen"
    assert check_nickname("Bot quen 1") == "Bot quen 1"


@pytest.mark.parametrize(
    ("a", "b"),
    [("Đức", "duc"), ("ĐỨC", "đức"), ("Nguyễn Văn", "nguyen van"), ("Lan_Anh", "lan anh"),
     ("Phượng", "PHUONG"), ("Ơn", "on")],
)  # fmt: skip
def test_nickname_keys_ignore_case_and_diacritics(a: str, b: str) -> None:
    assert nickname_key(a) == nickname_key(b)


def test_different_names_have_different_keys() -> None:
    assert nickname_key("Đức") != nickname_key("Đực a")
    assert nickname_key("Lan1") != nickname_key("Lan")


@given(st.text(alphabet=[*sorted(VIETNAMESE_LETTERS), "Đ", "A", "Ư", "1", " "], max_size=25))
def test_key_is_stable_and_ascii_for_allowed_letters(text: str) -> None:
    key = nickname_key(text)
    assert nickname_key(key) == key
    assert key.isascii()
    assert key == key.lower()


def _settings(**values: object) -> Settings:
    return Settings.model_validate({"data_dir": Path("/nonexistent"), **values})


@pytest.mark.parametrize(
    ("password", "says"),
    [("short", "at least 8"), (" " * 10, "only spaces"), ("x" * 257, "at most 256"),
     ("Đức Anh1", "cannot be the nickname"), ("duc anh1", "cannot be the nickname")],
)  # fmt: skip
def test_weak_passwords_say_why(password: str, says: str) -> None:
    with pytest.raises(AuthError, match=says) as caught:
        check_password(password, "Đức Anh1", _settings())
    assert caught.value.code == "weak_password"


def test_password_length_is_a_setting() -> None:
    check_password("abcd", "Lan", _settings(password_min_length=4))
    with pytest.raises(AuthError):
        check_password("abc", "Lan", _settings(password_min_length=4))


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIENLEN_PORT", "9123")
    monkeypatch.setenv("TIENLEN_STARTING_GRANT", "5")
    monkeypatch.setenv("TIENLEN_COOKIE_SECURE", "true")
    monkeypatch.setenv("TIENLEN_DATA_DIR", "/srv/tienlen")
    settings = Settings()
    assert (settings.port, settings.starting_grant, settings.cookie_secure) == (9123, 5, True)
    assert settings.resolved_database_url == "sqlite:////srv/tienlen/tienlen.sqlite3"
    monkeypatch.setenv("TIENLEN_DATABASE_URL", "postgresql://u@db/tienlen")
    assert Settings().resolved_database_url == "postgresql://u@db/tienlen"


def test_defaults() -> None:
    settings = Settings()
    assert (settings.host, settings.port, settings.data_dir) == ("127.0.0.1", 8000, Path("data"))
    assert settings.cookie_name == "tienlen_session" and not settings.cookie_secure
    assert settings.resolved_database_url.endswith("/data/tienlen.sqlite3")


@pytest.mark.parametrize(
    ("values", "field"),
    [({"port": 70000}, "port"), ({"starting_grant": -1}, "starting_grant"),
     ({"cookie_name": "a b"}, "cookie_name"), ({"argon2_memory_kib": 8, "argon2_parallelism": 4},
     "argon2_memory_kib"), ({"max_body_bytes": 10}, "max_body_bytes")],
)  # fmt: skip
def test_bad_settings_are_refused(values: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError, match=field):
        _settings(**values)


def test_secret_key_is_made_once_and_private(tmp_path: Path) -> None:
    settings = _settings(data_dir=tmp_path / "fresh" / "data")
    key = load_secret_key(settings)
    assert len(key) == 32
    mode = stat.S_IMODE(settings.secret_key_path.stat().st_mode)
    assert mode == 0o600
    assert load_secret_key(settings) == key


def test_a_damaged_secret_key_is_reported(tmp_path: Path) -> None:
    settings = _settings(data_dir=tmp_path)
    settings.secret_key_path.write_text("not hex at all\n")
    with pytest.raises(ValueError, match="secret_key"):
        load_secret_key(settings)
    settings.secret_key_path.write_text("abcd\n")
    with pytest.raises(ValueError, match="fewer than 32 bytes"):
        load_secret_key(settings)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:///data/x.db", "sqlite+aiosqlite:///data/x.db"),
        ("sqlite+aiosqlite:///x.db", "sqlite+aiosqlite:///x.db"),
        ("sqlite+pysqlite:///x.db", "sqlite+aiosqlite:///x.db"),
        ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgres://u@h:5433/db", "postgresql+psycopg://u@h:5433/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
    ],
)
def test_database_urls_get_the_async_driver(url: str, expected: str) -> None:
    assert async_url(url).render_as_string() == expected


@pytest.mark.parametrize(
    ("url", "says"),
    [("mysql://u@h/db", "'mysql' is not supported"), ("postgresql+asyncpg://h/db", "asyncpg"),
     ("not a url", "not a database URL")],
)  # fmt: skip
def test_unsupported_database_urls(url: str, says: str) -> None:
    with pytest.raises(DatabaseUrlError, match=says):
        async_url(url)


def test_passwords_are_hidden_in_urls() -> None:
    assert "hunter2" not in redacted("postgresql://me:hunter2@db/tienlen")


def test_the_server_day_turns_at_midnight_in_vietnam() -> None:
    before = datetime(2026, 3, 14, 16, 59, 59, tzinfo=UTC)
    assert server_day(before, 7) == date(2026, 3, 14)
    assert server_day(before + timedelta(seconds=1), 7) == date(2026, 3, 15)
    assert server_day(before, 0) == date(2026, 3, 14)
    other_zone = before.astimezone(timezone(timedelta(hours=-5)))
    assert server_day(other_zone, 7) == date(2026, 3, 14)
    with pytest.raises(ValueError, match="timezone-aware"):
        server_day(datetime(2026, 3, 14), 7)


def test_every_setting_is_documented() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "SERVER.md").read_text(encoding="utf-8")
    for name, field in Settings.model_fields.items():
        variable = f"TIENLEN_{name.upper()}"
        assert f"| `{variable}` |" in docs, f"{variable} is missing from docs/SERVER.md"
        default = field.default
        if isinstance(default, bool):
            assert f"| `{variable}` | `{str(default).lower()}` |" in docs
        elif isinstance(default, int):
            assert f"| `{variable}` | `{default}` |" in docs, f"{variable}'s default"
