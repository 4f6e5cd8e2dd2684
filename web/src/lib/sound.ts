// The table's sounds, made here with the Web Audio API (oscillators, a little noise, short
// envelopes): nothing is downloaded. The AudioContext is made only after the person's first
// gesture (the browsers' autoplay rule); a browser without Web Audio stays silent. Muting is
// remembered in localStorage.

import type { ServerMessage } from "../generated/protocol_server";

export type SoundName = "deal" | "play" | "chop" | "turn" | "tick";

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

/** One sound: tones (frequency, sliding to another) and bursts of noise, each with a quick
 * attack and an exponential fall. */
interface Voice {
  at: number;
  length: number;
  gain: number;
  freq?: number;
  to?: number;
  wave?: OscillatorType;
  /** A burst of noise through a band-pass at this frequency. */
  noise?: number;
}

const VOICES: Record<SoundName, Voice[]> = {
  deal: Array.from({ length: 6 }, (_, i) => ({ at: i * 0.055, length: 0.035, gain: 0.25, noise: 3200 })),
  play: [
    { at: 0, length: 0.06, gain: 0.45, noise: 1800 },
    { at: 0, length: 0.09, gain: 0.25, freq: 190, to: 120, wave: "triangle" },
  ],
  chop: [
    { at: 0, length: 0.08, gain: 0.5, noise: 1200 },
    { at: 0, length: 0.35, gain: 0.22, freq: 520, to: 110, wave: "sawtooth" },
    { at: 0.08, length: 0.25, gain: 0.3, freq: 90, to: 60, wave: "square" },
  ],
  turn: [
    { at: 0, length: 0.14, gain: 0.2, freq: 660, wave: "sine" },
    { at: 0.12, length: 0.2, gain: 0.2, freq: 880, wave: "sine" },
  ],
  tick: [{ at: 0, length: 0.05, gain: 0.12, freq: 1250, wave: "square" }],
};

export class Sounds {
  muted: boolean;
  private context: AudioContext | null = null;
  private noiseBuffer: AudioBuffer | null = null;

  constructor(
    private readonly storage: Pick<Storage, "getItem" | "setItem"> | null,
    private readonly audio: AudioCtor | null,
  ) {
    this.muted = storedMuted(storage);
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
    this.storage?.setItem(MUTE_KEY, muted ? "1" : "0");
  }

  /** Called on a person's gesture: the only moment an AudioContext may start. */
  unlock(): void {
    if (!this.audio) return;
    try {
      this.context ??= new this.audio();
      if (this.context.state === "suspended") void this.context.resume();
    } catch {
      this.context = null; // no sound, and nothing else changes
    }
  }

  get ready(): boolean {
    return this.context !== null;
  }

  play(name: SoundName): void {
    const ctx = this.context;
    if (this.muted || !ctx) return;
    try {
      for (const v of VOICES[name]) this.voice(ctx, v);
    } catch {
      /* a sound that cannot be made is left out */
    }
  }

  private voice(ctx: AudioContext, v: Voice): void {
    const start = ctx.currentTime + v.at;
    const env = ctx.createGain();
    env.gain.setValueAtTime(0.0001, start);
    env.gain.exponentialRampToValueAtTime(v.gain, start + 0.006);
    env.gain.exponentialRampToValueAtTime(0.0001, start + v.length);
    env.connect(ctx.destination);
    let source: AudioScheduledSourceNode;
    if (v.noise !== undefined) {
      const noise = ctx.createBufferSource();
      noise.buffer = this.noise(ctx);
      const band = ctx.createBiquadFilter();
      band.type = "bandpass";
      band.frequency.value = v.noise;
      noise.connect(band).connect(env);
      source = noise;
    } else {
      const osc = ctx.createOscillator();
      osc.type = v.wave ?? "sine";
      osc.frequency.setValueAtTime(v.freq ?? 440, start);
      if (v.to !== undefined) osc.frequency.exponentialRampToValueAtTime(v.to, start + v.length);
      osc.connect(env);
      source = osc;
    }
    source.start(start);
    source.stop(start + v.length + 0.02);
  }

  private noise(ctx: AudioContext): AudioBuffer {
    if (!this.noiseBuffer) {
      const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * 0.1), ctx.sampleRate);
      const data = buffer.getChannelData(0);
      for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
      this.noiseBuffer = buffer;
    }
    return this.noiseBuffer;
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
export const sounds = new Sounds(typeof window === "undefined" ? null : browserStorage(), browserAudio());

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
