// The profile page's own small logic: where a player's profile is, and a win rate as read.

import { routeHash } from "./route";

/** The address of a player's profile. */
export function playerHash(nickname: string): string {
  return routeHash({ page: "player", nickname });
}

/** Games won out of games played, as a whole percentage ("—" before the first game). */
export function winRate(won: number, played: number): string {
  if (played <= 0) return "—";
  return `${Math.round((100 * won) / played)}%`;
}
