// The lobby's socket, /ws/lobby (docs/PROTOCOL.md, "The lobby's socket"): the live list of
// tables and the lobby's chat. Messages are not numbered: every (re)connection says `hello` and
// gets a fresh snapshot. While the socket is down the lobby falls back on polling REST.

import type { LobbyClientMessage } from "../generated/lobby_client";
import type { ChatLine, LobbyServerMessage, TableSummary } from "../generated/lobby_server";
import { PROTOCOL } from "./connection";
import { backoff } from "./timers";

export interface LobbyState {
  tables: TableSummary[];
  chat: ChatLine[];
}

/** Chat lines kept on the page. */
export const CHAT_KEPT = 50;

/** The lobby state after one message (a new object; errors and acks change nothing). */
export function applyLobby(state: LobbyState, msg: LobbyServerMessage): LobbyState {
  switch (msg.type) {
    case "lobby":
      return { tables: [...msg.tables], chat: msg.chat.slice(-CHAT_KEPT) };
    case "table": {
      const i = state.tables.findIndex((t) => t.id === msg.table.id);
      const tables = [...state.tables];
      if (i >= 0) tables[i] = msg.table;
      else tables.push(msg.table);
      return { ...state, tables };
    }
    case "table_closed":
      return { ...state, tables: state.tables.filter((t) => t.id !== msg.id) };
    case "chat": {
      const line: ChatLine = { id: msg.id, user: msg.user, name: msg.name, seat: msg.seat, text: msg.text, at: msg.at };
      return { ...state, chat: [...state.chat, line].slice(-CHAT_KEPT) };
    }
    default:
      return state;
  }
}

export interface LobbyHandlers {
  message: (msg: LobbyServerMessage) => void;
  /** True when a snapshot arrived, false when the socket dropped. */
  live: (live: boolean) => void;
}

type Command = LobbyClientMessage extends infer M ? (M extends { type: string } ? Omit<M, "ref"> : never) : never;

/** The lobby's socket, reconnecting by itself with a growing pause (0.5 s to 8 s). */
export class LobbySocket {
  private socket: WebSocket | null = null;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private refs = 0;

  constructor(private readonly on: LobbyHandlers) {}

  url(): string {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/lobby`;
  }

  open(): void {
    this.closed = false;
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: "hello", protocol: PROTOCOL }));
    socket.onmessage = (event) => {
      let msg: LobbyServerMessage;
      try {
        msg = JSON.parse(String(event.data)) as LobbyServerMessage;
      } catch {
        return;
      }
      if (msg.type === "lobby") {
        this.failures = 0;
        this.on.live(true);
      }
      this.on.message(msg);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.on.live(false);
      if (this.closed) return;
      this.timer = setTimeout(() => this.open(), backoff(this.failures++));
    };
  }

  /** Reconnect at once (the network came back, the page became visible). */
  nudge(): void {
    if (this.closed || this.socket !== null) return;
    if (this.timer) clearTimeout(this.timer);
    this.open();
  }

  send(command: Command): boolean {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify({ ...command, ref: ++this.refs }));
    return true;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close();
    this.socket = null;
  }
}
