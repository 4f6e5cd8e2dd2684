import { describe, expect, it } from "vitest";
import { parseCards } from "../src/lib/cards";
import { focusAfterChange, groups, keepInHand, matchLegal, moveFocus, nextHint, ordered, toggle } from "../src/lib/hand";

const codes = (cs: { code: string }[]) => cs.map((c) => c.code).join(" ");

describe("grouping the hand (xếp bài)", () => {
  it("puts four of a kind, consecutive pairs, straights, triples and pairs together", () => {
    const hand = parseCards("3s 3c 4s 4c 5d 5h 7s 7c 7d 7h 9s 10d Jh Qs 2h");
    const g = groups(hand).map(codes);
    expect(g).toContain("7s 7c 7d 7h");
    expect(g).toContain("3s 3c 4s 4c 5d 5h");
    expect(g).toContain("9s 10d Jh Qs");
    expect(g).toContain("2h");
    expect(groups(hand).flat()).toHaveLength(hand.length);
  });
  it("never puts a 2 in a straight", () => {
    const g = groups(parseCards("Qs Kc Ad 2h")).map(codes);
    expect(g).not.toContain("Qs Kc Ad 2h");
    expect(g).toContain("Qs Kc Ad");
  });
  it("keeps every card exactly once in either order", () => {
    const hand = parseCards("3s 4s 5s 6s 6c 6d 8s 8h 9c 10c Jc Qc Kc");
    for (const order of ["rank", "groups"] as const) {
      expect(new Set(ordered(hand, order).map((c) => c.id)).size).toBe(13);
    }
    expect(codes(ordered(hand, "rank"))).toBe(codes(hand));
  });
});

describe("selection", () => {
  const legal = ["3s", "3s 3c", "3s 4d 5h"];
  it("matches a selection to a legal play only when it is exactly that play", () => {
    expect(matchLegal(parseCards("3c 3s"), legal)).toBe("3s 3c");
    expect(matchLegal(parseCards("3s 4d"), legal)).toBeNull();
    expect(matchLegal(parseCards("3s 3c 3d"), legal)).toBeNull();
    expect(matchLegal([], legal)).toBeNull();
    expect(matchLegal(parseCards("3s"), [])).toBeNull();
  });
  it("toggles cards and drops the ones no longer held", () => {
    let s = toggle(new Set(), 5);
    s = toggle(s, 9);
    s = toggle(s, 5);
    expect([...s]).toEqual([9]);
    expect([...keepInHand(new Set([0, 9]), parseCards("3s 4c"))]).toEqual([0]);
  });
  it("hints every legal play in turn, round and round", () => {
    let last = -1;
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const h = nextHint(legal, last)!;
      last = h.index;
      seen.push(codes(h.cards));
    }
    expect(seen).toEqual(["3s", "3s 3c", "3s 4d 5h", "3s"]);
    expect(nextHint([], -1)).toBeNull();
  });
  it("moves the keyboard focus left and right, wrapping", () => {
    const hand = parseCards("3s 4s 5s");
    expect(moveFocus(hand, null, 1)).toBe(0);
    expect(moveFocus(hand, null, -1)).toBe(8);
    expect(moveFocus(hand, 8, 1)).toBe(0);
    expect(moveFocus(hand, 0, -1)).toBe(8);
    expect(moveFocus([], null, 1)).toBeNull();
  });
});

describe("the keyboard focus after a play", () => {
  const before = parseCards("3s 4c 5d 6h 7s");
  const ids = (text: string) => parseCards(text);
  it("stays on a card still held", () => {
    expect(focusAfterChange(before, ids("3s 6h 7s"), before[3].id)).toBe(before[3].id);
  });
  it("moves to the next card held after the one played, else the one before", () => {
    expect(focusAfterChange(before, ids("3s 6h 7s"), before[1].id)).toBe(before[3].id);
    expect(focusAfterChange(before, ids("3s 4c"), before[4].id)).toBe(before[1].id);
  });
  it("goes nowhere when nothing had it or nothing is left", () => {
    expect(focusAfterChange(before, ids("3s"), null)).toBeNull();
    expect(focusAfterChange(before, [], before[0].id)).toBeNull();
    expect(focusAfterChange([], ids("8s 9s"), 99)).toBe(ids("8s")[0].id);
  });
});
