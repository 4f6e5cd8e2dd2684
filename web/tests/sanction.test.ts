import { describe, expect, it, vi } from "vitest";
import type { SanctionMessage } from "../src/generated/protocol_server";
import { api } from "../src/lib/api";
import { ERRORS_VI, errorText } from "../src/lib/i18n";
import { liftedBy, toldText } from "../src/lib/sanction";

const told = (kind: SanctionMessage["kind"], until: string | null): SanctionMessage => ({
  type: "sanction",
  kind,
  until,
  reason: "automatic (flood control): 10 chat lines refused as too fast within 10 minutes",
  offence: "flooding",
  offence_en: "Flooding a chat",
  offence_vi: "Spam kênh chat",
  message: "…",
});

describe("a sanction told to an open socket", () => {
  it("says a warning with its reason, and a mute or ban until when, in the page's language", () => {
    expect(toldText("vi", told("warn", null))).toBe(
      "Bạn bị cảnh cáo. Lý do: Spam kênh chat (tự động (chống spam): 10 dòng chat bị từ chối vì gửi quá nhanh trong 10 phút).",
    );
    expect(toldText("en", told("warn", null))).toMatch(/^You are warned\. Reason: Flooding a chat/);
    expect(toldText("vi", told("mute", "2026-03-14T11:00:00+00:00"), "Asia/Ho_Chi_Minh")).toMatch(
      /^Bạn bị cấm trò chuyện đến 18:00 ngày 14\/03\/2026\. Lý do: Spam kênh chat/,
    );
    expect(toldText("en", told("ban", null), "UTC")).toMatch(/^This account is banned permanently\. Reason: /);
  });
  it("says a mute or ban lifted, with the lift's reason, and which it lifts", () => {
    const lift = (kind: "unmute" | "unban"): SanctionMessage => ({
      ...told(kind, null), reason: "appeal accepted", offence: null, offence_en: null, offence_vi: null,
    });
    expect(toldText("vi", lift("unmute"))).toBe("Bạn đã được trò chuyện lại. Lý do: appeal accepted.");
    expect(toldText("en", lift("unmute"))).toBe("Your mute is lifted: you may chat again. Reason: appeal accepted.");
    expect(toldText("vi", lift("unban"))).toBe("Tài khoản này đã được mở khóa. Lý do: appeal accepted.");
    expect(toldText("en", lift("unban"))).toBe("This account's ban is lifted. Reason: appeal accepted.");
    expect([liftedBy(lift("unmute")), liftedBy(lift("unban")), liftedBy(told("mute", null)), liftedBy(told("warn", null))]).toEqual(["mute", "ban", null, null]);
  });
});

describe("a sign-up or log-in refused for a while", () => {
  const until = "2026-03-14T11:05:00+00:00";
  it("says until when in the person's time, in either language", () => {
    expect(errorText("vi", "login_locked", `too many failed log-ins for this nickname: try again after ${until}`, null, "Asia/Ho_Chi_Minh", until)).toBe(
      "Tài khoản tạm khóa đăng nhập vì nhập sai nhiều lần. Hãy thử lại sau 18:05 ngày 14/03/2026.",
    );
    expect(errorText("en", "login_locked", `too many failed log-ins for this nickname: try again after ${until}`, null, "Asia/Ho_Chi_Minh", until)).toBe(
      "Too many failed log-ins for this nickname: try again after 14 March 2026 at 18:05.",
    );
    expect(errorText("vi", "too_many_signups", "…", null, "UTC", until)).toBe(
      "Có quá nhiều lượt đăng ký từ máy này. Hãy thử lại sau 11:05 ngày 14/03/2026.",
    );
    expect(errorText("en", "too_many_logins", "…", null, "UTC", until)).toBe(
      "Too many log-ins from your address: try again after 14 March 2026 at 11:05.",
    );
    // No time, or one that does not read: the plain sentence.
    expect(errorText("vi", "login_locked", "…", null, "UTC", null)).toBe(ERRORS_VI.login_locked);
    expect(errorText("vi", "login_locked", "…", null, "UTC", "soon")).toBe(ERRORS_VI.login_locked);
  });

  it("keeps the server's retry_after on the ApiError", async () => {
    const body = { error: { code: "too_many_signups", message: "…", retry_after: until } };
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify(body), { status: 429 }));
    try {
      await expect(api.guest()).rejects.toMatchObject({ code: "too_many_signups", retryAfter: until });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
