// The page's own check of a deal (src/lib/verify.ts) against docs/FAIRNESS.md: its known-answer
// vectors, its example record and the exact lines `tienlen verify` prints for it, and
// tampering (a changed card, seed or commitment fails, naming what does not match).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  PRESET_REDEALS,
  RecordError,
  blockMessage,
  cardsText,
  commitmentOf,
  dealGame,
  describeMismatch,
  joinMismatch,
  fromHex,
  handsFromDeck,
  messagePrefix,
  shuffledDeck,
  summary,
  toHex,
  verifyRecord,
} from "../src/lib/verify";
import { t } from "../src/lib/i18n";

const doc = readFileSync(new URL("../../docs/FAIRNESS.md", import.meta.url), "utf8");

interface Vector {
  server_seed: string;
  client_seeds: string[];
  players: number;
  redeal_four_twos: boolean;
  commitment: string;
  deals: { deal_index: number; message_0: string; blocks: string[]; deck: number[]; hands: string[] }[];
  deal_index: number;
  hands: string[];
}

const vectors: Vector[] = [...doc.matchAll(/<!-- vector -->\s*```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]));
const example = (label: string, kind: string): string => {
  const m = new RegExp(`<!-- example: ${label} -->\\s*\`\`\`${kind}\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
  if (!m) throw new Error(`no '${label}' example in docs/FAIRNESS.md`);
  return m[1];
};
const record = (): Record<string, any> => JSON.parse(example("record", "json"));
const seeds = (hex: string[]) => hex.map((h, i) => fromHex(h, `client_seeds[${i}]`));

describe("the known-answer vectors of docs/FAIRNESS.md", () => {
  it("are three", () => expect(vectors).toHaveLength(3));
  for (const [n, v] of vectors.entries()) {
    it(`vector ${n + 1}: commitment, messages, blocks, decks and hands`, async () => {
      const seed = fromHex(v.server_seed, "server_seed");
      expect(await commitmentOf(seed)).toBe(v.commitment);
      for (const deal of v.deals) {
        const prefix = messagePrefix(seeds(v.client_seeds), deal.deal_index);
        expect(toHex(blockMessage(prefix, 0))).toBe(deal.message_0);
        const { deck, blocks } = await shuffledDeck(seed, seeds(v.client_seeds), deal.deal_index);
        expect(blocks.slice(0, 2).map(toHex)).toEqual(deal.blocks);
        expect(deck).toEqual(deal.deck);
        expect(handsFromDeck(deck, v.players).map(cardsText)).toEqual(deal.hands);
      }
      const dealt = await dealGame(seed, seeds(v.client_seeds), v.players, v.redeal_four_twos);
      expect(dealt.dealIndex).toBe(v.deal_index);
      expect(dealt.hands.map(cardsText)).toEqual(v.hands);
    });
  }
  it("redeals only under the rule", async () => {
    const v = vectors[2];
    const dealt = await dealGame(fromHex(v.server_seed, "s"), [], 4, false);
    expect(dealt.dealIndex).toBe(0);
    expect(dealt.hands.map(cardsText)).toEqual(v.deals[0].hands);
    const redealt = await dealGame(fromHex(v.server_seed, "s"), [], 4, true);
    expect(redealt.redealt).toEqual(["deal 0: seat 2 held all four 2s"]);
  });
  it("knows the engine's presets, none of which redeals four 2s", () => {
    const rules = readFileSync(new URL("../../src/tienlen/engine/rules.py", import.meta.url), "utf8");
    const presets = [...rules.matchAll(/^ {4}"(\w+)": _preset\(/gm)].map((m) => m[1]);
    expect(Object.keys(PRESET_REDEALS).sort()).toEqual(presets.sort());
    expect(rules.slice(rules.indexOf("PRESETS: dict")).includes("redeal_four_twos=True")).toBe(false);
  });
  it("reads each preset's redeal rule from docs/schemas/presets.json, not a copy of its own", () => {
    const schema = JSON.parse(readFileSync(new URL("../../docs/schemas/presets.json", import.meta.url), "utf8"));
    const consts = Object.fromEntries(schema.required.map((k: string) => [k, schema.properties[k].const]));
    expect(PRESET_REDEALS).toEqual(consts);
    expect(Object.keys(PRESET_REDEALS)).toEqual(schema.required); // the engine's order
    const source = readFileSync(new URL("../src/lib/verify.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/thapthanh\s*:/);
  });
});

describe("a record", () => {
  it("verifies, saying what `tienlen verify` says", async () => {
    const v = await verifyRecord(record());
    expect(v.ok).toBe(true);
    expect(v.mismatches).toEqual([]);
    expect(summary(v)).toBe(example("ok", "text"));
    expect(v.serverSeed).toBe(record().deal.server_seed);
    expect(v.clientSeeds).toEqual(["00", "0102", "", "ffffffff"]);
    expect(v.hands).toEqual(record().hands);
  });
  it("with two cards swapped and the commitment changed lists each mismatch as the CLI does", async () => {
    const r = record();
    r.hands[0] = r.hands[0].replace("4c", "3c");
    r.hands[1] = r.hands[1].replace("3c", "4c");
    r.deal.commitment = r.deal.commitment.slice(0, -1) + "e";
    const v = await verifyRecord(r);
    expect(v.ok).toBe(false);
    const printed = example("mismatch", "text").split("\n").map((line) => line.replace(/^Mismatch: /, ""));
    expect(v.mismatches.map((m) => m.message)).toEqual(printed);
    expect(v.mismatches.map((m) => m.code)).toEqual(["commitment_mismatch", "hand_mismatch", "hand_mismatch"]);
    expect(v.mismatches[1]).toMatchObject({ seat: 0, missing: "4c", extra: "3c" });
  });
  it("fails for a changed server seed: the commitment and the hands", async () => {
    const r = record();
    r.deal.server_seed = r.deal.server_seed.slice(0, -2) + "20";
    const v = await verifyRecord(r);
    expect(v.mismatches[0].code).toBe("commitment_mismatch");
    expect(v.mismatches[0].actual).toBe(await commitmentOf(fromHex(r.deal.server_seed, "s")));
    expect(v.mismatches.slice(1).map((m) => m.code)).toEqual(["hand_mismatch", "hand_mismatch", "hand_mismatch", "hand_mismatch"]);
  });
  it("fails for a changed client seed: the hands only", async () => {
    const r = record();
    r.deal.client_seeds[2] = "01";
    const v = await verifyRecord(r);
    expect(v.mismatches.length).toBeGreaterThan(0);
    expect(new Set(v.mismatches.map((m) => m.code))).toEqual(new Set(["hand_mismatch"]));
  });
  it("fails for one card changed, naming the seat and the card", async () => {
    const r = record();
    r.hands[3] = r.hands[3].replace("2h", "2d");
    const v = await verifyRecord(r);
    expect(v.mismatches).toEqual([
      {
        code: "hand_mismatch",
        message: "seat 3: the seeds deal 2h that the record's hand lacks; the record's hand has 2d that the seeds do not deal it",
        seat: 3,
        missing: "2h",
        extra: "2d",
      },
    ]);
  });
  it("names a deal that is missing, malformed or of another scheme", async () => {
    const codes = async (change: (r: Record<string, any>) => void) => {
      const r = record();
      change(r);
      return (await verifyRecord(r)).mismatches.map((m) => [m.code, m.message]);
    };
    expect(await codes((r) => delete r.deal)).toEqual([["no_deal", "the record has no deal field: nothing proves how it was dealt"]]);
    expect(await codes((r) => (r.deal = "x"))).toEqual([["bad_deal", "deal must be an object {scheme, commitment, server_seed, client_seeds}"]]);
    expect(await codes((r) => (r.deal.scheme = "other/2"))).toEqual([
      ["unknown_scheme", "the deal names the scheme 'other/2'; this engine verifies only 'tienlen-deal/1'"],
    ]);
    expect(await codes((r) => delete r.deal.server_seed)).toEqual([
      ["missing_server_seed", "the deal has no server_seed (it is revealed only after the game)"],
    ]);
    expect(await codes((r) => (r.deal.commitment = "ABC"))).toEqual([["bad_commitment", "commitment has an odd number of hex digits (3)"]]);
    expect(await codes((r) => (r.deal.commitment = "00"))).toEqual([["bad_commitment", "commitment must be 64 hex digits (a SHA-256)"]]);
    expect(await codes((r) => (r.deal.server_seed = "zz"))).toEqual([["bad_server_seed", "server_seed must be lowercase hex digits 0-9a-f, not 'z'"]]);
    expect(await codes((r) => (r.deal.server_seed = "00"))).toEqual([["bad_server_seed", "server_seed must be 32 bytes (64 hex digits), not 1"]]);
    expect(await codes((r) => r.deal.client_seeds.pop())).toEqual([
      ["bad_client_seeds", "there must be no client seeds or one per seat (4), not 3"],
    ]);
    expect(await codes((r) => (r.deal.client_seeds[0] = "00".repeat(257)))).toEqual([
      ["bad_client_seeds", "client seed 0 is 257 bytes; at most 256"],
    ]);
  });
  it("cannot be read when it is not a record", async () => {
    await expect(verifyRecord([])).rejects.toThrow(RecordError);
    await expect(verifyRecord({ hands: ["3s"] })).rejects.toThrow("hands must be a list of 2 to 4 hands");
    await expect(verifyRecord({ ...record(), hands: ["3s Xx", "4s"] })).rejects.toThrow(
      "hands[0]: not a card: 'Xx' (write a rank 3-10/J/Q/K/A/2 and a suit s/c/d/h)",
    );
    await expect(verifyRecord({ ...record(), hands: ["3s 3s", "4s"] })).rejects.toThrow("hands[0]: card 3s is written twice");
    await expect(verifyRecord({ ...record(), ruleset: "nope" })).rejects.toThrow("ruleset: unknown rule preset 'nope'");
    // As the engine says it, the presets in its order; nothing an object inherits is a preset.
    const known = "(known: thapthanh, langvuichoi, b52, sanhrong, bigfun)";
    await expect(verifyRecord({ ...record(), ruleset: "toString" })).rejects.toThrow(`unknown rule preset 'toString' ${known}`);
  });
  it("reads hands as the engine does: written together, 10 or T, suit symbols, lists", async () => {
    const r = record();
    r.hands[0] = "4c4d5c5d6s7h10s10hJdJhQhKhAh";
    r.hands[1] = ["3c", "3d", "3h", "4s", "4h", "8s", "8h", "9s", "Js", "Qs", "Qd", "As", "2d"];
    r.hands[2] = "6♣ 6♦ 7♦ 8♣ 8♦ 9♦ T♦ Q♣ K♠ K♦ A♣ 2♠ 2♣";
    expect((await verifyRecord(r)).ok).toBe(true);
  });
  it("follows a record's own redeal rule", async () => {
    const v = vectors[2];
    const r = {
      ruleset: { preset: "thapthanh", overrides: { redeal_four_twos: true } },
      hands: v.hands,
      deal: { scheme: "tienlen-deal/1", commitment: v.commitment, server_seed: v.server_seed, client_seeds: [] },
    };
    const ok = await verifyRecord(r);
    expect(ok.ok).toBe(true);
    expect(ok.dealIndex).toBe(1);
    expect(summary(ok)).toContain("(redealt: deal 0: seat 2 held all four 2s)");
    const plain = await verifyRecord({ ...r, ruleset: "thapthanh" });
    expect(plain.dealIndex).toBe(0);
    expect(plain.ok).toBe(false);
  });
});

describe("the page's words for a mismatch", () => {
  it("names the seat, the cards and both hashes, in Vietnamese and English", async () => {
    const r = record();
    r.hands[0] = r.hands[0].replace("4c", "3c");
    r.hands[1] = r.hands[1].replace("3c", "4c");
    r.deal.commitment = r.deal.commitment.slice(0, -1) + "e";
    const v = await verifyRecord(r);
    const say = (lang: "vi" | "en", i: number) =>
      joinMismatch(describeMismatch(v.mismatches[i], (seat) => r.players[seat]).map((p) => t(lang, p.key, p.params)));
    expect(say("vi", 0)).toBe(
      `Cam kết sai: SHA-256 của hạt giống máy chủ là ${v.mismatches[0].actual}, không phải cam kết ${r.deal.commitment}.`,
    );
    expect(say("vi", 1)).toBe("Bài của An sai: hạt giống chia 4♣ mà bản ghi không có; bản ghi có 3♣ mà hạt giống không chia.");
    expect(say("en", 2)).toBe("Bình's hand is wrong: the seeds deal 3♣ that the record lacks; the record has 4♣ that the seeds do not deal.");
    for (const code of ["no_deal", "bad_deal", "unknown_scheme", "missing_commitment", "bad_commitment", "missing_server_seed", "bad_server_seed", "bad_client_seeds"] as const) {
      const [part] = describeMismatch({ code, message: "" }, String);
      expect(t("vi", part.key)).not.toBe(part.key);
    }
  });
});
