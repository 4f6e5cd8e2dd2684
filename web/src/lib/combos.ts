// A play's name in the players' words ("Đôi 7", "Sảnh 4–8", "Ba đôi thông 5–7", "Tứ quý 9"),
// in Vietnamese or English, made from what the server sends: the combination's kind (the
// engine's `combination`, one of a fixed set of values: src/tienlen/engine/combos.py,
// `describe`) and the cards. Nothing is judged here: the server said what the play is.

import { label, RANK_TWO, RANKS, type Card } from "./cards";
import type { Lang } from "./i18n";

export type ComboKind = "single" | "pair" | "triple" | "straight" | "quad" | "pairs";

/** The kind (and, for a straight or consecutive pairs, the length) of the engine's
 * `combination` value, or null for a value this page does not know. */
export function comboKind(combination: string): { kind: ComboKind; length: number } | null {
  const fixed: Record<string, [ComboKind, number]> = {
    single: ["single", 1],
    pair: ["pair", 2],
    triple: ["triple", 3],
    "four of a kind": ["quad", 4],
  };
  if (combination in fixed) return { kind: fixed[combination][0], length: fixed[combination][1] };
  const straight = /^straight of (\d+)$/.exec(combination);
  if (straight) return { kind: "straight", length: Number(straight[1]) };
  const pairs = /^(\d+) consecutive pairs$/.exec(combination);
  if (pairs) return { kind: "pairs", length: Number(pairs[1]) };
  return null;
}

const PLURAL_EN = ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings", "aces", "2s"];
const COUNT_VI = ["", "Một", "Hai", "Ba", "Bốn", "Năm", "Sáu"];
const COUNT_EN = ["", "One", "Two", "Three", "Four", "Five", "Six"];

/** The name of a play: its kind from `combination`, its ranks from `cards`. An unknown kind
 * (a newer server) is shown as the server wrote it. */
export function comboName(combination: string, cards: Card[], lang: Lang): string {
  const found = comboKind(combination);
  if (!found || cards.length === 0) return combination;
  const sorted = [...cards].sort((a, b) => a.id - b.id);
  const low = sorted[0];
  const top = sorted[sorted.length - 1];
  const rank = RANKS[top.rank];
  const span = `${RANKS[low.rank]}–${rank}`;
  const two = top.rank === RANK_TWO;
  const vi = lang === "vi";
  switch (found.kind) {
    case "single":
      if (two) return vi ? `Heo ${top.suit >= 2 ? "đỏ" : "đen"} (${label(top)})` : `${top.suit >= 2 ? "Red" : "Black"} 2 (${label(top)})`;
      return vi ? `Lẻ ${label(top)}` : `Single ${label(top)}`;
    case "pair":
      if (two) return vi ? "Đôi heo" : "Pair of 2s";
      return vi ? `Đôi ${rank}` : `Pair of ${PLURAL_EN[top.rank]}`;
    case "triple":
      if (two) return vi ? "Ba heo" : "Three 2s";
      return vi ? `Sám cô ${rank}` : `Three ${PLURAL_EN[top.rank]}`;
    case "quad":
      return vi ? `Tứ quý ${rank}` : `Four ${PLURAL_EN[top.rank]}`;
    case "straight":
      return vi ? `Sảnh ${span}` : `Straight ${span}`;
    case "pairs": {
      const n = found.length;
      const count = (vi ? COUNT_VI : COUNT_EN)[n] ?? String(n);
      return vi ? `${count} đôi thông ${span}` : `${count} consecutive pairs ${span}`;
    }
  }
}
