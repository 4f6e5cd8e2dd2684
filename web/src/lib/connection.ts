// One table's WebSocket (docs/PROTOCOL.md): `hello` on every open, with `last_n` when this
// page already holds the table's state (a lost network, a phone asleep); reconnects by itself
// with a growing pause (`socket.ts`). A reload starts without `last_n`, so the table sends its
// `state`.

import type { ClientMessage } from "../generated/protocol_client";
import type { ServerMessage } from "../generated/protocol_server";
import { PROTOCOL, ReconnectingSocket, type SocketHandlers } from "./socket";

export type { Status } from "./socket";

export interface Handlers extends SocketHandlers<ServerMessage> {
  /** The last message number the page holds (0: none, ask for the state). */
  lastN: () => number;
}

export class TableConnection extends ReconnectingSocket<ServerMessage, ClientMessage> {
  constructor(
    readonly table: string,
    readonly invite: string | null,
    on: Handlers,
  ) {
    const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
    super(
      {
        path: `/ws/tables/${encodeURIComponent(table)}${query}`,
        hello: () => {
          const lastN = on.lastN();
          return lastN > 0 ? { type: "hello", protocol: PROTOCOL, last_n: lastN } : { type: "hello", protocol: PROTOCOL };
        },
        live: (msg) => msg.type === "welcome",
      },
      on,
    );
  }
}
