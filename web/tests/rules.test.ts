import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RuleSet } from "../src/generated/rest";
import { cardsText, fieldSentences, RULE_WORDS, ruleSections, SCORING_WORDS, SECTIONS, type Field, type Names } from "../src/lib/rules";
import { parseRoute, routeHash } from "../src/lib/route";

/** The RuleSet and ScoringRules of the REST schema, generated from the engine's dataclasses
 * (tests/server/test_page.py keeps it up to date with src/tienlen/engine/rules.py). */
const schema = JSON.parse(readFileSync(new URL("../../docs/schemas/rest.json", import.meta.url), "utf8"));
type Prop = { default: unknown; type?: string; enum?: string[]; anyOf?: { type: string }[]; items?: { type?: string } };
const ruleProps: Record<string, Prop> = schema.$defs.RuleSet.properties;
const scoringProps: Record<string, Prop> = schema.$defs.ScoringRules.properties;

const names: Names = {
  instant_hands: { dragon: { en: "dragon straight 3 to A", vi: "sảnh rồng" }, four_twos: { en: "four 2s", vi: "tứ quý heo" } },
  categories: {
    two: { en: "a single 2", vi: "heo" },
    pairs3: { en: "3 consecutive pairs", vi: "3 đôi thông" },
    quad: { en: "four of a kind", vi: "tứ quý" },
  },
};

/** The schema's defaults: the engine's default RuleSet. */
function defaults(): RuleSet {
  const rules: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(ruleProps)) if (k !== "scoring") rules[k] = p.default;
  rules.scoring = Object.fromEntries(Object.entries(scoringProps).map(([k, p]) => [k, p.default]));
  return rules as unknown as RuleSet;
}

/** Other values a field may take, to word every branch: the other boolean, each enum value,
 * null where allowed, and a few numbers and lists. */
function variants(p: Prop): unknown[] {
  if (p.type === "boolean") return [true, false];
  if (p.enum) return p.enum;
  if (p.anyOf) return [null, 0, 1, 2, 26];
  if (p.type === "integer") return [0, 1, 2, 3];
  if (p.type === "array") return p.items?.type === "integer" ? [[], [1, 1], [2, 1, 3]] : [[], p.default];
  return [p.default];
}

const fieldKey = (f: Field) => ("rule" in f ? f.rule : "scoring." + f.scoring);

describe("the rules page's words", () => {
  it("words every RuleSet and ScoringRules field of the engine, each in exactly one section", () => {
    const engine = [...Object.keys(ruleProps).filter((k) => k !== "scoring"), ...Object.keys(scoringProps).map((k) => "scoring." + k)].sort();
    expect(engine).toContain("min_straight");
    expect(engine).toContain("scoring.cong_units");
    const placed = SECTIONS.flatMap((s) => s.fields.map(fieldKey));
    expect([...placed].sort()).toEqual(engine);
    expect(new Set(placed).size).toBe(placed.length);
    expect(Object.keys(RULE_WORDS).sort()).toEqual(Object.keys(ruleProps).filter((k) => k !== "scoring").sort());
    expect(Object.keys(SCORING_WORDS).sort()).toEqual(Object.keys(scoringProps).sort());
  });

  it("says every value of every option in both languages, each value its own sentence", () => {
    const base = defaults();
    for (const section of SECTIONS)
      for (const field of section.fields) {
        const prop = "rule" in field ? ruleProps[field.rule] : scoringProps[field.scoring];
        const seen = new Set<string>();
        for (const value of variants(prop)) {
          const rules = "rule" in field ? { ...base, [field.rule]: value } : { ...base, scoring: { ...base.scoring, [field.scoring]: value } };
          const vi = fieldSentences(field, rules as RuleSet, names, "vi");
          const en = fieldSentences(field, rules as RuleSet, names, "en");
          const where = `${fieldKey(field)} = ${JSON.stringify(value)}`;
          expect(vi.length, where).toBeGreaterThan(0);
          expect(en.length, where).toBe(vi.length);
          for (const [i, line] of vi.entries()) {
            expect(line.text.trim(), where).not.toBe("");
            expect(en[i].text.trim(), where).not.toBe("");
            expect(line.text, where).not.toContain("undefined");
            expect(en[i].text, where).not.toContain("undefined");
            expect(line.text, `${where}: not the raw fallback`).not.toContain(`${fieldKey(field)}:`);
          }
          seen.add(en.map((l) => l.text).join(" | "));
        }
        // Booleans and enums: each value worded differently (an option is never silently the same).
        if (prop.type === "boolean" || prop.enum) expect(seen.size, fieldKey(field)).toBe(variants(prop).length);
      }
  });

  it("names the chops and instant wins with the engine's names", () => {
    const rules = { ...defaults(), chops: [["two", "quad"], ["two", "pairs3"], ["pairs3", "quad"]], instant_wins: [["dragon", "all"], ["four_twos", "first"]] } as unknown as RuleSet;
    const chops = fieldSentences({ rule: "chops" }, rules, names, "vi").map((l) => l.text);
    expect(chops).toEqual(["Chặt heo bằng: 3 đôi thông, tứ quý.", "Chặt 3 đôi thông bằng: tứ quý."]);
    expect(fieldSentences({ rule: "chops" }, rules, names, "en")[0].text).toBe("A single 2 is chopped by 3 consecutive pairs, four of a kind.");
    const wins = fieldSentences({ rule: "instant_wins" }, rules, names, "vi").map((l) => l.text);
    expect(wins).toEqual(["Tới trắng: sảnh rồng (mọi ván).", "Tới trắng: tứ quý heo (chỉ ván đầu)."]);
    const money = ruleSections({ ...rules, scoring: { ...rules.scoring, cong_units: 15, place_units: [1, 1] } }, names, "en");
    expect(money.find((s) => s.id === "cong")!.sentences[0].text).toContain("pays 15 bets instead of the card count");
    expect(money.find((s) => s.id === "ending")!.sentences.map((l) => l.text)).toContain("Places pay: last pays first 1 bet.");
    const plays = money.find((s) => s.id === "plays")!.sentences.map((l) => l.text);
    expect(plays[0]).toContain("Card order: 3 < 4");
    expect(plays).toContain("A straight holds 3 or more cards in a row, never a 2; the longest runs 3 to A.");
  });

  it("shows an option it cannot word as its name and value, never dropping it", () => {
    const rules = { ...defaults(), brand_new: true, scoring: { ...defaults().scoring, new_money: 3 } } as unknown as RuleSet;
    const other = ruleSections(rules, names, "vi").find((s) => s.id === "other");
    expect(other?.sentences.map((l) => l.text)).toEqual(["brand_new: true", "scoring.new_money: 3"]);
    expect(ruleSections(defaults(), names, "vi").find((s) => s.id === "other")).toBeUndefined();
  });

  it("writes the example's cards with suit symbols", () => {
    expect(cardsText("3s 10h 2d")).toBe("3♠ 10♥ 2♦");
    expect(cardsText("")).toBe("—");
  });

  it("has its own addresses, with and without a preset", () => {
    expect(parseRoute("#/rules")).toEqual({ page: "rules" });
    expect(parseRoute("#/rules/b52")).toEqual({ page: "rules", preset: "b52" });
    expect(routeHash({ page: "rules", preset: "sanhrong" })).toBe("#/rules/sanhrong");
    expect(routeHash({ page: "rules" })).toBe("#/rules");
    expect(parseRoute("#/rules/B 52")).toEqual({ page: "home" });
  });
});
