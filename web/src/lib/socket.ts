// The page's reconnecting WebSocket (docs/PROTOCOL.md), shared by the table's socket
// (`connection.ts`) and the lobby's (`lobbyFeed.ts`): `hello` on every open (with what the
// protocol lets the client resume from), reconnecting by itself with a growing pause (0.5 s to
// 8 s, `backoff`), at once when nudged (the network came back, the page became visible), and
// never again after a close the server means as final (a ban) or `close()`.

import { backoff } from "./timers";

export const PROTOCOL = 1;

export type Status = "connecting" | "open" | "reconnecting" | "closed";

/** A command as the page sends it: any client message without its `ref` (the socket adds it). */
export type Command<M> = M extends { type: string } ? Omit<M, "ref"> : never;

/** Whether a close frame is the server's for a ban (docs/CONDUCT.md: 1008, "banned until …",
 * "banned permanently", or the ban's sentence): no use reconnecting until it ends. */
export function closedForBan(event: { code: number; reason: string }): boolean {
  return event.code === 1008 && /\bbanned\b/.test(event.reason);
}

/** What differs between the page's sockets. */
export interface SocketSpec<In, Out> {
  /** The path on this origin (`/ws/lobby`, `/ws/tables/t1?invite=…`). */
  path: string;
  /** The `hello` sent on every open (a table's carries `last_n` to resume). */
  hello: () => Out;
  /** Whether a message is the one that says the socket is live (a table's `welcome`, the
   * lobby's snapshot): the pause before the next reconnection starts again from its shortest. */
  live: (msg: In) => boolean;
  /** The pause before reconnecting after `failures` failed tries in a row (ms). */
  backoff?: (failures: number) => number;
}

export interface SocketHandlers<In> {
  message: (msg: In, receivedMs: number) => void;
  /** "connecting" on the first try, "reconnecting" while down, "open" once live, "closed" after
   * `close()` (a ban included). */
  status: (status: Status) => void;
  /** The socket closed without opening: the server refused it (HTTP 403) or could not be
   * reached. The page may find out which and `close()`; otherwise it keeps trying. */
  refused?: () => void;
  /** The server closed the socket for a ban (1008, "banned …"): it stopped reconnecting. */
  banned?: () => void;
}

export class ReconnectingSocket<In extends { type: string }, Out extends { type: string }> {
  private socket: WebSocket | null = null;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private refs = 0;

  constructor(
    private readonly spec: SocketSpec<In, Out>,
    private readonly on: SocketHandlers<In>,
  ) {}

  url(): string {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${this.spec.path}`;
  }

  open(): void {
    this.closed = false;
    this.timer = null;
    this.on.status(this.failures === 0 && this.socket === null ? "connecting" : "reconnecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      socket.send(JSON.stringify(this.spec.hello()));
    };
    socket.onmessage = (event) => {
      let msg: In;
      try {
        msg = JSON.parse(String(event.data)) as In;
      } catch {
        return;
      }
      if (this.spec.live(msg)) {
        this.failures = 0;
        this.on.status("open");
      }
      this.on.message(msg, Date.now());
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      if (closedForBan(event)) {
        this.close();
        this.on.banned?.();
        return;
      }
      this.on.status("reconnecting");
      this.timer = setTimeout(() => this.open(), (this.spec.backoff ?? backoff)(this.failures++));
      if (!opened) this.on.refused?.();
    };
  }

  /** Reconnect at once (the network came back, the page became visible). */
  nudge(): void {
    if (this.closed || this.socket !== null) return;
    if (this.timer) clearTimeout(this.timer);
    this.open();
  }

  /** Drop the socket and open another after the usual pause (a table's gap in the numbers:
   * the next `hello` says what the page holds then). */
  restart(): void {
    this.socket?.close();
  }

  /** Send a command; its `ref` is returned (answered by an `ack` or an `error`), null while
   * the socket is not open. */
  send(command: Command<Out>): number | null {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return null;
    const ref = ++this.refs;
    this.socket.send(JSON.stringify({ ...command, ref }));
    return ref;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.socket?.close();
    this.socket = null;
    this.on.status("closed");
  }
}
