// The table's sounds: small WAV files the project makes itself (web/scripts/make_sounds.py
// writes web/src/sounds/), built into the page's assets and fetched from the page's own
// server — nothing comes from another site. The AudioContext is made only after the
// person's first gesture (the browsers' autoplay rule), and the files are fetched and
// decoded then; a browser without Web Audio stays silent. Muting is remembered in
// localStorage.

import type { ServerMessage } from "../generated/protocol_server";
import chopUrl from "../sounds/chop.wav";
import dealUrl from "../sounds/deal.wav";
import playUrl from "../sounds/play.wav";
import tickUrl from "../sounds/tick.wav";
import turnUrl from "../sounds/turn.wav";

export type SoundName = "deal" | "play" | "chop" | "turn" | "tick";

/** Where each sound's file is served (a hashed asset of the page). */
export const SOUND_FILES: Record<SoundName, string> = {
  deal: dealUrl,
  play: playUrl,
  chop: chopUrl,
  turn: turnUrl,
  tick: tickUrl,
};

export const MUTE_KEY = "tienlen.muted";
/** The last seconds of the player's turn that tick. */
export const TICK_SECONDS = 3;

/** The sounds a table message calls for: a deal, a chop (rather than its play), a play, and
 * the player's move coming (their turn, or a chop offered out of turn, that they did not have
 * before this message). */
export function soundsFor(msg: ServerMessage, myTurnBefore: boolean, myTurnAfter: boolean): SoundName[] {
  const out: SoundName[] = [];
  if (msg.type === "game") out.push("deal");
  if (msg.type === "update") {
    if (msg.events.some((e) => e.type === "chop")) out.push("chop");
    else if (msg.events.some((e) => e.type === "play")) out.push("play");
  }
  if ((msg.type === "game" || msg.type === "update") && myTurnAfter && !myTurnBefore) out.push("turn");
  return out;
}

/** Whether the turn's countdown just reached one of its last seconds (3, 2, 1): the whole
 * seconds shown went down from `before` to `after` (seconds left, or null with no turn). */
export function tickDue(before: number | null, after: number | null): boolean {
  if (before === null || after === null) return false;
  const was = Math.ceil(before);
  const now = Math.ceil(after);
  return now < was && now >= 1 && now <= TICK_SECONDS;
}

export function storedMuted(storage: Pick<Storage, "getItem"> | null): boolean {
  return storage?.getItem(MUTE_KEY) === "1";
}

type AudioCtor = new () => AudioContext;
/** Reads a sound's file (the page's `fetch`; tests pass their own). */
export type Fetch = (url: string) => Promise<{ ok: boolean; arrayBuffer(): Promise<ArrayBuffer> }>;

export class Sounds {
  muted: boolean;
  private context: AudioContext | null = null;
  private readonly buffers = new Map<SoundName, AudioBuffer>();
  private loading: Promise<void> | null = null;

  constructor(
    private readonly storage: Pick<Storage, "getItem" | "setItem"> | null,
    private readonly audio: AudioCtor | null,
    private readonly fetchFile: Fetch | null = null,
  ) {
    this.muted = storedMuted(storage);
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
    this.storage?.setItem(MUTE_KEY, muted ? "1" : "0");
  }

  /** Called on a person's gesture: the only moment an AudioContext may start; the sounds'
   * files are fetched and decoded then, once. */
  unlock(): void {
    if (!this.audio) return;
    try {
      this.context ??= new this.audio();
      if (this.context.state === "suspended") void this.context.resume();
    } catch {
      this.context = null; // no sound, and nothing else changes
      return;
    }
    this.loading ??= this.load(this.context);
  }

  get ready(): boolean {
    return this.context !== null;
  }

  /** Every sound fetched and decoded (or left out where one could not be). */
  loaded(): Promise<void> {
    return this.loading ?? Promise.resolve();
  }

  private async load(ctx: AudioContext): Promise<void> {
    const fetchFile = this.fetchFile;
    if (!fetchFile) return;
    await Promise.all(
      (Object.keys(SOUND_FILES) as SoundName[]).map(async (name) => {
        try {
          const answer = await fetchFile(SOUND_FILES[name]);
          if (answer.ok) this.buffers.set(name, await ctx.decodeAudioData(await answer.arrayBuffer()));
        } catch {
          /* a sound that cannot be read is left out */
        }
      }),
    );
  }

  /** Play `name` now; silent when muted, before the first gesture, or while its file is
   * still on its way. */
  play(name: SoundName): void {
    const ctx = this.context;
    const buffer = this.buffers.get(name);
    if (this.muted || !ctx || !buffer) return;
    try {
      const source = ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(ctx.destination);
      source.start();
    } catch {
      /* a sound that cannot be made is left out */
    }
  }
}

function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function browserAudio(): AudioCtor | null {
  if (typeof window === "undefined") return null;
  const w = window as unknown as { AudioContext?: AudioCtor; webkitAudioContext?: AudioCtor };
  return w.AudioContext ?? w.webkitAudioContext ?? null;
}

/** The page's sounds. */
export const sounds = new Sounds(
  typeof window === "undefined" ? null : browserStorage(),
  browserAudio(),
  typeof fetch === "undefined" ? null : (url) => fetch(url),
);

/** Start the sounds on the first gesture (a tap, a click, a key). */
export function unlockOnGesture(target: EventTarget = window): void {
  const unlock = () => {
    sounds.unlock();
    if (sounds.ready) for (const type of ["pointerdown", "keydown"]) target.removeEventListener(type, unlock, true);
  };
  for (const type of ["pointerdown", "keydown"]) target.addEventListener(type, unlock, true);
}

let myTurnBefore = false;
let leftBefore: number | null = null;

/** The sounds of one table message (after it was applied: `myTurn` is the player's turn now). */
export function soundMessage(msg: ServerMessage, myTurn: boolean): void {
  if (msg.type === "state") myTurnBefore = myTurn; // a reload: nothing to announce
  for (const name of soundsFor(msg, myTurnBefore, myTurn)) sounds.play(name);
  if (msg.type === "game" || msg.type === "update" || msg.type === "state") myTurnBefore = myTurn;
}

/** The player's turn countdown as it runs (seconds left, or null when it is not their turn). */
export function soundCountdown(left: number | null): void {
  if (tickDue(leftBefore, left)) sounds.play("tick");
  leftBefore = left;
}
