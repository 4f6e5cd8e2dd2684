// The settlement a table sends after each game: `Settlement.to_dict()` (docs/SCORING.md).
// The protocol schema leaves it an open object, so its shape is written here.

import { withSymbols } from "./cards";

export interface SettlementItem {
  /** Game seats. */
  payer: number;
  payee: number;
  amount: number;
  owed: number;
  reason: string;
  reason_vi: string;
  kind: string;
  facts: Record<string, unknown>;
}

export interface Settlement {
  bet: number;
  deltas: number[];
  items: SettlementItem[];
  fee: number;
  fees: number[];
  fee_bp: number;
  void: boolean;
  den_bai: number | null;
  notes?: { en: string; vi: string }[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The settlement in a message, checked enough to be shown, or null. */
export function readSettlement(value: unknown): Settlement | null {
  if (!isObject(value)) return null;
  const { deltas, items } = value;
  if (!Array.isArray(deltas) || !Array.isArray(items)) return null;
  return value as unknown as Settlement;
}

export interface Line {
  payer: number;
  payee: number;
  amount: number;
  short: boolean;
  reason: string;
}

/** The lines to show, in the order paid, with the reason in the page's language, cards
 * written with suit symbols and the player paid for under đền bài named by `name` (game seat
 * to name), as the payer and payee are. */
export function lines(s: Settlement, lang: "vi" | "en", name: (seat: number) => string): Line[] {
  return s.items.map((item) => ({
    payer: item.payer,
    payee: item.payee,
    amount: item.amount,
    short: item.owed > item.amount,
    reason: withSymbols(paidFor(lang === "vi" ? item.reason_vi : item.reason, item, lang, name)),
  }));
}

/** How the server's words begin a đền bài line (money/words.py): the seat paid for by number. */
export const DEN_BAI_SEAT = { vi: (seat: number) => `đền bài thay ghế ${seat}: `, en: (seat: number) => `đền bài for seat ${seat}: ` };

/** A đền bài line's reason with the player paid for named instead of their seat number. */
function paidFor(reason: string, item: SettlementItem, lang: "vi" | "en", name: (seat: number) => string): string {
  const seat = item.facts.for_seat;
  if (typeof seat !== "number") return reason;
  const head = DEN_BAI_SEAT[lang](seat);
  if (!reason.startsWith(head)) return reason;
  const named = lang === "vi" ? `đền bài thay ${name(seat)}: ` : `đền bài for ${name(seat)}: `;
  return named + reason.slice(head.length);
}

/** Chips as people read them: 12 000 (thin spaces in groups of three). */
export function chips(n: number): string {
  const sign = n < 0 ? "−" : "";
  return sign + Math.abs(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
}
