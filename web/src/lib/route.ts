// The page's addresses (the part after #): the lobby, a table (with a private table's invite),
// the hand history and a finished game's replay.

export interface Route {
  page: "home" | "table" | "history" | "replay";
  table?: string;
  invite?: string;
  /** The game a replay shows (`<table>:<number>`). */
  game?: string;
}

export function parseRoute(hash: string): Route {
  const m = /^#\/t\/([A-Za-z0-9_-]+)(?:\/([A-Za-z0-9_-]+))?$/.exec(hash);
  if (m) return { page: "table", table: m[1], invite: m[2] };
  if (hash === "#/history") return { page: "history" };
  const r = /^#\/replay\/([^/]+)$/.exec(hash);
  if (r) {
    try {
      return { page: "replay", game: decodeURIComponent(r[1]) };
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
  return "#/";
}
