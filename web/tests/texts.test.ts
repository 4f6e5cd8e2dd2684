import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERRORS_VI, errorText, storedLang, t, WORDS } from "../src/lib/i18n";
import { DEN_BAI_SEAT, lines, chips, type Settlement } from "../src/lib/settlement";
import { cheapestOpen, roomClosedReason } from "../src/lib/lobby";

const docs = new URL("../../docs/", import.meta.url);

/** The codes in the first column of a doc's table of errors: the rows after `header`, up to
 * the first line that is not a table row. */
function codesIn(file: string, header: string): string[] {
  const text = readFileSync(new URL(file, docs), "utf8");
  const rows = text.slice(text.indexOf(header)).split("\n").slice(2);
  const codes: string[] = [];
  for (const row of rows) {
    if (!row.startsWith("|")) break;
    const first = row.split("|")[1];
    for (const c of first.matchAll(/`([a-z_]+)`/g)) codes.push(c[1]);
  }
  return codes;
}

describe("words", () => {
  it("has every word in both languages", () => {
    expect(Object.keys(WORDS.en).sort()).toEqual(Object.keys(WORDS.vi).sort());
    expect(t("en", "cards_left", { n: 5 })).toBe("5 cards");
    expect(t("vi", "cards_left", { n: 5 })).toBe("5 lá");
  });
  it("has a Vietnamese sentence for every error code the server documents", () => {
    const table = codesIn("PROTOCOL.md", "| code | from | meaning |");
    const rest = codesIn("SERVER.md", "| code | status | when |");
    expect(table).toContain("does_not_beat");
    expect(table).toContain("rate_limited");
    expect(rest).toContain("nickname_taken");
    expect(rest).toContain("method_not_allowed");
    expect([...table, ...rest].filter((c) => ERRORS_VI[c] === undefined)).toEqual([]);
  });
  it("says errors as sentences: Vietnamese by code, English as the server wrote it", () => {
    expect(errorText("vi", "does_not_beat", "5♥ (single) does not beat 2♠ (single)")).toBe("Bộ này không chặn được bài trên bàn.");
    expect(errorText("en", "does_not_beat", "5♥ (single) does not beat 2♠ (single)")).toBe("5♥ (single) does not beat 2♠ (single).");
    expect(errorText("vi", "something_new", "a new reason")).toBe("a new reason");
  });
  it("says until when and why a player is muted or banned, in the page's language and clock", () => {
    const mute = {
      kind: "mute" as const, until: "2026-03-14T11:00:00+00:00", reason: "spam", offence: "flooding",
      offence_en: "Flooding the chat", offence_vi: "Spam kênh chat",
    };
    const server = "you are muted until 2026-03-14 11:00 UTC for Spam kênh chat: spam";
    expect(errorText("vi", "muted", server, mute, "Asia/Ho_Chi_Minh")).toBe(
      "Bạn bị cấm trò chuyện đến 18:00 ngày 14/03/2026. Lý do: Spam kênh chat (spam).",
    );
    expect(errorText("en", "muted", server, mute, "UTC")).toBe(
      "You are muted until 14 March 2026 at 11:00. Reason: Flooding the chat (spam).",
    );
    const ban = { ...mute, kind: "ban" as const, until: null, offence: null, offence_en: null, offence_vi: null, reason: "hack" };
    expect(errorText("vi", "banned", "you are banned permanently: hack", ban)).toBe("Tài khoản này bị khóa vĩnh viễn. Lý do: hack.");
    expect(errorText("en", "banned", "you are banned permanently: hack", ban)).toBe("This account is banned permanently. Reason: hack.");
    // Without the data (an older server), the sentence per code as before.
    expect(errorText("vi", "muted", server)).toBe(ERRORS_VI.muted);
    expect(errorText("vi", "muted", server, null)).toBe(ERRORS_VI.muted);
  });
  it("remembers English, and is Vietnamese otherwise", () => {
    expect(storedLang({ getItem: () => "en" })).toBe("en");
    expect(storedLang({ getItem: () => null })).toBe("vi");
    expect(storedLang(null)).toBe("vi");
  });
});

describe("settlement and lobby", () => {
  it("lists the lines in the page's language with suit symbols", () => {
    const s: Settlement = {
      bet: 1000, deltas: [-5000, 4700], fee: 300, fees: [0, 300], fee_bp: 600, void: false, den_bai: null,
      items: [{ payer: 0, payee: 1, amount: 5000, owed: 8000, reason: "thoi red 2 (2h)", reason_vi: "thối heo đỏ (2h)", kind: "thoi", facts: { what: "thoi", penalty: "red_two", cards: "2h", units: 8 } }],
    };
    const name = (seat: number) => ["Lan", "Minh", "Hùng"][seat];
    expect(lines(s, "vi", name)).toEqual([{ payer: 0, payee: 1, amount: 5000, short: true, reason: "thối heo đỏ (2♥)", units: 8 }]);
    expect(lines(s, "en", name)[0].reason).toBe("thoi red 2 (2♥)");
  });
  it("names the player paid for under đền bài, in either language", () => {
    // As money/words.py writes the line: seat 2's cóng, paid by seat 0 for them.
    const s: Settlement = {
      bet: 1000, deltas: [-2000, 2000, 0], fee: 0, fees: [0, 0, 0], fee_bp: 0, void: false, den_bai: 0,
      items: [{
        payer: 0, payee: 1, amount: 2000, owed: 2000, kind: "den_bai",
        reason: "đền bài for seat 2: cóng (no card played): 2", reason_vi: "đền bài thay ghế 2: cóng: 2 cược",
        facts: { what: "cong", units: 2, sweep: false, for_seat: 2 },
      }],
    };
    const name = (seat: number) => ["Lan", "Minh", "Hùng"][seat];
    expect(lines(s, "vi", name)[0].reason).toBe("đền bài thay Hùng: cóng: 2 cược");
    expect(lines(s, "en", name)[0].reason).toBe("đền bài for Hùng: cóng (no card played): 2");
    // The server's words begin so (a change there must change the page).
    const words = readFileSync(new URL("../src/tienlen/money/words.py", docs), "utf8");
    expect(words).toContain('f"đền bài thay ghế {item.for_seat}: {text}"');
    expect(words).toContain('f"đền bài for seat {item.for_seat}: {text}"');
    expect([DEN_BAI_SEAT.vi(2), DEN_BAI_SEAT.en(2)]).toEqual(["đền bài thay ghế 2: ", "đền bài for seat 2: "]);
    expect(chips(1234567)).toBe("1\u202f234\u202f567");
    expect(chips(-1000)).toBe("−1\u202f000");
  });
  it("finds the cheapest open room and says why a room is closed", () => {
    const room = (key: string, min_bet: number, may_enter: boolean) => ({
      key, name_en: key, name_vi: key, min_bet, max_bet: min_bet * 10, fee_bp: 600,
      min_balance: 200000, min_chips: 200000, min_vip_points: 100, may_enter, why_not: may_enter ? null : "Tycoon needs 200000 chips; you hold 100000",
      lacks: may_enter ? null : ("chips" as const), held: may_enter ? null : 100000,
    });
    expect(cheapestOpen([room("tycoon", 5000, true), room("trainee", 1000, true)])?.key).toBe("trainee");
    expect(cheapestOpen([room("vip", 1000, false)])).toBeNull();
    // The page's words and its grouping of numbers, never the server's English sentence.
    expect(roomClosedReason(room("tycoon", 5000, false), "en")).toBe("Needs 200\u202f000 chips (you hold 100\u202f000)");
    expect(roomClosedReason(room("tycoon", 5000, false), "vi")).toBe("Cần 200\u202f000 chip (bạn có 100\u202f000)");
    const vip = { ...room("vip", 200000, false), lacks: "vip_points" as const, held: 7 };
    expect(roomClosedReason(vip, "en")).toBe("Needs 100 VIP points (you have 7)");
    expect(roomClosedReason(vip, "vi")).toBe("Cần 100 điểm VIP (bạn có 7)");
    // No entry balance, but playing needs one smallest bet (min_chips): a player at 0 is told so.
    const broke = { ...room("trainee", 1000, false), min_balance: 0, min_chips: 1000, held: 0 };
    expect(roomClosedReason(broke, "vi")).toBe("Cần 1\u202f000 chip (bạn có 0)");
  });
});
