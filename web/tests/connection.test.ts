import { afterEach, describe, expect, it } from "vitest";
import { TableConnection } from "../src/lib/connection";

/** A WebSocket that does nothing until the test says what happened to it. */
class FakeSocket {
  static made: FakeSocket[] = [];
  static readonly OPEN = 1;
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  sent: string[] = [];
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.onclose?.();
  }
}

const globals = globalThis as unknown as Record<string, unknown>;
globals.WebSocket = FakeSocket;
globals.location = { protocol: "http:", host: "127.0.0.1:8000" };

afterEach(() => {
  FakeSocket.made = [];
});

function connection() {
  const told = { refused: 0, statuses: [] as string[] };
  const conn = new TableConnection("t1", "abc", {
    message: () => {},
    status: (x) => told.statuses.push(x),
    lastN: () => 0,
    refused: () => told.refused++,
  });
  return { conn, told };
}

describe("the table's connection", () => {
  it("says when the server refused the socket (closed before it opened)", () => {
    const { conn, told } = connection();
    conn.open();
    expect(FakeSocket.made[0].url).toBe("ws://127.0.0.1:8000/ws/tables/t1?invite=abc");
    FakeSocket.made[0].onclose?.();
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
    socket.onclose?.();
    expect(told.refused).toBe(0);
    conn.close();
  });
});
