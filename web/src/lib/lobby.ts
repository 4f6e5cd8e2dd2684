// The lobby's choices, as the server takes them (docs/SERVER.md, "The lobby").

import type { RoomInfo } from "../generated/rest";
import type { Lang } from "./i18n";
import { chips } from "./settlement";

/** The rule presets (engine.rules.PRESETS); the server refuses any other. */
export const PRESETS = ["thapthanh", "langvuichoi", "b52", "sanhrong", "bigfun"] as const;
/** Each preset in the players' words: the portal whose house rules it follows (docs/RULES.md:
 * thapthanh.com, Làng Vui Chơi, B52, Sảnh Rồng, Bigfun) and what sets it apart (`tienlen presets`). Keyed by preset key. */
export const PRESET_NAMES: Record<(typeof PRESETS)[number], { vi: [string, string]; en: [string, string] }> = {
  thapthanh: {
    vi: ["Thập Thành", "Đếm lá, heo và hàng tính thêm, chặt có trả tiền; 2 tứ quý hay 12 lá cùng màu tới trắng"],
    en: ["Thập Thành", "Cards left pay, heo and hàng add more, chops pay; two fours of a kind or 12 of one colour win outright"],
  },
  langvuichoi: {
    vi: ["Làng Vui Chơi", "Đếm lá, hàng ×15/×30/×40, kết 3♠ ×3; 4 đôi thông chặt không cần lượt, tới trắng cùng lúc thì chia nhau"],
    en: ["Làng Vui Chơi", "Cards left pay, hàng ×15/×30/×40, ending on 3♠ ×3; four pairs in a row chop out of turn, instant winners share"],
  },
  b52: {
    vi: ["Game Bài B52", "Heo/hàng tính 10/20/40, giữ 3♠ trả 10, chặt không trả tiền, cóng chỉ khi thua trắng"],
    en: ["Game Bài B52", "Heo/hàng count 10/20/40, holding 3♠ pays 10, chops do not pay, cóng only on a sweep"],
  },
  sanhrong: {
    vi: ["Sảnh Rồng", "Heo 3/6, hàng 12/16, cóng ×2, chặt không trả tiền; tứ quý không chặt được gì, ván đầu đánh 3♠"],
    en: ["Sảnh Rồng", "Heo 3/6, hàng 12/16, cóng ×2, chops do not pay; four of a kind chops nothing, the first play holds 3♠"],
  },
  bigfun: {
    vi: ["Bigfun (xếp hạng)", "Xếp đủ nhất nhì ba bét (bét đền nhất, ba đền nhì), đền bài; bỏ lượt rồi không chặt được"],
    en: ["Bigfun (full ranking)", "Every place pays (last pays first, third pays second), đền bài; no chop after passing"],
  },
};

/** A preset's name in the page's language (the raw key for one the client does not know). */
export function presetName(key: string, lang: Lang): string {
  const known = (PRESET_NAMES as Record<string, { vi: [string, string]; en: [string, string] } | undefined>)[key];
  return known ? known[lang][0] : key;
}

/** What sets a preset apart, in the page's language. */
export function presetHelp(key: string, lang: Lang): string {
  const known = (PRESET_NAMES as Record<string, { vi: [string, string]; en: [string, string] } | undefined>)[key];
  return known ? known[lang][1] : "";
}

/** The address that opens a private table for whoever holds it. */
export function inviteLink(origin: string, table: string, invite: string): string {
  return `${origin}/#/t/${encodeURIComponent(table)}/${encodeURIComponent(invite)}`;
}

/** Seed 000's turn timers. */
export const TURN_SECONDS = [10, 15, 20] as const;

/** The room with the lowest bets that the player may enter. */
export function cheapestOpen(rooms: RoomInfo[]): RoomInfo | null {
  const open = rooms.filter((r) => r.may_enter !== false).sort((a, b) => a.min_bet - b.min_bet);
  return open[0] ?? null;
}

/** Why a room is closed to the player, in the page's language, from what the server says they
 * lack (`lacks`, `held`: GET /api/rooms), numbers grouped as the page groups chips. */
export function roomClosedReason(room: RoomInfo, lang: Lang): string {
  const held = chips(room.held ?? 0);
  if (room.lacks === "vip_points") {
    const need = chips(room.min_vip_points);
    return lang === "vi" ? `Cần ${need} điểm VIP (bạn có ${held})` : `Needs ${need} VIP points (you have ${held})`;
  }
  const need = chips(room.min_chips);
  return lang === "vi" ? `Cần ${need} chip (bạn có ${held})` : `Needs ${need} chips (you hold ${held})`;
}
