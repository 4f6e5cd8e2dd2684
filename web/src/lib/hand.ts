// The player's own hand: order (by rank, or grouped into combinations: "xếp bài"),
// selection, and which legal play (from the server's seat view) a selection is. Legality is
// never decided here: a selection may be played only when it is exactly one of `legal`.

import { byRank, key, parseCards, RANK_TWO, type Card } from "./cards";

export type Order = "rank" | "groups";

/** The hand grouped for reading: four of a kind, consecutive pairs (đôi thông), straights
 * (sảnh, no 2s), triples, pairs, then what is left, each group lowest first. Display only. */
export function groups(hand: Card[]): Card[][] {
  let left = byRank(hand);
  const out: Card[][] = [];
  const take = (picked: Card[]) => {
    const ids = new Set(picked.map((c) => c.id));
    left = left.filter((c) => !ids.has(c.id));
    out.push(byRank(picked));
  };
  const byRankOf = () => {
    const m = new Map<number, Card[]>();
    for (const c of left) m.set(c.rank, [...(m.get(c.rank) ?? []), c]);
    return m;
  };
  for (const cards of byRankOf().values()) if (cards.length === 4) take(cards);
  // Consecutive pairs: the longest run of ranks (no 2) each holding two or more cards.
  for (;;) {
    const run = longestRun(byRankOf(), 2);
    if (run.length < 3) break;
    const m = byRankOf();
    take(run.flatMap((r) => (m.get(r) ?? []).slice(0, 2)));
  }
  for (;;) {
    const run = longestRun(byRankOf(), 1);
    if (run.length < 3) break;
    const m = byRankOf();
    take(run.map((r) => (m.get(r) ?? [])[0]));
  }
  for (const cards of byRankOf().values()) if (cards.length === 3) take(cards);
  for (const cards of byRankOf().values()) if (cards.length === 2) take(cards);
  for (const c of [...left]) take([c]);
  return out.sort((a, b) => b.length - a.length || a[0].id - b[0].id);
}

function longestRun(byRankMap: Map<number, Card[]>, atLeast: number): number[] {
  let best: number[] = [];
  let run: number[] = [];
  for (let r = 0; r < RANK_TWO; r++) {
    if ((byRankMap.get(r)?.length ?? 0) >= atLeast) {
      run = [...run, r];
      if (run.length > best.length) best = run;
    } else run = [];
  }
  return best;
}

/** The hand in the chosen order, as one row. */
export function ordered(hand: Card[], order: Order): Card[] {
  return order === "rank" ? byRank(hand) : groups(hand).flat();
}

/** The cards that begin a group in the grouped order (the first card aside), so that the hand
 * can leave a gap before each; none in rank order. */
export function groupStarts(hand: Card[], order: Order): Set<number> {
  if (order === "rank") return new Set();
  return new Set(groups(hand).slice(1).map((g) => g[0].id));
}

/** The legal play (as the server wrote it) that the selection is exactly, or null. */
export function matchLegal(selected: Card[], legal: readonly string[]): string | null {
  if (selected.length === 0) return null;
  const wanted = key(selected);
  return legal.find((play) => key(parseCards(play)) === wanted) ?? null;
}

/** Toggle one card in a selection (by id). */
export function toggle(selected: ReadonlySet<number>, id: number): Set<number> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Keep only the selected cards still in the hand (after a play or a new deal). */
export function keepInHand(selected: ReadonlySet<number>, hand: Card[]): Set<number> {
  const ids = new Set(hand.map((c) => c.id));
  return new Set([...selected].filter((id) => ids.has(id)));
}

/** The next hint: legal plays in the server's order, one after another, round and round.
 * Returns the index to show and the play's cards. */
export function nextHint(legal: readonly string[], last: number): { index: number; cards: Card[] } | null {
  if (legal.length === 0) return null;
  const index = (last + 1) % legal.length;
  return { index, cards: parseCards(legal[index]) };
}

/** The card the keyboard focus moves to: left/right by one, wrapping, or the first. */
export function moveFocus(order: readonly Card[], current: number | null, step: number): number | null {
  if (order.length === 0) return null;
  const at = order.findIndex((c) => c.id === current);
  if (at < 0) return order[step < 0 ? order.length - 1 : 0].id;
  return order[(at + step + order.length) % order.length].id;
}

/** Where the keyboard focus goes when the hand changes (a play took cards away): the focused
 * card if still held, else the next card after it that is, else the one before, else none. */
export function focusAfterChange(before: readonly Card[], after: readonly Card[], focus: number | null): number | null {
  if (focus === null) return null;
  const held = new Set(after.map((c) => c.id));
  if (held.has(focus)) return focus;
  const at = before.findIndex((c) => c.id === focus);
  if (at >= 0) {
    const later = before.slice(at + 1).find((c) => held.has(c.id));
    if (later) return later.id;
    const earlier = before.slice(0, at).reverse().find((c) => held.has(c.id));
    if (earlier) return earlier.id;
  }
  return after[0]?.id ?? null;
}
