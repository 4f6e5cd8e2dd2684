// Choosing cards by touch: a tap selects the smallest legal play holding the card (tapping it
// again, the next larger one, then the card alone, then nothing), a drag selects a range.
// The plays come only from the seat view's `legal`: no rule is decided here.

import { parseCards, type Card } from "./cards";

/** The legal plays holding the card, as sets of ids: fewest cards first, then the weakest
 * (lowest highest card), then in the server's order. */
export function playsWith(id: number, legal: readonly string[]): Set<number>[] {
  const plays = legal
    .map((play, at) => ({ ids: parseCards(play).map((c) => c.id), at }))
    .filter((p) => p.ids.includes(id));
  plays.sort((a, b) => a.ids.length - b.ids.length || Math.max(...a.ids) - Math.max(...b.ids) || a.at - b.at);
  return plays.map((p) => new Set(p.ids));
}

function same(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/** The selection after a tap on a card. `legal` is null when the player has nothing to play
 * (not their turn): the card is toggled alone, as it is when no legal play holds it, or when
 * the selection was made by hand (a drag, the keyboard) and is no legal play: then a tap adds
 * or takes out that card. */
export function tapSelect(selected: ReadonlySet<number>, id: number, legal: readonly string[] | null): Set<number> {
  const plays = legal ? playsWith(id, legal) : [];
  const toggled = new Set(selected);
  if (toggled.has(id)) toggled.delete(id);
  else toggled.add(id);
  if (plays.length === 0) return toggled;
  const cycle = [...plays];
  if (!plays.some((p) => p.size === 1)) cycle.push(new Set([id]));
  cycle.push(new Set());
  const at = cycle.findIndex((state) => same(state, selected));
  if (at >= 0) return new Set(cycle[(at + 1) % cycle.length]);
  const byHand = selected.size > 0 && !(legal ?? []).some((play) => same(new Set(parseCards(play).map((c) => c.id)), selected));
  if (selected.has(id) || byHand) return toggled;
  return new Set(cycle[0]);
}

/** The cards a drag from one card to another passes over, in the order shown, both ends
 * included (either direction). */
export function dragRange(order: readonly Card[], from: number, to: number): Set<number> {
  const a = order.findIndex((c) => c.id === from);
  const b = order.findIndex((c) => c.id === to);
  if (a < 0 || b < 0) return new Set();
  return new Set(order.slice(Math.min(a, b), Math.max(a, b) + 1).map((c) => c.id));
}
