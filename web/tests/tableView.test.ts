import { describe, expect, it } from "vitest";
import type { GameEvent } from "../src/lib/table";
import { placeSeats, revealedHands, roundMoves } from "../src/lib/tableView";

const SINGLE = { combination: "single", kind: "single", length: 1 } as const;
const PAIR = { combination: "pair", kind: "pair", length: 2 } as const;
const play = (seq: number, seat: number, cards: string, auto = false): GameEvent => ({
  type: "play", seq, action: seq, seat, cards, ...(cards.includes(" ") ? PAIR : SINGLE), beaten: null, out_of_turn: false, auto,
});
const pass = (seq: number, seat: number, auto = false): GameEvent => ({ type: "pass", seq, action: seq, seat, auto });
const roundWon = (seq: number, seat: number): GameEvent => ({ type: "round_won", seq, action: seq, seat, leader: seat, inherited: false });

describe("the hands left at the end", () => {
  it("shows every hand the game_over event leaves, in finishing order, and none while the game is on", () => {
    const events: GameEvent[] = [play(1, 0, "3s")];
    expect(revealedHands(events)).toEqual([]);
    events.push({ type: "game_over", seq: 2, action: 2, winner: 2, ranking: [2, 0, 3, 1], reason: "out", cards_left: ["4s 5h", "3c 3d 2h", "", "Kd"] });
    expect(revealedHands(events)).toEqual([
      { seat: 0, cards: "4s 5h" },
      { seat: 3, cards: "Kd" },
      { seat: 1, cards: "3c 3d 2h" },
    ]);
  });
});

describe("the round's plays", () => {
  it("lists who played what and who passed since the round began, the timer's moves marked", () => {
    const events = [play(1, 0, "3s"), pass(2, 1), roundWon(3, 0), play(4, 0, "7s 7h"), pass(5, 1, true), play(6, 2, "9c 9d")];
    expect(roundMoves(events)).toEqual([
      { seat: 0, pass: false, cards: "7s 7h", ...PAIR, auto: false },
      { seat: 1, pass: true, auto: true },
      { seat: 2, pass: false, cards: "9c 9d", ...PAIR, auto: false },
    ]);
    expect(roundMoves([...events, roundWon(7, 2)])).toEqual([]); // a new round starts empty
  });
});

describe("where the seats sit", () => {
  it("puts the player at the bottom and the others after it in play order", () => {
    expect(placeSeats(4, 2, [0, 1, 2, 3])).toEqual(["top", "left", "bottom", "right"]);
    expect(placeSeats(3, 0, [0, 1, 2])).toEqual(["bottom", "right", "left"]);
    expect(placeSeats(2, 1, [0, 1])).toEqual(["top", "bottom"]);
  });
  it("seats a two-player game's opponent opposite, even at a table of four", () => {
    expect(placeSeats(4, 0, [0, 1])).toEqual(["bottom", "top", "right", "left"]);
    expect(placeSeats(4, 3, [1, 3])).toEqual(["right", "top", "left", "bottom"]);
    expect(placeSeats(4, null, [2, 0])).toEqual(["top", "left", "bottom", "right"]);
    expect(placeSeats(4, 1, [0, 2])).toEqual(["left", "bottom", "right", "top"]); // I sit out: they face each other across me
  });
});
