import { describe, expect, it } from "vitest";
import type { ServerMessage, SeatView, TableInfo } from "../src/generated/protocol_server";
import { apply, emptyTable, mySeat, nameAt, seatsShown, seatView, timerOf } from "../src/lib/table";

const table: TableInfo = {
  table: "t1",
  owner: "1",
  bet: 1000,
  ruleset: "thapthanh",
  turn_seconds: 10,
  phase: "playing",
  games: 1,
  next_game: null,
  seats: [
    { seat: 0, user: "1", name: "An", bot: null, connected: true, ready: true, playing: true, away: false },
    null,
    { seat: 2, user: "2", name: "Bình", bot: null, connected: false, ready: true, playing: true, away: false },
  ],
};

function view(over: Partial<SeatView> = {}): SeatView {
  return {
    schema: 1, seq: 0, ruleset: "thapthanh", players: 2, current: 0, over: false,
    cards_left: [13, 13], in_game: [true, true], passed: [false, false], to_beat: null,
    round: [], played: ["", ""], first_game: true, leader: 0, deal: null, actions: [], events: [],
    seat: 0, hand: "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2s", my_turn: true, can_pass: false,
    chop_offer: false, legal: ["3s"], required: "3s", ...over,
  };
}

function started() {
  const st = emptyTable();
  apply(st, { type: "welcome", protocol: 1, table: "t1", user: "1", resumed: false });
  apply(st, { type: "state", n: 4, table, chat: [{ id: 1, at: 1, user: "2", name: "Bình", seat: 2, text: "chào" }], commitment: null, game: { game: 1, seats: [0, 2], view: view(), timers: [] } });
  return st;
}

describe("the table's state", () => {
  it("starts from a state and knows whose seat is whose", () => {
    const st = started();
    expect(st.lastN).toBe(4);
    expect(mySeat(st)).toBe(0);
    expect(seatView(st)?.hand).toContain("2s");
    const seats = seatsShown(st);
    expect(seats.map((s) => s.gameSeat)).toEqual([0, null, 1]);
    expect(seats[2].cardsLeft).toBe(13);
    expect(seats[0].current && seats[0].me).toBe(true);
    expect(nameAt(st, 1)).toBe("Bình");
  });

  it("merges updates into the view and keeps the numbering", () => {
    const st = started();
    const { events: _e, actions: _a, ...delta } = view({ seq: 1, current: 1, hand: "4s", my_turn: false, cards_left: [12, 13] });
    apply(st, {
      type: "update", n: 5, game: 1, view: delta, actions: [{ seat: 0, play: "3s" }],
      events: [{ type: "play", seq: 1, action: 1, seat: 0, cards: "3s", combination: "single", kind: "single", length: 1, beaten: null, out_of_turn: false, auto: false }],
      timers: [{ game: 1, seat: 1, kind: "turn", deadline: 110, seconds: 10 }],
    });
    expect(st.lastN).toBe(5);
    expect(seatView(st)?.hand).toBe("4s");
    expect(st.game?.view.events).toHaveLength(1);
    expect(seatsShown(st)[2].current).toBe(true);
    expect(timerOf(st, "turn")?.seat).toBe(1);
  });

  it("ignores a message already seen and flags a gap", () => {
    const st = started();
    expect(st.chat.map((l) => l.text)).toEqual(["chào"]);
    apply(st, { type: "chat", n: 4, id: 2, at: 2, user: "2", name: "Bình", seat: 2, text: "old" });
    expect(st.chat).toHaveLength(1);
    apply(st, { type: "chat", n: 7, id: 3, at: 3, user: "2", name: "Bình", seat: 2, text: "skipped one" });
    expect(st.gap).toBe(true);
    expect(st.chat).toHaveLength(1);
    apply(st, { type: "chat", n: 5, id: 4, at: 4, user: "1", name: "An", seat: 0, text: "next" });
    expect(st.chat.map((l) => l.text)).toEqual(["chào", "next"]);
  });

  it("keeps one timer of each kind, and drops the chop timer when the offer ends", () => {
    const st = started();
    apply(st, { type: "timer", n: 5, game: 1, seat: 0, kind: "turn", deadline: 100, seconds: 10 });
    apply(st, { type: "timer", n: 6, game: 1, seat: 0, kind: "chop", deadline: 50, seconds: 3 });
    apply(st, { type: "timer", n: 7, game: 1, seat: 1, kind: "turn", deadline: 110, seconds: 10 });
    expect(timerOf(st, "turn")?.seat).toBe(1);
    expect(timerOf(st, "chop")?.deadline).toBe(50);
    const { events: _e, actions: _a, ...delta } = view({ seq: 2 });
    apply(st, { type: "update", n: 8, game: 1, view: delta, actions: [], events: [], timers: [] });
    expect(timerOf(st, "chop")).toBeNull();
    expect(timerOf(st, "turn")?.deadline).toBe(110);
  });

  it("takes the timers a game or an update started, one of each kind", () => {
    const st = started();
    const turn = { game: 2, seat: 1, kind: "turn", deadline: 200, seconds: 10 } as const;
    apply(st, { type: "game", n: 5, game: 2, seats: [0, 2], view: view({ current: 1, my_turn: false }), timers: [turn] });
    expect(st.timers).toEqual([turn]);
    const { events: _e, actions: _a, ...delta } = view({ seq: 1, current: 0, chop_offer: true, my_turn: false });
    const next = { ...turn, seat: 0, deadline: 210 };
    const chop = { game: 2, seat: 0, kind: "chop", deadline: 203, seconds: 3 } as const;
    apply(st, { type: "update", n: 6, game: 2, view: delta, actions: [], events: [], timers: [next, chop] });
    expect(timerOf(st, "turn")).toEqual(next);
    expect(timerOf(st, "chop")).toEqual(chop);
  });

  it("notes chops and the end of a game, and keeps the settlement", () => {
    const st = started();
    const { events: _e, actions: _a, ...delta } = view({ seq: 3, over: true });
    const msgs: ServerMessage[] = [
      {
        type: "update", n: 5, game: 1, view: delta, actions: [], timers: [],
        events: [
          { type: "chop", seq: 2, action: 2, seat: 1, victim: 0, cards: "3s 3c 4s 4c 5s 5c", victim_cards: "2h", chain: [] },
          { type: "game_over", seq: 3, action: 3, winner: 1, ranking: [1, 0], reason: "out", cards_left: ["4s", ""] },
        ],
      },
      {
        type: "settlement", n: 6, game: 1, seats: [0, 2], players: ["1", "2"],
        settlement: { bet: 1000, deltas: [-2000, 1880], fee: 120, fees: [0, 120], fee_bp: 600, void: false, den_bai: null,
          items: [{ payer: 0, payee: 1, amount: 2000, owed: 2000, reason: "chop", reason_vi: "chặt", kind: "chop",
            facts: { what: "chop", bomb: "3s 3h 4s 4h 5s 5h", bomb_category: "pairs3", chopped: "2s", twos: "2s", over_chop: false, chain: [{ seat: 1, cards: "2s", category: "two", units: 2 }], units: 2 } }] },
      },
    ];
    for (const m of msgs) apply(st, m);
    expect(st.happenings.map((h) => h.event.type)).toEqual(["chop", "game_over"]);
    expect(st.settlement?.settlement.deltas).toEqual([-2000, 1880]);
    expect(st.timers).toEqual([]);
  });

  it("notes what the turn timer played or passed, and no other play or pass", () => {
    const st = started();
    const { events: _e, actions: _a, ...delta } = view({ seq: 3, current: 0, hand: "4s" });
    apply(st, {
      type: "update", n: 5, game: 1, view: delta, actions: [], timers: [],
      events: [
        { type: "play", seq: 1, action: 1, seat: 0, cards: "3s", combination: "single", kind: "single", length: 1, beaten: null, out_of_turn: false, auto: true },
        { type: "play", seq: 2, action: 2, seat: 1, cards: "5s", combination: "single", kind: "single", length: 1, beaten: { cards: "3s", combination: "single", kind: "single", length: 1, seat: 0 }, out_of_turn: false, auto: false },
        { type: "pass", seq: 3, action: 3, seat: 0, auto: false },
        { type: "pass", seq: 4, action: 4, seat: 0, auto: true },
      ],
    });
    expect(st.happenings.map((h) => [h.event.type, h.event.seq])).toEqual([["play", 1], ["pass", 4]]);
  });

  it("holds the happenings of the game shown only: a new deal starts them again, a state brings its game's", () => {
    const st = started();
    const { events: _e, actions: _a, ...delta } = view({ seq: 2, over: true });
    apply(st, {
      type: "update", n: 5, game: 1, view: delta, actions: [], timers: [],
      events: [
        { type: "pass", seq: 1, action: 1, seat: 0, auto: true },
        { type: "game_over", seq: 2, action: 2, winner: 1, ranking: [1, 0], reason: "out", cards_left: ["4s", ""] },
      ],
    });
    expect(st.happenings.map((h) => [h.game, h.event.type])).toEqual([[1, "pass"], [1, "game_over"]]);
    apply(st, { type: "game", n: 6, game: 2, seats: [0, 2], view: view(), timers: [] });
    expect(st.happenings).toEqual([]); // the last game's "Hết giờ" lines are gone
    const timedOut = view({ events: [{ type: "play", seq: 1, action: 1, seat: 0, cards: "3s", combination: "single", kind: "single", length: 1, beaten: null, out_of_turn: false, auto: true }] });
    apply(st, { type: "state", n: 9, table, chat: [], commitment: null, game: { game: 2, seats: [0, 2], view: timedOut, timers: [] } });
    expect(st.happenings.map((h) => [h.game, h.event.type])).toEqual([[2, "play"]]);
  });

  it("reads table messages and commitments", () => {
    const st = started();
    apply(st, { type: "table", n: 5, ...table, phase: "waiting", seats: [null, null, null] });
    expect(st.table?.phase).toBe("waiting");
    expect(mySeat(st)).toBeNull();
    apply(st, { type: "commitment", n: 6, game: 2, commitment: "ab", players: [0, 2], deadline: 5, seconds: 3 });
    expect(st.commitment?.game).toBe(2);
  });

  it("still names a player who left mid-game, in the game and in its settlement", () => {
    const st = started();
    apply(st, { type: "table", n: 5, ...table, seats: [table.seats[0], null, null] });
    expect(nameAt(st, 1)).toBe("Bình");
    // Someone else sits down in the seat left: the game's seat is still Bình's.
    const chi = { seat: 2, user: "3", name: "Chi", bot: null, connected: true, ready: false, playing: false, away: false };
    apply(st, { type: "table", n: 6, ...table, seats: [table.seats[0], null, chi] });
    expect(nameAt(st, 1)).toBe("Bình");
    apply(st, {
      type: "settlement", n: 7, game: 1, seats: [0, 2], players: ["1", "2"],
      settlement: { bet: 1000, deltas: [1880, -2000], fee: 120, fees: [120, 0], fee_bp: 600, void: false, den_bai: null, items: [] },
    });
    expect(nameAt(st, 1, st.settlement!.seats, st.settlement!.names)).toBe("Bình");
    // The next game is Chi's at that seat; the last settlement still names Bình.
    apply(st, { type: "game", n: 8, game: 2, seats: [0, 2], view: view(), timers: [] });
    expect(nameAt(st, 1)).toBe("Chi");
    expect(nameAt(st, 1, st.settlement!.seats, st.settlement!.names)).toBe("Bình");
  });
});
