// Players whose chat this person chose not to read ("ẩn chat"): their lines are hidden at
// every table and in the lobby's chat, on this browser only (localStorage `tienlen.hiddenChat`).
// Nothing is sent to the server: it is the reader's choice, not a sanction.

import type { ChatLine } from "../generated/protocol_server";

export const MUTED_KEY = "tienlen.hiddenChat";

/** A player muted for oneself: by user id when known (a seat, a chat line), and by nickname
 * (a profile page shows no id). */
export interface MutedPlayer {
  user: string | null;
  name: string;
}

const same = (a: MutedPlayer, b: MutedPlayer) => (a.user !== null && a.user === b.user) || a.name === b.name;

/** The players muted, as stored (an unreadable or missing entry: none). */
export function readMuted(storage: Pick<Storage, "getItem"> | null): MutedPlayer[] {
  try {
    const value: unknown = JSON.parse(storage?.getItem(MUTED_KEY) ?? "[]");
    if (!Array.isArray(value)) return [];
    return value.filter(
      (x): x is MutedPlayer => typeof x?.name === "string" && (x.user === null || typeof x.user === "string"),
    );
  } catch {
    return [];
  }
}

export function writeMuted(storage: Pick<Storage, "setItem"> | null, muted: MutedPlayer[]): void {
  try {
    storage?.setItem(MUTED_KEY, JSON.stringify(muted));
  } catch {
    /* private mode, full: kept for this page only */
  }
}

export function isMuted(muted: MutedPlayer[], who: MutedPlayer): boolean {
  return muted.some((m) => same(m, who));
}

/** The list with `who` muted (once); an entry found by name learns the id. */
export function withMuted(muted: MutedPlayer[], who: MutedPlayer): MutedPlayer[] {
  return [...muted.filter((m) => !same(m, who)), who];
}

export function withoutMuted(muted: MutedPlayer[], who: MutedPlayer): MutedPlayer[] {
  return muted.filter((m) => !same(m, who));
}

/** The lines to show and how many are hidden; `showAll` shows them all (each marked). */
export function chatShown(
  lines: ChatLine[],
  muted: MutedPlayer[],
  showAll = false,
): { lines: { line: ChatLine; muted: boolean }[]; hidden: number } {
  const marked = lines.map((line) => ({ line, muted: isMuted(muted, { user: line.user, name: line.name }) }));
  const hidden = marked.filter((x) => x.muted).length;
  return { lines: showAll ? marked : marked.filter((x) => !x.muted), hidden };
}
