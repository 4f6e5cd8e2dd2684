// What every part of the page shares: the player's profile, the language, the route and the
// messages shown to the person (errors as sentences).

import type { SanctionMessage } from "../generated/protocol_server";
import type { Profile, SanctionTold } from "../generated/rest";
import { ApiError } from "./api";
import { liftedBy, toldText } from "./sanction";
import { chips } from "./settlement";
import { parseRoute, routeHash, type Route } from "./route";
import { errorText, LANG_KEY, storedLang, t as translate, type Key, type Lang } from "./i18n";

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export interface Notice {
  id: number;
  text: string;
  kind: "error" | "info";
  /** A notice of a mute or ban (told, or a line refused for it): taken down when it is lifted. */
  about?: "mute" | "ban";
}

/** The sanction a `muted` or `banned` error is about. */
function aboutOf(code: string): Notice["about"] {
  return code === "muted" ? "mute" : code === "banned" ? "ban" : undefined;
}

class Session {
  profile = $state<Profile | null>(null);
  checked = $state(false);
  lang = $state<Lang>(storedLang(storage()));
  route = $state<Route>(parseRoute(location.hash));
  notices = $state<Notice[]>([]);
  /** Tables this page opened or joined to play: sit down and be ready on arrival. */
  playAt = new Set<string>();
  /** Bots this page means to seat at a table it opened (as its owner). */
  botsWanted = new Map<string, number>();
  /** The seat the server said to take (play now). */
  seatWanted = new Map<string, number>();
  private ids = 0;

  t = (key: Key, params: Record<string, string | number> = {}): string => translate(this.lang, key, params);

  setLang(lang: Lang): void {
    this.lang = lang;
    storage()?.setItem(LANG_KEY, lang);
    document.documentElement.lang = lang;
  }

  notify(text: string, kind: Notice["kind"] = "error", about?: Notice["about"]): void {
    const id = ++this.ids;
    this.notices = [...this.notices, { id, text, kind, about }].slice(-4);
    setTimeout(() => this.dismiss(id), kind === "error" ? 8000 : 4000);
  }

  dismiss(id: number): void {
    this.notices = this.notices.filter((n) => n.id !== id);
  }

  /** The player's profile as the server just gave it: a daily top-up it granted (on log-in, or
   * on loading the profile, as after a settlement) is said, so the balance never jumps unexplained. */
  gotProfile(profile: Profile): void {
    this.profile = profile;
    if (profile.topup) this.notify(this.t("topup", { chips: chips(profile.topup) }), "info");
  }

  /** Show a failure as a sentence. */
  fail(error: unknown): void {
    if (error instanceof ApiError)
      this.notify(errorText(this.lang, error.code, error.message, error.sanction, undefined, error.retryAfter), "error", aboutOf(error.code));
    else this.notify(errorText(this.lang, "internal_error", String(error)));
  }

  serverError(code: string, message: string, sanction?: SanctionTold | null): void {
    this.notify(errorText(this.lang, code, message, sanction), "error", aboutOf(code));
  }

  /** A `sanction` message from a socket, said; a lift (unmute, unban) takes down what is
   * still shown about the mute or ban it ends. */
  told(msg: SanctionMessage): void {
    const lifted = liftedBy(msg);
    if (lifted === null) {
      this.notify(toldText(this.lang, msg), "error", msg.kind === "mute" || msg.kind === "ban" ? msg.kind : undefined);
      return;
    }
    this.notices = this.notices.filter((n) => n.about !== lifted);
    this.notify(toldText(this.lang, msg), "info");
  }

  go(route: Route): void {
    location.hash = routeHash(route);
  }
}

export const session = new Session();

window.addEventListener("hashchange", () => {
  session.route = parseRoute(location.hash);
});
document.documentElement.lang = session.lang;
