import { beforeAll, describe, expect, it } from "vitest";
import type { RoomInfo } from "../src/generated/rest";

// The page's session reads the window at import: enough of one for a server-side render.
const globals = globalThis as unknown as Record<string, unknown>;
globals.location ??= { protocol: "http:", host: "127.0.0.1:8000", hash: "" };
globals.window ??= { localStorage: null, addEventListener: () => {} };
globals.document ??= { documentElement: { lang: "" }, addEventListener: () => {} };

let html: (props: Record<string, unknown>) => string;
beforeAll(async () => {
  const { render } = await import("svelte/server");
  const RoomRow = (await import("../src/components/RoomRow.svelte")).default;
  const { session } = await import("../src/lib/session.svelte");
  session.lang = "en";
  html = (props) => render(RoomRow, { props: props as never }).body.replace(/<!--[^>]*-->/g, "");
});

const room = (over: Partial<RoomInfo> = {}): RoomInfo => ({
  key: "tycoon",
  name_vi: "Đại gia",
  name_en: "Tycoon",
  min_bet: 10_000,
  max_bet: 100_000,
  fee_bp: 300,
  min_balance: 190_000,
  min_chips: 200_000,
  min_vip_points: 0,
  may_enter: true,
  lacks: null,
  held: null,
  why_not: null,
  ...over,
});

describe("one room's row (the lobby's and the profile's)", () => {
  it("names the room, its bets and that it is open, with the test id given", () => {
    const out = html({ room: room(), testid: "room-tycoon" });
    expect(out).toContain('data-testid="room-tycoon"');
    expect(out).toContain('data-open="true"');
    expect(out).toContain("Tycoon");
    expect(out).toMatch(/Bets 10.000–100.000/); // the thousands apart by chips()' space
    expect(out).toContain('class="ok');
    expect(out).not.toContain("Fee");
    expect(out).not.toContain("Needs");
  });
  it("the lobby's adds the fee, the profile's what the room needs", () => {
    expect(html({ room: room(), testid: "room-tycoon", fee: true })).toContain("Fee 3%");
    const needs = html({ room: room({ min_vip_points: 100 }), testid: "profile-room-tycoon", needs: true });
    expect(needs).toMatch(/Needs 200.000 chips · Needs 100 VIP points/);
  });
  it("a closed room: marked closed, with a lock and why", () => {
    const out = html({ room: room({ may_enter: false, lacks: "chips", held: 87_000 }), testid: "profile-room-tycoon" });
    expect(out).toContain('data-open="false"');
    expect(out).toMatch(/class="[^"]*closed/);
    expect(out).toContain('class="lock');
    expect(out).toMatch(/Needs 200.000 chips \(you hold 87.000\)/);
    expect(out).not.toContain('class="ok');
  });
});
