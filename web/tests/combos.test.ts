import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCards } from "../src/lib/cards";
import { comboKind, comboName } from "../src/lib/combos";

const name = (combination: string, cards: string, lang: "vi" | "en") => comboName(combination, parseCards(cards), lang);

/** The `combination` values the engine writes: `describe()` in src/tienlen/engine/combos.py
 * (the fixed names of KIND_NAMES, and the two it writes with a length). */
function engineNames(): string[] {
  const source = readFileSync(new URL("../../src/tienlen/engine/combos.py", import.meta.url), "utf8");
  const table = /KIND_NAMES = \{([^}]*)\}/.exec(source)![1];
  const fixed = [...table.matchAll(/: "([^"]+)"/g)].map((m) => m[1]);
  expect(source).toContain('return f"straight of {length}"');
  expect(source).toContain('return f"{length} consecutive pairs"');
  // The two written with a length stand in KIND_NAMES too, but describe() never writes them bare.
  return fixed.filter((n) => n !== "straight" && n !== "consecutive pairs");
}

describe("the play's name", () => {
  it("knows every combination kind of the engine", () => {
    const fixed = engineNames();
    expect(fixed.sort()).toEqual(["four of a kind", "pair", "single", "triple"]);
    for (const n of [...fixed, "straight of 3", "straight of 12", "3 consecutive pairs", "6 consecutive pairs"]) {
      expect(comboKind(n), n).not.toBeNull();
    }
    expect(comboKind("straight")).toBeNull();
    expect(comboKind("nothing")).toBeNull();
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

  it("shows a kind it does not know as the server wrote it", () => {
    expect(name("dragon", "3s", "vi")).toBe("dragon");
    expect(name("pair", "", "vi")).toBe("pair");
  });
});
