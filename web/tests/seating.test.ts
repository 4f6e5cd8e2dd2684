import { describe, expect, it } from "vitest";
import type { ServerMessage, SeatInfo, SeatView, TableInfo } from "../src/generated/protocol_server";
import type { RoomInfo } from "../src/generated/rest";
import { errorText } from "../src/lib/i18n";
import { apply, emptyTable, mySeat } from "../src/lib/table";
import {
  FIRST_GAME_KEY, firstGame, isAway, leavingCost, nextGameOf, playsNow, stoodUpText, waitingFor, waitingText,
  type StoodUp,
} from "../src/lib/seating";

function seat(n: number, user: string, name: string, more: Partial<SeatInfo> = {}): SeatInfo {
  return { seat: n, user, name, bot: null, connected: true, ready: true, playing: false, away: false, ...more };
}

function info(seats: (SeatInfo | null)[], more: Partial<TableInfo> = {}): TableInfo {
  return { table: "t1", owner: "1", bet: 1000, ruleset: "thapthanh", turn_seconds: 10, phase: "waiting", games: 0, seats, next_game: null, ...more };
}

function view(players: number, over: Partial<SeatView> = {}): SeatView {
  return {
    schema: 1, seq: 0, ruleset: "thapthanh", players, current: 0, over: false,
    cards_left: Array(players).fill(13), in_game: Array(players).fill(true), passed: Array(players).fill(false), to_beat: null,
    round: [], played: Array(players).fill(""), first_game: true, leader: 0, deal: null, actions: [], events: [],
    seat: 0, hand: "3s", my_turn: true, can_pass: false, chop_offer: false, legal: ["3s"], required: "3s", ...over,
  };
}

/** A table seen by user "1", from a `state` with the given table info. */
function seen(table: TableInfo, game: { game: number; seats: number[]; view: SeatView } | null = null) {
  const st = emptyTable();
  apply(st, { type: "welcome", protocol: 1, table: "t1", user: "1", resumed: false });
  apply(st, { type: "state", n: 3, table, chat: [], commitment: null, game: game && { ...game, timers: [] } });
  return st;
}

const rooms: RoomInfo[] = [
  { key: "trainee", name_vi: "Tập sự", name_en: "Trainee", min_bet: 1000, max_bet: 5000, fee_bp: 600, min_balance: 0, min_vip_points: 0, may_enter: false, lacks: "chips", held: 0 },
  { key: "tycoon", name_vi: "Đại gia", name_en: "Tycoon", min_bet: 5000, max_bet: 100000, fee_bp: 400, min_balance: 200000, min_vip_points: 0, may_enter: false, lacks: "chips", held: 0 },
] as RoomInfo[];

const stoodUp: StoodUp = { type: "stood_up", n: 4, seat: 0, reason: "no_chips", chips: 0, needs: 1000, top_up: { chips: 10000, at: "2026-12-04T00:00:00Z" } };

describe("sitting out", () => {
  it("reads `away` from a table message, for every seat", () => {
    const st = seen(info([seat(0, "1", "An"), seat(1, "2", "Bình")]));
    expect(isAway(st.table?.seats[0])).toBe(false);
    apply(st, { type: "table", n: 4, ...info([seat(0, "1", "An", { away: true, ready: false }), seat(1, "2", "Bình")]) });
    expect(st.lastN).toBe(4);
    expect(isAway(st.table?.seats[mySeat(st)!])).toBe(true);
    expect(isAway(st.table?.seats[1])).toBe(false);
    expect(isAway(null)).toBe(false);
  });
});

describe("when the next game starts", () => {
  it("counts down to `next_game` on the table's clock, corrected by the skew", () => {
    const st = seen(info([seat(0, "1", "An"), seat(1, "2", "Bình")], { next_game: { deadline: 1000, seconds: 5 } }));
    expect(nextGameOf(st.table)).toEqual({ deadline: 1000, seconds: 5 });
    // The page's clock is 2 s behind the table's: at page time 996.5 s the table is at 998.5 s.
    expect(waitingFor(st, 996_500, 2000)).toEqual({ kind: "countdown", seconds: 2 });
    expect(waitingText(waitingFor(st, 996_500, 2000), "vi")).toBe("Ván mới bắt đầu sau 2 giây");
    expect(waitingText(waitingFor(st, 995_000), "en")).toBe("The next game starts in 5 s");
    // Due, not yet dealt: never "0 seconds".
    expect(waitingText(waitingFor(st, 1_001_000), "vi")).toBe("Đang chia bài…");
  });

  it("says what the table waits for when no deal is due, never that one starts soon", () => {
    expect(waitingText(waitingFor(seen(info([seat(0, "1", "An"), null])), 0), "vi")).toBe("Đang chờ thêm một người chơi ngồi vào bàn");
    const st = seen(info([seat(0, "1", "An", { ready: false }), seat(1, "2", "Bình", { ready: false }), seat(2, "3", "Chi")]));
    expect(waitingFor(st, 0)).toEqual({ kind: "ready", names: ["", "Bình"] });
    expect(waitingText(waitingFor(st, 0), "vi")).toBe("Đang chờ sẵn sàng: bạn, Bình");
    expect(waitingText(waitingFor(st, 0), "en")).toBe("Waiting for players to be ready: you, Bình");
    apply(st, { type: "commitment", n: 4, game: 1, commitment: "ab".repeat(32), players: [0, 1, 2], deadline: 5, seconds: 1 } as ServerMessage);
    expect(waitingFor(st, 0)).toEqual({ kind: "dealing" });
  });
});

describe("leaving a game in progress", () => {
  it("knows whether the player plays in it", () => {
    const st = seen(info([seat(0, "1", "An", { playing: true }), seat(1, "2", "Bình", { playing: true }), null]), { game: 1, seats: [0, 1], view: view(2) });
    expect(playsNow(st, 0)).toBe(true);
    expect(playsNow(st, null)).toBe(false);
    expect(playsNow(st, 2)).toBe(false); // not dealt in
    st.game!.view = { ...st.game!.view, in_game: [false, true] };
    expect(playsNow(st, 0)).toBe(false); // out already
    st.game!.view = { ...st.game!.view, in_game: [true, true], over: true };
    expect(playsNow(st, 0)).toBe(false); // between games
  });

  it("says what it costs by seed 000's rules: two players, the leaver loses; more, they pay as a loser; 1 ĐKN", () => {
    expect(leavingCost(2, "vi")).toContain("bị tính thua ván này (người ở lại thắng)");
    expect(leavingCost(2, "en")).toContain("you lose this game (the other player wins)");
    for (const n of [3, 4]) {
      expect(leavingCost(n, "vi")).toContain("trả tiền theo số lá còn cầm");
      expect(leavingCost(n, "en")).toContain("pay for the cards you hold");
    }
    for (const n of [2, 3, 4]) {
      expect(leavingCost(n, "vi")).toContain("trừ 1 ĐKN");
      expect(leavingCost(n, "en")).toContain("1 ĐKN");
    }
    expect(leavingCost(2, "vi")).not.toBe(leavingCost(3, "vi"));
  });
});

describe("stood up for lack of chips", () => {
  it("is a numbered message the table's numbering follows", () => {
    const st = seen(info([seat(0, "1", "An"), seat(1, "2", "Bình")]));
    apply(st, stoodUp);
    expect(st.lastN).toBe(4);
    expect(st.gap).toBe(false);
  });

  it("says why, the top-up and when in the person's time zone, and a room open to them", () => {
    const before = Date.parse("2026-12-03T12:00:00Z");
    const vi = stoodUpText(stoodUp, rooms, "vi", 0, before, "Asia/Ho_Chi_Minh");
    expect(vi[0]).toMatch(/^Bạn được đưa về sảnh: bạn còn 0 chip, mà bàn đó cần ít nhất 1\D000 chip/);
    expect(vi[1]).toMatch(/^Quà mỗi ngày \+10\D000 chip: nhận được từ 07:00 ngày 04\/12\/2026/);
    expect(vi[2]).toBe("Hiện chưa có phòng nào bạn vào được.");
    const en = stoodUpText(stoodUp, rooms, "en", 0, before, "Europe/London");
    expect(en[1]).toMatch(/^Daily top-up \+10\D000 chips: yours from 4 December 2026 at 00:00/);
    // Due already: claimed by loading the profile.
    expect(stoodUpText(stoodUp, rooms, "en", 0, Date.parse("2026-12-04T01:00:00Z"))[1]).toContain("yours now");
    expect(stoodUpText({ ...stoodUp, top_up: null }, rooms, "vi")[1]).toBe("Hôm nay không còn quà mỗi ngày.");
    // The profile reloaded on the way to the lobby granted it: said as done.
    expect(stoodUpText(stoodUp, rooms, "vi", 10000)[1]).toMatch(/^Bạn vừa nhận quà mỗi ngày: \+10\D000 chip\.$/);
    expect(stoodUpText(stoodUp, rooms, "en", 10000)[1]).toMatch(/^You have just had the daily top-up: \+10\D000 chips\.$/);
    const open = rooms.map((r) => (r.key === "trainee" ? { ...r, may_enter: true } : r));
    expect(stoodUpText(stoodUp, open, "vi")[2]).toMatch(/^Bạn vẫn vào được phòng Tập sự \(cược từ 1\D000\)\.$/);
    expect(stoodUpText(stoodUp, open, "en")[2]).toMatch(/^You may still play in the Trainee room/);
  });
});

describe("the first game's help", () => {
  it("shows in the first game the page sees the player play, across a reload, and never after", () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(firstGame(storage, "t1", 1)).toBe(true);
    expect(store.get(FIRST_GAME_KEY)).toBe("t1/1");
    expect(firstGame(storage, "t1", 1)).toBe(true); // the same game, reloaded
    expect(firstGame(storage, "t1", 2)).toBe(false);
    expect(firstGame(storage, "t9", 1)).toBe(false);
    expect(firstGame(null, "t1", 1)).toBe(false);
  });
});

describe("play now refused for too few chips", () => {
  it("without a top-up coming, points to the lobby's tables (a seat needs one bet, a new table ten)", () => {
    expect(errorText("vi", "too_few_chips", "…", null)).toBe(
      "Bạn chưa đủ chip để mở bàn mới (cần 10 lần mức cược nhỏ nhất) và lúc này không có bàn nào còn ghế trống cạnh người chơi khác. Hãy vào một bàn trong sảnh, hoặc chờ quà mỗi ngày.",
    );
  });
  it("says when the daily top-up comes, in the person's time zone", () => {
    const at = "2026-12-03T17:00:00+00:00";
    expect(errorText("vi", "too_few_chips", "…", null, "Asia/Ho_Chi_Minh", at)).toBe(
      "Bạn không đủ chip để chơi, quà mỗi ngày sắp có. Hãy thử lại sau 00:00 ngày 04/12/2026.",
    );
    expect(errorText("en", "too_few_chips", "…", null, "Asia/Ho_Chi_Minh", at)).toBe(
      "You hold too few chips to play, and a daily top-up is coming: try again after 4 December 2026 at 00:00.",
    );
  });
});
