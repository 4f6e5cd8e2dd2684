import { describe, expect, it } from "vitest";
import type { TableSummary } from "../src/generated/lobby_server";
import { inviteLink, PRESET_NAMES, PRESETS, presetHelp, presetName } from "../src/lib/lobby";
import { applyLobby, CHAT_KEPT, type LobbyState } from "../src/lib/lobbyFeed";

const table = (id: string, taken = 1): TableSummary => ({
  id, room: "trainee", preset: "bigfun", bet: 1000, fee_bp: 600, seats_taken: taken, seats: 4,
  turn_seconds: 10, phase: "waiting", private: false, owner: 7, invite: null,
});
const line = (text: string, at = 1) => ({ id: at, user: "7", name: "Lan", seat: null, text, at });

describe("the lobby's socket", () => {
  const empty: LobbyState = { tables: [], chat: [] };
  it("starts from the snapshot, then applies table pushes in place", () => {
    let st = applyLobby(empty, { type: "lobby", protocol: 1, user: "7", name: "Lan", room: null, tables: [table("a")], chat: [line("hi")] });
    expect(st.tables.map((t) => t.id)).toEqual(["a"]);
    expect(st.chat.map((l) => l.text)).toEqual(["hi"]);
    st = applyLobby(st, { type: "table", table: table("b") });
    st = applyLobby(st, { type: "table", table: table("a", 3) });
    expect(st.tables.map((t) => [t.id, t.seats_taken])).toEqual([["a", 3], ["b", 1]]);
    st = applyLobby(st, { type: "table_closed", id: "a" });
    expect(st.tables.map((t) => t.id)).toEqual(["b"]);
    // A fresh snapshot (after a reconnection) replaces everything.
    st = applyLobby(st, { type: "lobby", protocol: 1, user: "7", name: "Lan", room: null, tables: [], chat: [] });
    expect(st).toEqual(empty);
  });
  it("appends chat lines, keeping the last ones; errors and acks change nothing", () => {
    let st = empty;
    for (let i = 0; i < CHAT_KEPT + 5; i++) st = applyLobby(st, { type: "chat", ...line(`l${i}`, i) });
    expect(st.chat).toHaveLength(CHAT_KEPT);
    expect(st.chat.at(-1)?.text).toBe(`l${CHAT_KEPT + 4}`);
    expect(applyLobby(st, { type: "ack", ref: 1 })).toBe(st);
    expect(applyLobby(st, { type: "error", code: "chat_too_fast", message: "wait", ref: 2 })).toBe(st);
  });
});

describe("presets in the players' words", () => {
  it("names every preset in both languages, never by its key", () => {
    for (const key of PRESETS) {
      for (const lang of ["vi", "en"] as const) {
        expect(presetName(key, lang)).not.toBe(key);
        expect(presetHelp(key, lang).length).toBeGreaterThan(10);
      }
    }
    expect(Object.keys(PRESET_NAMES).sort()).toEqual([...PRESETS].sort());
    expect(presetName("thapthanh", "vi")).toBe("Thập Thành");
    expect(presetName("unknown", "en")).toBe("unknown");
  });
  it("builds the invite link the table page reads", () => {
    expect(inviteLink("http://h:1", "t1", "abc")).toBe("http://h:1/#/t/t1/abc");
  });
});
