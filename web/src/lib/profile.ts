// The profile page's own small logic: where a player's profile is, a win rate as read, the
// chips chart over recent games and the progress toward each room still closed.

import type { GameSummary, RoomInfo } from "../generated/rest";
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

/** One game of the chips chart: the player's chips just after it. */
export interface ChipPoint {
  game: string;
  chips: number;
  delta: number;
}

/** The chips after each recent game, oldest first, from GET /api/me/games (newest first);
 * games that did not record a balance are left out. */
export function chipSeries(games: Pick<GameSummary, "id" | "balance" | "delta">[]): ChipPoint[] {
  return games
    .filter((g) => typeof g.balance === "number")
    .map((g) => ({ game: g.id, chips: g.balance as number, delta: g.delta }))
    .reverse();
}

export interface Chart {
  /** The line's points for an SVG polyline ("x,y x,y"). */
  points: string;
  dots: { x: number; y: number; point: ChipPoint }[];
  min: number;
  max: number;
}

/** The series drawn in a `width` × `height` box, `pad` from its edges: the chips before the
 * oldest game first (the line's start, without a dot), then one dot per game, left to right;
 * more chips higher up; a flat series is drawn across the middle. */
export function chipChart(series: ChipPoint[], width: number, height: number, pad = 6): Chart {
  const values = series.length ? [series[0].chips - series[0].delta, ...series.map((p) => p.chips)] : [];
  const min = values.length ? Math.min(...values) : 0;
  const max = values.length ? Math.max(...values) : 0;
  const span = max - min;
  const stepX = values.length > 1 ? (width - 2 * pad) / (values.length - 1) : 0;
  const at = (value: number, i: number) => ({
    x: Math.round((values.length > 1 ? pad + i * stepX : width / 2) * 10) / 10,
    y: Math.round((span ? pad + ((max - value) / span) * (height - 2 * pad) : height / 2) * 10) / 10,
  });
  const line = values.map(at);
  const dots = series.map((point, i) => ({ ...line[i + 1], point }));
  return { points: line.map((d) => `${d.x},${d.y}`).join(" "), dots, min, max };
}

/** How far the player is toward a room that is closed to them, from what the server says
 * they lack and hold (GET /api/rooms); null for a room they may enter. */
export function roomProgress(room: RoomInfo): { lacks: "chips" | "vip_points"; need: number; held: number; percent: number } | null {
  if (room.may_enter !== false || !room.lacks) return null;
  const need = room.lacks === "chips" ? room.min_chips : room.min_vip_points;
  const held = room.held ?? 0;
  const percent = need > 0 ? Math.min(100, Math.floor((100 * held) / need)) : 100;
  return { lacks: room.lacks, need, held, percent };
}
