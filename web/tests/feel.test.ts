import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ServerMessage } from "../src/generated/protocol_server";
import { parseCards } from "../src/lib/cards";
import { groupStarts, ordered } from "../src/lib/hand";
import { layoutHand, MIN_TARGET } from "../src/lib/handLayout";
import { dealIn, flyToPile, noteDeal, notePlay, reducedMotion, rememberHand } from "../src/lib/motion";
import { dragRange, playsWith, tapSelect } from "../src/lib/select";
import { MUTE_KEY, SOUND_FILES, Sounds, soundsFor, storedMuted, tickDue, type Fetch } from "../src/lib/sound";

const ids = (text: string) => new Set(parseCards(text).map((c) => c.id));
const id = (code: string) => parseCards(code)[0].id;
const codes = (set: Set<number>) =>
  [...set]
    .sort((a, b) => a - b)
    .map((x) => parseCards("3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h 6s 6c 6d 6h 7s 7c 7d 7h").find((c) => c.id === x)?.code)
    .join(" ");

describe("a tap selects the smallest legal play holding the card, then larger ones", () => {
  const legal = ["5s", "3s", "4c", "5s 5h", "3s 3c", "3s 3d", "3s 3c 3d", "3s 4c 5s", "4c 5s 6d", "3s 3c 4c 4d 5s 5h"];
  it("orders the plays holding a card: fewest cards, then the weakest, then the server's order", () => {
    expect(playsWith(id("3s"), legal).map(codes)).toEqual(["3s", "3s 3c", "3s 3d", "3s 3c 3d", "3s 4c 5s", "3s 3c 4c 4d 5s 5h"]);
    expect(playsWith(id("6d"), legal).map(codes)).toEqual(["4c 5s 6d"]);
    expect(playsWith(id("7h"), legal)).toEqual([]);
  });
  it("cycles through them on the same card, then nothing, then again", () => {
    let sel = new Set<number>();
    const seen: string[] = [];
    for (let i = 0; i < 8; i++) {
      sel = tapSelect(sel, id("3s"), legal);
      seen.push(codes(sel));
    }
    expect(seen).toEqual(["3s", "3s 3c", "3s 3d", "3s 3c 3d", "3s 4c 5s", "3s 3c 4c 4d 5s 5h", "", "3s"]);
  });
  it("goes back to the card alone, then none, when the card alone is no legal play", () => {
    let sel = tapSelect(new Set(), id("6d"), legal);
    expect(codes(sel)).toBe("4c 5s 6d");
    sel = tapSelect(sel, id("6d"), legal);
    expect(codes(sel)).toBe("6d");
    sel = tapSelect(sel, id("6d"), legal);
    expect(sel.size).toBe(0);
  });
  it("starts again from another card when a legal play is selected", () => {
    expect(codes(tapSelect(ids("3s 3c"), id("5h"), legal))).toBe("5s 5h");
  });
  it("adds or takes out a card of a selection made by hand, and toggles when nothing is legal", () => {
    expect(codes(tapSelect(ids("6d 7h"), id("3s"), legal))).toBe("3s 6d 7h"); // a drag's selection
    expect(codes(tapSelect(ids("3s 3c 7h"), id("3c"), legal))).toBe("3s 7h");
    expect(codes(tapSelect(ids("3s"), id("7h"), legal))).toBe("3s 7h"); // no play holds 7h
    expect(codes(tapSelect(new Set(), id("3s"), null))).toBe("3s"); // not the player's turn
    expect(codes(tapSelect(ids("3s 4c"), id("3s"), null))).toBe("4c");
    expect(codes(tapSelect(new Set(), id("3s"), []))).toBe("3s");
  });
});

describe("dragging across cards", () => {
  const hand = parseCards("3s 4c 5d 6h 7s");
  it("selects every card between the two ends, in the order shown, either way", () => {
    expect(codes(dragRange(hand, id("4c"), id("6h")))).toBe("4c 5d 6h");
    expect(codes(dragRange(hand, id("6h"), id("4c")))).toBe("4c 5d 6h");
    expect(codes(dragRange(hand, id("5d"), id("5d")))).toBe("5d");
    expect(dragRange(hand, id("5d"), id("7h")).size).toBe(0);
    const shown = [...hand].reverse(); // another order: the range follows what is shown
    expect(codes(dragRange(shown, id("7s"), id("5d")))).toBe("5d 6h 7s");
  });
});

describe("the hand's layout", () => {
  const hand = parseCards("3s 3c 4s 4c 5d 5h 7s 7c 7d 7h 9s 10d 2h");
  it("keeps a tap target of 44 px for 13 cards on a phone, in two rows within the width", () => {
    for (const width of [343, 358, 374]) {
      const l = layoutHand(13, width);
      expect(l.target).toBeGreaterThanOrEqual(MIN_TARGET);
      expect(new Set(l.places.map((p) => p.y)).size).toBe(2);
      for (const p of l.places) expect(p.x + l.cardW).toBeLessThanOrEqual(width + 0.01);
      for (let i = 1; i < 13; i++) {
        const [a, b] = [l.places[i - 1], l.places[i]];
        if (a.y === b.y) expect(b.x - a.x).toBeGreaterThanOrEqual(MIN_TARGET);
      }
    }
  });
  it("keeps one row on a desktop", () => {
    const l = layoutHand(13, 900);
    expect(new Set(l.places.map((p) => p.y)).size).toBe(1);
    expect(l.target).toBeGreaterThanOrEqual(MIN_TARGET);
  });
  it("leaves a gap before each group of the grouped order, and none in rank order", () => {
    const shown = ordered(hand, "groups");
    const starts = groupStarts(hand, "groups");
    expect(starts.size).toBe(4); // 7777, 33-44-55, 9, 10, 2: five groups
    expect(groupStarts(hand, "rank").size).toBe(0);
    const gapBefore = new Set(shown.flatMap((c, i) => (starts.has(c.id) ? [i] : [])));
    const l = layoutHand(13, 900, gapBefore);
    const steps = l.places.slice(1).map((p, i) => Math.round(p.x - l.places[i].x));
    const plain = Math.min(...steps);
    steps.forEach((step, i) => expect(step > plain).toBe(gapBefore.has(i + 1)));
    const phone = layoutHand(13, 358, gapBefore);
    expect(phone.target).toBeGreaterThanOrEqual(MIN_TARGET);
    for (const p of phone.places) expect(p.x + phone.cardW).toBeLessThanOrEqual(358.01);
  });
});

function memory(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
  } as Storage;
}

/** An AudioContext that records the files it decodes (a buffer is the file's URL, as the
 * fake fetch returns it) and the buffers it starts. */
function fakeAudio() {
  const decoded: string[] = [];
  const started: string[] = [];
  class Ctx {
    static made = 0;
    state = "running";
    destination = {};
    constructor() {
      Ctx.made++;
    }
    resume = async () => {};
    decodeAudioData = async (data: ArrayBuffer) => {
      const url = new TextDecoder().decode(data);
      decoded.push(url);
      return { url };
    };
    createBufferSource = () => {
      const source = { buffer: null as { url: string } | null, connect: (x: unknown) => x, start: () => started.push(source.buffer!.url) };
      return source;
    };
  }
  return { decoded, started, Ctx: Ctx as unknown as new () => AudioContext, count: () => Ctx.made };
}

describe("sounds", () => {
  it("remembers the mute switch", () => {
    const storage = memory();
    expect(storedMuted(storage)).toBe(false);
    const first = new Sounds(storage, null);
    expect(first.muted).toBe(false);
    first.setMuted(true);
    expect(storage.getItem(MUTE_KEY)).toBe("1");
    expect(new Sounds(storage, null).muted).toBe(true); // after a reload
    first.setMuted(false);
    expect(new Sounds(storage, null).muted).toBe(false);
  });
  it("starts the audio only on a gesture, plays the page's own files, is silent when muted, and without Web Audio", async () => {
    const audio = fakeAudio();
    const asked: string[] = [];
    const files: Fetch = async (url) => {
      asked.push(url);
      return { ok: true, arrayBuffer: async () => new TextEncoder().encode(url).buffer as ArrayBuffer };
    };
    const s = new Sounds(memory(), audio.Ctx, files);
    s.play("play");
    expect(audio.count()).toBe(0); // no gesture yet: no AudioContext at all
    expect(asked).toEqual([]); // nor any file fetched
    s.unlock();
    expect(audio.count()).toBe(1);
    await s.loaded();
    expect(asked.sort()).toEqual(Object.values(SOUND_FILES).sort()); // each file, once
    expect(audio.decoded.sort()).toEqual(Object.values(SOUND_FILES).sort());
    s.play("play");
    expect(audio.started).toEqual([SOUND_FILES.play]); // the decoded file of that sound
    s.setMuted(true);
    s.play("chop");
    expect(audio.started).toHaveLength(1);
    s.unlock();
    expect(audio.count()).toBe(1); // one context for the page
    expect(asked).toHaveLength(5); // and the files fetched once
    const silent = new Sounds(memory(), null, files);
    silent.unlock();
    expect(() => silent.play("deal")).not.toThrow();
    expect(silent.ready).toBe(false);
    // A file that cannot be fetched leaves that sound out, and nothing else.
    const broken = fakeAudio();
    const some = new Sounds(memory(), broken.Ctx, async (url) =>
      url === SOUND_FILES.deal ? Promise.reject(new Error("offline")) : files(url),
    );
    some.unlock();
    await some.loaded();
    some.play("deal");
    some.play("turn");
    expect(broken.started).toEqual([SOUND_FILES.turn]);
  });
  it("ships each sound as a short 16-bit mono WAV file made by the project", () => {
    for (const name of ["deal", "play", "chop", "turn", "tick"]) {
      const data = readFileSync(new URL(`../src/sounds/${name}.wav`, import.meta.url));
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
      expect(data.subarray(0, 4).toString("latin1")).toBe("RIFF");
      expect(data.subarray(8, 16).toString("latin1")).toBe("WAVEfmt ");
      expect([view.getUint16(20, true), view.getUint16(22, true), view.getUint16(34, true)]).toEqual([1, 1, 16]);
      const rate = view.getUint32(24, true);
      const samples = (data.byteLength - 44) / 2;
      expect(samples / rate).toBeGreaterThan(0.03);
      expect(samples / rate).toBeLessThan(0.5); // short: a card game's clicks, not music
      let peak = 0;
      for (let i = 44; i < data.byteLength; i += 2) peak = Math.max(peak, Math.abs(view.getInt16(i, true)));
      expect(peak).toBeGreaterThan(2000); // heard
      expect(peak).toBeLessThan(32_767); // never clipped
    }
  });
  const play = { type: "play", seq: 1, action: 1, seat: 0, cards: "2s", combination: "single", kind: "single", length: 1, beaten: null, out_of_turn: false, auto: false };
  const chop = { type: "chop", seq: 2, action: 2, seat: 1, cards: "3s 3c 4s 4c 5s 5c", chain: [], victim: 0, victim_cards: "2s" };
  const update = (events: unknown[]) => ({ type: "update", n: 2, game: 1, events, actions: [], view: {}, timers: [] }) as unknown as ServerMessage;
  it("chooses the sounds for each message", () => {
    const game = { type: "game", n: 1, game: 1, seats: [0, 1], view: {}, timers: [] } as unknown as ServerMessage;
    expect(soundsFor(game, false, false)).toEqual(["deal"]);
    expect(soundsFor(game, false, true)).toEqual(["deal", "turn"]);
    expect(soundsFor(update([play]), false, false)).toEqual(["play"]);
    expect(soundsFor(update([play, chop]), false, false)).toEqual(["chop"]);
    expect(soundsFor(update([play]), false, true)).toEqual(["play", "turn"]);
    expect(soundsFor(update([play]), true, true)).toEqual(["play"]); // still my turn: said once
    expect(soundsFor(update([{ type: "pass", seq: 3, action: 3, seat: 0, auto: false }]), false, false)).toEqual([]);
    const chat = { type: "chat", n: 3, id: 1, user: "u", name: "An", seat: 0, text: "hi", at: 0 } as unknown as ServerMessage;
    expect(soundsFor(chat, false, true)).toEqual([]);
  });
  it("ticks once for each of the turn's last three seconds", () => {
    const lefts = [5.1, 4.2, 3.3, 2.9, 2.7, 1.9, 1.1, 0.6, 0.1, 0];
    const ticks = lefts.slice(1).filter((left, i) => tickDue(lefts[i], left));
    expect(ticks).toEqual([2.9, 1.9, 0.6]);
    expect(tickDue(null, 2.5)).toBe(false);
    expect(tickDue(2.5, null)).toBe(false);
  });
});

describe("animations", () => {
  afterEach(() => vi.unstubAllGlobals());
  const rect = (x: number, y: number) => ({ left: x, top: y, width: 40, height: 56 }) as DOMRect;
  function stubPage(reduce: boolean) {
    vi.stubGlobal("matchMedia", (q: string) => ({ matches: reduce && q.includes("reduce") }));
    vi.stubGlobal("document", { querySelector: () => ({ getBoundingClientRect: () => rect(100, 0), isConnected: true }) });
    return { animate: vi.fn(), getBoundingClientRect: () => rect(100, 300) } as unknown as HTMLElement & { animate: ReturnType<typeof vi.fn> };
  }
  it("deals the hand in and flies a play to the pile, briefly", () => {
    const node = stubPage(false);
    expect(reducedMotion()).toBe(false);
    noteDeal();
    dealIn(node, 12);
    notePlay();
    flyToPile(node, { code: "2s", seat: 1, mine: false });
    expect(node.animate).toHaveBeenCalledTimes(2);
    const [, deal] = node.animate.mock.calls[0] as [unknown, KeyframeAnimationOptions];
    expect(Number(deal.duration) + Number(deal.delay)).toBeLessThanOrEqual(420);
    const [keys, fly] = node.animate.mock.calls[1] as [Keyframe[], KeyframeAnimationOptions];
    expect(Number(fly.duration)).toBeGreaterThanOrEqual(200);
    expect(Number(fly.duration)).toBeLessThanOrEqual(400);
    expect(keys[0].transform).toBe("translate(0px, -300px) scale(0.6)"); // from the seat
  });
  it("flies the player's own card from where it was in the hand", () => {
    const node = stubPage(false);
    const box = { isConnected: true, getBoundingClientRect: () => rect(10, 500) } as unknown as Element;
    rememberHand(box, parseCards("3s 2h"), { places: [{ x: 0, y: 16 }, { x: 50, y: 16 }], cardW: 60, cardH: 84 });
    rememberHand(box, parseCards("3s"), { places: [{ x: 0, y: 16 }], cardW: 60, cardH: 84 }); // 2h played
    notePlay();
    flyToPile(node, { code: "2h", seat: 0, mine: true });
    const [keys] = node.animate.mock.calls[0] as [Keyframe[]];
    // From the centre of 2h's last place (10 + 50 + 30, 500 + 16 + 42) to the pile card's (120, 328).
    expect(keys[0].transform).toBe("translate(-30px, 230px) scale(1.3)");
  });
  it("moves nothing under prefers-reduced-motion, nor long after the message (a reload)", () => {
    const node = stubPage(true);
    expect(reducedMotion()).toBe(true);
    noteDeal();
    notePlay();
    dealIn(node, 0);
    flyToPile(node, { code: "2s", seat: 1, mine: false });
    expect(node.animate).not.toHaveBeenCalled();
    const still = stubPage(false);
    noteDeal(Date.now() - 60_000);
    notePlay(Date.now() - 60_000);
    dealIn(still, 0);
    flyToPile(still, { code: "2s", seat: 1, mine: false });
    expect(still.animate).not.toHaveBeenCalled();
  });
});
