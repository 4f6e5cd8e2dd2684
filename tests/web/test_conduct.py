"""Conduct as players see it, through Chromium against the real server: reporting a player
from their seat and from a chat line (received, or refused with a sentence), hiding their chat
for oneself (the lines hidden and counted, shown again), a ban made while the banned player is
at the table (said in Vietnamese with its reason and cost, no reconnecting, the chips read
again), and notices a later success made stale taken down."""

from __future__ import annotations

import re
import time
from typing import Any
from urllib.parse import quote

from playwright.sync_api import Page, expect

from .conftest import PageServer
from .test_browser import DESKTOP, errors_shown, guest, play_until_settled
from .test_profile import PASSWORD, _admin

PHONE = {"width": 390, "height": 844}


def _name(page: Page) -> str:
    return page.get_by_test_id("nickname").inner_text().replace("\xa0", " ").split(" (")[0].strip()


def _say(page: Page, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-input").press("Enter")


def _send_report(page: Page, reason: str | None, words: str) -> None:
    dialog = page.get_by_test_id("report-dialog")
    if reason is not None:
        dialog.get_by_test_id("report-reason").select_option(reason)
    dialog.get_by_test_id("report-words").fill(words)
    dialog.get_by_test_id("report-send").click()


def test_report_hide_chat_and_a_ban_at_the_table(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    mod = browser.new_context()
    r = mod.request.post(
        page_server.url + "/api/register", data={"nickname": "Trọng Tài Ba", "password": PASSWORD}
    )
    assert r.status == 201, r.text()
    _admin(page_server, "grant-role", "Trọng Tài Ba", "moderator", "--reason", "trusted")

    lan = guest(browser, page_server, DESKTOP)
    minh = guest(browser, page_server, PHONE)
    sockets: list[str] = []
    minh.on("websocket", lambda ws: sockets.append(ws.url))
    minh_name, minh_id = _name(minh), minh.request.get(page_server.url + "/api/me").json()["id"]
    form = lan.get_by_test_id("create-form")
    form.locator("select[name=seats]").select_option("2")
    form.locator("select[name=turn]").select_option("20")
    lan.get_by_test_id("create").click()
    expect(lan).to_have_url(re.compile(r"#/t/t[0-9a-f]+$"))
    table_id = lan.url.rsplit("/", 1)[-1]
    minh.locator(f'[data-testid="table-row"][data-table="{table_id}"]').get_by_role(
        "button", name="Vào bàn"
    ).click()
    for page in (lan, minh):
        expect(page.get_by_test_id("felt")).to_have_attribute("data-game", "1", timeout=20_000)

    # Lan reports Minh's chat line: the line is quoted, swearing offered first, received.
    _say(minh, "đánh chậm thế")
    chat = lan.get_by_test_id("chat-lines")
    expect(chat).to_contain_text("đánh chậm thế")
    chat.get_by_role("button", name=f"{minh_name}: báo cáo hoặc ẩn chat").click()
    lan.get_by_test_id("report-line-button").click()
    dialog = lan.get_by_test_id("report-dialog")
    expect(dialog.get_by_test_id("report-line")).to_contain_text(f"{minh_name}: đánh chậm thế")
    expect(dialog.get_by_test_id("report-reason")).to_have_value("swearing")
    options = dialog.get_by_test_id("report-reason").locator("option")
    expect(options).to_contain_text(
        ["Chửi bậy, lời lẽ không văn hóa", "Làm lag bàn chơi", "Lý do khác"]
    )
    shots(lan, "report-line-desktop")
    _send_report(lan, None, "nói tục với cả bàn")
    received = f"Đã nhận báo cáo về {minh_name}."
    expect(lan.locator(".notice.info").last).to_contain_text(received)
    expect(dialog).to_have_count(0)
    # ... and from Minh's seat, for stalling.
    lan.get_by_test_id("seat-1").get_by_test_id("seat-menu").click()
    lan.get_by_test_id("seat-report").click()
    _send_report(lan, "stalling", "")
    expect(lan.locator(".notice.info")).to_have_count(2)
    expect(lan.locator(".notice.info").last).to_contain_text(received)
    reports = mod.request.get(page_server.url + "/api/mod/reports").json()["reports"]
    mine = [q for q in reports if q["target_id"] == minh_id]
    assert [q["context"]["client"]["offence"] for q in mine] == ["swearing", "stalling"]
    assert mine[0]["context"]["message"]["text"] == "đánh chậm thế"
    assert mine[0]["message_id"] == mine[0]["context"]["message"]["id"]
    assert mine[0]["text"] == "nói tục với cả bàn" and mine[1]["text"] == "Làm lag bàn chơi"
    # On the phone the dialog fits the screen.
    minh.get_by_test_id("seat-0").get_by_test_id("seat-menu").click()
    minh.get_by_test_id("seat-report").click()
    box = minh.get_by_test_id("report-dialog").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    shots(minh, "report-seat-phone")
    minh.get_by_test_id("report-dialog").get_by_role("button", name="Hủy").click()
    expect(minh.get_by_test_id("report-dialog")).to_have_count(0)

    # Lan hides Minh's chat from his seat: the lines are counted, not shown; remembered.
    lan.get_by_test_id("seat-1").get_by_test_id("seat-menu").click()
    lan.get_by_test_id("seat-mute").click()
    hidden = lan.get_by_test_id("chat-hidden")
    expect(hidden).to_contain_text("1 dòng bị ẩn")
    expect(chat).not_to_contain_text("đánh chậm thế")
    _say(minh, "ai ăn cơm chưa")
    expect(hidden).to_contain_text("2 dòng bị ẩn")
    expect(chat).not_to_contain_text("ai ăn cơm chưa")
    expect(lan.get_by_test_id("seat-1").get_by_test_id("seat-muted")).to_be_visible()
    lan.reload()
    expect(lan.get_by_test_id("chat-hidden")).to_contain_text("2 dòng bị ẩn")
    lan.get_by_test_id("chat-show-hidden").click()  # shown on demand, dimmed
    expect(chat).to_contain_text("ai ăn cơm chưa")
    shots(lan, "chat-hidden-desktop")
    chat.get_by_role("button", name=f"{minh_name}: báo cáo hoặc ẩn chat").last.click()
    lan.get_by_test_id("mute-line-button").click()  # "Bỏ ẩn chat"
    expect(lan.get_by_test_id("chat-hidden")).to_have_count(0)
    lan.get_by_test_id("chat-show-hidden").wait_for(state="detached")
    expect(chat).to_contain_text("đánh chậm thế")
    expect(chat).to_contain_text("ai ăn cơm chưa")

    # From Minh's profile, in another tab: a report (by nickname), and his chat hidden there
    # is hidden at the table too.
    profile = lan.context.new_page()
    profile.goto(page_server.url + "/#/u/" + quote(minh_name))
    expect(profile.get_by_test_id("profile-name")).to_contain_text(minh_name)
    profile.get_by_test_id("profile-report").click()
    expect(profile.get_by_test_id("report-dialog")).to_be_visible()
    shots(profile, "report-profile-desktop")
    _send_report(profile, "chip_trading", "rủ mua chip giá rẻ")
    expect(profile.locator(".notice.info").last).to_contain_text(received)
    profile.get_by_test_id("profile-mute").click()
    expect(profile.get_by_test_id("profile-mute")).to_have_text("Bỏ ẩn chat")
    expect(lan.get_by_test_id("chat-hidden")).to_contain_text("2 dòng bị ẩn")
    profile.get_by_test_id("profile-mute").click()
    expect(lan.get_by_test_id("chat-hidden")).to_have_count(0)
    profile.close()
    last = mod.request.get(page_server.url + "/api/mod/reports").json()["reports"][-1]
    assert (last["target_id"], last["context"]["client"]["from"]) == (minh_id, "profile")

    # Too many reports: the dialog says so, and until when.
    for _ in range(7):
        body = {"user_id": minh_id, "text": "x"}
        assert lan.request.post(page_server.url + "/api/reports", data=body).status == 201
    lan.get_by_test_id("seat-1").get_by_test_id("seat-menu").click()
    lan.get_by_test_id("seat-report").click()
    _send_report(lan, "flooding", "lần nữa")
    expect(lan.get_by_test_id("report-refusal")).to_contain_text(
        "Bạn đã gửi quá nhiều báo cáo trong một giờ qua. Hãy thử lại sau"
    )
    lan.get_by_test_id("report-dialog").get_by_role("button", name="Hủy").click()

    # A game played, the next one dealt; Minh is banned in the middle of it.
    play_until_settled([lan, minh], 1)
    felt = minh.get_by_test_id("felt")
    expect(felt).not_to_have_attribute("data-game", re.compile(r"^[01]$"), timeout=20_000)
    expect(minh.get_by_test_id("turn")).to_be_visible(timeout=20_000)  # a game being played
    expect(minh.locator(".hand-card")).to_have_count(13)
    game = felt.get_attribute("data-game")
    expect(minh.get_by_test_id("dkn")).not_to_have_text(re.compile(r"^0 "), timeout=5_000)
    chips_before = minh.get_by_test_id("balance").inner_text()
    opened = len(sockets)
    ban = {"user_id": minh_id, "duration": "1d", "offence": "swearing", "reason": "chửi tục"}
    assert mod.request.post(page_server.url + "/api/mod/ban", data=ban).status == 200
    notice = minh.get_by_test_id("ban-notice")
    expect(notice.get_by_test_id("ban-text")).to_contain_text(
        re.compile(
            r"^Tài khoản này bị khóa đến \d\d:\d\d ngày \d\d/\d\d/\d{4}\. "
            r"Lý do: Chửi bậy, lời lẽ không văn hóa \(chửi tục\)\.$"
        )
    )
    cost = notice.get_by_test_id("ban-cost")
    expect(cost).to_contain_text(
        re.compile(r"^Ván đang chơi bị xử thua như người bỏ bàn: −[\d\u202f]+ chip, −1 ĐKN\. ")
    )
    expect(cost).to_contain_text("Bạn còn")
    expect(minh.get_by_test_id("balance")).not_to_have_text(chips_before)
    account = minh.request.get(page_server.url + "/api/me").json()["error"]["account"]
    expect(minh.get_by_test_id("dkn")).to_have_text(f"{account['dkn']} ĐKN")
    for english in ("banned", "automatic", "Reason", "until"):
        assert english not in notice.inner_text()
    time.sleep(4)  # longer than the first pauses between reconnections
    assert len(sockets) == opened, sockets[opened:]
    shots(minh, "banned-phone")
    # Minh left the game, which Lan won: settled at once.
    expect(lan.get_by_role("dialog", name=f"Tính tiền ván {game}")).to_be_visible(timeout=10_000)
    expect(lan.get_by_test_id("felt")).to_contain_text(f"{minh_name} rời ván")
    assert errors_shown(lan) == []
    for page in (lan, minh):
        page.context.close()
    mod.close()


def test_a_good_log_in_takes_down_the_wrong_password_notice(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    page: Page = browser.new_context(viewport=PHONE).new_page()
    page.goto(page_server.url + "/")
    page.get_by_label("Tên chơi").fill("Hoa Mai")
    page.get_by_label("Mật khẩu").fill("ngắn")
    page.get_by_role("button", name="Đăng ký").click()
    expect(page.get_by_role("alert")).to_contain_text("Mật khẩu quá yếu")
    page.get_by_label("Mật khẩu").fill(PASSWORD)
    page.get_by_role("button", name="Đăng ký").click()
    expect(page.get_by_test_id("nickname")).to_have_text("Hoa Mai")
    expect(page.get_by_role("alert")).to_have_count(0, timeout=1_000)  # not left 8 s
    page.get_by_role("button", name="Đăng xuất").click()
    page.get_by_label("Tên chơi").fill("Hoa Mai")
    page.get_by_label("Mật khẩu").fill("sai mật khẩu rồi")
    page.get_by_role("button", name="Đăng nhập").click()
    expect(page.get_by_role("alert")).to_contain_text("Sai tên chơi hoặc mật khẩu.")
    shots(page, "wrong-password-phone")
    page.get_by_label("Mật khẩu").fill(PASSWORD)
    page.get_by_role("button", name="Đăng nhập").click()
    expect(page.get_by_test_id("nickname")).to_have_text("Hoa Mai")
    expect(page.get_by_role("alert")).to_have_count(0, timeout=1_000)
    page.context.close()
