import { describe, expect, it } from "vitest";
import { playerHash, winRate } from "../src/lib/profile";
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
