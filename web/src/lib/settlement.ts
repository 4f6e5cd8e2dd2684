// The settlement a table sends after each game, and a replay ends with: `Settlement.to_dict()`
// (docs/SCORING.md), typed by the protocol's schemas (src/tienlen/money/wire.py): each line's
// facts are one of the money code's facts objects, told apart by `what`.

import type { Settlement, SettlementItem } from "../generated/protocol_server";
import { withSymbols } from "./cards";

export type { Settlement, SettlementItem };

export interface Line {
  payer: number;
  payee: number;
  amount: number;
  short: boolean;
  reason: string;
  /** What the line owes in bets (units × bet = owed), or null for a piece of a line shared
   * between instant winners. "N lá" / "N cards" / "N units" in the reason are these. */
  units: number | null;
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
    units: s.bet > 0 && item.owed % s.bet === 0 && !item.facts.shared_by ? item.owed / s.bet : null,
  }));
}

/** What the lines' units mean, with the first line as the example: "N lá" (or cược, cards,
 * units) is N × the bet in chips. Null when no line says a number of units. */
export function unitsNote(s: Settlement, shown: Line[]): { bet: string; n: number; owed: string } | null {
  const example = shown.find((line) => line.units !== null);
  if (!example || example.units === null) return null;
  return { bet: chips(s.bet), n: example.units, owed: chips(example.units * s.bet) };
}

/** How the server's words begin a đền bài line (money/words.py): the seat paid for by number. */
export const DEN_BAI_SEAT = { vi: (seat: number) => `đền bài thay ghế ${seat}: `, en: (seat: number) => `đền bài for seat ${seat}: ` };

/** A đền bài line's reason with the player paid for named instead of their seat number. */
function paidFor(reason: string, item: SettlementItem, lang: "vi" | "en", name: (seat: number) => string): string {
  const seat = item.facts.for_seat;
  if (seat === undefined) return reason;
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
