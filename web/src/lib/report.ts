// Reporting a player to the moderators (POST /api/reports, docs/CONDUCT.md): the reasons are
// the conduct policy's offences, as the server lists them (GET /api/conduct/offences) with
// their titles in both languages, plus "something else"; the reporter adds their own words.

import type { ChatLine } from "../generated/protocol_server";
import type { NewReport, OffenceInfo } from "../generated/rest";
import { ApiError } from "./api";
import { errorText, type Lang } from "./i18n";
import { retryText } from "./sanction";

/** Who is reported: by id when the page knows it (a seat, a chat line), else by nickname. */
export interface ReportTarget {
  userId: number | null;
  name: string;
  /** The chat line reported, if one. */
  line?: ChatLine;
  /** Where the report was made from (kept by the server as the client's context). */
  from: "seat" | "chat" | "profile";
}

/** The reason "other" (no offence of the policy). */
export const OTHER = "other";

/** A table or lobby user id ("42") as the REST API's integer id, or null (a bot, a guest id that
 * is not a number). */
export function userIdOf(user: string): number | null {
  return /^[1-9]\d{0,9}$/.test(user) ? Number(user) : null;
}

export function offenceTitle(lang: Lang, offence: OffenceInfo): string {
  return lang === "vi" ? offence.title_vi : offence.title_en;
}

/** The body of the report: the text is the reporter's words, or the reason's title when they
 * wrote none (the server needs a text); the offence chosen rides in the context. */
export function reportBody(
  target: ReportTarget,
  offence: OffenceInfo | null,
  words: string,
  lang: Lang,
  otherTitle: string,
): NewReport {
  const title = offence ? offenceTitle(lang, offence) : otherTitle;
  const said = words.trim().slice(0, 1000);
  const body: NewReport = {
    text: said || title,
    context: { offence: offence?.key ?? OTHER, reason: title, from: target.from },
  };
  if (target.userId !== null) body.user_id = target.userId;
  else body.nickname = target.name;
  if (target.line) body.message_id = target.line.id;
  return body;
}

const VI: Record<string, string> = {
  cannot_report_self: "Bạn không thể tự báo cáo chính mình.",
  no_such_message: "Không tìm thấy dòng chat này của người chơi đó (có thể đã quá cũ).",
  no_such_user: "Không có người chơi này.",
  too_many_reports: "Bạn đã gửi quá nhiều báo cáo trong một giờ qua. Quản trị viên đã nhận được các báo cáo đó.",
};
const EN: Record<string, string> = {
  cannot_report_self: "You cannot report yourself.",
  no_such_message: "That player said no such chat line (it may be too old).",
  no_such_user: "There is no such player.",
  too_many_reports: "You sent too many reports within the last hour. The moderators have them.",
};

/** A refused report as a sentence for the reporter (with until when for too many). */
export function reportRefusal(lang: Lang, error: unknown, timeZone?: string): string {
  if (!(error instanceof ApiError)) return errorText(lang, "internal_error", String(error));
  const known = (lang === "vi" ? VI : EN)[error.code];
  if (known === undefined) return errorText(lang, error.code, error.message, error.sanction, timeZone, error.retryAfter);
  const retry = error.retryAfter ? retryText(lang, error.code, error.retryAfter, timeZone) : null;
  return retry ?? known;
}
