"""The page end to end: people playing through Chromium against the real server, using only
what the page shows (no API calls from the test)."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import SHOTS, PageServer

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 800}


def guest(browser: Any, server: PageServer, viewport: dict[str, int]) -> Page:
    """A new person opens the page and plays as a guest: one click."""
    page: Page = browser.new_context(viewport=viewport).new_page()
    page.goto(server.url + "/")
    page.get_by_test_id("guest").click()
    expect(page.get_by_test_id("play-now")).to_be_visible()
    expect(page.get_by_test_id("balance")).to_contain_text("100")
    return page


def errors_shown(page: Page) -> list[str]:
    return [t.strip() for t in page.get_by_role("alert").all_inner_texts()]


def table_seq(page: Page) -> str | None:
    """The table's event number as the page shows it, or None once the page has left the
    table (read in one step, so a page that leaves meanwhile does not hang the test)."""
    seq: str | None = page.evaluate(
        "() => document.querySelector('[data-testid=felt]')?.dataset.seq ?? null"
    )
    return seq


def enabled(page: Page, test_id: str) -> bool:
    """Whether the page shows that button enabled, read in one step: a button the end of the
    game takes away meanwhile answers False at once (a locator's ``is_enabled`` would wait 30 s
    for it to come back)."""
    found: bool = page.evaluate(
        "id => { const b = document.querySelector(`[data-testid=${id}]`);"
        " return !!b && !b.disabled; }",
        test_id,
    )
    return found


def press(button: Locator) -> bool:
    """Click a button that was enabled a moment ago; False if the turn moved on meanwhile
    (the timer played it, the game ended) and it stayed disabled or went away."""
    try:
        button.click(timeout=3_000)
    except PlaywrightTimeoutError:
        return False
    return True


def wait_for_the_table(page: Page, seq: str | None) -> None:
    page.wait_for_function(
        "seq => document.querySelector('[data-testid=felt]')?.dataset.seq !== seq", arg=seq
    )


def act(page: Page) -> bool:
    """One move through the page, if it is this player's to make: decline a chop offer,
    else take the hint and play it, else pass. Waits until the table answers. The turn
    may move on under it (the timer, a slow machine): then it did nothing and says so."""
    seq = table_seq(page)
    if seq is None:
        return False
    if page.get_by_test_id("chop-prompt").is_visible():
        if not press(page.get_by_test_id("chop-prompt").get_by_role("button")):
            return False
        wait_for_the_table(page, seq)
        return True
    play, hint, pass_ = (page.get_by_test_id(n) for n in ("play", "hint", "pass"))
    if enabled(page, "hint"):
        if not press(hint):
            return False
        if enabled(page, "play"):
            moved = press(play)
        elif enabled(page, "pass"):
            moved = press(pass_)
        else:
            return False
    elif enabled(page, "pass"):
        moved = press(pass_)
    else:
        return False
    if not moved:
        return False
    wait_for_the_table(page, seq)
    return True


def play_until_settled(pages: list[Page], game: int, deadline_s: float = 120) -> None:
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        settled = all(
            p.get_by_test_id("settlement").is_visible()
            and f" {game}" in p.get_by_test_id("settlement").locator("h2").inner_text()
            for p in pages
        )
        if settled:
            return
        if not any(act(p) for p in pages):
            time.sleep(0.1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for i, p in enumerate(pages):  # what the page showed, for whoever reads the failure
        p.screenshot(path=str(SHOTS / f"unsettled-{game}-{i}.png"), full_page=True)
    raise AssertionError(f"game {game} was not settled within {deadline_s} s")


def test_two_guests_open_a_table_and_play_whole_games(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    owner = guest(browser, page_server, DESKTOP)
    shots(owner, "lobby")
    form = owner.get_by_test_id("create-form")
    form.locator("select[name=seats]").select_option("2")
    form.locator("select[name=turn]").select_option("20")
    owner.get_by_test_id("create").click()
    expect(owner).to_have_url(re.compile(r"#/t/t[0-9a-f]+$"))
    expect(owner.get_by_test_id("seat-0")).to_contain_text("bạn")

    phone = guest(browser, page_server, PHONE)
    table_id = owner.url.rsplit("/", 1)[-1]  # other tests' tables may be listed too
    phone.locator(f'[data-testid="table-row"][data-table="{table_id}"]').get_by_role(
        "button", name=re.compile("Vào|Join")
    ).click()
    expect(phone.get_by_test_id("felt")).to_have_attribute("data-game", "1", timeout=20_000)
    expect(owner.get_by_test_id("felt")).to_have_attribute("data-game", "1")
    shots(phone, "dealt-phone")
    shots(owner, "dealt-desktop")

    # The phone: 13 cards within 375 px, nothing wider than the screen, big enough buttons.
    cards = phone.locator(".hand-card")
    expect(cards).to_have_count(13)
    for box in (cards.nth(i).bounding_box() for i in range(13)):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    play_box = phone.get_by_test_id("play").bounding_box()
    assert play_box is not None and play_box["height"] >= 44

    # An illegal selection cannot be played: a drag across the whole hand (13 cards are no play).
    leader = owner if owner.get_by_test_id("hint").is_enabled() else phone
    hand = leader.locator(".hand-card")
    first, last = hand.first.bounding_box(), hand.last.bounding_box()
    assert first is not None and last is not None
    leader.mouse.move(first["x"] + 6, first["y"] + 30)  # its uncovered edge, as a person would
    leader.mouse.down()
    leader.mouse.move(last["x"] + last["width"] / 2, last["y"] + 30, steps=10)
    leader.mouse.up()
    expect(leader.locator(".hand-card[aria-selected=true]")).to_have_count(13)
    expect(leader.get_by_test_id("play")).to_be_disabled()
    expect(leader.get_by_test_id("illegal")).to_be_visible()
    shots(leader, "illegal-selection")
    leader.get_by_test_id("hint").click()
    expect(leader.get_by_test_id("play")).to_be_enabled()
    expect(leader.get_by_test_id("turn-timer")).to_be_visible()

    # Table chat.
    owner.get_by_test_id("chat-input").fill("xin chào")
    owner.get_by_test_id("chat-input").press("Enter")
    expect(phone.get_by_test_id("chat-lines")).to_contain_text("xin chào")

    for _ in range(3):
        act(owner) or act(phone)
    # A reload brings the player back to their seat, hand and timer.
    held = phone.locator(".hand-card").count()
    phone.reload()
    expect(phone.locator(".hand-card")).to_have_count(held)
    expect(phone.get_by_test_id("turn-timer")).to_be_visible()
    expect(phone.get_by_test_id("seat-1")).to_contain_text("bạn")

    play_until_settled([owner, phone], 1)
    shots(owner, "settled-desktop")
    shots(phone, "settled-phone")
    for page in (owner, phone):
        expect(page.get_by_test_id("settlement-line").first).to_be_visible()
        expect(page.get_by_test_id("settlement")).to_contain_text("trả")
    balances = [p.get_by_test_id("balance") for p in (owner, phone)]
    expect(balances[0]).not_to_have_text(re.compile(r"^100\u202f000 "), timeout=5000)
    expect(balances[1]).not_to_have_text(re.compile(r"^100\u202f000 "))
    expect(owner.get_by_test_id("dkn")).not_to_have_text(re.compile(r"^0 "))

    # The next game follows by itself, and is played to its settlement too.
    expect(owner.get_by_test_id("felt")).to_have_attribute("data-game", "2", timeout=20_000)
    play_until_settled([owner, phone], 2)
    assert errors_shown(owner) == [] and errors_shown(phone) == []


def test_server_errors_are_sentences(browser: Any, page_server: PageServer, shots: Any) -> None:
    page: Page = browser.new_context(viewport=PHONE).new_page()
    page.goto(page_server.url + "/")
    page.get_by_label("Tên chơi").fill("Không Ai")
    page.get_by_label("Mật khẩu").fill("sai mật khẩu")
    page.get_by_role("button", name="Đăng nhập").click()
    expect(page.get_by_role("alert")).to_have_text(re.compile("Sai tên chơi hoặc mật khẩu."))
    shots(page, "bad-credentials")
    page.get_by_test_id("guest").click()
    form = page.get_by_test_id("create-form")
    form.locator("input[name=bet]").fill("999999")
    page.get_by_test_id("create").click()
    expect(page.get_by_role("alert").last).to_have_text(
        re.compile("Mức cược nằm ngoài khoảng của phòng.")
    )
    # In English the server's own words are shown.
    page.get_by_test_id("lang").click()
    page.get_by_test_id("create").click()
    expect(page.get_by_role("alert").last).to_have_text(
        re.compile(r"Bets in Trainee are 1000 to 5000, not 999999\.")
    )
    shots(page, "bad-bet")


def test_the_language_switch_is_remembered(browser: Any, page_server: PageServer) -> None:
    page: Page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(page_server.url + "/")
    expect(page.get_by_test_id("guest")).to_have_text("Chơi ngay với tư cách khách")
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("guest")).to_have_text("Play now as a guest")
    page.reload()
    expect(page.get_by_test_id("guest")).to_have_text("Play now as a guest")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("guest")).to_have_text("Chơi ngay với tư cách khách")


def test_a_newcomer_plays_against_bots_in_two_clicks(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    page = guest(browser, page_server, PHONE)  # click 1
    page.get_by_test_id("play-now").click()  # click 2
    expect(page.get_by_test_id("felt")).to_have_attribute("data-game", "1", timeout=30_000)
    expect(page.get_by_test_id("seat-0")).to_contain_text("bạn")
    for seat in (1, 2, 3):
        expect(page.get_by_test_id(f"seat-{seat}")).to_contain_text("máy")
    shots(page, "dealt")
    play_until_settled([page], 1, deadline_s=240)
    shots(page, "settled")
    expect(page.get_by_test_id("settlement-line").first).to_be_visible()
    assert errors_shown(page) == []
