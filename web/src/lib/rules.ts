// The rules page's words: every option of a preset's RuleSet (GET /api/rules, the engine's own
// values) turned into sentences in Vietnamese and English. Each field of RuleSet and of its
// ScoringRules has a wording below (TypeScript refuses a missing one, and a test reads the
// schema); a field the page does not know yet is still shown, as its name and value.

import type { RuleNames, RuleSet, RulesInfo, ScoringRules } from "../generated/rest";
import type { Lang } from "./i18n";
import { withSymbols } from "./cards";

export interface Words {
  vi: string;
  en: string;
}

/** The names the engine gives the instant-win hands and the chop categories. */
export type Names = Pick<RulesInfo, "instant_hands" | "categories">;

type RuleField = Exclude<keyof RuleSet, "scoring">;
type ScoringField = keyof ScoringRules;
type Wording<T, K extends keyof T> = (value: T[K], rules: RuleSet, names: Names) => Words[];

const one = (vi: string, en: string): Words[] => [{ vi, en }];
const name = (names: Record<string, RuleNames | undefined>, key: string): RuleNames => names[key] ?? { vi: key, en: key };
const bets = (n: number): Words => ({ vi: `${n} cược`, en: `${n} bet${n === 1 ? "" : "s"}` });

const SCOPES: Record<string, Words> = {
  all: { vi: "mọi ván", en: "every game" },
  first: { vi: "chỉ ván đầu", en: "first game only" },
  other: { vi: "trừ ván đầu", en: "not in a first game" },
};

const PLACE_PAIRS: Words[] = [
  { vi: "bét đền nhất", en: "last pays first" },
  { vi: "ba đền nhì", en: "third pays second" },
];

/** Each RuleSet option's sentences (both of its values worded: nothing silently dropped). */
export const RULE_WORDS: { [K in RuleField]: Wording<RuleSet, K> } = {
  name: (v) => one(`Tên bộ luật trong máy chủ và biên bản ván: ${v}.`, `The preset's name in the server and in game records: ${v}.`),
  min_straight: (n) =>
    one(`Sảnh (dây): từ ${n} lá liên tiếp trở lên, không có heo (2); dài nhất từ 3 đến A.`, `A straight holds ${n} or more cards in a row, never a 2; the longest runs 3 to A.`),
  chops: (pairs, _r, names) => {
    const byVictim = new Map<string, string[]>();
    for (const [victim, chopper] of pairs as [string, string][]) byVictim.set(victim, [...(byVictim.get(victim) ?? []), chopper]);
    const order = Object.keys(names.categories);
    const victims = [...byVictim.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    if (!victims.length) return one("Không có gì bị chặt.", "Nothing may be chopped.");
    return victims.map((victim) => {
      const choppers = byVictim.get(victim)!.sort((a, b) => order.indexOf(a) - order.indexOf(b));
      const by = (lang: Lang) => choppers.map((c) => name(names.categories, c)[lang]).join(", ");
      return { vi: `Chặt ${name(names.categories, victim).vi} bằng: ${by("vi")}.`, en: `${cap(name(names.categories, victim).en)} is chopped by ${by("en")}.` };
    });
  },
  four_pairs_after_pass: (v) =>
    v
      ? one("Đã bỏ lượt trong vòng vẫn được chặt bằng 4 đôi thông trở lên.", "A player who passed this round may still chop with 4 or more consecutive pairs.")
      : one("Đã bỏ lượt thì không được chặt nữa trong vòng đó, kể cả bằng 4 đôi thông.", "A player who passed may not chop again in that round, not even with 4 consecutive pairs."),
  four_pairs_out_of_turn: (v) =>
    v
      ? one("4 đôi thông trở lên được chặt ngay, không cần chờ tới lượt.", "4 or more consecutive pairs may chop at once, out of turn.")
      : one("Muốn chặt phải chờ tới lượt mình.", "A chop waits for the chopper's turn."),
  first_play_must_contain_lowest: (v) =>
    v
      ? one("Ván đầu, người có 3♠ đi trước và bài đánh ra đầu tiên phải có 3♠ (hoặc lá nhỏ nhất được chia).", "In a first game the holder of 3♠ leads, and the first play must contain 3♠ (or the lowest card dealt).")
      : one("Ván đầu, người có 3♠ đi trước nhưng không buộc phải đánh 3♠.", "In a first game the holder of 3♠ leads, with any play."),
  full_ranking: (v) =>
    v
      ? one("Có người về nhất rồi vẫn chơi tiếp để xếp đủ nhất, nhì, ba, bét.", "Play goes on after the first player is out, to settle every place.")
      : one("Ván kết thúc khi có người đánh hết bài (về nhất); những người còn lại trả theo bài trên tay.", "The game ends when one player is out; the others pay for what they still hold."),
  two_last_ranks_last: (v) =>
    v
      ? one("Đánh lá cuối cùng có heo (2) thì bị xếp bét, không được về nhất.", "A player whose last play contains a 2 ranks last instead of winning.")
      : one("Được về nhất bằng heo (2).", "A player may go out on a 2."),
  instant_wins: (list, _r, names) =>
    !list.length
      ? one("Không có tới trắng: mọi ván đều phải đánh.", "No instant wins: every game is played out.")
      : (list as [string, string][]).map(([hand, scope]) => {
      const n = name(names.instant_hands, hand);
      const when = SCOPES[scope] ?? { vi: scope, en: scope };
      return { vi: `Tới trắng: ${n.vi} (${when.vi}).`, en: `Instant win (tới trắng): ${n.en} (${when.en}).` };
    }),
  instant_win_ties: (v) =>
    v === "share_later_games"
      ? one("Nhiều người cùng tới trắng: ván đầu người có 3♠ thắng; các ván sau họ chia đều tiền thắng.", "Several instant winners: in a first game the 3♠ holder wins; in later games they share the win.")
      : one("Nhiều người cùng tới trắng: người gần người đi đầu nhất theo thứ tự đánh thắng (ván đầu là người có 3♠).", "Several instant winners: the first in play order from the leader wins (in a first game, the 3♠ holder)."),
  six_pairs_quad_counts_two: (v) =>
    v
      ? one("Với 6 đôi: tứ quý tính là 2 đôi, sám cô tính 1 đôi.", "For 6 pairs, a four of a kind counts as two pairs, a triple as one.")
      : one("Với 6 đôi: tứ quý không tính là 2 đôi, sám cô tính 1 đôi.", "For 6 pairs, a four of a kind does not count as two pairs; a triple counts as one."),
  instant_sets_consecutive: (v) =>
    v
      ? one("3 hay 4 sám cô và 3 tứ quý phải liền nhau (như 5-6-7) mới tới trắng.", "Three or four triples and three fours of a kind must be of consecutive ranks (like 5-6-7).")
      : one("3 hay 4 sám cô và 3 tứ quý không cần liền nhau.", "Three or four triples and three fours of a kind need not be consecutive."),
  no_consecutive_instant_win: (v) =>
    v
      ? one("Vừa tới trắng thì ván sau không được tới trắng nữa.", "An instant winner may not win instantly again in the next game.")
      : one("Được tới trắng nhiều ván liền.", "Instant wins may come in games in a row."),
  redeal_four_twos: (v) =>
    v
      ? one("Một người được chia cả 4 heo thì chia lại.", "A hand dealt all four 2s is dealt again.")
      : one("Không chia lại khi một người có cả 4 heo.", "Four 2s in one hand are not dealt again."),
};

/** Each money option's sentences (values in bets: 1 cược is the table's bet). */
export const SCORING_WORDS: { [K in ScoringField]: Wording<ScoringRules, K> } = {
  card: (n) =>
    n > 0
      ? one(`Người thua trả ${n === 1 ? "" : n + " cược "}mỗi lá còn trên tay (đếm lá)${n === 1 ? ": 1 lá = 1 cược" : ""}.`, `A loser pays ${bets(n).en} for each card still held.`)
      : one("Lá còn trên tay không tính tiền: chỉ thứ hạng trả tiền.", "Cards left pay nothing: only the places pay."),
  black_two: (n) => one(`Thối heo đen (2♠, 2♣): ${bets(n).vi} mỗi lá.`, `A black 2 (2♠, 2♣) caught in hand (thối): ${bets(n).en} each.`),
  red_two: (n) => one(`Thối heo đỏ (2♦, 2♥): ${bets(n).vi} mỗi lá.`, `A red 2 (2♦, 2♥) caught in hand: ${bets(n).en} each.`),
  pairs3: (n) => one(`Thối 3 đôi thông: ${bets(n).vi}.`, `3 consecutive pairs caught in hand: ${bets(n).en}.`),
  quad: (n) => one(`Thối tứ quý: ${bets(n).vi}.`, `A four of a kind caught in hand: ${bets(n).en}.`),
  pairs4: (n) => one(`Thối 4, 5 hay 6 đôi thông: ${bets(n).vi}.`, `4, 5 or 6 consecutive pairs caught in hand: ${bets(n).en}.`),
  three_spades: (n) =>
    n > 0 ? one(`Còn giữ 3♠ cuối ván: ${bets(n).vi}.`, `3♠ still held at the end: ${bets(n).en}.`) : one("Giữ 3♠ cuối ván không bị phạt.", "Holding 3♠ at the end costs nothing more."),
  penalty_counting: (v) =>
    v === "replace"
      ? one("Heo, hàng bị thối tính theo giá thối thay cho số lá của chúng.", "A heo or hàng caught is charged at its value instead of its cards.")
      : one("Heo, hàng bị thối tính thêm, ngoài số lá của chúng.", "A heo or hàng caught is charged on top of its cards."),
  chop_pays: (v) =>
    v
      ? one("Chặt có trả tiền: người bị chặt sau cùng trả người chặt cả chuỗi theo giá thối; chặt chồng (hàng chặt hàng) thì cộng dồn.", "A chop pays: the last one chopped pays the chopper the chain's value; an over-chop (a bomb chopping a bomb) adds up the chain.")
      : one("Chặt không trả tiền: chỉ bài còn trên tay cuối ván tính tiền (chặt chồng cũng vậy).", "Chops (and over-chops) move no money: only the cards held at the end pay."),
  cong_units: (n) =>
    n === null
      ? one("Cóng (chưa đánh lá nào khi có người về nhất): trả theo số lá như thua thường.", "Cóng (no card played when the first is out): pays the card count like any loss.")
      : one(`Cóng (chưa đánh lá nào khi có người về nhất): trả ${bets(n).vi} thay cho số lá, thối vẫn tính thêm.`, `Cóng (no card played when the first is out): pays ${bets(n).en} instead of the card count; thối is added.`),
  cong_multiplier: (n) =>
    n > 1 ? one(`Cóng: mọi khoản phải trả nhân ${n}, cả thối.`, `Cóng: everything the player pays is multiplied by ${n}, thối included.`) : one("Cóng không bị nhân thêm.", "Cóng is not multiplied."),
  cong_sweep_only: (v) =>
    v
      ? one("Cóng chỉ tính khi người về nhất đánh hết 13 lá mà chưa ai đánh được lá nào; nếu không, người chưa đánh trả như thua thường.", "Cóng counts only when the winner sheds all 13 cards before anyone plays; otherwise a player who never played pays like any loser.")
      : one("Ai chưa đánh lá nào khi có người về nhất đều bị tính cóng.", "Every player who never played when the first goes out is cóng."),
  instant_win_units: (n) =>
    n === null
      ? one("Thua tới trắng: trả theo số lá trên tay như thua thường.", "Losing to an instant win: the hand is counted like any loss.")
      : one(`Thua tới trắng: mỗi người trả ${bets(n).vi}.`, `Losing to an instant win: each loser pays ${bets(n).en}.`),
  instant_win_penalties: (v) =>
    v ? one("Thua tới trắng vẫn phải trả thối heo, hàng.", "Losers to an instant win also pay thối for their heo and hàng.") : one("Thua tới trắng không tính thối.", "Losers to an instant win pay no thối."),
  first_game_instant_doubles: (v) =>
    v
      ? one("Tới trắng ván đầu bằng bộ chỉ tính ván đầu: số lá người thua nhân 2, heo tính giá thối.", "An instant win in a first game by a first-game-only hand: losers' cards count × 2, their 2s at thối value.")
      : one("Tới trắng ván đầu không nhân đôi.", "An instant win in a first game is not doubled."),
  three_spades_finish_multiplier: (n) =>
    n > 1 ? one(`Về nhất bằng lá cuối có 3♠: số lá người thua nhân ${n}.`, `The winner's last play holds 3♠: losers' card counts × ${n}.`) : one("Về nhất bằng 3♠ không nhân thêm.", "Finishing on 3♠ multiplies nothing."),
  three_spades_finish_cong_multiplier: (n) =>
    n > 1 ? one(`Về nhất bằng 3♠: người cóng trả mọi khoản nhân ${n}.`, `The winner finishes on 3♠: cóng losers pay everything × ${n}.`) : one("Về nhất bằng 3♠: cóng không nhân thêm.", "Finishing on 3♠ does not multiply cóng."),
  abandoned_game_void: (v) =>
    v
      ? one("Bàn từ 3 người: mọi người khác thoát ra trước khi có ai về nhất thì ván không tính tiền.", "At 3 or more players, a game that ends because all the others left, before anyone went out, moves no chips.")
      : one("Ván mà mọi người khác bỏ đi vẫn tính tiền như thường.", "A game the others all left is settled as usual."),
  place_units: (units) =>
    units.length
      ? units.map((n, k) => {
          const pair = PLACE_PAIRS[k] ?? { vi: `hạng ${k + 1} từ dưới đền hạng ${k + 1} từ trên`, en: `place ${k + 1} from the bottom pays place ${k + 1} from the top` };
          return { vi: `Trả theo thứ hạng: ${pair.vi} ${bets(n).vi}.`, en: `Places pay: ${pair.en} ${bets(n).en}.` };
        })
      : one("Không trả theo thứ hạng: người về nhất nhận tiền của mọi người thua.", "No place pays another: the first takes every loser's money."),
  den_bai: (v) =>
    v
      ? one("Đền bài: mọi người thua đều cóng thì người cuối cùng đã bỏ lượt dù chặn được phải trả thay cả bàn.", "Đền bài: when every loser is cóng, the last one who passed while able to beat pays for the whole table.")
      : one("Không có đền bài.", "No đền bài: each player pays their own."),
  cong_pays_everyone: (v) =>
    v
      ? one("Người cóng trả cho người nhất và cho mỗi người không cóng như thua tới trắng; không khoản nào khác.", "Each cóng player pays an instant-win loss to the first and to every player not cóng, and nothing else is paid.")
      : one("Người cóng chỉ trả cho người về nhất.", "A cóng player pays the first only."),
};

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export type Field = { rule: RuleField } | { scoring: ScoringField };

export interface Section {
  id: string;
  title: Words;
  /** What every preset shares, said before the section's options. */
  intro?: Words[];
  fields: Field[];
}

/** The play every preset shares (docs/RULES.md), said before the presets' own options. */
const PLAY_INTRO: Words[] = [
  { vi: "Thứ tự lá: 3 < 4 < … < K < A < 2 (heo); cùng số thì ♠ < ♣ < ♦ < ♥.", en: "Card order: 3 < 4 < … < K < A < 2 (heo); within a rank ♠ < ♣ < ♦ < ♥." },
  {
    vi: "Các bộ: lẻ, đôi, sám cô (ba lá), sảnh, đôi thông (3 đôi liền trở lên), tứ quý. Chặn bằng bộ cùng loại, cùng số lá, lá cao nhất lớn hơn; hoặc chặt (bên dưới).",
    en: "Combinations: single, pair, triple, straight, consecutive pairs (3 or more pairs in a row), four of a kind. Beat a play with one of the same kind and size whose top card is higher, or chop it (below).",
  },
];

const r = (rule: RuleField): Field => ({ rule });
const m = (scoring: ScoringField): Field => ({ scoring });

/** The page's sections, each field in exactly one (a test checks). */
export const SECTIONS: Section[] = [
  { id: "plays", title: { vi: "Bộ bài và lượt đánh", en: "Combinations and turns" }, intro: PLAY_INTRO, fields: [r("min_straight"), r("first_play_must_contain_lowest"), r("name")] },
  { id: "chops", title: { vi: "Chặt và chặt chồng", en: "Chops and over-chops" }, fields: [r("chops"), r("four_pairs_after_pass"), r("four_pairs_out_of_turn"), m("chop_pays")] },
  { id: "ending", title: { vi: "Kết thúc ván", en: "The end of a game" }, fields: [r("full_ranking"), r("two_last_ranks_last"), m("abandoned_game_void"), m("place_units"), m("den_bai")] },
  {
    id: "instant",
    title: { vi: "Tới trắng", en: "Instant wins (tới trắng)" },
    fields: [r("instant_wins"), r("instant_win_ties"), r("six_pairs_quad_counts_two"), r("instant_sets_consecutive"), r("no_consecutive_instant_win"), r("redeal_four_twos"), m("instant_win_units"), m("instant_win_penalties"), m("first_game_instant_doubles")],
  },
  { id: "cong", title: { vi: "Cóng", en: "Cóng" }, fields: [m("cong_units"), m("cong_multiplier"), m("cong_sweep_only"), m("cong_pays_everyone")] },
  {
    id: "money",
    title: { vi: "Tiền: đếm lá và thối", en: "Money: cards left and thối" },
    fields: [m("card"), m("black_two"), m("red_two"), m("pairs3"), m("quad"), m("pairs4"), m("three_spades"), m("penalty_counting"), m("three_spades_finish_multiplier"), m("three_spades_finish_cong_multiplier")],
  },
];

export interface Sentence {
  field: string;
  text: string;
}

/** A field's sentences in one language; a field the page has no wording for is shown as its
 * name and value rather than dropped. */
export function fieldSentences(field: Field, rules: RuleSet, names: Names, lang: Lang): Sentence[] {
  if ("rule" in field) {
    const wording = RULE_WORDS[field.rule] as Wording<RuleSet, RuleField> | undefined;
    const value = rules[field.rule];
    return wording ? wording(value, rules, names).map((w) => ({ field: field.rule, text: w[lang] })) : [raw(field.rule, value)];
  }
  const wording = SCORING_WORDS[field.scoring] as Wording<ScoringRules, ScoringField> | undefined;
  const value = rules.scoring[field.scoring];
  return wording ? wording(value, rules, names).map((w) => ({ field: "scoring." + field.scoring, text: w[lang] })) : [raw("scoring." + field.scoring, value)];
}

function raw(field: string, value: unknown): Sentence {
  return { field, text: `${field}: ${JSON.stringify(value)}` };
}

/** Options the server sent that no section words (a newer server): shown raw, never dropped. */
export function unknownFields(rules: RuleSet): Sentence[] {
  const known = new Set(SECTIONS.flatMap((s) => s.fields.map((f) => ("rule" in f ? f.rule : "scoring." + f.scoring))));
  const out: Sentence[] = [];
  for (const [k, v] of Object.entries(rules)) if (k !== "scoring" && !known.has(k)) out.push(raw(k, v));
  for (const [k, v] of Object.entries(rules.scoring ?? {})) if (!known.has("scoring." + k)) out.push(raw("scoring." + k, v));
  return out;
}

/** Every section of a preset's rules, in one language. */
export function ruleSections(rules: RuleSet, names: Names, lang: Lang): { id: string; title: string; sentences: Sentence[] }[] {
  const out = SECTIONS.map((s) => ({
    id: s.id,
    title: s.title[lang],
    sentences: [...(s.intro ?? []).map((w) => ({ field: "", text: w[lang] })), ...s.fields.flatMap((f) => fieldSentences(f, rules, names, lang))],
  }));
  const extra = unknownFields(rules);
  if (extra.length) out.push({ id: "other", title: lang === "vi" ? "Tùy chọn khác" : "Other options", sentences: extra });
  return out;
}

/** Cards written in the records' ASCII, with suit symbols: "3s 10h" → "3♠ 10♥" ("—" for none). */
export function cardsText(ascii: string): string {
  return ascii.trim() ? withSymbols(ascii) : "—";
}
