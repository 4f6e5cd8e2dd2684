"""A finished game's deal verified by the page itself (Web Crypto), and a downloaded record,
tampered three ways, refused through the history page's file input with each failure named."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import PageServer
from .test_browser import DESKTOP, errors_shown, guest, play_until_settled

HEX64 = re.compile(r"^[0-9a-f]{64}$")


def _load(page: Page, record: dict[str, Any], name: str) -> Any:
    """Choose ``record`` as a file in the history page's file input; its result box."""
    data = json.dumps(record).encode()
    page.get_by_test_id("verify-file").set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": data}]
    )
    return page.get_by_test_id("verify-file-result")


def _codes(box: Any) -> list[str]:
    return [m.get_attribute("data-code") or "" for m in box.get_by_test_id("mismatch").all()]


def test_a_finished_game_is_verified_in_the_page_and_tampering_is_named(
    browser: Any, page_server: PageServer, shots: Any
) -> None:
    page = guest(browser, page_server, DESKTOP)
    page.get_by_test_id("play-now").click()
    expect(page.get_by_test_id("felt")).to_have_attribute("data-game", "1", timeout=30_000)
    play_until_settled([page], 1, deadline_s=240)

    page.get_by_test_id("history-link").click()
    row = page.get_by_test_id("history-row").first
    with page.expect_download() as download:
        row.get_by_test_id("download").click()
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    row.get_by_test_id("replay").click()

    # The replay page verifies the game's deal itself and shows what it checked.
    box = page.get_by_test_id("verify")
    expect(box).to_have_attribute("data-state", "verified", timeout=10_000)
    expect(box.get_by_test_id("verify-result")).to_contain_text("Đã kiểm tra")
    commitment = box.get_by_test_id("verify-commitment").inner_text()
    seed = box.get_by_test_id("verify-server-seed").inner_text()
    assert HEX64.match(commitment) and HEX64.match(seed)
    assert (commitment, seed) == (record["deal"]["commitment"], record["deal"]["server_seed"])
    expect(box.get_by_test_id("verify-client-seeds").locator("li")).to_have_count(
        len(record["deal"].get("client_seeds", []))
    )
    shots(page, "verified")

    # The downloaded record, as it is and tampered, through the history page's file input.
    page.locator('a[href="#/history"]').first.click()
    result = _load(page, record, "game.json")
    expect(result).to_have_attribute("data-state", "verified")

    seed_changed = json.loads(json.dumps(record))
    flipped = "0" if seed[-1] != "0" else "1"
    seed_changed["deal"]["server_seed"] = seed[:-1] + flipped
    result = _load(page, seed_changed, "seed.json")
    expect(result).to_have_attribute("data-state", "failed")
    codes = _codes(result)
    assert codes[0] == "commitment_mismatch" and "hand_mismatch" in codes[1:]
    expect(result.get_by_test_id("mismatch").first).to_contain_text("Cam kết sai")

    card_changed = json.loads(json.dumps(record))
    hand0, hand1 = (card_changed["hands"][s].split() for s in (0, 1))
    hand0[0], hand1[0] = hand1[0], hand0[0]  # a card moved from seat 0 to seat 1 and back
    card_changed["hands"][0], card_changed["hands"][1] = " ".join(hand0), " ".join(hand1)
    result = _load(page, card_changed, "card.json")
    expect(result).to_have_attribute("data-state", "failed")
    assert _codes(result) == ["hand_mismatch", "hand_mismatch"]
    first = result.get_by_test_id("mismatch").first
    expect(first).to_contain_text("Bài của Ghế 1")
    expect(first).to_contain_text(f"seat 0: the seeds deal {record['hands'][0].split()[0]}")
    shots(page, "tampered-card")

    commitment_changed = json.loads(json.dumps(record))
    last = "0" if commitment[-1] != "0" else "1"
    commitment_changed["deal"]["commitment"] = commitment[:-1] + last
    result = _load(page, commitment_changed, "commitment.json")
    expect(result).to_have_attribute("data-state", "failed")
    assert _codes(result) == ["commitment_mismatch"]
    expect(result.get_by_test_id("mismatch")).to_contain_text(
        f"not the commitment {commitment[:-1]}"
    )

    page.get_by_test_id("verify-file").set_input_files(
        files=[{"name": "x.json", "mimeType": "application/json", "buffer": b"{not json"}]
    )
    expect(page.get_by_test_id("verify-file-result")).to_have_attribute("data-state", "unreadable")
    assert errors_shown(page) == []
