// The replay viewer's own logic: which step to show, and each step in words. The steps come
// from the server (GET /api/games/{id}/replay), computed by the engine: nothing about the rules
// is worked out here.

import type { DecisionReviewInfo, ReplayStep } from "../generated/rest";
import { withSymbols } from "./cards";
import { t, type Key, type Lang } from "./i18n";

/** A step index kept within the game's steps. */
export function clampStep(index: number, count: number): number {
  if (count <= 0) return 0;
  return Math.min(count - 1, Math.max(0, Math.trunc(Number.isFinite(index) ? index : 0)));
}

/** The step a key moves to (← → one step, Home/End the ends, PageUp/PageDown ten), or null
 * when the key is not the viewer's. */
export function stepForKey(key: string, index: number, count: number): number | null {
  const moves: Record<string, number> = {
    ArrowLeft: index - 1,
    ArrowRight: index + 1,
    Home: 0,
    End: count - 1,
    PageUp: index - 10,
    PageDown: index + 10,
  };
  return key in moves ? clampStep(moves[key], count) : null;
}

/** A step in words: the key of its sentence and what fills it. */
export function describeStep(
  step: ReplayStep,
  name: (seat: number) => string,
): { key: Key; params: Record<string, string | number> } {
  const seat = step.seat === null ? "" : name(step.seat);
  const cards = withSymbols(step.cards ?? "");
  switch (step.kind) {
    case "deal":
      return { key: "rp_deal", params: {} };
    case "play":
      return { key: step.auto ? "rp_play_timer" : "rp_play", params: { seat, cards } };
    case "chop":
      return { key: "rp_chop", params: { seat, cards } };
    case "pass":
      return { key: step.auto ? "rp_pass_timer" : "rp_pass", params: { seat } };
    case "decline":
      return { key: "rp_decline", params: { seat } };
    case "round_won":
      return { key: "rp_round", params: { seat } };
    case "player_out":
      return { key: "rp_out", params: { seat, place: step.place ?? "" } };
    case "left":
      return { key: "ev_left", params: { seat } };
    case "instant_win":
      return { key: "rp_instant", params: { seat: (step.seats ?? []).map(name).join(", ") } };
    case "cong":
      return { key: "ev_cong", params: { seats: (step.seats ?? []).map(name).join(", ") } };
    case "game_over":
      return step.seat === null ? { key: "ev_game_over_void", params: {} } : { key: "ev_game_over", params: { winner: seat } };
  }
}

/** The review of the player's decision a step shows (its own play, pass or declined chop,
 * the timer's too), if any. */
export function decisionAt(
  step: ReplayStep,
  seat: number,
  decisions: DecisionReviewInfo[],
): DecisionReviewInfo | null {
  if (!["play", "pass", "decline"].includes(step.kind) || step.seat !== seat) return null;
  return decisions.find((d) => d.action === step.action) ?? null;
}

/** The bot's choice in words: its cards, or a pass (a decline, for a chop offer). */
function botChoice(d: DecisionReviewInfo, lang: Lang): string {
  if (d.bot) return withSymbols(d.bot);
  return t(lang, d.kind === "chop" ? "no_chop" : "pass").toLowerCase();
}

/** A review as a sentence, beside the step: whether the search bot agrees, else its choice
 * and the estimated chips difference; for a chop offer in terms of chopping, and for a turn
 * the timer played, saying so. */
export function reviewWords(d: DecisionReviewInfo, lang: Lang): string {
  let text: string;
  if (d.kind === "chop") {
    if (d.same) text = t(lang, d.bot ? "analysis_same_chop" : "analysis_same_decline");
    else text = d.bot ? t(lang, "analysis_chop", { cards: withSymbols(d.bot) }) : t(lang, "analysis_decline");
  } else {
    text = d.same ? t(lang, "analysis_same") : d.bot ? t(lang, "analysis", { cards: withSymbols(d.bot) }) : t(lang, "analysis_pass");
  }
  if (!d.same && d.chips_difference !== null) {
    text += ` (${t(lang, "analysis_diff", { diff: signedChips(d.chips_difference) })})`;
  }
  return d.kind === "timer" ? `${t(lang, "analysis_timer")} ${text}` : text;
}

/** A review in a few characters, for the list of steps: nothing where the bot agrees (the
 * page draws a check mark, and a timer before a turn the timer played: Icon.svelte), else →
 * the bot's choice and the difference. */
export function reviewShort(d: DecisionReviewInfo, lang: Lang): string {
  if (d.same) return "";
  const diff = d.chips_difference === null ? "" : ` ${signedChips(d.chips_difference)}`;
  return `→ ${botChoice(d, lang)}${diff}`;
}

/** The chips difference as the player reads it: signed, whole chips. */
export function signedChips(diff: number): string {
  const n = Math.round(diff);
  const text = Math.abs(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
  return (n > 0 ? "+" : n < 0 ? "−" : "±") + text;
}

export type Place = "bottom" | "right" | "top" | "left";

/** Where each game seat sits around the replay's table, by seat: the player's own at the
 * bottom and the others after it in play order (counter-clockwise: right, top, left), as at
 * the live table. */
export function seatPlaces(n: number, mine: number): Place[] {
  const around: Place[] = n === 2 ? ["bottom", "top"] : n === 3 ? ["bottom", "right", "left"] : ["bottom", "right", "top", "left"];
  const base = mine >= 0 && mine < n ? mine : 0;
  return Array.from({ length: n }, (_, seat) => around[(seat - base + n) % n]);
}
