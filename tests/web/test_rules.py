"""The rules page (from the header, the lobby's form and a table, on a phone and a desktop, in
both languages) and the profile's chips chart after a game against bots, through Chromium
against the real server."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import PageServer
from .test_browser import DESKTOP, errors_shown, guest, play_until_settled

PHONE = {"width": 390, "height": 844}


def _no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_rules_page_words_each_preset_in_both_languages(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    # Anyone may read the rules, logged in or not: on a phone, the first preset by default.
    phone: Page = browser.new_context(viewport=PHONE).new_page()
    phone.goto(page_server.url + "/")
    phone.get_by_test_id("rules-link").click()
    expect(phone).to_have_url(re.compile(r"#/rules$"))
    expect(phone.get_by_test_id("rules-title")).to_have_text("Thập Thành")
    expect(phone.get_by_test_id("rules-preset-thapthanh")).to_have_attribute("aria-current", "page")
    chops = phone.get_by_test_id("rules-section-chops")
    expect(chops).to_contain_text("Chặt heo bằng: 3 đôi thông, tứ quý, 4 đôi thông")
    expect(chops).to_contain_text("Chặt có trả tiền")
    expect(phone.get_by_test_id("rules-section-instant")).to_contain_text(
        "Tới trắng: 2 tứ quý (mọi ván)."
    )
    expect(phone.get_by_test_id("rules-section-cong")).to_contain_text("trả 26 cược thay cho số lá")
    # The worked example: settled by the server (12 cards + a red 2 held, cóng 26 + a black 2).
    example = phone.get_by_test_id("rules-example")
    expect(example).to_contain_text("phòng Tập sự, phí 6%")
    expect(example.get_by_test_id("rules-example-seat")).to_have_count(3)
    lines = example.get_by_test_id("rules-example-lines")
    expect(lines).to_contain_text("Ghế 2 trả Ghế 1 12\u202f000 chip: còn 12 lá")
    expect(lines).to_contain_text("Ghế 3 trả Ghế 1 26\u202f000 chip: cóng: 26 lá")
    expect(lines).to_contain_text("thối heo đỏ (2♦)")
    expect(example.get_by_test_id("rules-example-seat").nth(2)).to_contain_text("cóng")
    _no_sideways_scroll(phone)
    shots(phone, "phone-thapthanh")
    phone.goto(page_server.url + "/#/rules/khong_co")
    expect(phone.get_by_test_id("rules-unknown")).to_contain_text("Không có bộ luật «khong_co»")

    # From the lobby's form on a desktop: the preset chosen there, then another, then English.
    page = guest(browser, page_server, DESKTOP)
    page.get_by_test_id("create-form").locator("select[name=preset]").select_option("b52")
    page.get_by_test_id("preset-rules").click()
    expect(page).to_have_url(re.compile(r"#/rules/b52$"))
    expect(page.get_by_test_id("rules-title")).to_have_text("Game Bài B52")
    expect(page.get_by_test_id("rules-section-cong")).to_contain_text("Cóng chỉ tính khi")
    expect(page.get_by_test_id("rules-section-chops")).to_contain_text("Chặt không trả tiền")
    page.get_by_test_id("rules-preset-sanhrong").click()
    expect(page).to_have_url(re.compile(r"#/rules/sanhrong$"))
    expect(page.get_by_test_id("rules-page")).to_have_attribute("data-preset", "sanhrong")
    expect(page.get_by_test_id("rules-section-cong")).to_contain_text("nhân 2")
    expect(page.get_by_test_id("rules-example-lines")).to_contain_text("cóng ×2")
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("rules-section-chops")).to_contain_text("Chops and over-chops")
    expect(page.get_by_test_id("rules-section-chops")).to_contain_text(
        "4 or more consecutive pairs may chop at once, out of turn."
    )
    expect(page.get_by_test_id("rules-example")).to_contain_text("A worked example")
    expect(page.get_by_test_id("rules-example-lines")).to_contain_text(
        "Seat 3 pays Seat 1 3,000 chips: caught holding black 2 (2♠): 3".replace(",", "\u202f")
    )
    _no_sideways_scroll(page)
    shots(page, "desktop-sanhrong-en")
    page.get_by_test_id("lang").click()  # back to Vietnamese for the other tests' pages
    assert errors_shown(page) == [] and errors_shown(phone) == []


def test_the_tables_rules_open_beside_it_and_the_profile_charts_the_chips(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    page = guest(browser, page_server, PHONE)
    page.get_by_test_id("play-now").click()
    expect(page.get_by_test_id("felt")).to_have_attribute("data-game", "1", timeout=30_000)
    expect(page.get_by_test_id("seat-0")).to_contain_text("bạn")
    table_url = page.url
    # The table's rules open in a new tab on its own preset; the player stays seated.
    with page.context.expect_page() as opened:
        page.get_by_test_id("table-rules").click()
    rules = opened.value
    expect(rules).to_have_url(re.compile(r"#/rules/thapthanh$"))
    expect(rules.get_by_test_id("rules-title")).to_have_text("Thập Thành")
    _no_sideways_scroll(rules)
    shots(rules, "from-the-table")
    rules.close()
    assert page.url == table_url
    expect(page.get_by_test_id("seat-0")).to_contain_text("bạn")
    play_until_settled([page], 1, deadline_s=240)

    # The profile: the chips after the game as a chart, and the rooms still closed.
    page.goto(page_server.url + "/#/profile")
    chart = page.get_by_test_id("chips-chart")
    # (the machine is busy with the table's next game: the profile's requests may take a while)
    expect(chart.locator("svg.chart")).to_have_attribute("data-points", "1", timeout=30_000)
    expect(chart.locator("svg.chart circle")).to_have_count(1)
    # The player left the table for this page, so a game dealt before they went may still be
    # settled by the timer between the profile's two requests: read again until they agree.
    deadline = time.monotonic() + 60
    while True:
        chips = page.get_by_test_id("profile-chips").inner_text()
        if f"Sau ván cuối: {chips} chip" in chart.inner_text() or time.monotonic() > deadline:
            break
        page.reload()
        expect(chart.locator("svg.chart")).to_have_attribute(
            "data-points", re.compile(r"^\d+$"), timeout=30_000
        )
    expect(chart).to_contain_text(f"Sau ván cuối: {chips} chip")
    tycoon = page.get_by_test_id("room-progress-tycoon")
    expect(tycoon).to_contain_text(f"phòng Đại gia cần 200\u202f000 chip, bạn có {chips}")
    expect(tycoon.locator("progress")).to_have_attribute("value", re.compile(r"^\d+$"))
    expect(page.get_by_test_id("room-progress-vip")).to_contain_text("cần 100 điểm VIP")
    _no_sideways_scroll(page)
    shots(page, "profile-chart")
    assert errors_shown(page) == []
