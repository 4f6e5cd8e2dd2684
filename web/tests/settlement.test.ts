import { render } from "svelte/server";
import { describe, expect, it } from "vitest";
import SettlementLines from "../src/components/SettlementLines.svelte";
import type { Settlement } from "../src/lib/settlement";

// The settlement as the live table and the replay both show it (one component).

const settlement: Settlement = {
  bet: 1000, deltas: [-3000, 2820, 0], fee: 180, fees: [0, 180, 0], fee_bp: 600, void: false, den_bai: null,
  items: [
    { payer: 0, payee: 1, amount: 2000, owed: 2000, reason: "2 cards left", reason_vi: "còn 2 lá", kind: "cards", facts: { what: "cards", count: 2, per_card: 1, others_only: false, units: 2 } },
    { payer: 0, payee: 1, amount: 1000, owed: 5000, reason: "caught holding red 2 (2h): 5 cards", reason_vi: "thối heo đỏ (2h): 5 lá", kind: "thoi", facts: { what: "thoi", penalty: "red_two", cards: "2h", units: 5 } },
  ],
};
const name = (seat: number) => ["Lan", "Minh", "Hùng"][seat];
const text = (html: string) => html.replace(/<!--[^]*?-->/g, "").replace(/<[^>]+>/g, " ").replace(/[ \t\n]+/g, " ").trim();

describe("settlement lines", () => {
  it("numbers the lines, marks a short payment * and says why, in the page's language", () => {
    const vi = render(SettlementLines, { props: { settlement, name, lang: "vi" } }).body;
    expect(vi).toMatch(/<ol class="lines[^"]*">/);
    expect((vi.match(/data-testid="settlement-line"/g) ?? []).length).toBe(2);
    expect(text(vi)).toContain("Lan trả Minh: còn 2 lá 2\u202f000 (2 × 1\u202f000) Lan trả Minh: thối heo đỏ (2♥): 5 lá 1\u202f000 * (5 × 1\u202f000)");
    expect(text(vi)).toContain("* Trả thiếu: người trả không còn đủ chip.");
    expect(text(vi)).toContain("Minh +2\u202f820 Phí bàn 180");
    const en = text(render(SettlementLines, { props: { settlement, name, lang: "en" } }).body);
    expect(en).toContain("Lan pays Minh: caught holding red 2 (2♥): 5 cards 1\u202f000 * (5 × 1\u202f000)");
    expect(en).toContain("* Paid short: the payer had no more chips.");
  });
  it("explains the units: N lá (cược, cards, units) is N × the bet, from the first line", () => {
    const vi = text(render(SettlementLines, { props: { settlement, name, lang: "vi" } }).body);
    expect(vi).toContain("1 lá = 1 cược = mức cược 1\u202f000 chip, nên “2 lá” trả 2 × 1\u202f000 = 2\u202f000 chip.");
    const en = text(render(SettlementLines, { props: { settlement, name, lang: "en" } }).body);
    expect(en).toContain("1 card = 1 unit = the bet, 1\u202f000 chips, so “2 cards” pays 2 × 1\u202f000 = 2\u202f000 chips.");
    // A piece of a line shared between instant winners owes no whole number of units.
    const shared: Settlement = { ...settlement, items: [{ ...settlement.items[0], owed: 700, amount: 700, facts: { ...{ what: "cards", count: 2, per_card: 1, others_only: false, units: 2 }, shared_by: 2 } }] };
    const html = render(SettlementLines, { props: { settlement: shared, name, lang: "en" } }).body;
    expect(html).not.toContain("line-units");
    expect(html).not.toContain("units-note");
  });
  it("says nothing of short payments when every line was paid in full", () => {
    const full = { ...settlement, items: settlement.items.slice(0, 1) };
    const html = render(SettlementLines, { props: { settlement: full, name, lang: "vi" } }).body;
    expect(html).not.toContain("paid-short");
    expect(html).not.toContain(" *");
  });
});
