import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TableConnection } from "../src/lib/connection";
import { LobbySocket } from "../src/lib/lobbyFeed";
import { ReconnectingSocket, type Status } from "../src/lib/socket";

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
  /** The server accepted the socket. */
  accept() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  receive(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  drop() {
    this.onclose?.({ code: 1006, reason: "" });
  }
}

const globals = globalThis as unknown as Record<string, unknown>;
globals.WebSocket = FakeSocket;
globals.location = { protocol: "http:", host: "127.0.0.1:8000" };

const last = () => FakeSocket.made.at(-1)!;
const sent = (socket: FakeSocket) => socket.sent.map((x) => JSON.parse(x));

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  FakeSocket.made = [];
});

type In = { type: "ready" } | { type: "news"; text: string };
type Out = { type: "hello"; protocol: number; since?: number } | { type: "say"; text: string; ref?: number };

function generic(since = () => 0) {
  const told = { statuses: [] as Status[], messages: [] as In[], refused: 0, banned: 0 };
  const socket = new ReconnectingSocket<In, Out>(
    {
      path: "/ws/x",
      hello: () => (since() > 0 ? { type: "hello", protocol: 1, since: since() } : { type: "hello", protocol: 1 }),
      live: (m) => m.type === "ready",
    },
    {
      message: (m) => told.messages.push(m),
      status: (x) => told.statuses.push(x),
      refused: () => told.refused++,
      banned: () => told.banned++,
    },
  );
  return { socket, told };
}

/** When each socket after the first was made, in ms after the first. */
function reconnections(drops: number, live = false): number[] {
  const { socket } = generic();
  const at: number[] = [];
  const start = Date.now();
  socket.open();
  for (let i = 0; i < drops; i++) {
    const s = last();
    s.accept();
    if (live) s.receive({ type: "ready" });
    s.drop();
    const made = FakeSocket.made.length;
    while (FakeSocket.made.length === made) vi.advanceTimersByTime(50);
    at.push(Date.now() - start);
  }
  socket.close();
  return at;
}

describe("the page's reconnecting socket", () => {
  it("opens on this origin and says hello at once", () => {
    const { socket, told } = generic();
    socket.open();
    expect(last().url).toBe("ws://127.0.0.1:8000/ws/x");
    expect(told.statuses).toEqual(["connecting"]);
    last().accept();
    expect(sent(last())).toEqual([{ type: "hello", protocol: 1 }]);
    last().receive({ type: "ready" });
    last().receive({ type: "news", text: "hi" });
    expect(told.statuses).toEqual(["connecting", "open"]);
    expect(told.messages).toEqual([{ type: "ready" }, { type: "news", text: "hi" }]);
    socket.close();
    expect(told.statuses.at(-1)).toBe("closed");
  });

  it("uses wss on an https page", () => {
    globals.location = { protocol: "https:", host: "tienlen.example" };
    try {
      const { socket } = generic();
      socket.open();
      expect(last().url).toBe("wss://tienlen.example/ws/x");
      socket.close();
    } finally {
      globals.location = { protocol: "http:", host: "127.0.0.1:8000" };
    }
  });

  it("reconnects with a pause doubling from 0.5 s up to 8 s while it never gets live", () => {
    const at = reconnections(7);
    const pauses = at.map((t, i) => t - (at[i - 1] ?? 0));
    expect(pauses).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it("starts the pause again from 0.5 s once a connection got live", () => {
    const at = reconnections(4, true);
    const pauses = at.map((t, i) => t - (at[i - 1] ?? 0));
    expect(pauses).toEqual([500, 500, 500, 500]);
  });

  it("says reconnecting while down and open again once live", () => {
    const { socket, told } = generic();
    socket.open();
    last().accept();
    last().receive({ type: "ready" });
    last().drop();
    expect(told.statuses).toEqual(["connecting", "open", "reconnecting"]);
    vi.advanceTimersByTime(500);
    last().accept();
    last().receive({ type: "ready" });
    expect(told.statuses.slice(3)).toEqual(["reconnecting", "open"]);
    socket.close();
  });

  it("resumes: every hello says what the page holds then", () => {
    let held = 0;
    const { socket } = generic(() => held);
    socket.open();
    last().accept();
    held = 17;
    last().drop();
    vi.advanceTimersByTime(500);
    last().accept();
    expect(sent(last())[0]).toEqual({ type: "hello", protocol: 1, since: 17 });
    held = 0; // a gap: start again
    socket.restart();
    vi.advanceTimersByTime(1000);
    last().accept();
    expect(sent(last())[0]).toEqual({ type: "hello", protocol: 1 });
    expect(FakeSocket.made.length).toBe(3);
    socket.close();
  });

  it("reconnects at once when nudged, and not while a socket is open", () => {
    const { socket } = generic();
    socket.open();
    socket.nudge();
    expect(FakeSocket.made.length).toBe(1);
    last().drop();
    socket.nudge();
    expect(FakeSocket.made.length).toBe(2);
    vi.advanceTimersByTime(60_000); // the pending reconnection was cancelled
    expect(FakeSocket.made.length).toBe(2);
    socket.close();
  });

  it("says refused for a socket closed before it opened, not for one that dropped", () => {
    const { socket, told } = generic();
    socket.open();
    last().drop();
    expect(told.refused).toBe(1);
    vi.advanceTimersByTime(500);
    last().accept();
    last().drop();
    expect(told.refused).toBe(1);
    socket.close();
  });

  it("stops for good on a ban's close (1008 banned), not on another 1008", () => {
    const { socket, told } = generic();
    socket.open();
    last().accept();
    last().onclose?.({ code: 1008, reason: "flooding" });
    vi.advanceTimersByTime(500);
    expect(FakeSocket.made.length).toBe(2);
    last().accept();
    last().onclose?.({ code: 1008, reason: "banned until 2026-03-15 09:11 UTC" });
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.made.length).toBe(2);
    expect(told.banned).toBe(1);
    expect(told.statuses.at(-1)).toBe("closed");
    socket.nudge(); // the network coming back does not reopen it
    expect(FakeSocket.made.length).toBe(2);
  });

  it("stops after close(): no reconnection, no nudge, nothing sent", () => {
    const { socket, told } = generic();
    socket.open();
    last().accept();
    socket.close();
    vi.advanceTimersByTime(60_000);
    socket.nudge();
    expect(FakeSocket.made.length).toBe(1);
    expect(socket.send({ type: "say", text: "x" })).toBeNull();
    expect(told.statuses).toEqual(["connecting", "closed"]);
  });

  it("numbers the commands it sends, and sends none while not open", () => {
    const { socket } = generic();
    socket.open();
    expect(socket.send({ type: "say", text: "early" })).toBeNull();
    last().accept();
    expect([socket.send({ type: "say", text: "a" }), socket.send({ type: "say", text: "b" })]).toEqual([1, 2]);
    expect(sent(last()).slice(1)).toEqual([
      { type: "say", text: "a", ref: 1 },
      { type: "say", text: "b", ref: 2 },
    ]);
    socket.close();
  });

  it("ignores a frame that is not JSON and a late close of a replaced socket", () => {
    const { socket, told } = generic();
    socket.open();
    const first = last();
    first.accept();
    first.onmessage?.({ data: "not json" });
    expect(told.messages).toEqual([]);
    first.drop();
    vi.advanceTimersByTime(500);
    first.drop(); // again: ignored
    expect(FakeSocket.made.length).toBe(2);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.made.length).toBe(2);
    socket.close();
  });
});

describe("the table's and the lobby's sockets", () => {
  it("the table's: its path with the invite, hello with last_n to resume, live on welcome", () => {
    let lastN = 0;
    const statuses: string[] = [];
    const conn = new TableConnection("t 1", "a&b", { message: () => {}, status: (x) => statuses.push(x), lastN: () => lastN });
    conn.open();
    expect(last().url).toBe("ws://127.0.0.1:8000/ws/tables/t%201?invite=a%26b");
    last().accept();
    expect(sent(last())).toEqual([{ type: "hello", protocol: 1 }]);
    last().receive({ type: "welcome" });
    expect(statuses.at(-1)).toBe("open");
    lastN = 42;
    last().drop();
    vi.advanceTimersByTime(500);
    last().accept();
    expect(sent(last())).toEqual([{ type: "hello", protocol: 1, last_n: 42 }]);
    conn.close();
  });

  it("the lobby's: /ws/lobby, a plain hello every time, live on its snapshot", () => {
    const statuses: string[] = [];
    const lobby = new LobbySocket({ message: () => {}, status: (x) => statuses.push(x) });
    lobby.open();
    expect(last().url).toBe("ws://127.0.0.1:8000/ws/lobby");
    last().accept();
    last().receive({ type: "lobby", user: "1", name: "x", room: null, tables: [], chat: [] });
    expect(statuses).toEqual(["connecting", "open"]);
    last().drop();
    vi.advanceTimersByTime(500);
    last().accept();
    expect(sent(last())).toEqual([{ type: "hello", protocol: 1 }]);
    expect(lobby.send({ type: "chat", text: "chào" })).toBe(1);
    lobby.close();
  });
});
