// Cards as the server writes them ("3s 10h Qd"): rank then suit letter, lowest first.
// A card's id is rank * 4 + suit, so plain number order is the game's order (3♠ lowest,
// 2♥ highest), as in the engine (src/tienlen/engine/cards.py).

export const RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"] as const;
export const SUIT_LETTERS = ["s", "c", "d", "h"] as const;
export const SUIT_SYMBOLS = ["♠", "♣", "♦", "♥"] as const;
export const RANK_TWO = 12;

export interface Card {
  id: number;
  rank: number;
  suit: number;
  /** The server's notation: "10h". */
  code: string;
}

export function card(rank: number, suit: number): Card {
  return { id: rank * 4 + suit, rank, suit, code: RANKS[rank] + SUIT_LETTERS[suit] };
}

/** One card from its notation ("10h", "Th", "2♠"), or null. */
export function parseCard(text: string): Card | null {
  const m = /^(10|[2-9TJQKA])([scdh♠♣♦♥])$/i.exec(text.trim());
  if (!m) return null;
  const rankText = m[1].toUpperCase() === "T" ? "10" : m[1].toUpperCase();
  const rank = RANKS.indexOf(rankText as (typeof RANKS)[number]);
  const s = m[2].toLowerCase();
  const suit = Math.max(SUIT_LETTERS.indexOf(s as never), SUIT_SYMBOLS.indexOf(s as never));
  return rank < 0 || suit < 0 ? null : card(rank, suit);
}

/** The cards of a server string ("3s 4c"; empty for ""). Unknown tokens are skipped. */
export function parseCards(text: string | null | undefined): Card[] {
  if (!text) return [];
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(parseCard)
    .filter((c): c is Card => c !== null);
}

export function isRed(c: Card): boolean {
  return c.suit >= 2;
}

/** "10♥": for people. */
export function label(c: Card): string {
  return RANKS[c.rank] + SUIT_SYMBOLS[c.suit];
}

/** A card's rank and suit in words, for screen readers: "10 cơ", "heo bích", "át rô"
 * (the players' names: bồi, đầm, già, át, heo for J Q K A 2); "10 of hearts" in English. */
export function spoken(c: Card, lang: "vi" | "en"): string {
  if (lang === "vi") {
    const rank = ["bồi", "đầm", "già", "át", "heo"][c.rank - 8] ?? RANKS[c.rank];
    return `${rank} ${["bích", "chuồn", "rô", "cơ"][c.suit]}`;
  }
  const rank = ["Jack", "Queen", "King", "Ace"][c.rank - 8] ?? RANKS[c.rank];
  return `${rank} of ${["spades", "clubs", "diamonds", "hearts"][c.suit]}`;
}

/** Cards in words, for screen readers: "3 bích, 3 cơ". */
export function spokenAll(cards: Card[], lang: "vi" | "en"): string {
  return cards.map((c) => spoken(c, lang)).join(", ");
}

/** Cards in the server's notation, lowest first, as the server writes plays. */
export function notation(cards: Card[]): string {
  return byRank(cards)
    .map((c) => c.code)
    .join(" ");
}

export function byRank(cards: Card[]): Card[] {
  return [...cards].sort((a, b) => a.id - b.id);
}

/** Card notations inside a sentence ("chặt heo đỏ (2h)") written with suit symbols. */
export function withSymbols(text: string): string {
  return text.replace(/\b(10|[2-9JQKA])([scdh])\b/g, (_, r: string, s: string) => {
    return r + SUIT_SYMBOLS[SUIT_LETTERS.indexOf(s as (typeof SUIT_LETTERS)[number])];
  });
}

/** A set of cards as a key that ignores order: "0,5,51". */
export function key(cards: Card[]): string {
  return cards
    .map((c) => c.id)
    .sort((a, b) => a - b)
    .join(",");
}
