// The table's seat rules as the page shows them (docs/PROTOCOL.md): a seat sitting out
// (`away`), the player stood up for lack of chips (`stood_up`), when the next game starts
// (`next_game`), what leaving a game in progress costs, and the one-line help of a first game.
// The server decides all of it; the page only says it.

import type { NextGame, SeatInfo, StoodUpMessage, TableInfo } from "../generated/protocol_server";
import type { RoomInfo } from "../generated/rest";
import { t, type Lang } from "./i18n";
import { cheapestOpen } from "./lobby";
import { endTime } from "./sanction";
import { chips } from "./settlement";
import { remaining } from "./timers";
import type { TableState } from "./table";

/** The `stood_up` message: sent to a player only, when their balance no longer lets the table
 * deal them in; their seat is emptied at once. */
export type StoodUp = StoodUpMessage;

/** Whether a seat is sitting out (the turn timer played for it, or it lost the connection). */
export function isAway(info: SeatInfo | null | undefined): boolean {
  return info?.away === true;
}

/** The deal the table has set a moment for (on the table's clock, as timers' deadlines are),
 * if any. */
export function nextGameOf(table: TableInfo | null): NextGame | null {
  return table?.next_game ?? null;
}

/** What the table shows in its middle between games. */
export type Waiting =
  | { kind: "countdown"; seconds: number }
  | { kind: "dealing" }
  | { kind: "second_player" }
  | { kind: "ready"; names: string[] }
  | { kind: "none" };

/** What the table is waiting for, when no game is being played: a countdown to the deal the
 * table has set a moment for, the deal itself, a second player, or players to be ready. A
 * table that has set no moment says what it lacks, never that a game starts soon. */
export function waitingFor(state: TableState, nowMs: number, skewMs = 0): Waiting {
  if (state.commitment) return { kind: "dealing" };
  const next = nextGameOf(state.table);
  if (next) return { kind: "countdown", seconds: Math.ceil(remaining(next.deadline, next.seconds, nowMs, skewMs)) };
  const seated = (state.table?.seats ?? []).filter((x): x is SeatInfo => x !== null);
  if (seated.length < 2) return { kind: "second_player" };
  const names = seated.filter((x) => !x.ready).map((x) => (x.user === state.me ? "" : x.name));
  if (names.length > 0) return { kind: "ready", names };
  return { kind: "none" };
}

/** The sentence for what the table waits for (the player's own name given as "you"). */
export function waitingText(w: Waiting, lang: Lang): string {
  switch (w.kind) {
    case "countdown":
      return w.seconds > 0 ? t(lang, "sw_next_in", { n: w.seconds }) : t(lang, "dealing");
    case "dealing":
      return t(lang, "dealing");
    case "second_player":
      return t(lang, "sw_need_player");
    case "ready": {
      const names = w.names.map((n) => n || t(lang, "you"));
      return t(lang, "sw_need_ready", { names: names.join(", ") });
    }
    case "none":
      return t(lang, "waiting");
  }
}

/** Whether the player plays in the game in progress (and has not gone out of it). */
export function playsNow(state: TableState, mySeat: number | null): boolean {
  const game = state.game;
  if (mySeat === null || !game || game.view.over) return false;
  const at = game.seats.indexOf(mySeat);
  return at >= 0 && game.view.in_game[at] === true;
}

/** What leaving the game in progress costs, by seed 000's leaving rules (docs/SCORING.md,
 * "Leaving and disconnects"): with two players the one who leaves loses the game; with three
 * or more they leave it and pay as a loser with the cards they hold. Leaving costs 1 ĐKN. */
export function leavingCost(players: number, lang: Lang): string {
  return t(lang, players <= 2 ? "sw_leave_two" : "sw_leave_more");
}

/** Why the player was sent to the lobby and what they can do: the daily top-up and when (in
 * the page's language and the given, default the person's, time zone; `toppedUp`: what the
 * profile reloaded on the way just granted), and a room open to them, if any, from `GET
 * /api/rooms`. */
export function stoodUpText(
  msg: StoodUp, rooms: RoomInfo[], lang: Lang, toppedUp = 0, nowMs = Date.now(), timeZone?: string,
): string[] {
  const lines = [t(lang, "sw_stood_up", { chips: chips(msg.chips), needs: chips(msg.needs) })];
  if (toppedUp > 0) lines.push(t(lang, "sw_topped_up", { chips: chips(toppedUp) }));
  else if (msg.top_up && msg.top_up.chips > 0) {
    const when = new Date(msg.top_up.at).getTime();
    const at = endTime(msg.top_up.at, lang, timeZone);
    if (Number.isNaN(when) || when <= nowMs || at === null) lines.push(t(lang, "sw_topup_now", { chips: chips(msg.top_up.chips) }));
    else lines.push(t(lang, "sw_topup_at", { chips: chips(msg.top_up.chips), at }));
  } else lines.push(t(lang, "sw_no_topup"));
  const open = cheapestOpen(rooms);
  if (open) lines.push(t(lang, "sw_room_open", { room: lang === "vi" ? open.name_vi : open.name_en, bet: chips(open.min_bet) }));
  else lines.push(t(lang, "sw_no_room"));
  return lines;
}

/** Where the page remembers the game that showed the first-game help. */
export const FIRST_GAME_KEY = "tienlen.firstGame";

/** Whether game `game` at `table` is the player's first, to show how to select and play: the
 * first game the page sees them play is remembered and keeps the line (across a reload) until
 * another game starts. */
export function firstGame(storage: Pick<Storage, "getItem" | "setItem"> | null, table: string, game: number): boolean {
  if (!storage) return false;
  const key = `${table}/${game}`;
  const seen = storage.getItem(FIRST_GAME_KEY);
  if (seen === null) {
    storage.setItem(FIRST_GAME_KEY, key);
    return true;
  }
  return seen === key;
}
