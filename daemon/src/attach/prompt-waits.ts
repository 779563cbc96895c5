/**
 * `baton attach`: when an attached client's `session/prompt` is answered. Pure over the room's events.
 * A prompt is a message sent into the room: queued while a turn runs (the chip every viewer sees), then
 * run. Its answer comes when the turn it ran in ends, with the room's stop reason:
 * - it runs when the room echoes it (`user_message` with its id: started, merged into a turn, or steered in);
 * - the turn ends at the next `session_status` that carries a stop reason or is no longer running
 *   (idle / error / closed; `offline` is not an end: the turn may still run on the machine);
 * - removed from the queue without running (cancelled, Stop dropped it, edited away) → `cancelled`;
 * - a turn that ended on an error fails the prompts it ran (the client gets the error's message).
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { SessionEvent } from "../../../shared/viewer-protocol";

export type PromptWait = "queued" | "running";
export type PromptWaits = ReadonlyMap<string, PromptWait>;

export type PromptOutcome = { id: string; stopReason: acp.StopReason } | { id: string; error: string };

const STOP_REASONS = ["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"] as const satisfies readonly acp.StopReason[];
const isStopReason = (r: string): r is acp.StopReason => (STOP_REASONS as readonly string[]).includes(r);

/** The room's stop reason as ACP's (the room relays the agent's; anything else ended the turn normally). */
export function acpStopReason(reason: string | null | undefined): acp.StopReason {
  return reason && isStopReason(reason) ? reason : "end_turn";
}

export type WaitState = { waits: PromptWaits; turnError: string | null };

export const noWaits: WaitState = { waits: new Map(), turnError: null };

/** A prompt this client just sent (acknowledged by the room). */
export function sent(state: WaitState, id: string): WaitState {
  return { ...state, waits: new Map(state.waits).set(id, state.waits.get(id) ?? "queued") };
}

export function waitStep(state: WaitState, event: SessionEvent): { state: WaitState; done: PromptOutcome[] } {
  switch (event.kind) {
    case "user_message":
      if (!state.waits.has(event.id)) return { state, done: [] };
      return { state: { ...state, waits: new Map(state.waits).set(event.id, "running") }, done: [] };
    case "turn_error":
      return { state: { ...state, turnError: event.message }, done: [] };
    case "queue_state": {
      if (event.flushed) return { state, done: [] };
      // Removed without running: cancelled from the queue, dropped by Stop, or replaced by an edit.
      const still = new Set(event.entries.map((e) => e.id));
      const done: PromptOutcome[] = [];
      const waits = new Map(state.waits);
      for (const [id, w] of state.waits)
        if (w === "queued" && !still.has(id)) {
          waits.delete(id);
          done.push({ id, stopReason: "cancelled" });
        }
      return { state: { ...state, waits }, done };
    }
    case "session_status": {
      const ended = Boolean(event.stopReason) || event.state === "idle" || event.state === "error" || event.state === "closed";
      if (!ended) return { state, done: [] };
      const done: PromptOutcome[] = [];
      const waits = new Map(state.waits);
      for (const [id, w] of state.waits)
        if (w === "running") {
          waits.delete(id);
          done.push(state.turnError ? { id, error: state.turnError } : { id, stopReason: acpStopReason(event.stopReason) });
        }
      return { state: { waits, turnError: null }, done };
    }
    default:
      return { state, done: [] };
  }
}
