// What the page knows of one table, built only from the table's messages (docs/PROTOCOL.md).
// `apply` takes each message in order; everything shown is derived from this state.

import type {
  ChatLine,
  CommitmentInfo,
  SeatDelta,
  SeatInfo,
  SeatView,
  ServerMessage,
  SpectatorDelta,
  SpectatorView,
  TableInfo,
  TimerInfo,
} from "../generated/protocol_server";
import type { Settlement } from "./settlement";

export type View = SeatView | SpectatorView;
export type GameEvent = SeatView["events"][number];

export interface Happening {
  /** A number to key it by. */
  id: number;
  game: number;
  event: GameEvent;
}

export interface TableState {
  me: string | null;
  lastN: number;
  table: TableInfo | null;
  commitment: CommitmentInfo | null;
  game: { number: number; seats: number[]; view: View } | null;
  timers: TimerInfo[];
  /** The names of the game shown's players by table seat, as seen while they sat there: a
   * player who leaves mid-game is still named in its events and its settlement. */
  names: Record<number, string>;
  /** The last game's settlement (kept while the next game is played, to be read), with the
   * names of its players. */
  settlement: { game: number; seats: number[]; settlement: Settlement; names: Record<number, string> } | null;
  /** The table's chat, oldest first: the recent lines a `state` brings, then each `chat`. */
  chat: ChatLine[];
  /** Chops, cóng, instant wins, players out, the end, and the plays and passes the turn
   * timer made (`auto`): the events worth showing as they happen, newest last; the game
   * shown's only (a new deal starts them again). */
  happenings: Happening[];
  /** A message number was skipped: the page must start again without `last_n`. */
  gap: boolean;
}

export function emptyTable(): TableState {
  return {
    me: null,
    lastN: 0,
    table: null,
    commitment: null,
    game: null,
    timers: [],
    names: {},
    settlement: null,
    chat: [],
    happenings: [],
    gap: false,
  };
}

const SHOWN = new Set(["chop", "cong", "instant_win", "player_out", "game_over", "left"]);
const KEEP_CHAT = 100;
const KEEP_HAPPENINGS = 30;
let happeningIds = 0;

function noteEvents(state: TableState, game: number, events: GameEvent[]): void {
  for (const event of events) {
    const timedOut = (event.type === "play" || event.type === "pass") && event.auto;
    if (SHOWN.has(event.type) || timedOut) state.happenings.push({ id: ++happeningIds, game, event });
  }
  state.happenings = state.happenings.slice(-KEEP_HAPPENINGS);
}

/** The names of the players seated at ``seats`` that ``table`` shows, added to ``names``
 * (a name already known is kept: someone sitting down in a seat left mid-game is not the
 * player who played it). */
function remember(names: Record<number, string>, table: TableInfo | null, seats: number[]): Record<number, string> {
  const out = { ...names };
  for (const seat of seats) {
    const info = table?.seats[seat];
    if (info && out[seat] === undefined) out[seat] = info.name;
  }
  return out;
}

function merged(old: View, delta: SeatDelta | SpectatorDelta, events: GameEvent[], actions: View["actions"]): View {
  return { ...delta, events: [...old.events, ...events], actions: [...old.actions, ...actions] } as View;
}

/** The state after one message (the state given is changed and returned). */
export function apply(state: TableState, msg: ServerMessage): TableState {
  if ("n" in msg && msg.type !== "state") {
    if (msg.n <= state.lastN) return state; // already seen
    if (msg.n !== state.lastN + 1) {
      state.gap = true;
      return state;
    }
    state.lastN = msg.n;
  }
  switch (msg.type) {
    case "welcome":
      state.me = msg.user;
      break;
    case "state":
      state.lastN = msg.n;
      state.gap = false;
      state.table = msg.table;
      state.commitment = msg.commitment;
      state.game = msg.game && { number: msg.game.game, seats: msg.game.seats, view: msg.game.view };
      state.timers = msg.game ? msg.game.timers : [];
      state.names = remember({}, msg.table, msg.game?.seats ?? []);
      state.settlement = null;
      state.chat = msg.chat.slice(-KEEP_CHAT);
      state.happenings = [];
      if (msg.game) noteEvents(state, msg.game.game, msg.game.view.events);
      break;
    case "table": {
      const { n: _n, type: _type, ref: _ref, ...info } = msg;
      state.table = info;
      if (state.game) state.names = remember(state.names, info, state.game.seats);
      break;
    }
    case "commitment":
      state.commitment = msg;
      break;
    case "game":
      state.game = { number: msg.game, seats: msg.seats, view: msg.view };
      state.names = remember({}, state.table, msg.seats);
      state.commitment = null;
      state.timers = [];
      state.happenings = [];
      noteEvents(state, msg.game, msg.view.events);
      for (const timer of msg.timers) startTimer(state, timer);
      break;
    case "update":
      if (state.game && state.game.number === msg.game) {
        state.game.view = merged(state.game.view, msg.view, msg.events, msg.actions);
        noteEvents(state, msg.game, msg.events);
        const view = state.game.view;
        if (!("chop_offer" in view) || !view.chop_offer) {
          state.timers = state.timers.filter((t) => t.kind !== "chop");
        }
        if (view.over) state.timers = [];
        for (const timer of msg.timers) startTimer(state, timer);
      }
      break;
    case "timer": {
      const { n: _n, type: _type, ref: _ref, ...timer } = msg;
      startTimer(state, timer);
      break;
    }
    case "settlement": {
      const names = state.game?.number === msg.game ? state.names : {};
      state.settlement = { game: msg.game, seats: msg.seats, settlement: msg.settlement, names: remember(names, state.table, msg.seats) };
      state.timers = [];
      break;
    }
    case "chat": {
      const { n: _n, type: _type, ref: _ref, ...line } = msg;
      state.chat = [...state.chat, line].slice(-KEEP_CHAT);
      break;
    }
    case "ack":
    case "error":
      break;
  }
  return state;
}

/** The seated player's own view, when they play the game shown. */
export function seatView(state: TableState): SeatView | null {
  const view = state.game?.view;
  return view && "hand" in view ? view : null;
}

/** My table seat, or null. */
export function mySeat(state: TableState): number | null {
  const seat = state.table?.seats.find((s) => s !== null && s.user === state.me);
  return seat ? seat.seat : null;
}

export interface SeatShown {
  seat: number;
  info: SeatInfo | null;
  /** The seat in the game shown, or null when it does not play it. */
  gameSeat: number | null;
  cardsLeft: number | null;
  passed: boolean;
  current: boolean;
  out: boolean;
  me: boolean;
}

/** Every table seat with what the game shows of it. */
export function seatsShown(state: TableState): SeatShown[] {
  const table = state.table;
  if (!table) return [];
  const game = state.game;
  return table.seats.map((info, seat) => {
    const gameSeat = game ? game.seats.indexOf(seat) : -1;
    const view = game?.view;
    const inGame = view && gameSeat >= 0;
    return {
      seat,
      info,
      gameSeat: gameSeat >= 0 ? gameSeat : null,
      cardsLeft: inGame ? view.cards_left[gameSeat] : null,
      passed: inGame ? view.passed[gameSeat] : false,
      current: inGame ? !view.over && view.current === gameSeat : false,
      out: inGame ? !view.in_game[gameSeat] : false,
      me: info !== null && info.user === state.me,
    };
  });
}

/** The name at a game seat of the game shown (or, given its seats and names, of the
 * settlement's game): the player who sat there during the game, even after they left. */
export function nameAt(state: TableState, gameSeat: number, seats?: number[], names?: Record<number, string>): string {
  const tableSeat = (seats ?? state.game?.seats ?? [])[gameSeat];
  if (tableSeat === undefined) return `#${gameSeat + 1}`;
  const known = (names ?? state.names)[tableSeat];
  if (known !== undefined) return known;
  const info = state.table?.seats[tableSeat];
  return info ? info.name : `#${gameSeat + 1}`;
}

/** A timer started: it replaces the one of its kind. */
function startTimer(state: TableState, timer: TimerInfo) {
  state.timers = [...state.timers.filter((t) => t.kind !== timer.kind), timer];
}

/** The timer of a kind, if one runs. */
export function timerOf(state: TableState, kind: "turn" | "chop"): TimerInfo | null {
  return state.timers.find((t) => t.kind === kind) ?? null;
}
