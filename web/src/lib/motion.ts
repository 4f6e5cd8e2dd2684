// The hand dealt in and plays flying to the pile: short Web Animations (about 300 ms) that
// never hold anything up (the cards are in place and usable at once; only their look moves),
// and none at all for a person who asked for reduced motion (the media query in CSS, and
// `reducedMotion()` here).

/** How long a play's flight and a card's deal take, in ms. */
export const FLIGHT_MS = 300;
export const DEAL_MS = 260;
/** The pause between two cards dealt: 13 cards in about 400 ms. */
export const DEAL_STAGGER_MS = 12;
/** How soon after its message a deal or a play is still shown moving (a reload, which mounts
 * the same cards from a `state`, shows them still). */
const FRESH_MS = 1500;

export function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

let dealtAt = -Infinity;
let playedAt = -Infinity;

/** A `game` message arrived: the hand that mounts now is dealt in. */
export function noteDeal(now = Date.now()): void {
  dealtAt = now;
}

/** A play arrived: the pile that mounts now flies in. */
export function notePlay(now = Date.now()): void {
  playedAt = now;
}

interface Spot {
  box: Element;
  /** The card's centre in its box. */
  x: number;
  y: number;
}
/** Where each card of the hand was last placed (in its box), so that a card just played
 * flies from where it was. */
const handSpots = new Map<string, Spot>();

export function rememberHand(
  box: Element,
  cards: readonly { code: string }[],
  layout: { places: readonly { x: number; y: number }[]; cardW: number; cardH: number },
): void {
  cards.forEach((c, i) => {
    const p = layout.places[i];
    if (p) handSpots.set(c.code, { box, x: p.x + layout.cardW / 2, y: p.y + layout.cardH / 2 });
  });
}

function centre(r: DOMRect): { x: number; y: number } {
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** Where a card of the pile comes from: the player's own hand, or another player's seat. */
function origin(code: string, seat: Element | null, mine: boolean): { x: number; y: number } | null {
  const spot = mine ? handSpots.get(code) : undefined;
  if (spot && spot.box.isConnected) {
    const r = spot.box.getBoundingClientRect();
    return { x: r.left + spot.x, y: r.top + spot.y };
  }
  return seat ? centre(seat.getBoundingClientRect()) : null;
}

export interface PileCardFrom {
  code: string;
  /** The table seat that played it. */
  seat: number;
  mine: boolean;
}

/** A Svelte action on a card of the pile: it flies there from the hand or the seat. */
export function flyToPile(node: HTMLElement, from: PileCardFrom): void {
  if (reducedMotion() || Date.now() - playedAt > FRESH_MS || typeof node.animate !== "function") return;
  const start = origin(from.code, document.querySelector(`[data-testid="seat-${from.seat}"]`), from.mine);
  if (!start) return;
  const end = centre(node.getBoundingClientRect());
  const dx = start.x - end.x;
  const dy = start.y - end.y;
  node.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${from.mine ? 1.3 : 0.6})`, opacity: from.mine ? 1 : 0.3 },
      { transform: "none", opacity: 1 },
    ],
    { duration: FLIGHT_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" },
  );
}

/** A Svelte action on a card of the hand: just after a deal it comes from the middle of the
 * table, one card after another. */
export function dealIn(node: HTMLElement, index: number): void {
  if (reducedMotion() || Date.now() - dealtAt > FRESH_MS || typeof node.animate !== "function") return;
  const middle = document.querySelector('[data-testid="center"]');
  const end = centre(node.getBoundingClientRect());
  const start = middle ? centre(middle.getBoundingClientRect()) : { x: end.x, y: end.y - 200 };
  node.animate(
    [
      { transform: `translate(${start.x - end.x}px, ${start.y - end.y}px) scale(0.4) rotate(-20deg)`, opacity: 0 },
      { transform: "none", opacity: 1 },
    ],
    { duration: DEAL_MS, delay: index * DEAL_STAGGER_MS, easing: "ease-out", fill: "backwards" },
  );
}
