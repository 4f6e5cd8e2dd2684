"""What a newcomer runs into on the page: a table that no longer lets them in, logging out as a
guest, a daily top-up. Each was a surprise once (a page reconnecting for ever, a guest lost in
one click, a balance jumping by 10 000 without a word)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import PageServer, page_built
from .test_browser import DESKTOP, PHONE, guest, play_until_settled

GONE = "Không vào được bàn này: bàn đã đóng, hoặc đường mời không đúng."


@pytest.fixture(scope="module")
def topup_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PageServer]:
    """A server where everyone holds fewer chips than the top-up floor: the first profile
    loaded each day, or the first log-in, grants the daily top-up."""
    page_built()
    server = PageServer(tmp_path_factory.mktemp("web-topup"), topup_floor=1_000_000)
    yield server
    server.stop()


def number(text: str) -> int:
    """A number as the page writes it ("−19 000", "+36 660", "110 000 chip")."""
    digits = int(re.sub(r"\D", "", text))
    return -digits if text.strip().startswith(("−", "-")) else digits


def test_a_closed_table_or_a_wrong_invite_is_said_and_not_retried(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    page = guest(browser, page_server, PHONE)
    page.goto(page_server.url + "/#/t/tnosuchtable0")
    gone = page.get_by_test_id("table-gone")
    expect(gone).to_contain_text(GONE)
    expect(page.get_by_test_id("status")).to_have_count(0)  # not "reconnecting…"
    shots(page, "no-such-table")
    gone.get_by_role("link").click()
    expect(page.get_by_test_id("play-now")).to_be_visible()

    # A private table: its owner's link with a wrong invite code does not let a friend in.
    form = page.get_by_test_id("create-form")
    form.locator("input[name=private]").check()
    page.get_by_test_id("create").click()
    link = page.get_by_test_id("table-invite").locator("input").input_value()
    friend = guest(browser, page_server, DESKTOP)
    friend.goto(link[:-3] + ("xyz" if not link.endswith("xyz") else "abc"))
    expect(friend.get_by_test_id("table-gone")).to_contain_text(GONE)
    # The right link still works.
    friend.goto(page_server.url + "/")
    friend.goto(link)
    expect(friend.get_by_test_id("seat-1")).to_contain_text("Ngồi đây")
    expect(friend.get_by_test_id("table-gone")).to_have_count(0)


def test_a_guest_is_asked_before_logging_out(browser: Any, page_server: PageServer) -> None:
    page = guest(browser, page_server, PHONE)
    name = page.get_by_test_id("nickname").text_content() or ""
    # The lobby's profile card offers to keep the account (its words apart: "hạng · Lưu").
    expect(page.get_by_test_id("lobby-profile")).to_contain_text("bảng xếp hạng · Lưu tài khoản")
    asked: list[str] = []

    def cancel(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", cancel)
    page.get_by_role("button", name="Đăng xuất").click()
    expect(page.get_by_test_id("nickname")).to_have_text(name)
    assert asked and "mất luôn khách này" in asked[0]
    page.reload()  # still logged in as that guest
    expect(page.get_by_test_id("nickname")).to_have_text(name)

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Đăng xuất").click()
    expect(page.get_by_test_id("guest")).to_be_visible()


def test_a_daily_top_up_is_said_on_log_in(browser: Any, topup_server: PageServer) -> None:
    page: Page = browser.new_context(viewport=PHONE).new_page()
    page.goto(topup_server.url + "/")
    page.get_by_label("Tên chơi").fill("Người Mới")
    page.get_by_label("Mật khẩu").fill("mật khẩu mới")
    page.get_by_role("button", name="Đăng ký").click()
    expect(page.get_by_test_id("balance")).to_have_text(re.compile(r"^100\D000 chip$"))
    page.get_by_role("button", name="Đăng xuất").click()  # an account: nothing to ask
    page.get_by_label("Tên chơi").fill("nguoi moi")
    page.get_by_label("Mật khẩu").fill("mật khẩu mới")
    page.get_by_role("button", name="Đăng nhập").click()
    expect(page.get_by_role("status")).to_have_text(re.compile(r"Quà mỗi ngày: \+10\D000 chip\."))
    expect(page.get_by_test_id("balance")).to_have_text(re.compile(r"^110\D000 chip$"))


def test_a_top_up_after_a_settlement_is_said_and_adds_up(
    browser: Any, topup_server: PageServer, shots: Any
) -> None:
    page = guest(browser, topup_server, PHONE)
    name = page.get_by_test_id("nickname").inner_text().replace("(khách)", "").strip()
    page.get_by_test_id("play-now").click()
    expect(page.get_by_test_id("felt")).to_have_attribute("data-game", "1", timeout=30_000)
    play_until_settled([page], 1, deadline_s=240)
    # The profile reloaded after the settlement grants the day's top-up: the page says so.
    expect(page.get_by_role("status").filter(has_text="Quà mỗi ngày")).to_have_text(
        re.compile(r"Quà mỗi ngày: \+10\D000 chip\."), timeout=5_000
    )
    shots(page, "settled-with-top-up")
    row = page.get_by_test_id("settlement").locator("tr", has_text=name)
    delta = number(row.locator("td").nth(1).inner_text())
    expect(page.get_by_test_id("balance")).to_have_text(
        re.compile(rf"^{100_000 + delta + 10_000:,} chip$".replace(",", r"\D"))
    )
