// The lobby's choices, as the server takes them (docs/SERVER.md, "The lobby").

import type { Profile, RoomInfo } from "../generated/rest";
import type { Lang } from "./i18n";
import { chips } from "./settlement";

/** The rule presets (engine.rules.PRESETS); the server refuses any other. */
export const PRESETS = ["thapthanh", "langvuichoi", "b52", "sanhrong", "bigfun"] as const;
/** Seed 000's turn timers. */
export const TURN_SECONDS = [10, 15, 20] as const;

/** The room with the lowest bets that the player may enter. */
export function cheapestOpen(rooms: RoomInfo[]): RoomInfo | null {
  const open = rooms.filter((r) => r.may_enter !== false).sort((a, b) => a.min_bet - b.min_bet);
  return open[0] ?? null;
}

/** Why a room is closed to the player, in the page's language. */
export function roomClosedReason(room: RoomInfo, profile: Profile | null, lang: Lang): string {
  if (lang === "en" && room.why_not) return room.why_not;
  const held = profile?.chips ?? 0;
  if (held < room.min_balance) {
    return lang === "vi"
      ? `Cần ${chips(room.min_balance)} chip (bạn có ${chips(held)})`
      : `Needs ${chips(room.min_balance)} chips (you hold ${chips(held)})`;
  }
  return lang === "vi"
    ? `Cần ${room.min_vip_points} điểm VIP (bạn có ${profile?.vip_points ?? 0})`
    : `Needs ${room.min_vip_points} VIP points (you have ${profile?.vip_points ?? 0})`;
}
