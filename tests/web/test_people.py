"""People with accounts playing each other, and the turn timer playing for whoever leaves a
turn alone, through Chromium against the real server, using only what the page shows."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import PageServer
from .test_browser import DESKTOP, PHONE, errors_shown, guest, play_until_settled

SUITS = {"s": "♠", "c": "♣", "d": "♦", "h": "♥"}


def sign_up(browser: Any, server: PageServer, viewport: dict[str, int], nickname: str) -> Page:
    """A new person opens the page and signs up with the welcome page's form."""
    page: Page = browser.new_context(viewport=viewport).new_page()
    page.goto(server.url + "/")
    page.get_by_label("Tên chơi").fill(nickname)
    page.get_by_label("Mật khẩu").fill("mật khẩu dài " + nickname)
    page.get_by_role("button", name="Đăng ký").click()
    expect(page.get_by_test_id("nickname")).to_have_text(nickname)  # no "(khách)"
    expect(page.get_by_test_id("play-now")).to_be_visible()
    return page


def test_two_people_sign_up_and_play_each_other_with_bots(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    lan = sign_up(browser, page_server, DESKTOP, "Lan Anh")
    minh = sign_up(browser, page_server, PHONE, "Minh Tuấn")
    start = lan.get_by_test_id("balance").inner_text()
    # Lan opens a table for four and seats bots in two of its seats from the page.
    form = lan.get_by_test_id("create-form")
    form.locator("select[name=turn]").select_option("20")
    lan.get_by_test_id("create").click()
    expect(lan).to_have_url(re.compile(r"#/t/t[0-9a-f]+$"))
    expect(lan.get_by_role("group", name="Ghế 1: bạn")).to_be_visible()
    for seat in (3, 4):
        lan.get_by_role("button", name=f"Thêm máy vào ghế {seat}").click()
        expect(lan.get_by_role("group", name=re.compile(f"^Ghế {seat}: Bot"))).to_contain_text(
            "máy"
        )
    shots(lan, "table-waiting-desktop")
    # Minh finds it in the lobby's list and joins: the table is full, the game starts.
    table_id = lan.url.rsplit("/", 1)[-1]
    shots(minh, "lobby-phone")
    minh.locator(f'[data-testid="table-row"][data-table="{table_id}"]').get_by_role(
        "button", name="Vào bàn"
    ).click()
    for page in (lan, minh):
        expect(page.get_by_test_id("felt")).to_have_attribute("data-game", "1", timeout=20_000)
    expect(minh.get_by_role("group", name="Ghế 2: bạn")).to_be_visible()
    expect(minh.get_by_role("group", name="Ghế 1: Lan Anh")).to_be_visible()
    expect(lan.get_by_role("group", name="Ghế 2: Minh Tuấn")).to_be_visible()
    shots(lan, "dealt-desktop")
    shots(minh, "dealt-phone")

    play_until_settled([lan, minh], 1, deadline_s=180)
    shots(lan, "settled-desktop")
    shots(minh, "settled-phone")
    for page in (lan, minh):
        settlement = page.get_by_role("dialog", name="Tính tiền ván 1")
        expect(settlement.get_by_test_id("settlement-line").first).to_be_visible()
        for name in ("Lan Anh", "Minh Tuấn"):
            expect(settlement.locator(".deltas")).to_contain_text(name)
    expect(lan.get_by_test_id("balance")).not_to_have_text(start, timeout=5_000)
    assert errors_shown(lan) == [] and errors_shown(minh) == []

    for page in (lan, minh):
        page.context.close()


def test_a_turn_left_alone_is_played_by_the_timer(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    page = guest(browser, page_server, PHONE)
    found = re.match(r"Khách \d+", page.get_by_test_id("nickname").inner_text())
    assert found is not None
    me = found.group(0)
    form = page.get_by_test_id("create-form")
    form.locator("select[name=seats]").select_option("2")
    form.locator("select[name=turn]").select_option("10")  # the shortest the lobby offers
    page.get_by_test_id("create").click()
    page.get_by_role("button", name="Thêm máy vào ghế 2").click()
    expect(page.get_by_test_id("felt")).to_have_attribute("data-game", re.compile("[1-9]"))

    # Wait for this player's turn (the bot may lead), then touch nothing.
    expect(page.get_by_role("status").filter(has_text="Đến lượt bạn")).to_be_visible(timeout=40_000)
    mine = page.get_by_role("group", name="Ghế 1: bạn")
    timer = mine.get_by_role("timer")
    expect(timer).to_have_accessible_name(re.compile(r"^Còn \d+ giây$"))
    start = int(timer.inner_text())
    assert 1 <= start <= 10
    hand = page.get_by_role("listbox", name="Bài của bạn").get_by_role("option")
    held = hand.count()
    lowest = hand.first.get_attribute("data-card")
    leading = page.get_by_role("button", name="Bỏ lượt", exact=True).is_disabled()
    seq = int(page.get_by_test_id("felt").get_attribute("data-seq") or "0")
    if start > 2:  # the countdown runs on the page
        expect(timer).to_have_text(re.compile(f"^[1-{start - 1}]$"), timeout=10_000)
        shots(page, "countdown")

    # At the deadline the server plays for the seat: its lowest card when leading, else a pass.
    said = "tự động đánh" if leading else "tự động bỏ lượt"
    happening = page.get_by_test_id("happening").filter(has_text=f"Hết giờ: {me} {said}")
    expect(happening).to_be_visible(timeout=20_000)
    shots(page, "timed-out")
    if leading:
        expect(hand).to_have_count(held - 1)
        assert lowest is not None
        expect(happening).to_have_text(re.compile(f"{lowest[:-1]}{SUITS[lowest[-1]]}$"))
    else:
        expect(hand).to_have_count(held)
    felt = page.get_by_test_id("felt")
    assert int(felt.get_attribute("data-seq") or "0") > seq
    # The page goes on: the turn passed on, a timer runs for whoever plays now.
    expect(page.get_by_test_id("turn-timer")).to_be_visible()
    assert errors_shown(page) == []
    page.context.close()
