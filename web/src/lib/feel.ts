// The table page's one hook for the feel of the game: each message applied marks a deal or a
// play for the animations (lib/motion.ts) and makes its sounds (lib/sound.ts).

import type { ServerMessage } from "../generated/protocol_server";
import { noteDeal, notePlay } from "./motion";
import { soundMessage } from "./sound";

export { soundCountdown } from "./sound";
export { flyToPile } from "./motion";

/** After `msg` was applied; `myTurn`: whether the player has a move to make now (their turn,
 * or a chop offered out of turn). */
export function feelMessage(msg: ServerMessage, myTurn: boolean): void {
  if (msg.type === "game") noteDeal();
  if (msg.type === "update" && msg.events.some((e) => e.type === "play")) notePlay();
  soundMessage(msg, myTurn);
}
