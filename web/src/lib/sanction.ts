// A mute or ban as the player reads it: until when, in the page's language and the person's
// own clock ("vĩnh viễn" / "permanently" when it has no end), and why. The server sends it as
// data with its `muted` and `banned` errors (`sanction`, docs/SERVER.md and PROTOCOL.md).

import type { SanctionMessage } from "../generated/protocol_server";
import type { SanctionTold } from "../generated/rest";
import type { Lang } from "./i18n";

/** When a sanction ends, in the page's language and the given (default: the person's) time
 * zone: "11:00 ngày 14/03/2026", "14 March 2026 at 11:00"; null for a time that does not read. */
export function endTime(until: string, lang: Lang, timeZone?: string): string | null {
  const when = new Date(until);
  if (Number.isNaN(when.getTime())) return null;
  if (lang === "en") {
    return new Intl.DateTimeFormat("en-GB", {
      day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone,
    }).format(when);
  }
  const parts = new Intl.DateTimeFormat("vi-VN", {
    day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone,
  }).formatToParts(when);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("hour")}:${part("minute")} ngày ${part("day")}/${part("month")}/${part("year")}`;
}

/** The sentence for a `muted` or `banned` error carrying its sanction. */
export function sanctionText(lang: Lang, code: "muted" | "banned", s: SanctionTold, timeZone?: string): string {
  const end = s.until === null ? null : endTime(s.until, lang, timeZone);
  const offence = lang === "vi" ? s.offence_vi : s.offence_en;
  const why = offence ? (s.reason ? `${offence} (${s.reason})` : offence) : s.reason;
  if (lang === "vi") {
    const until = s.until === null ? "vĩnh viễn" : end ? `đến ${end}` : "";
    const what = code === "muted" ? "Bạn bị cấm trò chuyện" : "Tài khoản này bị khóa";
    return `${what} ${until}`.trim() + "." + (why ? ` Lý do: ${why}.` : "");
  }
  const until = s.until === null ? "permanently" : end ? `until ${end}` : "";
  const what = code === "muted" ? "You are muted" : "This account is banned";
  return `${what} ${until}`.trim() + "." + (why ? ` Reason: ${why}.` : "");
}

/** The sentence for a refusal that ends at `until` (`retry_after`: the sign-up and log-in
 * limits, the log-in lockout), saying until when in the given (default: the person's) time
 * zone; null for another code or a time that does not read. */
export function retryText(lang: Lang, code: string, until: string, timeZone?: string): string | null {
  const end = endTime(until, lang, timeZone);
  if (end === null) return null;
  const vi: Record<string, string> = {
    too_many_signups: "Có quá nhiều lượt đăng ký từ máy này",
    too_many_logins: "Đăng nhập quá nhiều lần từ máy này",
    login_locked: "Tài khoản tạm khóa đăng nhập vì nhập sai nhiều lần",
  };
  const en: Record<string, string> = {
    too_many_signups: "Too many new accounts or guests from your address",
    too_many_logins: "Too many log-ins from your address",
    login_locked: "Too many failed log-ins for this nickname",
  };
  if (!(code in vi)) return null;
  return lang === "vi" ? `${vi[code]}. Hãy thử lại sau ${end}.` : `${en[code]}: try again after ${end}.`;
}

/** What a `sanction` message lifts: the mute (`unmute`) or the ban (`unban`), or null. */
export function liftedBy(s: SanctionMessage): "mute" | "ban" | null {
  return s.kind === "unmute" ? "mute" : s.kind === "unban" ? "ban" : null;
}

/** A `sanction` message (a warning, mute or ban just made, or a mute or ban lifted, told to an
 * open socket) as a sentence: a mute or ban as its error says it, a warning or a lift with its
 * reason. */
export function toldText(lang: Lang, s: SanctionMessage, timeZone?: string): string {
  const lifted = liftedBy(s);
  if (lifted !== null) {
    const why = s.reason ? (lang === "vi" ? ` Lý do: ${s.reason}.` : ` Reason: ${s.reason}.`) : "";
    if (lang === "vi") return (lifted === "mute" ? "Bạn đã được trò chuyện lại." : "Tài khoản này đã được mở khóa.") + why;
    return (lifted === "mute" ? "Your mute is lifted: you may chat again." : "This account's ban is lifted.") + why;
  }
  if (s.kind === "mute" || s.kind === "ban") return sanctionText(lang, s.kind === "ban" ? "banned" : "muted", { ...s, kind: s.kind }, timeZone);
  const offence = lang === "vi" ? s.offence_vi : s.offence_en;
  const why = offence ? (s.reason ? `${offence} (${s.reason})` : offence) : s.reason;
  return lang === "vi" ? `Bạn bị cảnh cáo. Lý do: ${why}.` : `You are warned. Reason: ${why}.`;
}
