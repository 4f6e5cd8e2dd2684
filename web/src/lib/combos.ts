// A play's name in the players' words ("Đôi 7", "Sảnh 4–8", "Ba đôi thông 5–7", "Tứ quý 9"),
// in Vietnamese or English, made from what the server sends: the combination's typed `kind` and
// `length` (an enum in the protocol's schemas: src/tienlen/engine/combos.py, `KIND_KEYS`) and
// the cards. Nothing is judged here: the server said what the play is.

import type { Played } from "../generated/protocol_server";
import { label, RANK_TWO, RANKS, type Card } from "./cards";
import type { Lang } from "./i18n";

/** A combination's kind, as the schemas type it. */
export type ComboKind = Played["kind"];

/** What the server says a play is: typed, and in the engine's English words. */
export type Combination = Pick<Played, "kind" | "length" | "combination">;

const PLURAL_EN = ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings", "aces", "2s"];
const COUNT_VI = ["", "Một", "Hai", "Ba", "Bốn", "Năm", "Sáu"];
const COUNT_EN = ["", "One", "Two", "Three", "Four", "Five", "Six"];

/** The name of a play: its kind and length as the server typed them, its ranks from `cards`.
 * A kind this page does not know (a newer server) is shown in the server's words. */
export function comboName(play: Combination, cards: Card[], lang: Lang): string {
  if (cards.length === 0) return play.combination;
  const sorted = [...cards].sort((a, b) => a.id - b.id);
  const low = sorted[0];
  const top = sorted[sorted.length - 1];
  const rank = RANKS[top.rank];
  const span = `${RANKS[low.rank]}–${rank}`;
  const two = top.rank === RANK_TWO;
  const vi = lang === "vi";
  const kind: ComboKind = play.kind;
  switch (kind) {
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
      const n = play.length;
      const count = (vi ? COUNT_VI : COUNT_EN)[n] ?? String(n);
      return vi ? `${count} đôi thông ${span}` : `${count} consecutive pairs ${span}`;
    }
    default:
      return play.combination;
  }
}
