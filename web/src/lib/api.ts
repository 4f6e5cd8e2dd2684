// The REST API (docs/SERVER.md), typed by the models generated from docs/schemas/rest.json.
// Every failure becomes an ApiError with the server's code and message.

import type {
  BannedAccount,
  Credentials,
  ErrorResponse,
  GameAnalysis,
  GameHistory,
  GameReplay,
  Leaderboard,
  NewReport,
  NewTable,
  Offences,
  PlayerInfo,
  Profile,
  RoomInfo,
  RulesInfo,
  SanctionTold,
  TableList,
  TableSummary,
} from "../generated/rest";

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** With `muted` and `banned`: the sanction in force (until when, why). */
    readonly sanction: SanctionTold | null = null,
    /** With `too_many_signups`, `too_many_logins` and `login_locked`: when to try again (ISO, UTC). */
    readonly retryAfter: string | null = null,
    /** With `banned`: the banned player's chips and ĐKN now. */
    readonly account: BannedAccount | null = null,
  ) {
    super(message);
  }
}

function isErrorResponse(body: unknown): body is ErrorResponse {
  return (
    typeof body === "object" &&
    body !== null &&
    "error" in body &&
    typeof (body as ErrorResponse).error?.code === "string"
  );
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError("network", "could not reach the server: check the connection and try again");
  }
  let data: unknown = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    if (isErrorResponse(data)) throw new ApiError(data.error.code, data.error.message, data.error.sanction ?? null, data.error.retry_after ?? null, data.error.account ?? null);
    throw new ApiError("internal_error", `the server answered ${response.status}`);
  }
  return data as T;
}

export const api = {
  me: () => call<Profile>("GET", "/api/me"),
  guest: () => call<Profile>("POST", "/api/guest"),
  login: (c: Credentials) => call<Profile>("POST", "/api/login", c),
  register: (c: Credentials) => call<Profile>("POST", "/api/register", c),
  upgrade: (c: Credentials) => call<Profile>("POST", "/api/upgrade", c),
  logout: () => call<{ ok: true }>("POST", "/api/logout"),
  rooms: () => call<RoomInfo[]>("GET", "/api/rooms"),
  tables: (invite?: string) =>
    call<TableList>("GET", "/api/tables" + (invite ? `?invite=${encodeURIComponent(invite)}` : "")),
  createTable: (t: NewTable) => call<TableSummary>("POST", "/api/tables", t),
  /** A table to play at now against bots, and the seat to take (docs/SERVER.md, "Play now"). */
  playNow: () => call<TableSummary & { seat?: number }>("POST", "/api/play-now"),
  /** The player's finished games, newest first (docs/SERVER.md, "Hand histories"). */
  myGames: (offset = 0, limit = 20) => call<GameHistory>("GET", `/api/me/games?limit=${limit}&offset=${offset}`),
  /** A finished game step by step, computed by the server's engine. */
  replay: (game: string) => call<GameReplay>("GET", `/api/games/${encodeURIComponent(game)}/replay`),
  /** The search bot's review of the player's decisions in a finished game. */
  analysis: (game: string) => call<GameAnalysis>("GET", `/api/games/${encodeURIComponent(game)}/analysis`),
  /** What anyone may see of a player (docs/SERVER.md). */
  player: (nickname: string) => call<PlayerInfo>("GET", `/api/players/${encodeURIComponent(nickname)}`),
  /** A finished game's record (tienlen-record/1), as downloaded: the page verifies its deal. */
  record: (game: string) => call<unknown>("GET", recordUrl(game)),
  /** Every rule preset's options and worked example (docs/SERVER.md; no login needed). */
  rules: () => call<RulesInfo>("GET", "/api/rules"),
  /** The conduct policy's offences: the reasons a report may give (docs/CONDUCT.md). */
  offences: () => call<Offences>("GET", "/api/conduct/offences"),
  /** Report a player (or one of their chat lines) to the moderators. */
  report: (r: NewReport) => call<{ id: number }>("POST", "/api/reports", r),
  leaderboard: (by: "dkn" | "chips") => call<Leaderboard>("GET", `/api/leaderboard?by=${by}&limit=20`),
};

/** Where a finished game's record is downloaded. */
export const recordUrl = (game: string): string => `/api/games/${encodeURIComponent(game)}/record`;
