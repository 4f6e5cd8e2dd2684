// The lobby's socket, /ws/lobby (docs/PROTOCOL.md, "The lobby's socket"): the live list of
// tables and the lobby's chat. Messages are not numbered: every (re)connection says `hello` and
// gets a fresh snapshot. While the socket is down the lobby falls back on polling REST.

import type { LobbyClientMessage } from "../generated/lobby_client";
import type { ChatLine, LobbyServerMessage, TableSummary } from "../generated/lobby_server";
import { PROTOCOL, ReconnectingSocket, type SocketHandlers } from "./socket";

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

/** The lobby's socket, reconnecting by itself with a growing pause (`socket.ts`). Its messages
 * are not numbered: every `hello` brings a fresh snapshot, the `lobby` message that makes it live. */
export class LobbySocket extends ReconnectingSocket<LobbyServerMessage, LobbyClientMessage> {
  constructor(on: SocketHandlers<LobbyServerMessage>) {
    super({ path: "/ws/lobby", hello: () => ({ type: "hello", protocol: PROTOCOL }), live: (msg) => msg.type === "lobby" }, on);
  }
}
