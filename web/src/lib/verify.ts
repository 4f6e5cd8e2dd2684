// A game record's deal checked in the browser, by the page and not the server: the scheme
// tienlen-deal/1 of docs/FAIRNESS.md written again from its specification with Web Crypto
// (crypto.subtle: SHA-256 and HMAC-SHA256). SHA-256 of the revealed server seed must be the
// commitment, and the seeds must deal exactly the record's hands. Like `tienlen verify`
// (src/tienlen/engine/verify.py) it lists every difference, with the same codes and messages.

import { RANKS, SUIT_LETTERS, SUIT_SYMBOLS, withSymbols } from "./cards";
import { PRESET_REDEALS as SCHEMA_REDEALS } from "../generated/presets";
import type { Key } from "./i18n";

export const SCHEME = "tienlen-deal/1";
export const SERVER_SEED_BYTES = 32;
export const MAX_CLIENT_SEED_BYTES = 256;
const HAND_SIZE = 13;
const DECK_SIZE = 52;
const TWOS = [48, 49, 50, 51];

/** The rule presets (src/tienlen/engine/rules.py) and whether each redeals a hand holding all
 * four 2s, as docs/schemas/presets.json says (a const each, generated from the engine's
 * presets); a record's `{"preset", "overrides"}` may turn `redeal_four_twos` on. */
export const PRESET_REDEALS: Readonly<Record<string, boolean>> = { ...SCHEMA_REDEALS };

export type MismatchCode =
  | "no_deal"
  | "bad_deal"
  | "unknown_scheme"
  | "missing_commitment"
  | "bad_commitment"
  | "missing_server_seed"
  | "bad_server_seed"
  | "bad_client_seeds"
  | "commitment_mismatch"
  | "hand_mismatch";

/** One thing in the record that its seeds do not bear out (as `tienlen verify --json`). */
export interface Mismatch {
  code: MismatchCode;
  message: string;
  seat?: number;
  /** Cards the seeds deal to `seat` that the record's hand lacks ("4c 5d"). */
  missing?: string;
  /** Cards the record gives `seat` that the seeds do not deal it. */
  extra?: string;
  /** commitment_mismatch: SHA-256 of the server seed, as computed here, and the commitment. */
  actual?: string;
  commitment?: string;
}

export interface Verification {
  ok: boolean;
  /** The commitment the record states, when it is well-formed. */
  commitment: string | null;
  /** The server seed the record reveals, when it is well-formed. */
  serverSeed: string | null;
  clientSeeds: string[] | null;
  /** Which deal of the seeds the hands come from (redeal_four_twos), once computed. */
  dealIndex: number | null;
  /** Why each earlier deal index was dealt again. */
  redealt: string[];
  /** The hands the seeds deal, seat 0 first, lowest card first. */
  hands: string[] | null;
  mismatches: Mismatch[];
}

/** A record that cannot be read at all (`tienlen verify` exits 2 for it). */
export class RecordError extends Error {}

class DealError extends Error {}

/** A value as Python's repr() writes it in the engine's messages (strings in single quotes). */
function pyRepr(value: unknown): string {
  if (typeof value === "string") return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value}'`;
  if (value === true || value === false) return value ? "True" : "False";
  if (value === null) return "None";
  return JSON.stringify(value);
}

// --- cards ----------------------------------------------------------------------------------

const RANK_PARSE: Record<string, number> = {};
RANKS.forEach((r, i) => (RANK_PARSE[r.toLowerCase()] = i));
RANK_PARSE["t"] = RANK_PARSE["10"];
const SUIT_PARSE: Record<string, number> = {};
SUIT_LETTERS.forEach((s, i) => (SUIT_PARSE[s] = i));
SUIT_SYMBOLS.forEach((s, i) => (SUIT_PARSE[s] = i));
const CARD_RE = /^(10|[2-9tjqka])([scdh♠♣♦♥])\ufe0f?$/i;
const CARD_IN = /(10|[2-9tjqka])([scdh♠♣♦♥])\ufe0f?/gi;

/** A card's name as records write it ("10h"). */
export const cardName = (id: number): string => RANKS[id >> 2] + SUIT_LETTERS[id & 3];

/** Cards lowest first, as records write a hand: "3s 4c 2h". */
export const cardsText = (ids: Iterable<number>): string =>
  [...ids]
    .sort((a, b) => a - b)
    .map(cardName)
    .join(" ");

function parseCard(text: string): number {
  const m = CARD_RE.exec(text.trim());
  if (!m) throw new RecordError(`not a card: ${pyRepr(text)} (write a rank 3-10/J/Q/K/A/2 and a suit s/c/d/h)`);
  return RANK_PARSE[m[1].toLowerCase()] * 4 + SUIT_PARSE[m[2].toLowerCase()];
}

/** A hand as the engine reads it: cards apart by spaces or commas, written together
 * ("3s4s5h") or a list of names; a card written twice is refused. */
export function parseHand(hand: string | string[]): number[] {
  let tokens: string[];
  if (typeof hand === "string") {
    tokens = hand.trim().split(/[\s,]+/).filter(Boolean);
    if (tokens.length === 1 && tokens[0].length > 3) {
      const found = [...tokens[0].matchAll(CARD_IN)].map((m) => m[1] + m[2]);
      if (found.join("").toLowerCase() === tokens[0].toLowerCase().replaceAll("\ufe0f", "")) tokens = found;
    }
  } else {
    tokens = hand;
  }
  const ids = tokens.map(parseCard);
  const seen = new Set<number>();
  for (const id of ids) {
    if (seen.has(id)) throw new RecordError(`card ${cardName(id)} is written twice`);
    seen.add(id);
  }
  return ids;
}

// --- bytes ----------------------------------------------------------------------------------

export function toHex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Bytes from lowercase hex; `what` names the field in the message. */
export function fromHex(text: unknown, what: string): Uint8Array {
  if (typeof text !== "string") throw new DealError(`${what} must be a string of lowercase hex digits`);
  if (!/^(?:[0-9a-f]{2})*$/.test(text)) {
    if (text.length % 2) throw new DealError(`${what} has an odd number of hex digits (${text.length})`);
    const bad = [...text].find((ch) => !"0123456789abcdef".includes(ch));
    throw new DealError(`${what} must be lowercase hex digits 0-9a-f, not ${pyRepr(bad)}`);
  }
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const u32 = (x: number): number[] => [(x >>> 24) & 255, (x >>> 16) & 255, (x >>> 8) & 255, x & 255];

// --- the scheme ------------------------------------------------------------------------------

/** The commitment: lowercase hex of SHA-256(server seed). */
export async function commitmentOf(serverSeed: Uint8Array, subtle: SubtleCrypto = crypto.subtle): Promise<string> {
  return toHex(new Uint8Array(await subtle.digest("SHA-256", serverSeed as BufferSource)));
}

/** What every HMAC message of deal `dealIndex` starts with: "tienlen-deal/1" 0x00, u32(m),
 * each client seed as u32(length) and its bytes, u32(deal index). */
export function messagePrefix(clientSeeds: Uint8Array[], dealIndex: number): Uint8Array {
  const parts: number[] = [...new TextEncoder().encode(SCHEME), 0, ...u32(clientSeeds.length)];
  for (const seed of clientSeeds) parts.push(...u32(seed.length), ...seed);
  parts.push(...u32(dealIndex));
  return Uint8Array.from(parts);
}

/** The message of block `counter`: the prefix then u64(counter), big-endian. */
export function blockMessage(prefix: Uint8Array, counter: number): Uint8Array {
  const message = new Uint8Array(prefix.length + 8);
  message.set(prefix);
  new DataView(message.buffer).setBigUint64(prefix.length, BigInt(counter));
  return message;
}

/** A deal's byte stream: HMAC-SHA256(key = server seed, message of block i), i = 0, 1, 2 … */
export class ByteStream {
  private key: Promise<CryptoKey>;
  private block = new Uint8Array(0);
  private at = 0;
  private counter = 0;
  private prefix: Uint8Array;
  readonly blocks: Uint8Array[] = [];

  constructor(
    serverSeed: Uint8Array,
    clientSeeds: Uint8Array[],
    dealIndex: number,
    private subtle: SubtleCrypto = crypto.subtle,
  ) {
    this.prefix = messagePrefix(clientSeeds, dealIndex);
    this.key = subtle.importKey("raw", serverSeed as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }

  async next(): Promise<number> {
    if (this.at === this.block.length) {
      const message = blockMessage(this.prefix, this.counter++);
      this.block = new Uint8Array(await this.subtle.sign("HMAC", await this.key, message as BufferSource));
      this.blocks.push(this.block);
      this.at = 0;
    }
    return this.block[this.at++];
  }

  /** A uniform number in 0 … n-1: bytes at or over 256 - 256 mod n are thrown away. */
  async below(n: number): Promise<number> {
    const limit = 256 - (256 % n);
    for (;;) {
      const b = await this.next();
      if (b < limit) return b % n;
    }
  }
}

/** The deck after deal `dealIndex`'s Fisher–Yates shuffle: position → card. */
export async function shuffledDeck(
  serverSeed: Uint8Array,
  clientSeeds: Uint8Array[],
  dealIndex = 0,
  subtle: SubtleCrypto = crypto.subtle,
): Promise<{ deck: number[]; blocks: Uint8Array[] }> {
  const stream = new ByteStream(serverSeed, clientSeeds, dealIndex, subtle);
  const deck = Array.from({ length: DECK_SIZE }, (_, i) => i);
  for (let i = DECK_SIZE - 1; i >= 1; i--) {
    const j = await stream.below(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return { deck, blocks: stream.blocks };
}

/** Seat s's hand: deck positions 13·s … 13·s + 12, lowest card first. */
export function handsFromDeck(deck: number[], players: number): number[][] {
  return Array.from({ length: players }, (_, s) =>
    deck.slice(s * HAND_SIZE, (s + 1) * HAND_SIZE).sort((a, b) => a - b),
  );
}

const holdsFourTwos = (hand: number[]): boolean => TWOS.every((c) => hand.includes(c));

/** The deal a game is played with: deal 0, or under redeal_four_twos the first deal index
 * whose hands pass; and why each earlier one was dealt again. */
export async function dealGame(
  serverSeed: Uint8Array,
  clientSeeds: Uint8Array[],
  players: number,
  redealFourTwos: boolean,
  subtle: SubtleCrypto = crypto.subtle,
): Promise<{ hands: number[][]; dealIndex: number; redealt: string[] }> {
  const redealt: string[] = [];
  for (let dealIndex = 0; ; dealIndex++) {
    const hands = handsFromDeck((await shuffledDeck(serverSeed, clientSeeds, dealIndex, subtle)).deck, players);
    const seat = hands.findIndex(holdsFourTwos);
    if (!redealFourTwos || seat < 0) return { hands, dealIndex, redealt };
    redealt.push(`deal ${dealIndex}: seat ${seat} held all four 2s`);
  }
}

// --- a record -------------------------------------------------------------------------------

function redealsOf(spec: unknown): boolean {
  const known = Object.keys(PRESET_REDEALS).join(", ");
  const preset = (name: string): boolean => {
    if (!Object.hasOwn(PRESET_REDEALS, name)) throw new RecordError(`ruleset: unknown rule preset '${name}' (known: ${known})`);
    return PRESET_REDEALS[name];
  };
  if (typeof spec === "string") return preset(spec);
  if (typeof spec === "object" && spec !== null && typeof (spec as { preset?: unknown }).preset === "string") {
    const { preset: name, overrides = {} } = spec as { preset: string; overrides?: unknown };
    if (typeof overrides !== "object" || overrides === null || Array.isArray(overrides)) {
      throw new RecordError("ruleset overrides must be an object");
    }
    const base = preset(name);
    const redeal = (overrides as Record<string, unknown>).redeal_four_twos;
    return redeal === undefined ? base : redeal === true;
  }
  throw new RecordError('ruleset must be a preset name or {"preset": NAME, "overrides": {...}}');
}

/** The record's hands, read card by card (a card moved from one seat to another is reported
 * against each seat, not refused). */
export function recordHands(data: Record<string, unknown>): number[][] {
  const raw = data.hands;
  if (!Array.isArray(raw) || raw.length < 2 || raw.length > 4) throw new RecordError("hands must be a list of 2 to 4 hands");
  return raw.map((hand, seat) => {
    if (typeof hand !== "string" && !(Array.isArray(hand) && hand.every((c) => typeof c === "string"))) {
      throw new RecordError(`hands[${seat}] must be a string or a list of card names`);
    }
    try {
      return parseHand(hand);
    } catch (e) {
      throw new RecordError(`hands[${seat}]: ${(e as Error).message}`);
    }
  });
}

function checkClientSeeds(seeds: Uint8Array[], players: number): void {
  if (seeds.length !== 0 && seeds.length !== players) {
    throw new DealError(`there must be no client seeds or one per seat (${players}), not ${seeds.length}`);
  }
  seeds.forEach((seed, seat) => {
    if (seed.length > MAX_CLIENT_SEED_BYTES) {
      throw new DealError(`client seed ${seat} is ${seed.length} bytes; at most ${MAX_CLIENT_SEED_BYTES}`);
    }
  });
}

function handMismatch(seat: number, dealt: number[], written: number[]): Mismatch | null {
  const missing = dealt.filter((c) => !written.includes(c));
  const extra = written.filter((c) => !dealt.includes(c));
  if (!missing.length && !extra.length) return null;
  const parts: string[] = [];
  if (missing.length) parts.push(`the seeds deal ${cardsText(missing)} that the record's hand lacks`);
  if (extra.length) parts.push(`the record's hand has ${cardsText(extra)} that the seeds do not deal it`);
  return {
    code: "hand_mismatch",
    message: `seat ${seat}: ${parts.join("; ")}`,
    seat,
    missing: cardsText(missing),
    extra: cardsText(extra),
  };
}

/** Recompute a record's deal from its `deal` field and list everything that differs.
 * Throws RecordError when the record cannot be read at all (not an object, hands that are not
 * cards, an unknown rule set); a missing or wrong `deal` is a mismatch in the result. */
export async function verifyRecord(data: unknown, subtle: SubtleCrypto = crypto.subtle): Promise<Verification> {
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new RecordError("a game record is a JSON object");
  const record = data as Record<string, unknown>;
  const written = recordHands(record);
  const redeal = redealsOf("ruleset" in record ? record.ruleset : "thapthanh");
  const result: Verification = {
    ok: false,
    commitment: null,
    serverSeed: null,
    clientSeeds: null,
    dealIndex: null,
    redealt: [],
    hands: null,
    mismatches: [],
  };
  const fail = (code: MismatchCode, message: string): Verification => ({ ...result, mismatches: [{ code, message }] });
  if (!("deal" in record)) return fail("no_deal", "the record has no deal field: nothing proves how it was dealt");
  const deal = record.deal;
  if (typeof deal !== "object" || deal === null || Array.isArray(deal)) {
    return fail("bad_deal", "deal must be an object {scheme, commitment, server_seed, client_seeds}");
  }
  const d = deal as Record<string, unknown>;
  if (d.scheme !== SCHEME) {
    const what = d.scheme === undefined || d.scheme === null ? "has no scheme" : `names the scheme ${pyRepr(d.scheme)}`;
    return fail("unknown_scheme", `the deal ${what}; this engine verifies only '${SCHEME}'`);
  }
  const found = result.mismatches;

  if (!("commitment" in d)) {
    found.push({ code: "missing_commitment", message: "the deal has no commitment" });
  } else {
    try {
      if (fromHex(d.commitment, "commitment").length !== 32) throw new DealError("commitment must be 64 hex digits (a SHA-256)");
      result.commitment = d.commitment as string;
    } catch (e) {
      found.push({ code: "bad_commitment", message: (e as Error).message });
    }
  }

  let serverSeed: Uint8Array | null = null;
  if (!("server_seed" in d)) {
    found.push({ code: "missing_server_seed", message: "the deal has no server_seed (it is revealed only after the game)" });
  } else {
    try {
      serverSeed = fromHex(d.server_seed, "server_seed");
      if (serverSeed.length !== SERVER_SEED_BYTES) {
        throw new DealError(
          `server_seed must be ${SERVER_SEED_BYTES} bytes (${2 * SERVER_SEED_BYTES} hex digits), not ${serverSeed.length}`,
        );
      }
      result.serverSeed = d.server_seed as string;
    } catch (e) {
      serverSeed = null;
      found.push({ code: "bad_server_seed", message: (e as Error).message });
    }
  }

  let clientSeeds: Uint8Array[] | null = null;
  try {
    const raw = "client_seeds" in d ? d.client_seeds : [];
    if (!Array.isArray(raw)) throw new DealError("client_seeds must be a list of hex strings, one per seat");
    clientSeeds = raw.map((s, i) => fromHex(s, `client_seeds[${i}]`));
    checkClientSeeds(clientSeeds, written.length);
    result.clientSeeds = raw as string[];
  } catch (e) {
    clientSeeds = null;
    found.push({ code: "bad_client_seeds", message: (e as Error).message });
  }

  if (serverSeed !== null && result.commitment !== null) {
    const actual = await commitmentOf(serverSeed, subtle);
    if (actual !== result.commitment) {
      found.push({
        code: "commitment_mismatch",
        message: `SHA-256 of server_seed is ${actual}, not the commitment ${result.commitment}`,
        actual,
        commitment: result.commitment,
      });
    }
  }
  if (serverSeed !== null && clientSeeds !== null) {
    const dealt = await dealGame(serverSeed, clientSeeds, written.length, redeal, subtle);
    result.dealIndex = dealt.dealIndex;
    result.redealt = dealt.redealt;
    result.hands = dealt.hands.map(cardsText);
    dealt.hands.forEach((hand, seat) => {
      const m = handMismatch(seat, hand, written[seat]);
      if (m) found.push(m);
    });
  }
  result.ok = found.length === 0;
  return result;
}

/** What `tienlen verify` prints for a record that verifies. */
export function summary(v: Verification): string {
  let line = `OK: the hands are deal ${v.dealIndex} of the revealed seeds`;
  line += `, and SHA-256 of the server seed is the commitment ${(v.commitment ?? "").slice(0, 16)}…`;
  if (v.redealt.length) line += ` (redealt: ${v.redealt.join("; ")})`;
  return line;
}

/** A mismatch in the page's words: the sentences (i18n keys and what fills them) to join. */
export function describeMismatch(
  m: Mismatch,
  seatName: (seat: number) => string,
): { key: Key; params: Record<string, string> }[] {
  if (m.code === "hand_mismatch") {
    const parts: { key: Key; params: Record<string, string> }[] = [{ key: "vm_hand_mismatch", params: { seat: seatName(m.seat ?? 0) } }];
    if (m.missing) parts.push({ key: "vm_missing", params: { cards: withSymbols(m.missing) } });
    if (m.extra) parts.push({ key: "vm_extra", params: { cards: withSymbols(m.extra) } });
    return parts;
  }
  if (m.code === "commitment_mismatch") {
    return [{ key: "vm_commitment_mismatch", params: { actual: m.actual ?? "", commitment: m.commitment ?? "" } }];
  }
  return [{ key: `vm_${m.code}` as Key, params: {} }];
}

/** The sentences of describeMismatch, said: "Seat 1's hand is wrong: this; that." */
export const joinMismatch = (texts: string[]): string =>
  texts.length > 1 ? `${texts[0]} ${texts.slice(1).join("; ")}.` : (texts[0] ?? "");
