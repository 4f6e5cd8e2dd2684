"""Keyboard-only play: from the welcome page to a seated game, cards played and a turn passed,
with nothing but the keyboard (Tab to the controls; ← → space Enter P H in the hand), and every
control named for a screen reader. The test finds things by role and accessible name only."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Locator, Page, expect

from .conftest import PageServer
from .test_browser import DESKTOP, errors_shown

CARD = r"(?:[3-9]|10|bồi|đầm|già|át|heo) (?:bích|chuồn|rô|cơ)"
CARD_NAME = re.compile(rf"^{CARD}$")
# The kind, then the cards in words: "Đôi 5 (5 rô, 5 cơ)", "Heo đỏ (2♥) (heo cơ)".
TO_BEAT_NAME = re.compile(rf"^Bài cần chặn: .+ \({CARD}(?:, {CARD})*\)$")


def focused(target: Locator) -> bool:
    return bool(target.evaluate("e => e.contains(document.activeElement)"))


def tab_to(page: Page, target: Locator, most: int = 60) -> None:
    """Press Tab until the keyboard focus is on (or inside) the target, as a person would."""
    expect(target.first).to_be_visible()
    for _ in range(most):
        if focused(target.first):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {target}")


def unnamed_controls(page: Page) -> list[str]:
    """Buttons, options, inputs and timers in the accessibility tree without a name."""
    tree = page.locator("body").aria_snapshot()
    roles = r"button|option|textbox|combobox|checkbox|slider|timer|listbox|link|spinbutton"
    return [
        line.strip()
        for line in tree.splitlines()
        if re.match(rf"^\s*- (?:{roles})(?: \[[^\]]*\])*:?$", line)
    ]


def test_a_keyboard_alone_reaches_a_game_and_plays_it(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    page: Page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(page_server.url + "/")
    keys = page.keyboard
    tab_to(page, page.get_by_role("button", name="Chơi ngay với tư cách khách"))
    keys.press("Enter")
    # The lobby's form: a 20 s turn (typed to in the list), four seats, opened with Enter.
    turn = page.get_by_role("combobox", name="Thời gian mỗi lượt")
    tab_to(page, turn)
    keys.type("20")
    expect(turn).to_have_value("20")
    assert unnamed_controls(page) == []
    tab_to(page, page.get_by_role("button", name="Mở bàn", exact=True))
    keys.press("Enter")
    expect(page.get_by_role("group", name="Ghế 1: bạn")).to_be_visible()
    # The owner seats three bots, each button named for its seat; the full table starts.
    for seat in (2, 3, 4):
        tab_to(page, page.get_by_role("button", name=f"Thêm máy vào ghế {seat}"))
        keys.press("Enter")
        expect(page.get_by_role("group", name=re.compile(f"^Ghế {seat}: Bot"))).to_be_visible()
    hand = page.get_by_role("listbox", name="Bài của bạn")
    cards = hand.get_by_role("option")
    expect(cards).to_have_count(13, timeout=20_000)
    for card in cards.all():
        expect(card).to_have_accessible_name(CARD_NAME)
    expect(hand).to_have_accessible_description(re.compile("Enter đánh, P bỏ lượt, H gợi ý"))

    played = passed = False
    deadline = time.monotonic() + 150
    mine = page.get_by_role("status").filter(has_text="Đến lượt bạn")
    settlement = page.get_by_role("dialog")
    while not (played and passed):
        assert time.monotonic() < deadline, "the keyboard player did not both play and pass"
        expect(mine.or_(settlement).first).to_be_visible(timeout=60_000)
        if settlement.is_visible():  # a game ended before both were done: close it, go on
            tab_to(page, settlement.get_by_role("button", name="Đóng"))
            keys.press("Enter")
            expect(settlement).to_have_count(0)
            continue
        if not focused(hand):
            tab_to(page, hand)
        timer = page.get_by_role("group", name="Ghế 1: bạn").get_by_role("timer")
        expect(timer).to_have_accessible_name(re.compile(r"^Còn \d+ giây$"))
        before = cards.count()
        seq = page.get_by_test_id("felt").get_attribute("data-seq")
        pass_button = page.get_by_role("button", name="Bỏ lượt", exact=True)
        hint_button = page.get_by_role("button", name="Gợi ý")
        if pass_button.is_enabled() and (not passed or not hint_button.is_enabled()):
            to_beat = page.get_by_role("group", name=re.compile("^Bài cần chặn: "))
            if to_beat.count():  # named by its kind and its cards: "Đôi 5 (5 rô, 5 cơ)"
                expect(to_beat).to_have_accessible_name(TO_BEAT_NAME)
                shots(page, "to-beat")
            keys.press("p")
            passed = True
        else:
            # Move and select by hand, then let the hint choose and Enter play it.
            expect(hint_button).to_be_enabled()
            keys.press("ArrowRight")
            keys.press("ArrowRight")
            keys.press(" ")
            chosen = hand.get_by_role("option", selected=True)
            expect(chosen).to_have_count(1)
            assert focused(chosen)
            keys.press(" ")
            expect(chosen).to_have_count(0)
            keys.press("h")
            expect(chosen).not_to_have_count(0)
            picked = chosen.count()
            expect(page.get_by_role("button", name="Đánh", exact=True)).to_be_enabled()
            assert unnamed_controls(page) == []
            keys.press("Enter")
            expect(cards).to_have_count(before - picked)
            if cards.count():  # the focus stays in the hand, on a card still held
                expect(hand.locator(":focus")).to_have_count(1)
            played = True
        page.wait_for_function(
            "seq => document.querySelector('[data-testid=felt]')?.dataset.seq !== seq", arg=seq
        )
    shots(page, "played")
    assert errors_shown(page) == []
    page.context.close()
