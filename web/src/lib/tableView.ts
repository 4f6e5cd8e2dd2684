// What the table shows beyond the seats: the hands left at the end of a game (from the
// engine's game_over event, which every view carries), the current round's plays and passes
// in order (from the events since the round began), and where each seat sits around the felt.
// Nothing here decides a rule: it reads what the server sent.

import type { Played } from "../generated/protocol_server";
import type { GameEvent } from "./table";

/** A hand still held when the game ended, face up: a game seat and its cards. */
export interface Revealed {
  seat: number;
  cards: string;
}

/** The hands left when the game ended, as the engine's game_over event gives them (every
 * loser's, and an instant winner's whole hand), in the order they finished; none while the
 * game is on. */
export function revealedHands(events: readonly GameEvent[]): Revealed[] {
  let last: Extract<GameEvent, { type: "game_over" }> | null = null;
  for (const e of events) if (e.type === "game_over") last = e;
  if (!last) return [];
  const { ranking, cards_left: left } = last;
  const order = [...ranking, ...left.map((_, seat) => seat).filter((s) => !ranking.includes(s))];
  return order.filter((seat) => left[seat]?.trim()).map((seat) => ({ seat, cards: left[seat] }));
}

/** One move of the current round: a play (its cards and kind) or a pass; `auto` when the turn
 * timer made it. */
export type RoundMove =
  | { seat: number; pass: false; cards: string; combination: string; kind: Played["kind"]; length: number; auto: boolean }
  | { seat: number; pass: true; auto: boolean };

/** The current round's plays and passes, oldest first: the events since the last round was
 * won (a new round starts empty). */
export function roundMoves(events: readonly GameEvent[]): RoundMove[] {
  const moves: RoundMove[] = [];
  for (const e of events) {
    if (e.type === "round_won" || e.type === "game_over") moves.length = 0;
    else if (e.type === "play") moves.push({ seat: e.seat, pass: false, cards: e.cards, combination: e.combination, kind: e.kind, length: e.length, auto: e.auto });
    else if (e.type === "pass") moves.push({ seat: e.seat, pass: true, auto: e.auto });
  }
  return moves;
}

export type Place = "bottom" | "right" | "top" | "left";

/** Places around the felt for n seats, counter-clockwise from the bottom (play order). */
export function around(n: number): Place[] {
  return n === 2 ? ["bottom", "top"] : n === 3 ? ["bottom", "right", "left"] : ["bottom", "right", "top", "left"];
}

/** Where each table seat sits: the player's own at the bottom and the others after it in
 * play order. When only two of the seats play (or, between games, are taken), those two face
 * each other, bottom and top, and the other seats take the sides. */
export function placeSeats(seats: number, me: number | null, taken: readonly number[]): Place[] {
  const base = me ?? taken[0] ?? 0;
  const places = around(seats);
  const byOrder = Array.from({ length: seats }, (_, seat) => places[(seat - base + seats) % seats]);
  if (seats <= 2 || taken.length !== 2 || (me !== null && !taken.includes(me))) return byOrder;
  const [first, second] = taken[0] === base ? taken : [taken[1], taken[0]];
  const out: Place[] = new Array(seats);
  out[first] = "bottom";
  out[second] = "top";
  const sides: Place[] = ["right", "left"];
  for (let k = 1; k < seats; k++) {
    const seat = (base + k) % seats;
    if (seat !== second) out[seat] = sides.shift() ?? "left";
  }
  return out;
}
