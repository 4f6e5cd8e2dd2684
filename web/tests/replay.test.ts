import { describe, expect, it } from "vitest";
import type { ReplayStep } from "../src/generated/rest";
import { t } from "../src/lib/i18n";
import { clampStep, decisionAt, describeStep, reviewShort, reviewWords, seatPlaces, signedChips, stepForKey } from "../src/lib/replay";
import { parseRoute, routeHash } from "../src/lib/route";

const step = (over: Partial<ReplayStep>): ReplayStep => ({
  kind: "play", seat: 1, cards: "3s 3h", place: null, seats: [], action: 0,
  hands: ["", "", ""], cards_left: [0, 0, 0], to_beat: null, turn: 2, ...over,
});
const names = (seat: number) => ["Lan", "Minh", "Hoa"][seat];
const words = (s: ReplayStep, lang: "vi" | "en") => {
  const d = describeStep(s, names);
  return t(lang, d.key, d.params);
};

describe("the replay viewer", () => {
  it("keeps the step within the game and moves by key", () => {
    expect([clampStep(-3, 10), clampStep(4.7, 10), clampStep(99, 10), clampStep(NaN, 10), clampStep(2, 0)]).toEqual([0, 4, 9, 0, 0]);
    expect(stepForKey("ArrowRight", 3, 10)).toBe(4);
    expect(stepForKey("ArrowLeft", 0, 10)).toBe(0);
    expect(stepForKey("ArrowRight", 9, 10)).toBe(9);
    expect(stepForKey("End", 3, 10)).toBe(9);
    expect(stepForKey("Home", 3, 10)).toBe(0);
    expect(stepForKey("PageDown", 3, 10)).toBe(9);
    expect(stepForKey("a", 3, 10)).toBeNull();
  });
  it("says each step in the player's words, cards with suit symbols", () => {
    expect(words(step({}), "en")).toBe("Minh plays 3♠ 3♥");
    expect(words(step({}), "vi")).toBe("Minh đánh 3♠ 3♥");
    expect(words(step({ kind: "pass", seat: 0, cards: null }), "en")).toBe("Lan passes");
    expect(words(step({ kind: "chop", seat: 2, cards: "3s 3h 4s 4h 5s 5h" }), "vi")).toContain("Hoa chặt");
    expect(words(step({ kind: "player_out", seat: 2, place: 1, cards: null }), "en")).toBe("Hoa is out, place 1");
    expect(words(step({ kind: "cong", seat: null, seats: [0, 2] }), "vi")).toBe("Cóng: Lan, Hoa");
    expect(words(step({ kind: "game_over", seat: 0 }), "en")).toContain("Lan");
    expect(words(step({ kind: "deal", seat: null, cards: null }), "vi")).toBe("Chia bài");
  });
  it("says which moves the timer made, and the player's own declined chops", () => {
    expect(words(step({ auto: true }), "vi")).toBe("Minh hết giờ, bàn tự đánh 3♠ 3♥");
    expect(words(step({ auto: true }), "en")).toBe("Minh's time ran out: 3♠ 3♥ played for them");
    expect(words(step({ kind: "pass", cards: null, auto: true }), "vi")).toBe("Minh hết giờ, bàn tự bỏ lượt");
    expect(words(step({ kind: "decline", cards: null }), "vi")).toBe("Minh không chặt");
    expect(words(step({ kind: "decline", cards: null }), "en")).toBe("Minh does not chop");
  });
  it("seats the player at the bottom and the others around, in play order", () => {
    expect(seatPlaces(4, 0)).toEqual(["bottom", "right", "top", "left"]);
    expect(seatPlaces(4, 2)).toEqual(["top", "left", "bottom", "right"]);
    expect(seatPlaces(3, 1)).toEqual(["left", "bottom", "right"]);
    expect(seatPlaces(2, 1)).toEqual(["top", "bottom"]);
    expect(seatPlaces(4, 9)).toEqual(["bottom", "right", "top", "left"]);
  });
  it("routes to the history and to a game's replay, ids with a colon included", () => {
    expect(parseRoute("#/history")).toEqual({ page: "history" });
    const route = { page: "replay" as const, game: "t3f9a1c2b7d4e:12" };
    expect(routeHash(route)).toBe("#/replay/t3f9a1c2b7d4e%3A12");
    expect(parseRoute(routeHash(route))).toEqual(route);
    expect(parseRoute("#/replay/%E0%A4%A")).toEqual({ page: "home" });
    expect(parseRoute("#/t/abc/inv")).toEqual({ page: "table", table: "abc", invite: "inv" });
  });
});

describe("the analysis beside the replay", () => {
  const review = { action: 4, kind: "turn" as const, played: "3s 3h", bot: "", same: false, chips_difference: 1250.4, samples: 16 };
  it("is shown at the player's own play or pass of that action only", () => {
    expect(decisionAt(step({ action: 4, seat: 1 }), 1, [review])).toBe(review);
    expect(decisionAt(step({ action: 4, seat: 1, kind: "pass" }), 1, [review])).toBe(review);
    expect(decisionAt(step({ action: 4, seat: 1, kind: "player_out" }), 1, [review])).toBeNull();
    expect(decisionAt(step({ action: 4, seat: 2 }), 1, [review])).toBeNull();
    expect(decisionAt(step({ action: 5, seat: 1 }), 1, [review])).toBeNull();
    expect(decisionAt(step({ action: 4, seat: 1, kind: "decline", cards: null }), 1, [review])).toBe(review);
  });
  it("says the review in the page's language, for a turn, a chop offer and the timer's move", () => {
    expect(reviewWords(review, "vi")).toBe("Máy sẽ bỏ lượt (ước tính +1\u202f250 chip cho máy so với bạn)");
    expect(reviewWords(review, "en")).toBe("The bot would pass (an estimated +1\u202f250 chips for the bot's choice over yours)");
    expect(reviewWords({ ...review, same: true, bot: "3s 3h", chips_difference: 0 }, "vi")).toBe("Máy cũng đánh như vậy");
    const chop = { ...review, kind: "chop" as const, played: "", bot: "3s 3c 4s 4c 5d 5h 6s 6c", chips_difference: null };
    expect(reviewWords(chop, "vi")).toBe("Máy sẽ chặt bằng 3♠ 3♣ 4♠ 4♣ 5♦ 5♥ 6♠ 6♣");
    expect(reviewWords(chop, "en")).toBe("The bot would chop with 3♠ 3♣ 4♠ 4♣ 5♦ 5♥ 6♠ 6♣");
    expect(reviewWords({ ...chop, played: chop.bot, bot: "", chips_difference: -40 }, "vi")).toBe("Máy sẽ không chặt (ước tính −40 chip cho máy so với bạn)");
    expect(reviewWords({ ...chop, same: true, bot: "" }, "en")).toBe("The bot would not chop either");
    expect(reviewWords({ ...chop, same: true }, "vi")).toBe("Máy cũng chặt như vậy");
    expect(reviewShort({ ...chop, played: chop.bot, bot: "", chips_difference: -40 }, "vi")).toBe("→ không chặt −40");
    const timer = { ...review, kind: "timer" as const, played: "3s", bot: "3s 4c 5d", chips_difference: 300 };
    expect(reviewWords(timer, "vi")).toBe("Hết giờ nên bàn đi thay bạn. Máy sẽ đánh 3♠ 4♣ 5♦ (ước tính +300 chip cho máy so với bạn)");
    expect(reviewShort(timer, "en")).toBe("→ 3♠ 4♣ 5♦ +300");
    expect(reviewShort({ ...timer, same: true }, "en")).toBe(""); // drawn: Icon.svelte
    expect(reviewShort(review, "en")).toBe("→ pass +1\u202f250");
  });
  it("writes the chips difference signed, in whole chips", () => {
    expect([signedChips(1250.4), signedChips(-3000), signedChips(0.2)]).toEqual(["+1\u202f250", "−3\u202f000", "±0"]);
  });
});
