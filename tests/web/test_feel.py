"""The feel of the game on the page: the hand on a 390 px phone (every card a tap target of
40 px or more, nothing scrolling sideways), a tap selecting the smallest legal play holding the
card and cycling to larger ones, a drag selecting a range, the gap the grouped order leaves,
the hand dealt in and plays flying to the pile (and nothing moving under reduced motion), the
sounds made (counted through the page's AudioContext) and the mute switch remembered."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import PageServer
from .test_browser import DESKTOP, enabled, errors_shown, press, table_seq

PHONE = {"width": 390, "height": 844}

# Counts the oscillators and noise bursts the page's sounds make.
COUNT_SOUNDS = """
window.__sounds = 0;
const Real = window.AudioContext;
if (Real) {
  for (const name of ["createOscillator", "createBufferSource"]) {
    const made = Real.prototype[name];
    Real.prototype[name] = function (...args) { window.__sounds++; return made.apply(this, args); };
  }
}
// Each animation a card of the hand starts, counted as it starts (a busy machine may never
// paint a frame inside a 260 ms animation, so looking for one running would be a race).
window.__handAnimations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  if (this.classList && this.classList.contains("hand-card")) window.__handAnimations++;
  return animate.apply(this, args);
};
"""

NO_AUDIO = "delete window.AudioContext; delete window.webkitAudioContext;"

# For each card, the width of the strip where a tap lands on it (sampled across the card, a
# little below its top, where no selected card is lifted), each scrolled into view first (a
# panel that opens above the hand meanwhile must not push it off screen) and the page scrolled
# back after, where the gestures that follow expect it.
TAP_WIDTHS = """
() => {
  const [x0, y0] = [window.scrollX, window.scrollY];
  const widths = [...document.querySelectorAll('.hand-card')].map(card => {
    card.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const r = card.getBoundingClientRect();
    let hits = 0;
    for (let x = Math.floor(r.left); x < r.right; x++) {
      const at = document.elementFromPoint(x, r.top + 22);
      if (at && at.closest('.hand-card') === card) hits++;
    }
    return hits;
  });
  window.scrollTo(x0, y0);
  return widths;
}
"""

TOPS = "() => [...document.querySelectorAll('.hand-card')].map(c => parseFloat(c.style.top))"

# Within each row of the hand, the distances between neighbouring cards.
ROW_STEPS = """
() => {
  const rows = new Map();
  for (const c of document.querySelectorAll('.hand-card')) {
    const r = c.getBoundingClientRect();
    const top = Math.round(parseFloat(c.style.top));
    rows.set(top, [...(rows.get(top) ?? []), r.left]);
  }
  return [...rows.values()].map(xs => xs.slice(1).map((x, i) => Math.round(x - xs[i])));
}
"""


def play_now(browser: Any, server: PageServer, **context: Any) -> Page:
    script = context.pop("script", None)
    ctx = browser.new_context(**context)
    if script:
        ctx.add_init_script(script)
    page: Page = ctx.new_page()
    page.goto(server.url + "/")
    page.get_by_test_id("guest").click()
    page.get_by_test_id("play-now").click()
    return page


def selected(page: Page) -> Locator:
    return page.locator(".hand-card[aria-selected=true]")


def my_turn(page: Page, deadline: float) -> None:
    """Wait for this player's move, through the end of a game into the next (a chop offer is
    declined on the way; a seat marked away while the test looked at the hand comes back, as
    its player would)."""
    while time.monotonic() < deadline:
        if page.get_by_test_id("chop-prompt").is_visible():
            press(page.get_by_test_id("chop-prompt").get_by_role("button"))
        if page.get_by_test_id("im-back").is_visible():
            press(page.get_by_test_id("im-back"))
        if enabled(page, "hint"):
            return
        time.sleep(0.1)
    raise AssertionError("the player's turn never came")


def tap_a_legal_play(page: Page) -> list[str] | None:
    """Tap cards, highest first, until one brings a legal play: that play's cards (having
    checked that tapping the same card goes on to another selection and comes round again),
    or None when no tapped card is in a legal play (the player must pass)."""
    cards = page.locator(".hand-card")
    play = page.get_by_test_id("play")
    for i in reversed(range(cards.count())):
        card = cards.nth(i)
        card.click(position={"x": 8, "y": 24}, timeout=3_000)  # its uncovered strip
        if not enabled(page, "play"):
            if selected(page).count():
                page.get_by_role("button", name="Bỏ chọn").click(timeout=3_000)
            continue
        code = card.get_attribute("data-card")
        first = sorted(c.get_attribute("data-card") or "" for c in selected(page).all())
        assert code in first
        seen = [first]
        for _ in range(12):  # the cycle: larger plays, the card alone, none, then round again
            card.click(position={"x": 8, "y": 24}, timeout=3_000)
            now = sorted(c.get_attribute("data-card") or "" for c in selected(page).all())
            if now == first:
                break
            assert now not in seen, f"the tap cycle repeated {now} before coming round"
            seen.append(now)
        assert seen[-1] == [], "the cycle ends with nothing selected"
        assert len(seen) >= 2
        expect(play).to_be_enabled()
        return first
    return None


def test_the_hand_on_a_phone_taps_drags_groups_animates_and_sounds(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    page = play_now(browser, page_server, viewport=PHONE, has_touch=True, script=COUNT_SOUNDS)
    # The deal animates the hand in: animations run while the 13 cards arrive.
    try:
        page.wait_for_function(
            "document.querySelectorAll('.hand-card').length === 13", timeout=60_000
        )
    except Exception:
        shots(page, "never-dealt-phone")
        raise
    expect(page.locator(".hand-card")).to_have_count(13)
    assert page.evaluate("window.__handAnimations") >= 13, "the deal did not animate the hand in"
    shots(page, "dealing-phone")
    page.wait_for_function("document.getAnimations().length === 0")
    shots(page, "dealt-phone")

    # Every card keeps a tap target of 40 px or more; nothing is wider than the screen.
    widths = page.evaluate(TAP_WIDTHS)  # (13, unless the timer already played for the player)
    assert len(widths) >= 12 and min(widths) >= 40, widths
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for box in (c.bounding_box() for c in page.locator(".hand-card").all()):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]

    # A drag across three cards of a row selects the three.
    cards = page.locator(".hand-card")
    for _ in range(3):  # again if the turn timer acted meanwhile (the hand re-laid out)
        held = cards.count()
        first = [cards.nth(i).get_attribute("data-card") for i in range(3)]
        a, c = cards.nth(0).bounding_box(), cards.nth(2).bounding_box()
        assert a is not None and c is not None and a["y"] == c["y"]
        page.mouse.move(a["x"] + 8, a["y"] + 24)
        page.mouse.down()
        page.mouse.move(a["x"] + 40, a["y"] + 26, steps=4)
        page.mouse.move(c["x"] + 8, c["y"] + 24, steps=6)
        page.mouse.up()
        page.wait_for_timeout(100)
        codes = [x.get_attribute("data-card") for x in selected(page).all()]
        if cards.count() == held and codes == first:
            break
        if selected(page).count():
            page.get_by_role("button", name="Bỏ chọn").click()
    expect(selected(page)).to_have_count(3)
    assert [x.get_attribute("data-card") for x in selected(page).all()] == first
    shots(page, "dragged-phone")
    page.get_by_role("button", name="Bỏ chọn").click()
    expect(selected(page)).to_have_count(0)
    # And with a finger, backwards along the second row (touch events, as a phone sends them).
    touch = page.context.new_cdp_session(page)
    for _ in range(3):  # again if the turn timer acted meanwhile (the hand re-laid out)
        held = cards.count()
        last = [cards.nth(i).get_attribute("data-card") for i in range(held - 3, held)]
        b, d = cards.nth(held - 1).bounding_box(), cards.nth(held - 3).bounding_box()
        assert b is not None and d is not None and b["y"] == d["y"] != a["y"]
        path = [(b["x"] + 20 - k * (b["x"] - d["x"]) / 6, b["y"] + 30) for k in range(7)]
        for kind, (x, y) in [("touchStart", path[0])] + [("touchMove", p) for p in path[1:]]:
            touch.send(
                "Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]}
            )
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        page.wait_for_timeout(100)
        codes = [x.get_attribute("data-card") for x in selected(page).all()]
        if cards.count() == held and codes == last:
            break  # (a turn the timer played or passed meanwhile may re-lay the hand: again)
        if selected(page).count():
            page.get_by_role("button", name="Bỏ chọn").click()
    expect(selected(page)).to_have_count(3)
    assert [x.get_attribute("data-card") for x in selected(page).all()] == last
    page.get_by_role("button", name="Bỏ chọn").click()
    # A press let go outside the hand ends there: passing over cards afterwards selects nothing.
    page.mouse.move(a["x"] + 8, a["y"] + 24)
    page.mouse.down()
    page.mouse.move(a["x"] + 8, a["y"] - 120, steps=4)
    page.mouse.up()
    page.mouse.move(c["x"] + 8, c["y"] + 24, steps=6)
    page.wait_for_timeout(100)
    expect(selected(page)).to_have_count(0)

    # The grouped order leaves a gap between groups: some neighbours stand further apart.
    plain = [s for row in page.evaluate(ROW_STEPS) for s in row]
    assert max(plain) - min(plain) <= 1, plain
    page.get_by_test_id("sort").click()
    grouped = [s for row in page.evaluate(ROW_STEPS) for s in row]
    assert max(grouped) - min(grouped) >= 8, grouped
    page.wait_for_function("document.getAnimations().length === 0")
    assert min(page.evaluate(TAP_WIDTHS)) >= 40
    shots(page, "grouped-phone")

    # A tap selects a legal play (cycling on the same card); Play sends it to the pile.
    assert page.evaluate("window.__sounds") >= 1  # the deal was heard (the gestures came first)
    # The sounds are the page's own files, fetched from its server; nothing from elsewhere.
    fetched = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    wav = sorted(re.sub(r"-[\w-]+\.wav$", ".wav", u) for u in fetched if u.endswith(".wav"))
    names = ("chop", "deal", "play", "tick", "turn")
    assert wav == [f"{page_server.url}/assets/{n}.wav" for n in names], fetched
    assert all(u.startswith(page_server.url + "/") for u in fetched), fetched
    deadline = time.monotonic() + 120
    while True:
        my_turn(page, deadline)
        held, seq = cards.count(), table_seq(page)
        try:
            chosen = tap_a_legal_play(page)
            if chosen is None:
                page.get_by_test_id("pass").click(timeout=3_000)
                page.wait_for_function(
                    "seq => document.querySelector('[data-testid=felt]')?.dataset.seq !== seq",
                    arg=seq,
                )
                continue
            sounds_before = page.evaluate("window.__sounds")
            page.get_by_test_id("play").click(timeout=3_000)
        except (AssertionError, PlaywrightTimeoutError):
            if table_seq(page) == seq:
                raise
            continue  # the timer played the turn (or the game ended) under the taps: again
        expect(cards).to_have_count(held - len(chosen))
        page.wait_for_function(
            """codes => {
              const pile = [...document.querySelectorAll('.pile-card')];
              const shown = pile.map(p => p.querySelector('[data-card]').dataset.card).sort();
              return JSON.stringify(shown) === JSON.stringify(codes)
                && pile.some(p => p.getAnimations().length > 0);
            }""",
            arg=sorted(chosen),
            timeout=3_000,
        )
        shots(page, "played-phone-mid-flight")
        assert page.evaluate("window.__sounds") > sounds_before  # the play was heard
        break

    # The mute switch: silent from then on, and remembered after a reload.
    mute = page.get_by_test_id("mute")
    expect(mute).to_have_attribute("aria-pressed", "true")
    expect(mute).to_have_accessible_name("Âm thanh")
    box = mute.bounding_box()
    assert box is not None and box["width"] >= 40 and box["height"] >= 40
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "false")
    page.wait_for_timeout(300)  # a sound begun just before the click
    muted_at = page.evaluate("window.__sounds")
    page.wait_for_function(
        "seq => document.querySelector('[data-testid=felt]').dataset.seq !== seq",
        arg=page.get_by_test_id("felt").get_attribute("data-seq"),
        timeout=30_000,
    )
    assert page.evaluate("window.__sounds") == muted_at
    page.reload()
    expect(page.get_by_test_id("mute")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('tienlen.muted')") == "1"
    assert errors_shown(page) == []
    page.context.close()


def test_nothing_moves_under_reduced_motion_and_no_audio_is_silent(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    page = play_now(
        browser, page_server, viewport=DESKTOP, reduced_motion="reduce", script=NO_AUDIO
    )
    cards = page.locator(".hand-card")
    expect(cards).to_have_count(13, timeout=30_000)
    running: list[int] = []
    for _ in range(10):  # through the time a deal would take
        running.append(page.evaluate("document.getAnimations().length"))
        page.wait_for_timeout(50)
    assert running == [0] * 10
    widths = page.evaluate(TAP_WIDTHS)
    tops = {round(top) for top in page.evaluate(TOPS)}
    assert min(widths) >= 40 and len(tops) == 1  # one row on a desktop
    shots(page, "dealt-desktop")
    # A play (tapped, without Web Audio in this browser) and the pile: still nothing moves.
    my_turn(page, time.monotonic() + 90)
    chosen = tap_a_legal_play(page)
    assert page.evaluate("document.getAnimations().length") == 0  # no lift transition either
    if chosen is not None:
        held = cards.count()
        page.get_by_test_id("play").click()
        expect(cards).to_have_count(held - len(chosen))
        expect(page.locator(".pile-card")).to_have_count(len(chosen))
        assert page.evaluate("document.getAnimations().length") == 0
    else:
        page.get_by_test_id("pass").click()
    shots(page, "played-desktop")
    # Motion allowed again (the page asks at each animation): the next play flies.
    page.emulate_media(reduced_motion="no-preference")
    page.wait_for_function(
        "[...document.querySelectorAll('.pile-card')].some(p => p.getAnimations().length > 0)",
        timeout=30_000,
    )
    shots(page, "play-in-flight-desktop")
    assert errors_shown(page) == []
    page.context.close()
