import { describe, expect, it } from "vitest";
import { chipChart, chipSeries, playerHash, roomProgress, winRate } from "../src/lib/profile";
import { parseRoute, routeHash } from "../src/lib/route";

describe("the profile page", () => {
  it("has its own address, and one for each other player (any nickname)", () => {
    expect(parseRoute("#/profile")).toEqual({ page: "profile" });
    expect(routeHash({ page: "profile" })).toBe("#/profile");
    for (const nickname of ["Đức Anh", "Khách 1234", "a/b?c#d", "bé_na"]) {
      const hash = playerHash(nickname);
      expect(hash.startsWith("#/u/")).toBe(true);
      expect(parseRoute(hash)).toEqual({ page: "player", nickname });
    }
    expect(playerHash("Đức Anh")).toBe("#/u/%C4%90%E1%BB%A9c%20Anh");
    expect(parseRoute("#/u/%E0%A4%A")).toEqual({ page: "home" });
    expect(parseRoute("#/u/")).toEqual({ page: "home" });
  });
  it("says the win rate as a whole percentage, and nothing before a first game", () => {
    expect(winRate(0, 0)).toBe("—");
    expect(winRate(1, 3)).toBe("33%");
    expect(winRate(2, 3)).toBe("67%");
    expect(winRate(5, 5)).toBe("100%");
  });
});

describe("the profile's chips chart", () => {
  const game = (id: string, balance: number | null, delta: number) => ({ id, balance, delta });
  it("puts the games oldest first, chips after each, and leaves out games without a balance", () => {
    const series = chipSeries([game("t:3", 1200, 200), game("t:2", null, 0), game("t:1", 1000, -500)]);
    expect(series).toEqual([
      { game: "t:1", chips: 1000, delta: -500 },
      { game: "t:3", chips: 1200, delta: 200 },
    ]);
    expect(chipSeries([])).toEqual([]);
  });
  it("draws more chips higher up, from the chips before the oldest game, within the padding", () => {
    // Oldest first: a (2000, +1000: started at 1000), b (1000), c (1500).
    const chart = chipChart(chipSeries([game("c", 1500, 500), game("b", 1000, -1000), game("a", 2000, 1000)]), 95, 50, 5);
    expect(chart.points).toBe("5,45 33.3,5 61.7,45 90,25");
    expect([chart.min, chart.max]).toEqual([1000, 2000]);
    expect(chart.dots.map((d) => [d.point.game, d.x, d.y])).toEqual([["a", 33.3, 5], ["b", 61.7, 45], ["c", 90, 25]]);
    // One game: a line from before it to after it; nothing moved: drawn across the middle.
    expect(chipChart(chipSeries([game("a", 700, -300)]), 100, 50, 5).points).toBe("5,5 95,45");
    expect(chipChart(chipSeries([game("a", 700, 0)]), 100, 50, 5).points).toBe("5,25 95,25");
    expect(chipChart([], 100, 50).points).toBe("");
  });
  it("says how far a closed room is, from what the server says is lacking", () => {
    const room = { key: "tycoon", name_en: "Tycoon", name_vi: "Đại gia", min_bet: 5000, max_bet: 100000, fee_bp: 400, min_balance: 200000, min_chips: 200000, min_vip_points: 0, why_not: "…" };
    expect(roomProgress({ ...room, may_enter: false, lacks: "chips", held: 50000 })).toEqual({ lacks: "chips", need: 200000, held: 50000, percent: 25 });
    expect(roomProgress({ ...room, min_vip_points: 100, may_enter: false, lacks: "vip_points", held: 12 })).toEqual({ lacks: "vip_points", need: 100, held: 12, percent: 12 });
    expect(roomProgress({ ...room, may_enter: true, lacks: null, held: null })).toBeNull();
    expect(roomProgress({ ...room, may_enter: null, lacks: null, held: null })).toBeNull();
  });
});
