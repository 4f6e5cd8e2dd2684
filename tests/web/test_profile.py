"""The profile page (the player's own and another's, the rooms they may enter, the
leaderboards, upgrading a guest) and a banned player told until when and why, through Chromium
against the real server."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import datetime, timedelta
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import PageServer
from .test_browser import DESKTOP, PHONE, errors_shown, guest

PASSWORD = "mật khẩu dài"


def _no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_profile_page_shows_the_player_the_rooms_and_the_leaderboards(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    other = browser.new_context()
    r = other.request.post(
        page_server.url + "/api/register", data={"nickname": "Bảo Ngọc", "password": PASSWORD}
    )
    assert r.status == 201, r.text()
    other.close()

    page = guest(browser, page_server, PHONE)
    me = page.get_by_test_id("nickname").inner_text().replace("\xa0", " ").split(" (")[0]
    page.get_by_test_id("nickname").click()  # the header's name leads to the profile
    expect(page).to_have_url(re.compile(r"#/profile$"))
    expect(page.get_by_test_id("profile-name")).to_have_text(f"{me} (khách)")
    expect(page.get_by_test_id("profile-chips")).to_have_text("100\u202f000")
    for stat in ("profile-dkn", "profile-vip", "profile-played", "profile-won"):
        expect(page.get_by_test_id(stat)).to_have_text("0")
    # The rooms: the trainee room is open; the VIP room needs VIP points, and says so.
    expect(page.get_by_test_id("profile-room-trainee")).to_have_attribute("data-open", "true")
    vip = page.get_by_test_id("profile-room-vip")
    expect(vip).to_have_attribute("data-open", "false")
    expect(vip).to_contain_text("điểm VIP")
    # The leaderboards by ĐKN and by chips; a guest is not ranked, the registered player is.
    board = page.get_by_test_id("board")
    expect(board).to_have_attribute("data-by", "dkn")
    expect(board).to_contain_text("Bảo Ngọc")
    expect(board).to_contain_text("0 ĐKN")
    page.get_by_test_id("board-chips").click()
    expect(board).to_have_attribute("data-by", "chips")
    expect(board).to_contain_text("100\u202f000 chip")
    expect(page.get_by_test_id("board-chips")).to_have_attribute("aria-pressed", "true")
    _no_sideways_scroll(page)
    shots(page, "profile")

    # Another player's profile, from the leaderboard: what anyone may see, no VIP points.
    board.get_by_role("link", name="Bảo Ngọc").click()
    expect(page).to_have_url(re.compile(r"#/u/B%E1%BA%A3o%20Ng%E1%BB%8Dc$"))
    expect(page.get_by_test_id("profile-name")).to_have_text("Bảo Ngọc")
    expect(page.get_by_test_id("profile-chips")).to_have_text("100\u202f000")
    expect(page.get_by_test_id("profile-vip")).to_have_count(0)
    expect(page.get_by_test_id("profile-rooms")).to_have_count(0)
    expect(page.get_by_test_id("upgrade-form")).to_have_count(0)
    shots(page, "profile-other")

    # Nobody of that name: a sentence, not a blank page.
    page.goto(page_server.url + "/#/u/Kh%C3%B4ng%20Ai")
    expect(page.get_by_role("alert")).to_contain_text("Không có người chơi này.")
    expect(page.get_by_test_id("profile")).to_contain_text("Không có người chơi Không Ai.")

    # The guest keeps this account from the profile page.
    page.goto(page_server.url + "/#/profile")
    page.get_by_test_id("upgrade-form").locator("input[name=nickname]").fill("Lan Anh Hai")
    page.get_by_test_id("upgrade-form").locator("input[name=password]").fill(PASSWORD)
    page.get_by_test_id("upgrade").click()
    expect(page.get_by_test_id("nickname")).to_have_text("Lan Anh Hai")
    expect(page.get_by_test_id("upgrade-form")).to_have_count(0)
    expect(page.get_by_test_id("profile-chips")).to_have_text("100\u202f000")
    page.reload()
    expect(page.get_by_test_id("board")).to_contain_text("Lan Anh Hai")
    # The lobby leads to the profile too.
    page.goto(page_server.url + "/#/")
    page.get_by_test_id("lobby-profile").click()
    expect(page).to_have_url(re.compile(r"#/profile$"))
    assert errors_shown(page) == []


def test_in_english_the_rooms_are_named_and_closed_in_the_pages_words(
    browser: Any, page_server: PageServer
) -> None:
    page = guest(browser, page_server, DESKTOP)
    page.get_by_test_id("lang").click()
    closed = "Needs 200\u202f000 chips (you hold 100\u202f000)"
    expect(page.get_by_test_id("room-trainee")).to_contain_text("Trainee")
    expect(page.get_by_test_id("room-tycoon")).to_contain_text("Tycoon")
    expect(page.get_by_test_id("room-tycoon")).to_contain_text(closed)
    expect(page.get_by_test_id("room-vip")).to_contain_text("Needs 100 VIP points (you have 0)")
    options = page.get_by_test_id("create-form").locator("select[name=room] option")
    expect(options).to_have_text(["Trainee", "Tycoon", "VIP"])
    page.get_by_test_id("lobby-profile").click()
    expect(page.get_by_test_id("profile-room-tycoon")).to_contain_text("Tycoon")
    expect(page.get_by_test_id("profile-room-tycoon")).to_contain_text(closed)
    # The same rooms in Vietnamese, in the page's words too.
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("profile-room-tycoon")).to_contain_text("Đại gia")
    expect(page.get_by_test_id("profile-room-tycoon")).to_contain_text(
        "Cần 200\u202f000 chip (bạn có 100\u202f000)"
    )
    assert errors_shown(page) == []


def _ban(page_server: PageServer, nickname: str) -> None:
    """``tienlen admin ban`` from the console, in its own process, on the page's database."""
    _admin(page_server, "ban", nickname, "1d", "--reason", "spam", "--offence", "swearing")


def _admin(page_server: PageServer, *args: str) -> None:
    """``tienlen admin ARGS`` from the console, in its own process, on the page's database."""
    command = [sys.executable, "-c", "from tienlen.cli import app; app()", "admin"]
    done = subprocess.run(
        [*command, *args, "--data-dir", str(page_server.data_dir)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_a_banned_player_is_told_until_when_and_why_in_local_time(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    page = browser.new_context(viewport=DESKTOP, timezone_id="Asia/Ho_Chi_Minh").new_page()
    page.goto(page_server.url + "/")
    page.get_by_test_id("guest").click()
    expect(page.get_by_test_id("play-now")).to_be_visible()
    nickname = page.get_by_test_id("nickname").inner_text().replace("\xa0", " ").split(" (")[0]
    _ban(page_server, nickname)
    told = page.request.get(page_server.url + "/api/me").json()["error"]["sanction"]
    # The end as the person's clock reads it (Hà Nội: UTC+7), whatever the server's zone.
    local = datetime.fromisoformat(told["until"]) + timedelta(hours=7)
    page.reload()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text(
        f"Tài khoản này bị khóa đến {local:%H:%M} ngày {local:%d/%m/%Y}. "
        "Lý do: Chửi bậy, lời lẽ không văn hóa (spam)."
    )
    shots(page, "banned")
    page.get_by_test_id("lang").click()
    page.reload()
    expect(page.get_by_role("alert")).to_contain_text(
        f"This account is banned until {local.day} {local:%B %Y} at {local:%H:%M}. Reason: "
    )
    page.get_by_test_id("ban-leave").click()  # the page still works: the ban's view leads
    expect(page.get_by_test_id("guest")).to_be_visible()  # back to the welcome


def test_a_lifted_mute_takes_down_its_notice_and_the_chat_works_again(
    browser: Any, page_server: PageServer
) -> None:
    mod = browser.new_context()
    r = mod.request.post(
        page_server.url + "/api/register", data={"nickname": "Trọng Tài", "password": PASSWORD}
    )
    assert r.status == 201, r.text()
    _admin(page_server, "grant-role", "Trọng Tài", "moderator", "--reason", "trusted")
    page = guest(browser, page_server, DESKTOP)
    user = page.request.get(page_server.url + "/api/me").json()["id"]
    chat = page.get_by_test_id("lobby-chat")

    def say(text: str) -> None:
        chat.get_by_test_id("chat-input").fill(text)
        chat.get_by_role("button", name="Gửi").click()  # lines have buttons too

    # The mute is pushed to the sockets open when it is made: the lobby's must be open first.
    expect(page.get_by_test_id("lobby-live")).to_have_attribute("data-live", "true")
    mute = {"user_id": user, "duration": "2h", "reason": "spam"}
    assert mod.request.post(page_server.url + "/api/mod/mute", data=mute).status == 200
    expect(page.get_by_role("alert").first).to_contain_text("Bạn bị cấm trò chuyện đến")
    say("cho nói với")
    expect(page.get_by_role("alert")).to_have_count(2)  # the mute told, and the line refused
    lift = {"user_id": user, "reason": "nhầm người"}
    assert mod.request.post(page_server.url + "/api/mod/unmute", data=lift).status == 200
    expect(page.get_by_role("status")).to_contain_text(
        "Bạn đã được trò chuyện lại. Lý do: nhầm người."
    )
    expect(page.get_by_role("alert")).to_have_count(0, timeout=1_000)  # taken down at once
    say("cảm ơn")
    expect(chat.get_by_test_id("chat-lines")).to_contain_text("cảm ơn")
    assert errors_shown(page) == []
    mod.close()
