"""The lobby's live list and chat, the hand history and the replay viewer, through Chromium
against the real server, using only what the page shows."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import PageServer
from .test_browser import DESKTOP, PHONE, errors_shown, guest, play_until_settled


def _step(page: Page) -> int:
    return int(page.get_by_test_id("replay-view").get_attribute("data-step") or "-1")


def _hands(page: Page) -> list[int]:
    """The number of cards drawn face up in each seat's hand."""
    return [seat.locator("svg").count() for seat in page.get_by_test_id("rp-hand").all()]


def _around_the_table(page: Page) -> None:
    """The replay's seats sit around its table as at the live one: the player's own at the
    bottom, the one after it on the right, then the top, then the left; nothing scrolls
    sideways."""
    boxes = {}
    for seat in page.get_by_test_id("rp-seat").all():
        box = seat.bounding_box()
        assert box is not None
        boxes[seat.get_attribute("data-place")] = box
    assert set(boxes) == {"bottom", "right", "top", "left"}
    me = page.locator('[data-testid="rp-seat"].me')
    expect(me).to_have_attribute("data-place", "bottom")
    top, left, right, bottom = (boxes[p] for p in ("top", "left", "right", "bottom"))
    assert top["y"] + top["height"] <= min(left["y"], right["y"]) + 1
    assert max(left["y"] + left["height"], right["y"] + right["height"]) <= bottom["y"] + 1
    assert left["x"] + left["width"] <= right["x"] + 1  # left of the right-hand seat
    center = page.get_by_test_id("rp-to-beat").bounding_box()
    assert center is not None and top["y"] < center["y"] < bottom["y"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_lobby_is_live_and_a_finished_game_replays_step_by_step(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    watcher = guest(browser, page_server, DESKTOP)
    page = guest(browser, page_server, PHONE)
    for p in (watcher, page):
        expect(p.get_by_test_id("lobby-live")).to_have_attribute("data-live", "true")
    # Presets are named in the players' words, never by their keys.
    options = watcher.locator("select[name=preset] option").all_inner_texts()
    assert "Thập Thành" in options and "thapthanh" not in options
    # The lobby's chat reaches everyone watching the lobby.
    page.get_by_test_id("lobby-chat").get_by_test_id("chat-input").fill("ai chơi không?")
    page.get_by_test_id("lobby-chat").get_by_role("button", name="Gửi").click()
    expect(watcher.get_by_test_id("lobby-chat").get_by_test_id("chat-lines")).to_contain_text(
        "ai chơi không?"
    )
    page.get_by_test_id("play-now").click()
    expect(page.get_by_test_id("felt")).to_have_attribute("data-game", "1", timeout=30_000)
    # The watcher's list shows the new table without polling (the socket pushed it).
    row = watcher.locator(f'[data-testid="table-row"][data-table="{page.url.rsplit("/", 1)[-1]}"]')
    expect(row).to_be_visible(timeout=4_000)
    expect(row.get_by_test_id("preset-name")).to_have_text("Thập Thành")
    shots(watcher, "lobby")
    play_until_settled([page], 1, deadline_s=240)
    shots(page, "settlement")
    live = page.get_by_test_id("settlement").get_by_test_id("settlement-line").all_inner_texts()
    assert live

    page.get_by_test_id("history-link").click()
    rows = page.get_by_test_id("history-row")
    expect(rows).to_have_count(1)
    expect(rows.first.get_by_test_id("download")).to_have_attribute(
        "href",
        "/api/games/"
        + (rows.first.get_attribute("data-game") or "").replace(":", "%3A")
        + "/record",
    )
    shots(page, "history")
    rows.first.get_by_test_id("replay").click()

    view = page.get_by_test_id("replay-view")
    expect(page.get_by_test_id("step-text")).to_have_text("Chia bài")  # loaded, at the deal
    expect(view).to_have_attribute("data-step", "0")
    count = int(view.get_attribute("data-steps") or "0")
    if count > 3:  # not a tới trắng: the player made decisions, each reviewed by the search bot
        expect(page.get_by_test_id("review").first).to_be_visible(timeout=30_000)
        page.get_by_test_id("review").first.locator("xpath=..").get_by_role("button").click()
        expect(page.get_by_test_id("step-review")).to_be_visible()
        shots(page, "replay-analysis")
        page.keyboard.press("Home")
    # The deal, one step per event, the end: at least three (a tới trắng ends at the deal).
    assert count >= 3
    assert _hands(page) == [13, 13, 13, 13]  # the deal, every hand face up
    page.get_by_test_id("rp-next").click()
    expect(view).to_have_attribute("data-step", "1")
    instant = "tới trắng" in page.get_by_test_id("step-text").inner_text()
    if not instant:
        expect(page.get_by_test_id("step-text")).to_contain_text(" đánh ")
        assert sum(_hands(page)) < 52  # the first play left its hand
        # The play to beat is named in the players' words, not the engine's English.
        name = page.get_by_test_id("rp-to-beat-name").inner_text()
        assert re.match(r"^(Lẻ|Heo|Đôi|Sám cô|Ba heo|Sảnh|Tứ quý|\w+ đôi thông) ", name + " "), name
    page.keyboard.press("ArrowRight")
    expect(view).to_have_attribute("data-step", "2")
    page.keyboard.press("ArrowLeft")
    page.get_by_test_id("rp-prev").click()
    expect(view).to_have_attribute("data-step", "0")
    # Jump: from the step list, then to the end with the keyboard.
    jump = min(5, count - 1)
    page.get_by_test_id("rp-steps").locator(f"[data-step='{jump}']").click()
    expect(view).to_have_attribute("data-step", str(jump))
    page.keyboard.press("End")
    expect(view).to_have_attribute("data-step", str(count - 1))
    expect(page.get_by_test_id("step-text")).to_contain_text("Hết ván")
    # At the end every hand still held is face up, and the settlement is shown.
    left = [int(s.get_attribute("data-cards") or "0") for s in page.get_by_test_id("rp-seat").all()]
    assert _hands(page) == left and sum(left) > 0 and (instant or 0 in left)
    expect(page.get_by_test_id("rp-settlement")).to_be_visible()
    expect(page.get_by_test_id("rp-settlement")).to_contain_text("Tính tiền")
    # The same lines as the live table showed, numbered as there (1., 2., …; * for a short one).
    replayed = page.get_by_test_id("rp-settlement").get_by_test_id("settlement-line")
    expect(replayed).to_have_text(live)
    numbering = "el => [getComputedStyle(el).display, getComputedStyle(el).listStyleType]"
    assert replayed.first.evaluate(numbering) == ["list-item", "decimal"]
    shots(page, "replay-end")
    _around_the_table(page)  # on the phone
    page.set_viewport_size(DESKTOP)
    _around_the_table(page)
    shots(page, "replay-end-desktop")
    page.set_viewport_size(PHONE)
    page.keyboard.press("Home")
    expect(view).to_have_attribute("data-step", "0")
    page.get_by_test_id("rp-slider").fill(str(count // 2))
    expect(view).to_have_attribute("data-step", str(count // 2))
    shots(page, "replay-middle")
    page.set_viewport_size(DESKTOP)
    expect(page.get_by_test_id("rp-steps")).to_be_visible()
    shots(page, "replay-middle-desktop")
    assert errors_shown(page) == [] and errors_shown(watcher) == []


def test_the_owner_of_a_private_table_gets_its_invite_link(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    owner = guest(browser, page_server, DESKTOP)
    form = owner.get_by_test_id("create-form")
    form.locator("select[name=preset]").select_option("sanhrong")
    expect(form).to_contain_text("tứ quý không chặt được gì")  # what sets the preset apart
    form.locator("input[name=private]").check()
    owner.get_by_test_id("create").click()
    expect(owner).to_have_url(re.compile(r"#/t/t[0-9a-f]+/[A-Za-z0-9_-]+$"))
    expect(owner.get_by_test_id("table-invite").locator("input")).to_have_value(owner.url)
    link = owner.url
    shots(owner, "private-table")
    # The link opens the table for someone else, who sees no invite of their own.
    friend = guest(browser, page_server, PHONE)
    friend.goto(link)
    expect(friend.get_by_test_id("felt")).to_be_visible()
    expect(friend.get_by_test_id("table-invite")).to_have_count(0)
    # Back in the lobby, the owner's list shows the link with Copy; nobody else's does.
    owner.get_by_text("Về sảnh").click()
    expect(owner.get_by_test_id("invite-link")).to_have_value(link)
    assert errors_shown(owner) == [] and errors_shown(friend) == []
