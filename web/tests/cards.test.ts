import { describe, expect, it } from "vitest";
import { byRank, key, label, notation, parseCard, parseCards, spoken, spokenAll, withSymbols } from "../src/lib/cards";

describe("cards", () => {
  it("reads the server's notation in the game's order", () => {
    const cards = parseCards("3s 10h Qd 2h");
    expect(cards.map((c) => c.id)).toEqual([0, 31, 38, 51]);
    expect(cards.map(label)).toEqual(["3♠", "10♥", "Q♦", "2♥"]);
  });
  it("reads symbols, T for ten and any case, and refuses nonsense", () => {
    expect(parseCard("th")?.code).toBe("10h");
    expect(parseCard("2♠")?.code).toBe("2s");
    expect(parseCard("1s")).toBeNull();
    expect(parseCard("10x")).toBeNull();
    expect(parseCards("")).toEqual([]);
  });
  it("sorts by rank then suit and writes plays lowest first", () => {
    const cards = parseCards("2s 3h 3s Ac");
    expect(byRank(cards).map((c) => c.code)).toEqual(["3s", "3h", "Ac", "2s"]);
    expect(notation(cards)).toBe("3s 3h Ac 2s");
  });
  it("keys a set of cards whatever its order", () => {
    expect(key(parseCards("4c 3s"))).toBe(key(parseCards("3s 4c")));
    expect(key(parseCards("4c 3s"))).not.toBe(key(parseCards("3s 4d")));
  });
  it("says a card's rank and suit in words for screen readers, in both languages", () => {
    const cards = parseCards("3s 10h Jc Qd Ks Ah 2d");
    expect(cards.map((c) => spoken(c, "vi"))).toEqual(["3 bích", "10 cơ", "bồi chuồn", "đầm rô", "già bích", "át cơ", "heo rô"]);
    expect(cards.map((c) => spoken(c, "en"))).toEqual([
      "3 of spades", "10 of hearts", "Jack of clubs", "Queen of diamonds", "King of spades", "Ace of hearts", "2 of diamonds",
    ]);
    expect(spokenAll(parseCards("9s 9c"), "vi")).toBe("9 bích, 9 chuồn");
  });
  it("writes cards in sentences with suit symbols", () => {
    expect(withSymbols("chặt heo đỏ (2h): 10 lá, thối 10s 10c")).toBe("chặt heo đỏ (2♥): 10 lá, thối 10♠ 10♣");
  });
});
