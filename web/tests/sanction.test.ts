import { describe, expect, it } from "vitest";
import type { SanctionMessage } from "../src/generated/protocol_server";
import { toldText } from "../src/lib/sanction";

const told = (kind: SanctionMessage["kind"], until: string | null): SanctionMessage => ({
  type: "sanction",
  kind,
  until,
  reason: "automatic (flood control): 10 chat lines refused as too fast within 10 minutes",
  offence: "flooding",
  offence_en: "Flooding a chat (project rule, not in seed 000)",
  offence_vi: "Spam kênh chat",
  message: "…",
});

describe("a sanction told to an open socket", () => {
  it("says a warning with its reason, and a mute or ban until when, in the page's language", () => {
    expect(toldText("vi", told("warn", null))).toBe(
      "Bạn bị cảnh cáo. Lý do: Spam kênh chat (automatic (flood control): 10 chat lines refused as too fast within 10 minutes).",
    );
    expect(toldText("en", told("warn", null))).toMatch(/^You are warned\. Reason: Flooding a chat/);
    expect(toldText("vi", told("mute", "2026-03-14T11:00:00+00:00"), "Asia/Ho_Chi_Minh")).toMatch(
      /^Bạn bị cấm trò chuyện đến 18:00 ngày 14\/03\/2026\. Lý do: Spam kênh chat/,
    );
    expect(toldText("en", told("ban", null), "UTC")).toMatch(/^This account is banned permanently\. Reason: /);
  });
});
