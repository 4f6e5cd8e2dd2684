// The page's addresses (the part after #): the lobby, a table (with a private table's invite),
// the hand history, a finished game's replay, the player's profile and another player's, and
// the rules (`#/rules`, `#/rules/{preset}`).

export interface Route {
  page: "home" | "table" | "history" | "replay" | "profile" | "player" | "rules";
  /** The preset the rules page opens on (`#/rules/{preset}`). */
  preset?: string;
  /** The player a profile shows (`#/u/{nickname}`). */
  nickname?: string;
  table?: string;
  invite?: string;
  /** The game a replay shows (`<table>:<number>`). */
  game?: string;
}

export function parseRoute(hash: string): Route {
  const m = /^#\/t\/([A-Za-z0-9_-]+)(?:\/([A-Za-z0-9_-]+))?$/.exec(hash);
  if (m) return { page: "table", table: m[1], invite: m[2] };
  if (hash === "#/history") return { page: "history" };
  if (hash === "#/profile") return { page: "profile" };
  const rules = /^#\/rules(?:\/([a-z0-9_]+))?$/.exec(hash);
  if (rules) return rules[1] ? { page: "rules", preset: rules[1] } : { page: "rules" };
  const r = /^#\/(replay|u)\/([^/]+)$/.exec(hash);
  if (r) {
    try {
      const value = decodeURIComponent(r[2]);
      return r[1] === "replay" ? { page: "replay", game: value } : { page: "player", nickname: value };
    } catch {
      return { page: "home" };
    }
  }
  return { page: "home" };
}

/** The address of a route (what `go` sets). */
export function routeHash(route: Route): string {
  if (route.page === "table") return `#/t/${route.table}${route.invite ? "/" + route.invite : ""}`;
  if (route.page === "history") return "#/history";
  if (route.page === "replay") return `#/replay/${encodeURIComponent(route.game ?? "")}`;
  if (route.page === "profile") return "#/profile";
  if (route.page === "rules") return route.preset ? `#/rules/${route.preset}` : "#/rules";
  if (route.page === "player") return `#/u/${encodeURIComponent(route.nickname ?? "")}`;
  return "#/";
}
