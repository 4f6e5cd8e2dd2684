// A mute or ban as the player reads it: until when, in the page's language and the person's
// own clock ("vĩnh viễn" / "permanently" when it has no end), and why. The server sends it as
// data with its `muted` and `banned` errors (`sanction`, docs/SERVER.md and PROTOCOL.md).

import type { SanctionMessage } from "../generated/protocol_server";
import type { BannedAccount, SanctionTold } from "../generated/rest";
import type { Lang } from "./i18n";
import { chips } from "./settlement";

/** A sanction's reason in the page's language: the server's automatic ones (the chat filter's,
 * flood control's: `chat_guard.py`) are said in Vietnamese too; a moderator's own words are
 * theirs, shown as written. */
export function reasonText(lang: Lang, reason: string): string {
  if (lang === "en") return reason;
  const swearing = /^automatic \(chat filter\): (\d+) lines masked for swearing within (\d+) minutes$/.exec(reason);
  if (swearing) return `tự động (bộ lọc chat): ${swearing[1]} dòng bị che vì chửi bậy trong ${swearing[2]} phút`;
  const flood = /^automatic \(flood control\): (\d+) chat lines refused as too fast within (\d+) minutes$/.exec(reason);
  if (flood) return `tự động (chống spam): ${flood[1]} dòng chat bị từ chối vì gửi quá nhanh trong ${flood[2]} phút`;
  return reason;
}

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

/** Why: the offence's title in the page's language and the reason. */
function whyText(lang: Lang, s: Pick<SanctionTold, "offence_vi" | "offence_en" | "reason">): string {
  const offence = lang === "vi" ? s.offence_vi : s.offence_en;
  const reason = reasonText(lang, s.reason);
  return offence ? (reason ? `${offence} (${reason})` : offence) : reason;
}

/** The sentence for a `muted` or `banned` error carrying its sanction. */
export function sanctionText(lang: Lang, code: "muted" | "banned", s: SanctionTold, timeZone?: string): string {
  const end = s.until === null ? null : endTime(s.until, lang, timeZone);
  const why = whyText(lang, s);
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
    too_few_chips: "Bạn không đủ chip để chơi, quà mỗi ngày sắp có",
    too_many_reports: "Bạn đã gửi quá nhiều báo cáo trong một giờ qua",
  };
  const en: Record<string, string> = {
    too_many_signups: "Too many new accounts or guests from your address",
    too_many_logins: "Too many log-ins from your address",
    login_locked: "Too many failed log-ins for this nickname",
    too_few_chips: "You hold too few chips to play, and a daily top-up is coming",
    too_many_reports: "You sent too many reports within the last hour",
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
    const reason = reasonText(lang, s.reason);
    const why = reason ? (lang === "vi" ? ` Lý do: ${reason}.` : ` Reason: ${reason}.`) : "";
    if (lang === "vi") return (lifted === "mute" ? "Bạn đã được trò chuyện lại." : "Tài khoản này đã được mở khóa.") + why;
    return (lifted === "mute" ? "Your mute is lifted: you may chat again." : "This account's ban is lifted.") + why;
  }
  if (s.kind === "mute" || s.kind === "ban") return sanctionText(lang, s.kind === "ban" ? "banned" : "muted", { ...s, kind: s.kind }, timeZone);
  const why = whyText(lang, s);
  return lang === "vi" ? `Bạn bị cảnh cáo. Lý do: ${why}.` : `You are warned. Reason: ${why}.`;
}

/** What a ban cost its player, as a sentence: the game they were playing forfeited (they left
 * it under the leaving rules), and the chips and ĐKN lost, from their account before the ban
 * and as the server tells it with the `banned` refusal (`account`); null while not known and
 * nothing to say. */
export function banCostText(
  lang: Lang,
  playing: boolean,
  before: BannedAccount | null,
  after: BannedAccount | null,
): string | null {
  const vi = lang === "vi";
  const parts: string[] = [];
  if (before && after) {
    const lostChips = before.chips - after.chips;
    const lostDkn = before.dkn - after.dkn;
    if (lostChips > 0) parts.push(`−${chips(lostChips)} ${vi ? "chip" : "chips"}`);
    if (lostDkn > 0) parts.push(`−${lostDkn} ĐKN`);
  }
  const lost = parts.join(", ");
  const now = after ? (vi ? ` Bạn còn ${chips(after.chips)} chip, ${after.dkn} ĐKN.` : ` You have ${chips(after.chips)} chips, ${after.dkn} ĐKN.`) : "";
  if (playing) {
    const game = vi ? "Ván đang chơi bị xử thua như người bỏ bàn" : "The game you were playing is forfeited, as by a player who left";
    return `${game}${lost ? `: ${lost}` : ""}.${now}`;
  }
  if (!after) return null;
  if (!before) return now.trim(); // not known what it was before (the page was opened banned)
  if (lost) return (vi ? `Lệnh khóa làm bạn mất ${lost}.` : `The ban cost you ${lost}.`) + now;
  return (vi ? "Bạn không đang chơi ván nào nên không mất gì." : "You were not playing a game, so it cost you nothing.") + now;
}
