import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCards } from "../src/lib/cards";
import { comboName, type Combination } from "../src/lib/combos";

/** What the engine writes for a play (src/tienlen/engine/codec.py, `combination_fields`). */
function play(kind: Combination["kind"], length: number): Combination {
  const combination =
    kind === "straight" ? `straight of ${length}` : kind === "pairs" ? `${length} consecutive pairs` : kind === "quad" ? "four of a kind" : kind;
  return { kind, length, combination };
}

/** The name of a play of these cards, typed as the engine would type it. */
function name(what: string, cards: string, lang: "vi" | "en"): string {
  const parsed = parseCards(cards);
  const kinds: Record<string, Combination["kind"]> = { single: "single", pair: "pair", triple: "triple", "four of a kind": "quad" };
  const straight = /^straight of (\d+)$/.exec(what);
  const pairs = /^(\d+) consecutive pairs$/.exec(what);
  const typed = straight ? play("straight", Number(straight[1])) : pairs ? play("pairs", Number(pairs[1])) : play(kinds[what], parsed.length);
  return comboName(typed, parsed, lang);
}

/** The kinds the engine types a play with: `KIND_KEYS` in src/tienlen/engine/combos.py. */
function engineKinds(): string[] {
  const source = readFileSync(new URL("../../src/tienlen/engine/combos.py", import.meta.url), "utf8");
  const table = /KIND_KEYS: Final = \{([^}]*)\}/.exec(source)![1];
  return [...table.matchAll(/: "([^"]+)"/g)].map((m) => m[1]);
}

describe("the play's name", () => {
  it("names every kind the engine types a play with, in both languages", () => {
    const kinds = engineKinds();
    expect(kinds.sort()).toEqual(["pair", "pairs", "quad", "single", "straight", "triple"]);
    const cards: Record<string, string> = { single: "7h", pair: "7s 7h", triple: "7s 7c 7h", quad: "7s 7c 7d 7h", straight: "4s 5c 6d", pairs: "5s 5h 6s 6h 7s 7h" };
    for (const kind of kinds as Combination["kind"][]) {
      const typed = play(kind, kind === "pairs" ? 3 : parseCards(cards[kind]).length);
      for (const lang of ["vi", "en"] as const) expect(comboName(typed, parseCards(cards[kind]), lang), kind).not.toBe(typed.combination);
    }
  });

  it("names singles, and a 2 as heo", () => {
    expect(name("single", "7h", "vi")).toBe("Lẻ 7♥");
    expect(name("single", "7h", "en")).toBe("Single 7♥");
    expect(name("single", "2h", "vi")).toBe("Heo đỏ (2♥)");
    expect(name("single", "2s", "vi")).toBe("Heo đen (2♠)");
    expect(name("single", "2d", "en")).toBe("Red 2 (2♦)");
    expect(name("single", "2c", "en")).toBe("Black 2 (2♣)");
  });

  it("names pairs and triples", () => {
    expect(name("pair", "7s 7h", "vi")).toBe("Đôi 7");
    expect(name("pair", "7s 7h", "en")).toBe("Pair of 7s");
    expect(name("pair", "Qs Qd", "en")).toBe("Pair of queens");
    expect(name("pair", "2s 2h", "vi")).toBe("Đôi heo");
    expect(name("pair", "2s 2h", "en")).toBe("Pair of 2s");
    expect(name("triple", "10s 10c 10h", "vi")).toBe("Sám cô 10");
    expect(name("triple", "10s 10c 10h", "en")).toBe("Three 10s");
    expect(name("triple", "2s 2c 2h", "vi")).toBe("Ba heo");
    expect(name("triple", "2s 2c 2h", "en")).toBe("Three 2s");
  });

  it("names straights from their lowest to their highest rank", () => {
    expect(name("straight of 5", "4s 5c 6d 7h 8s", "vi")).toBe("Sảnh 4–8");
    expect(name("straight of 5", "8s 4s 6d 5c 7h", "en")).toBe("Straight 4–8");
    expect(name("straight of 12", "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks Ah", "vi")).toBe("Sảnh 3–A");
  });

  it("names four of a kind and consecutive pairs (bombs)", () => {
    expect(name("four of a kind", "9s 9c 9d 9h", "vi")).toBe("Tứ quý 9");
    expect(name("four of a kind", "As Ac Ad Ah", "en")).toBe("Four aces");
    expect(name("3 consecutive pairs", "5s 5h 6s 6h 7s 7h", "vi")).toBe("Ba đôi thông 5–7");
    expect(name("3 consecutive pairs", "5s 5h 6s 6h 7s 7h", "en")).toBe("Three consecutive pairs 5–7");
    expect(name("4 consecutive pairs", "5s 5h 6s 6h 7s 7h 8c 8d", "vi")).toBe("Bốn đôi thông 5–8");
    expect(name("5 consecutive pairs", "3s 3h 4s 4h 5s 5h 6s 6h 7s 7h", "vi")).toBe("Năm đôi thông 3–7");
    expect(name("6 consecutive pairs", "3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8s 8h", "en")).toBe("Six consecutive pairs 3–8");
  });

  it("shows a kind it does not know (a newer server) in the server's words", () => {
    const newer = { kind: "dragon", length: 12, combination: "dragon" } as unknown as Combination;
    expect(comboName(newer, parseCards("3s"), "vi")).toBe("dragon");
    expect(comboName(play("pair", 2), [], "vi")).toBe("pair");
  });

  it("reads the kind and length, not the English words", () => {
    const typed = { kind: "pairs", length: 4, combination: "whatever the words" } as const;
    expect(comboName(typed, parseCards("5s 5h 6s 6h 7s 7h 8c 8d"), "vi")).toBe("Bốn đôi thông 5–8");
  });
});
