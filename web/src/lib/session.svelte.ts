// What every part of the page shares: the player's profile, the language, the route and the
// messages shown to the person (errors as sentences).

import type { SanctionMessage } from "../generated/protocol_server";
import type { BannedAccount, Profile, SanctionTold } from "../generated/rest";
import { api, ApiError } from "./api";
import { isMuted, MUTED_KEY, readMuted, withMuted, withoutMuted, writeMuted, type MutedPlayer } from "./muted";
import type { ReportTarget } from "./report";
import { liftedBy, toldText } from "./sanction";
import type { StoodUp } from "./seating";
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
  /** What the notice is about (a form, the connection): a later success there takes it down. */
  topic?: string;
}

/** The ban this page's player is under, as shown until they leave (it does not time out). */
export interface BanShown {
  sanction: SanctionTold;
  /** Whether they were playing a game when it came (it is forfeited). */
  playing: boolean;
  /** Their chips and ĐKN before the ban, when the page knew them. */
  before: BannedAccount | null;
  /** Their chips and ĐKN as the server tells them with the refusal; null until read. */
  after: BannedAccount | null;
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
  /** Players whose chat this person hides (lib/muted.ts). */
  muted = $state<MutedPlayer[]>(readMuted(storage()));
  /** The player being reported (the report dialog is open). */
  reporting = $state<ReportTarget | null>(null);
  /** The ban this player is under: the page shows it instead of the lobby and tables. */
  ban = $state<BanShown | null>(null);
  /** Tables this page opened or joined to play: sit down and be ready on arrival. */
  playAt = new Set<string>();
  /** Bots this page means to seat at a table it opened (as its owner). */
  botsWanted = new Map<string, number>();
  /** The seat the server said to take (play now). */
  seatWanted = new Map<string, number>();
  /** Why the server stood the player up (no chips left), said in the lobby until closed, with
   * the replay of the game that emptied their purse (the settlement it cut short). */
  stoodUp = $state<{ told: StoodUp; replay: string | null; toppedUp: number } | null>(null);
  private ids = 0;

  t = (key: Key, params: Record<string, string | number> = {}): string => translate(this.lang, key, params);

  setLang(lang: Lang): void {
    this.lang = lang;
    storage()?.setItem(LANG_KEY, lang);
    document.documentElement.lang = lang;
  }

  notify(text: string, kind: Notice["kind"] = "error", about?: Notice["about"], topic?: string): void {
    const id = ++this.ids;
    this.notices = [...this.notices, { id, text, kind, about, topic }].slice(-4);
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

  /** Take down the notices about `topic` that a success there made stale (a wrong password
   * after a good log-in, "reconnecting" once connected). */
  settle(topic: string): void {
    this.notices = this.notices.filter((n) => n.topic !== topic);
  }

  /** Show a failure as a sentence (about `topic`, if it has one). A ban refused with the
   * player's account (a log-in, the first look at the session) is shown as their ban. */
  fail(error: unknown, topic?: string): void {
    if (error instanceof ApiError && error.code === "banned" && error.sanction && error.account) {
      this.showBan(error.sanction, error.account);
      return;
    }
    if (error instanceof ApiError)
      this.notify(errorText(this.lang, error.code, error.message, error.sanction, undefined, error.retryAfter), "error", aboutOf(error.code), topic);
    else this.notify(errorText(this.lang, "internal_error", String(error)), "error", undefined, topic);
  }

  serverError(code: string, message: string, sanction?: SanctionTold | null, topic?: string): void {
    this.notify(errorText(this.lang, code, message, sanction), "error", aboutOf(code), topic);
  }

  /** The ban the server refused this session with (`account`: the chips and ĐKN now). */
  showBan(sanction: SanctionTold, account: BannedAccount): void {
    this.ban = { sanction, playing: this.ban?.playing ?? false, before: this.ban?.before ?? null, after: account };
    if (this.profile) this.profile = { ...this.profile, chips: account.chips, dkn: account.dkn };
  }

  /** A ban told by a socket (`playing`: a game was in progress in this player's seat). It is
   * shown until the player leaves; the sockets stop (the lobby and table give way to it); the
   * chips and ĐKN are read again once the table has sent the player away, from the `banned`
   * refusal, which carries them, so the page says what the ban cost. */
  async bannedNow(msg: SanctionMessage, playing: boolean): Promise<void> {
    if (msg.kind !== "ban" || this.ban) return;
    const before = this.profile ? { chips: this.profile.chips, dkn: this.profile.dkn } : null;
    const sanction: SanctionTold = { ...msg, kind: "ban" };
    this.ban = { sanction, playing, before, after: null };
    for (const wait of [1500, 5000]) {
      await new Promise((done) => setTimeout(done, wait));
      try {
        this.gotProfile(await api.me()); // lifted meanwhile
        this.ban = null;
        return;
      } catch (e) {
        if (e instanceof ApiError && e.code === "banned" && e.account) this.showBan(e.sanction ?? sanction, e.account);
      }
    }
  }

  /** A socket was closed for a ban this page was not told of: the `banned` refusal of the
   * session says which, and the page shows it. */
  async checkBan(): Promise<void> {
    try {
      this.gotProfile(await api.me());
    } catch (e) {
      this.fail(e);
    }
  }

  /** Hide (or show again) a player's chat for this person, remembered on this browser. */
  setMuted(who: MutedPlayer, hide: boolean): void {
    this.muted = hide ? withMuted(this.muted, who) : withoutMuted(this.muted, who);
    writeMuted(storage(), this.muted);
  }

  isMuted(who: MutedPlayer): boolean {
    return isMuted(this.muted, who);
  }

  /** A `sanction` message from a socket, said; a lift (unmute, unban) takes down what is
   * still shown about the mute or ban it ends. */
  told(msg: SanctionMessage): void {
    const lifted = liftedBy(msg);
    if (msg.kind === "ban") return; // shown as the page's ban (bannedNow)
    if (lifted === null) {
      this.notify(toldText(this.lang, msg), "error", msg.kind === "mute" ? "mute" : undefined);
      return;
    }
    this.notices = this.notices.filter((n) => n.about !== lifted);
    if (lifted === "ban") this.ban = null;
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
// Another tab of this browser hid or showed a player's chat: this one follows.
window.addEventListener("storage", (e) => {
  if (e.key === MUTED_KEY) session.muted = readMuted(storage());
});
document.documentElement.lang = session.lang;
