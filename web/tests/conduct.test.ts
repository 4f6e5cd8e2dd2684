import { beforeAll, describe, expect, it, vi } from "vitest";
import type { ChatLine } from "../src/generated/protocol_server";
import type { OffenceInfo } from "../src/generated/rest";
import { ApiError } from "../src/lib/api";
import { closedForBan } from "../src/lib/socket";
import { chatShown, readMuted, withMuted, withoutMuted, writeMuted, MUTED_KEY } from "../src/lib/muted";
import { offenceTitle, reportBody, reportRefusal, userIdOf } from "../src/lib/report";
import { banCostText, reasonText, sanctionText } from "../src/lib/sanction";
import { chips } from "../src/lib/settlement";

const swearing: OffenceInfo = { key: "swearing", title_en: "Swearing or uncivil language in chat (lobby, public or table chat)", title_vi: "Chửi bậy, lời lẽ không văn hóa" };
const line = (id: number, user: string, name: string, text: string): ChatLine => ({ id, user, name, seat: null, text, at: id });

class MemoryStorage {
  items = new Map<string, string>();
  getItem = (k: string) => this.items.get(k) ?? null;
  setItem = (k: string, v: string) => void this.items.set(k, v);
}

describe("reporting a player", () => {
  it("gives the policy's reason in the reporter's language, with their words and the line", () => {
    expect(offenceTitle("vi", swearing)).toBe("Chửi bậy, lời lẽ không văn hóa");
    expect(offenceTitle("en", swearing)).toMatch(/^Swearing/);
    const fromChat = { userId: 7, name: "Minh", line: line(4711, "7", "Minh", "đ** m*"), from: "chat" as const };
    expect(reportBody(fromChat, swearing, "  chửi cả bàn ", "vi", "Lý do khác")).toEqual({
      user_id: 7, message_id: 4711, text: "chửi cả bàn",
      context: { offence: "swearing", reason: "Chửi bậy, lời lẽ không văn hóa", from: "chat" },
    });
    // No words: the reason's title is the text (the server needs one); by nickname from a profile.
    const fromProfile = { userId: null, name: "Đức Anh", from: "profile" as const };
    expect(reportBody(fromProfile, swearing, "", "en", "Something else")).toEqual({
      nickname: "Đức Anh", text: swearing.title_en,
      context: { offence: "swearing", reason: swearing.title_en, from: "profile" },
    });
    expect(reportBody(fromProfile, null, "", "vi", "Lý do khác").context).toEqual({ offence: "other", reason: "Lý do khác", from: "profile" });
    expect([userIdOf("42"), userIdOf("bot-1"), userIdOf("0"), userIdOf("99999999999")]).toEqual([42, null, null, null]);
  });
  it("says each refusal clearly in both languages", () => {
    const self = new ApiError("cannot_report_self", "you cannot report yourself");
    expect(reportRefusal("vi", self)).toBe("Bạn không thể tự báo cáo chính mình.");
    expect(reportRefusal("en", self)).toBe("You cannot report yourself.");
    const line = new ApiError("no_such_message", "user 7 said no chat line with id 4711");
    expect(reportRefusal("vi", line)).toMatch(/^Không tìm thấy dòng chat này/);
    const many = new ApiError("too_many_reports", "…", null, "2026-03-14T11:30:00+00:00");
    expect(reportRefusal("vi", many, "Asia/Ho_Chi_Minh")).toBe("Bạn đã gửi quá nhiều báo cáo trong một giờ qua. Hãy thử lại sau 18:30 ngày 14/03/2026.");
    expect(reportRefusal("en", many, "UTC")).toBe("You sent too many reports within the last hour: try again after 14 March 2026 at 11:30.");
    expect(reportRefusal("en", new ApiError("too_many_reports", "…"))).toMatch(/^You sent too many reports/);
    expect(reportRefusal("vi", new ApiError("not_logged_in", "log in"))).toBe("Bạn chưa đăng nhập (hoặc phiên đã hết hạn).");
  });
});

describe("hiding a player's chat for oneself", () => {
  it("hides their lines, counts them, shows them on demand, and is remembered", () => {
    const lines = [line(1, "7", "Minh", "chào"), line(2, "8", "Lan", "hi"), line(3, "7", "Minh", "đánh nhanh lên")];
    let muted = withMuted([], { user: "7", name: "Minh" });
    const shown = chatShown(lines, muted);
    expect(shown.hidden).toBe(2);
    expect(shown.lines.map((x) => x.line.id)).toEqual([2]);
    expect(chatShown(lines, muted, true).lines.map((x) => [x.line.id, x.muted])).toEqual([[1, true], [2, false], [3, true]]);
    const storage = new MemoryStorage();
    writeMuted(storage, muted);
    expect(readMuted(storage)).toEqual([{ user: "7", name: "Minh" }]);
    muted = withoutMuted(readMuted(storage), { user: "7", name: "Minh" });
    expect(chatShown(lines, muted).hidden).toBe(0);
    // From a profile (a nickname, no id): their lines are hidden too, and once only.
    muted = withMuted(withMuted([], { user: null, name: "Minh" }), { user: "7", name: "Minh" });
    expect(muted).toEqual([{ user: "7", name: "Minh" }]);
    expect(chatShown(lines, [{ user: null, name: "Minh" }]).hidden).toBe(2);
    storage.setItem(MUTED_KEY, "not json");
    expect(readMuted(storage)).toEqual([]);
    storage.setItem(MUTED_KEY, JSON.stringify([{ name: 3 }, { user: "9", name: "Hoa" }]));
    expect(readMuted(storage)).toEqual([{ user: "9", name: "Hoa" }]);
  });
});

describe("a ban seen by its player", () => {
  const ban = {
    kind: "ban" as const, until: "2026-03-15T09:11:00+00:00", offence: "swearing",
    offence_en: swearing.title_en, offence_vi: swearing.title_vi,
    reason: "automatic (chat filter): 3 lines masked for swearing within 10 minutes",
  };
  it("is said in Vietnamese with no English fragment, the automatic reasons too", () => {
    const text = sanctionText("vi", "banned", ban, "Asia/Ho_Chi_Minh");
    expect(text).toBe("Tài khoản này bị khóa đến 16:11 ngày 15/03/2026. Lý do: Chửi bậy, lời lẽ không văn hóa (tự động (bộ lọc chat): 3 dòng bị che vì chửi bậy trong 10 phút).");
    expect(reasonText("vi", "automatic (flood control): 10 chat lines refused as too fast within 10 minutes")).toBe(
      "tự động (chống spam): 10 dòng chat bị từ chối vì gửi quá nhanh trong 10 phút",
    );
    expect(reasonText("en", ban.reason)).toBe(ban.reason);
    expect(reasonText("vi", "spam quảng cáo")).toBe("spam quảng cáo"); // a moderator's own words
    expect(sanctionText("en", "banned", ban, "UTC")).toMatch(/^This account is banned until 15 March 2026 at 09:11\. Reason: Swearing/);
  });
  it("says what it cost: the game forfeited, the chips and ĐKN lost", () => {
    const before = { chips: 50_000, dkn: 4 };
    const after = { chips: 48_000, dkn: 3 };
    expect(banCostText("vi", true, before, after)).toBe(`Ván đang chơi bị xử thua như người bỏ bàn: −${chips(2000)} chip, −1 ĐKN. Bạn còn ${chips(48_000)} chip, 3 ĐKN.`);
    expect(banCostText("en", true, before, after)).toBe(`The game you were playing is forfeited, as by a player who left: −${chips(2000)} chips, −1 ĐKN. You have ${chips(48_000)} chips, 3 ĐKN.`);
    expect(banCostText("vi", true, before, null)).toBe("Ván đang chơi bị xử thua như người bỏ bàn.");
    expect(banCostText("vi", false, before, before)).toBe(`Bạn không đang chơi ván nào nên không mất gì. Bạn còn ${chips(50_000)} chip, 4 ĐKN.`);
    expect(banCostText("vi", false, before, null)).toBeNull();
    expect(banCostText("vi", false, null, after)).toBe(`Bạn còn ${chips(48_000)} chip, 3 ĐKN.`);
  });
  it("stops the sockets reconnecting when the server closed them for it", () => {
    expect(closedForBan({ code: 1008, reason: "banned until 2026-03-15 09:11 UTC" })).toBe(true);
    expect(closedForBan({ code: 1008, reason: "you are banned permanently for Hack game: x" })).toBe(true);
    expect(closedForBan({ code: 1006, reason: "" })).toBe(false);
    expect(closedForBan({ code: 1008, reason: "flooding" })).toBe(false);
  });
});

describe("stale notices", () => {
  type Session = typeof import("../src/lib/session.svelte").session;
  let s: Session;
  beforeAll(async () => {
    vi.stubGlobal("window", { addEventListener() {}, localStorage: new MemoryStorage() });
    vi.stubGlobal("location", { hash: "" });
    vi.stubGlobal("document", { documentElement: { lang: "" } });
    s = (await import("../src/lib/session.svelte")).session;
  });
  it("are taken down by a later success on their topic, others stay", () => {
    s.fail(new ApiError("weak_password", "too short"), "auth");
    s.fail(new ApiError("bad_credentials", "wrong"), "auth");
    s.notify("reconnecting", "error", undefined, "connection");
    s.notify("elsewhere");
    expect(s.notices.map((n) => n.text)).toEqual(["Mật khẩu quá yếu: ít nhất 8 ký tự và khác tên chơi.", "Sai tên chơi hoặc mật khẩu.", "reconnecting", "elsewhere"]);
    s.settle("auth");
    expect(s.notices.map((n) => n.text)).toEqual(["reconnecting", "elsewhere"]);
    s.settle("connection");
    expect(s.notices.map((n) => n.text)).toEqual(["elsewhere"]);
  });
  it("a ban refused with the account is shown as the player's ban, not a passing notice", () => {
    const before = s.notices.length;
    s.fail(new ApiError("banned", "you are banned", { ...{ kind: "ban", until: null, reason: "x", offence: null, offence_en: null, offence_vi: null } }, null, { chips: 10, dkn: 2 }));
    expect(s.notices.length).toBe(before);
    expect(s.ban?.after).toEqual({ chips: 10, dkn: 2 });
  });
});
