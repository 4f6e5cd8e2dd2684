import { afterEach, describe, expect, it, vi } from "vitest";
import { TableConnection } from "../src/lib/connection";
import { LobbySocket } from "../src/lib/lobbyFeed";

/** A WebSocket that does nothing until the test says what happened to it. */
class FakeSocket {
  static made: FakeSocket[] = [];
  static readonly OPEN = 1;
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  sent: string[] = [];
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.onclose?.({ code: 1000, reason: "" });
  }
}

const globals = globalThis as unknown as Record<string, unknown>;
globals.WebSocket = FakeSocket;
globals.location = { protocol: "http:", host: "127.0.0.1:8000" };

afterEach(() => {
  FakeSocket.made = [];
});

const DROPPED = { code: 1006, reason: "" };

function connection() {
  const told = { refused: 0, banned: 0, statuses: [] as string[] };
  const conn = new TableConnection("t1", "abc", {
    message: () => {},
    status: (x) => told.statuses.push(x),
    lastN: () => 0,
    refused: () => told.refused++,
    banned: () => told.banned++,
  });
  return { conn, told };
}

describe("the table's connection", () => {
  it("says when the server refused the socket (closed before it opened)", () => {
    const { conn, told } = connection();
    conn.open();
    expect(FakeSocket.made[0].url).toBe("ws://127.0.0.1:8000/ws/tables/t1?invite=abc");
    FakeSocket.made[0].onclose?.(DROPPED);
    expect(told.refused).toBe(1);
    expect(told.statuses.at(-1)).toBe("reconnecting");
    conn.close();
  });
  it("does not call a socket that opened and then dropped refused", () => {
    const { conn, told } = connection();
    conn.open();
    const socket = FakeSocket.made[0];
    socket.onopen?.();
    expect(JSON.parse(socket.sent[0])).toEqual({ type: "hello", protocol: 1 });
    socket.onclose?.(DROPPED);
    expect(told.refused).toBe(0);
    conn.close();
  });
  it("stops reconnecting, the table's and the lobby's, once the server closed it for a ban", () => {
    vi.useFakeTimers();
    try {
      const { conn, told } = connection();
      conn.open();
      FakeSocket.made[0].onopen?.();
      FakeSocket.made[0].onclose?.({ code: 1008, reason: "banned until 2026-03-15 09:11 UTC" });
      let lobbyBanned = 0;
      const lobby = new LobbySocket({ message: () => {}, status: () => {}, banned: () => lobbyBanned++ });
      lobby.open();
      FakeSocket.made[1].onclose?.({ code: 1008, reason: "banned permanently" });
      vi.advanceTimersByTime(60_000);
      expect(FakeSocket.made.length).toBe(2); // no new socket
      expect([told.banned, lobbyBanned, told.statuses.at(-1)]).toEqual([1, 1, "closed"]);
      // A socket merely dropped is opened again.
      const again = connection();
      again.conn.open();
      FakeSocket.made[2].onclose?.(DROPPED);
      vi.advanceTimersByTime(60_000);
      expect(FakeSocket.made.length).toBe(4);
      again.conn.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
