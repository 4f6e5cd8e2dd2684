"""What the table shows, as a player sees it on a phone and a desktop: the current round's plays
and passes, a two-player table's opponent at the top, every loser's cards face up at the end,
the settlement's units explained in both languages, and no character that needs an emoji font
anywhere in the page's text."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tienlen.server.table.seating import TableConfig

from . import conftest
from .conftest import SHOTS, PageServer, page_built
from .test_browser import DESKTOP, act, guest

PHONE = {"width": 390, "height": 844}

EMOJI = r"[\p{Extended_Pictographic}\u{FE0F}\u{1F000}-\u{1FAFF}]"
"""Pictographs and emoji (⏱ ▶ 🂠 …): Debian's Chromium draws many as empty boxes."""
SUITS = "♠♣♦♥"
"""The suit symbols in text (as in "Heo đỏ (2♥)") are pictographs too, but DejaVu Sans, the
default font, draws them."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PageServer]:
    """The browser tests' server, but with 10 s between games (not 2): the end of a game stays
    on the table long enough to be read in both languages before the next deal."""
    page_built()

    def slower(**given: Any) -> TableConfig:
        return TableConfig(**{**given, "between_games_s": 10.0})

    patch = pytest.MonkeyPatch()
    patch.setattr(conftest, "TableConfig", slower)
    try:
        started = PageServer(tmp_path_factory.mktemp("table-view"), signup_limit=0)
    finally:
        patch.undo()
    yield started
    started.stop()


def emoji_in(page: Page) -> list[str]:
    """Every pictograph in the page's text but the suit symbols."""
    found: list[str] = page.evaluate(
        "([pattern, suits]) => [...document.body.innerText.matchAll(new RegExp(pattern, 'gu'))]"
        ".map(m => m[0]).filter(c => !suits.includes(c))",
        [EMOJI, SUITS],
    )
    return found


def play_to_the_end(page: Page, deadline_s: float) -> list[str]:
    """Play through the page (hint, else pass) until the game is over; returns each round-plays
    line seen while the game ran."""
    seen: list[str] = []
    # Every line the list shows, recorded by the page as it changes: a round won at once (a
    # play, a pass) may show its list for less time than a poll from here takes.
    page.evaluate(
        """() => {
          window.__roundPlays = [];
          new MutationObserver(() => {
            const list = document.querySelector('[data-testid=round-plays]');
            if (list) window.__roundPlays.push(list.innerText);
          }).observe(document.body, { childList: true, subtree: true, characterData: true });
        }"""
    )
    deadline = time.monotonic() + deadline_s
    while not page.get_by_test_id("revealed").is_visible():
        if time.monotonic() > deadline:
            page.screenshot(path=str(SHOTS / "unsettled-table-view.png"), full_page=True)
            raise AssertionError(f"the game did not end within {deadline_s} s")
        moves = page.get_by_test_id("round-plays")
        if moves.is_visible():
            if not seen:
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / "table-view-round-desktop.png"), full_page=True)
            seen.append(moves.inner_text())
        if not act(page):
            time.sleep(0.1)
    recorded: list[str] = page.evaluate("window.__roundPlays")
    return seen + recorded


def check_the_end(page: Page, shots: Any, name: str) -> None:
    """The losers' cards face up, the settlement's units explained in Vietnamese and then in
    English, no emoji, nothing wider than the screen."""
    revealed = page.get_by_test_id("revealed")
    expect(revealed).to_be_visible()
    ready = page.get_by_test_id("ready")
    if ready.inner_text() == "Hủy sẵn sàng":
        ready.click()  # not ready: no next deal takes the table away
    expect(ready).to_have_text("Sẵn sàng")
    hands = revealed.get_by_test_id("revealed-hand")
    assert hands.count() >= 1
    for i in range(hands.count()):
        hand = hands.nth(i)
        shown = hand.locator("svg.card").count()
        assert shown >= 1
        assert f"{shown} lá" in hand.inner_text()  # every card left, face up
        assert hand.locator("svg.card").first.get_attribute("aria-label")  # named: face up
    expect(page.get_by_test_id("settlement")).to_be_visible(timeout=20_000)
    note = page.get_by_test_id("units-note")
    expect(note).to_contain_text(re.compile(r"1 lá = 1 cược = mức cược [\d\u202f]+ chip"))
    units = re.compile(r"\(\d+ × [\d\u202f]+\)")
    expect(page.get_by_test_id("line-units").first).to_have_text(units)
    shots(page, f"{name}-end-vi")
    assert emoji_in(page) == []
    page.get_by_test_id("lang").click()
    expect(note).to_contain_text(re.compile(r"1 card = 1 unit = the bet, [\d\u202f]+ chips"))
    expect(page.get_by_test_id("settlement-line").first).to_contain_text(
        re.compile(r"\d+ (cards?|units?)\b")
    )
    expect(revealed).to_contain_text("Cards left in hand")
    shots(page, f"{name}-end-en")
    assert emoji_in(page) == []
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_two_player_table_on_a_desktop(browser: Any, server: PageServer, shots: Any) -> None:
    page = guest(browser, server, DESKTOP)
    form = page.get_by_test_id("create-form")
    form.locator("select[name=seats]").select_option("2")
    form.locator("select[name=turn]").select_option("20")
    page.get_by_test_id("create").click()
    page.get_by_role("button", name="Thêm máy vào ghế 2").click()
    expect(page.get_by_test_id("felt")).to_have_attribute("data-game", "1", timeout=30_000)

    # The opponent sits opposite, at the top of the felt, above the play.
    opponent, mine = page.get_by_test_id("seat-1"), page.get_by_test_id("seat-0")
    expect(opponent).to_have_class(re.compile(r"\btop\b"))
    top, center, bottom = (
        loc.bounding_box() for loc in (opponent, page.get_by_test_id("center"), mine)
    )
    assert top and center and bottom
    assert top["y"] + top["height"] <= center["y"] + 1 and center["y"] < bottom["y"]
    assert abs((top["x"] + top["width"] / 2) - (bottom["x"] + bottom["width"] / 2)) < 40
    shots(page, "dealt")

    seen = play_to_the_end(page, 120)
    for game in (2, 3):  # a dealt tới trắng ends a game before anyone plays: the next one
        if seen:
            break
        expect(page.get_by_test_id("felt")).to_have_attribute(
            "data-game", str(game), timeout=30_000
        )
        seen = play_to_the_end(page, 120)
    assert seen, "the round's plays were never listed"
    assert any("Khách" in line or "bạn" in line for line in seen)
    shots(page, "played")
    check_the_end(page, shots, "desktop")

    # The replay of the game seats the two the same way, and explains the same units.
    page.get_by_test_id("history-link").click()
    page.get_by_test_id("history-row").first.get_by_test_id("replay").click()
    expect(page.get_by_test_id("step-text")).to_be_visible()
    seats = page.get_by_test_id("rp-seat")
    expect(seats).to_have_count(2)
    expect(page.locator('[data-testid="rp-seat"].me')).to_have_attribute("data-place", "bottom")
    expect(page.locator('[data-testid="rp-seat"]:not(.me)')).to_have_attribute("data-place", "top")
    page.get_by_test_id("rp-last").click()
    expect(page.get_by_test_id("rp-settlement").get_by_test_id("units-note")).to_be_visible()
    shots(page, "replay-end")
    assert emoji_in(page) == []


def test_play_now_on_a_phone(browser: Any, server: PageServer, shots: Any) -> None:
    page = guest(browser, server, PHONE)
    page.get_by_test_id("play-now").click()
    expect(page.get_by_test_id("felt")).to_have_attribute("data-game", "1", timeout=30_000)
    assert emoji_in(page) == []  # the seats' cards-left icon is drawn, not a 🂠

    seen: list[str] = []
    deadline = time.monotonic() + 150
    shot = False
    while not page.get_by_test_id("revealed").is_visible():
        assert time.monotonic() < deadline, "the game did not end in time"
        moves = page.get_by_test_id("round-plays")
        if moves.is_visible():
            seen.append(moves.inner_text())
            if not shot and moves.get_by_test_id("round-move").count() >= 3:
                shots(page, "round")  # several moves of one round, on 390 px
                box = moves.bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
                shot = True
        if not act(page):
            time.sleep(0.1)
    assert seen and any("bỏ" in line for line in seen), seen  # plays and passes, in order
    check_the_end(page, shots, "phone")
