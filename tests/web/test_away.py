"""The seat rules as a player sees them (issue 17): a guest who left the tab open after "Chơi
ngay" once lost 100 000 chips in five games to the turn timer, then sat at a table where
nothing happened and nothing said why. Now a silent player sits out after two timed-out turns
and is not dealt in again until they are back; "Về sảnh" asks before leaving a game; the
table says when the next game starts or what it waits for; a broke player is sent to the
lobby with why and what they can do."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import PageServer, page_built
from .test_browser import (
    DESKTOP,
    act,
    enabled,
    guest,
    play_until_settled,
    press,
    table_seq,
    wait_for_the_table,
)

PHONE = {"width": 390, "height": 844}
FIRST_GAME = (
    "Chạm vào các lá để chọn, rồi bấm “Đánh”; “Bỏ lượt” để bỏ qua; “Gợi ý” để máy chọn giúp."
)
COUNTDOWN = re.compile(r"^Ván mới bắt đầu sau \d+ giây$")


def my_turns_until_away(page: Page, limit_s: float) -> int:
    """Stay silent, counting the turns the player was given (a fresh turn countdown on their
    seat), until their seat is marked away."""
    me = page.locator(".seat.me")
    turns, last = 0, None
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if me.get_by_test_id("away").count():
            return turns
        timer = me.get_by_test_id("turn-timer")
        left = int(timer.inner_text() or 0) if timer.count() else None
        if left is not None and (last is None or left > last):
            turns += 1
        last = left
        time.sleep(0.25)
    raise AssertionError(f"not marked away within {limit_s} s ({turns} turns)")


def test_a_silent_player_sits_out_comes_back_and_is_asked_before_leaving(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    page = guest(browser, page_server, PHONE)
    page.get_by_test_id("play-now").click()
    # Play now never seats a newcomer into a running turn: a countdown comes first.
    expect(page.get_by_test_id("next-game")).to_have_text(COUNTDOWN, timeout=10_000)
    shots(page, "countdown")
    felt = page.get_by_test_id("felt")
    expect(felt).to_have_attribute("data-game", "1", timeout=30_000)
    expect(page.get_by_test_id("first-game")).to_have_text(FIRST_GAME)
    shots(page, "first-game")

    # The player stops acting: after two turns the timer played, their seat sits out.
    assert my_turns_until_away(page, 90) == 2
    expect(page.locator(".seat.me").get_by_test_id("away")).to_have_text("Tạm vắng")
    panel = page.get_by_test_id("away-panel")
    expect(panel).to_contain_text("Bạn đang tạm vắng")
    expect(panel).to_contain_text("không được chia bài ván sau")
    shots(page, "away")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # (The rest of the game is played through the page, to save the test time; playing does
    # not end sitting out.) The next game is not dealt to them: the table waits for them.
    play_until_settled([page], 1, deadline_s=150)
    time.sleep(4)  # twice the pause between games
    expect(felt).to_have_attribute("data-game", "1")
    expect(page.get_by_test_id("next-game")).to_have_text("Đang chờ sẵn sàng: bạn")
    expect(panel).to_be_visible()
    page.get_by_test_id("settlement").get_by_role("button").first.click()  # close it
    shots(page, "not-dealt")

    # One click and they are back: dealt into the next game, without the first game's line.
    page.get_by_test_id("im-back").click()
    expect(panel).to_have_count(0)
    expect(felt).to_have_attribute("data-game", "2", timeout=30_000)
    expect(page.locator(".seat.me").get_by_test_id("away")).to_have_count(0)
    expect(page.get_by_test_id("first-game")).to_have_count(0)

    # "Về sảnh" mid-game asks first, saying what leaving costs; "Ở lại" keeps them playing.
    page.get_by_test_id("back-to-lobby").click()
    ask = page.get_by_role("alertdialog")
    expect(ask).to_contain_text("Rời bàn giữa ván?")
    expect(ask).to_contain_text("trả tiền theo số lá còn cầm")
    expect(ask).to_contain_text("trừ 1 ĐKN")
    shots(page, "leave-ask")
    ask.get_by_role("button", name="Ở lại").click()
    expect(ask).to_have_count(0)
    expect(page.locator(".hand-card").first).to_be_visible()
    expect(felt).to_have_attribute("data-game", "2")
    page.get_by_test_id("back-to-lobby").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Rời bàn").click()
    expect(page.get_by_test_id("play-now")).to_be_visible()
    # What leaving cost shows in the header.
    expect(page.get_by_test_id("balance")).not_to_have_text(re.compile(r"^100\D000 chip$"))


def test_back_to_the_lobby_between_games_stands_up_and_the_table_says_what_it_waits_for(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    page = guest(browser, page_server, DESKTOP)
    form = page.get_by_test_id("create-form")
    form.locator("select[name=seats]").select_option("3")
    page.get_by_test_id("create").click()
    next_game = page.get_by_test_id("next-game")
    expect(next_game).to_have_text("Đang chờ thêm một người chơi ngồi vào bàn")
    page.get_by_test_id("add-bot-1").click()
    # Two of three seats ready: the deal waits for a third, with its countdown.
    expect(next_game).to_have_text(COUNTDOWN)
    shots(page, "countdown")
    table_url = page.url

    page.get_by_test_id("back-to-lobby").click()  # no game: no question
    expect(page.get_by_test_id("play-now")).to_be_visible()
    page.goto(table_url)
    expect(page.get_by_test_id("sit-0")).to_be_visible()  # they were stood up
    expect(next_game).to_have_text("Đang chờ thêm một người chơi ngồi vào bàn")
    page.get_by_test_id("lang").click()
    expect(next_game).to_have_text("Waiting for a second player to sit down")
    page.get_by_test_id("lang").click()

    page.get_by_test_id("sit-0").click()
    expect(next_game).to_have_text(COUNTDOWN)
    page.get_by_test_id("add-bot-2").click()
    felt = page.get_by_test_id("felt")
    expect(felt).to_have_attribute("data-game", "1", timeout=20_000)
    if next_game.is_visible():  # a dealt tới trắng ended it at once: leave the next one
        expect(felt).to_have_attribute("data-game", "2", timeout=20_000)
    page.get_by_test_id("back-to-lobby").click()
    ask = page.get_by_role("alertdialog")
    expect(ask).to_contain_text("trả tiền theo số lá còn cầm")
    page.get_by_test_id("lang").click()
    expect(ask).to_contain_text("pay for the cards you hold")
    shots(page, "leave-ask")
    page.get_by_test_id("lang").click()
    ask.get_by_role("button", name="Rời bàn").click()
    expect(page.get_by_test_id("play-now")).to_be_visible()


def passive(page: Page) -> bool:
    """One move of a player who lets every round go: pass when allowed, lead the hint when it
    must lead, decline chops. They never win. Like `act`, it does nothing when the turn
    moves on under it, or the page has left the table (as a broke player's does)."""
    seq = table_seq(page)
    if seq is None:
        return False
    if page.get_by_test_id("chop-prompt").is_visible():
        moved = press(page.get_by_test_id("chop-prompt").get_by_role("button"))
    elif enabled(page, "pass"):
        moved = press(page.get_by_test_id("pass"))
    elif enabled(page, "hint"):
        moved = press(page.get_by_test_id("hint")) and press(page.get_by_test_id("play"))
    else:
        return False
    if moved:
        wait_for_the_table(page, seq)
    return moved


@pytest.fixture(scope="module")
def broke_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PageServer]:
    """A server where newcomers start with 5 000 chips and the day's top-up brings a player
    below 50 000 up by 45 000: one who took it may open a table at a 5 000 bet, where one who
    did not holds exactly one bet, and any lost game leaves them too few to be dealt in."""
    page_built()
    server = PageServer(
        tmp_path_factory.mktemp("web-broke"),
        signup_limit=0,
        starting_grant=5_000,
        topup_floor=50_000,
        topup_amount=45_000,
    )
    yield server
    server.stop()


def test_a_broke_player_is_sent_to_the_lobby_and_told_why(
    browser: Any, broke_server: PageServer, shots: Any
) -> None:
    owner: Page = browser.new_context(viewport=DESKTOP).new_page()
    owner.goto(broke_server.url + "/")
    owner.get_by_test_id("guest").click()
    expect(owner.get_by_test_id("play-now")).to_be_visible()
    owner.reload()  # the profile loaded grants the day's top-up
    expect(owner.get_by_test_id("balance")).to_have_text(re.compile(r"^50\D000 chip$"))
    form = owner.get_by_test_id("create-form")
    form.locator("input[name=bet]").fill("5000")
    owner.get_by_test_id("create").click()
    owner.get_by_test_id("add-bot-1").click()
    owner.get_by_test_id("add-bot-2").click()
    table_id = owner.url.rsplit("/", 1)[-1]

    page: Page = browser.new_context(viewport=PHONE).new_page()
    page.goto(broke_server.url + "/")
    page.get_by_test_id("guest").click()
    expect(page.get_by_test_id("balance")).to_have_text(re.compile(r"^5\D000 chip$"))
    page.locator(f'[data-testid="table-row"][data-table="{table_id}"]').get_by_role(
        "button", name="Vào bàn"
    ).click()
    expect(page.get_by_test_id("felt")).to_have_attribute("data-game", "1", timeout=30_000)

    # They let every round go and lose the game: one bet was all they held.
    told = page.get_by_test_id("stood-up")
    deadline = time.monotonic() + 150
    while not told.count():
        assert time.monotonic() < deadline, "never stood up"
        moved = act(owner)
        if not (passive(page) or moved):
            time.sleep(0.1)
    expect(told).to_contain_text(
        re.compile(r"Bạn được đưa về sảnh: bạn còn \d+ chip, mà bàn đó cần ít nhất 5\D000 chip")
    )
    held = re.search(r"bạn còn (\d+) chip", told.inner_text())
    assert held is not None and int(held.group(1)) < 5_000
    # Today's top-up was theirs still: the profile reloaded on the way granted it, so the
    # trainee room is open to them again.
    expect(told).to_contain_text(re.compile(r"Bạn vừa nhận quà mỗi ngày: \+45\D000 chip\."))
    expect(told).to_contain_text(re.compile(r"Bạn vẫn vào được phòng Tập sự \(cược từ 1\D000\)\."))
    expect(page.get_by_test_id("balance")).to_have_text(
        re.compile(rf"^{45_000 + int(held.group(1)):,} chip$".replace(",", r"\D"))
    )
    shots(page, "stood-up")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.get_by_test_id("lang").click()
    expect(told).to_contain_text("You were sent back to the lobby")
    expect(told).to_contain_text("You may still play in the Trainee room")
    shots(page, "stood-up-en")
    page.get_by_test_id("stood-up-replay").click()
    expect(page).to_have_url(re.compile(r"#/replay/t[0-9a-f]+(%3A|:)1$"))
