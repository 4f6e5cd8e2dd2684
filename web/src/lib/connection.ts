// One table's WebSocket (docs/PROTOCOL.md): `hello` on every open, with `last_n` when this
// page already holds the table's state (a lost network, a phone asleep); reconnects by itself
// with a growing pause. A reload starts without `last_n`, so the table sends its `state`.

import type { ClientMessage } from "../generated/protocol_client";
import type { ServerMessage } from "../generated/protocol_server";
import { backoff } from "./timers";

export const PROTOCOL = 1;

export type Status = "connecting" | "open" | "reconnecting" | "closed";

type Command = ClientMessage extends infer M ? (M extends { type: string } ? Omit<M, "ref"> : never) : never;

export interface Handlers {
  message: (msg: ServerMessage, receivedMs: number) => void;
  status: (status: Status) => void;
  /** The last message number the page holds (0: none, ask for the state). */
  lastN: () => number;
  /** The socket closed without opening: the server refused it (HTTP 403: no such table, a
   * private one without its invite, a room one may not enter) or could not be reached. The
   * page may find out which and `close()`; otherwise it keeps trying. */
  refused?: () => void;
}

export class TableConnection {
  private socket: WebSocket | null = null;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private refs = 0;

  constructor(
    readonly table: string,
    readonly invite: string | null,
    private readonly on: Handlers,
  ) {}

  url(): string {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.invite ? `?invite=${encodeURIComponent(this.invite)}` : "";
    return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.table)}${query}`;
  }

  open(): void {
    this.closed = false;
    this.on.status(this.failures === 0 && this.socket === null ? "connecting" : "reconnecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      const lastN = this.on.lastN();
      const hello: ClientMessage =
        lastN > 0 ? { type: "hello", protocol: PROTOCOL, last_n: lastN } : { type: "hello", protocol: PROTOCOL };
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (event) => {
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(event.data)) as ServerMessage;
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        this.failures = 0;
        this.on.status("open");
      }
      this.on.message(msg, Date.now());
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      this.on.status("reconnecting");
      this.timer = setTimeout(() => this.open(), backoff(this.failures++));
      if (!opened) this.on.refused?.();
    };
  }

  /** Reconnect at once (the network came back, the page became visible). */
  nudge(): void {
    if (this.closed || this.socket !== null) return;
    if (this.timer) clearTimeout(this.timer);
    this.open();
  }

  /** Start again without `last_n` (a gap in the numbers). */
  restart(): void {
    this.socket?.close();
  }

  /** Send a command; its `ref` is returned (answered by an `ack` or an `error`). */
  send(command: Command): number | null {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return null;
    const ref = ++this.refs;
    this.socket.send(JSON.stringify({ ...command, ref }));
    return ref;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close();
    this.socket = null;
    this.on.status("closed");
  }
}
