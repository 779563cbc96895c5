/** The session's state as viewers see it, derived from the room's state (one home for the rule). */
import type { EventOf } from "../../shared/viewer-protocol";
import { type RoomState, turnOf } from "./room-state";

export type SessionStatusEvent = EventOf<"session_status">;

export function statusOf(s: RoomState | null): SessionStatusEvent {
  const turn = turnOf(s);
  if (!s) return { kind: "session_status", state: "closed" };
  if (!s.machineOnline)
    return { kind: "session_status", state: "offline", turnRunning: turn !== null, turnId: turn?.turnId ?? null, message: "machine offline" };
  if (s.agent.phase === "failed") {
    const authMethods = s.agent.authMethods;
    return { kind: "session_status", state: "error", message: s.agent.message, ...(authMethods?.length ? { authMethods } : {}) };
  }
  // Dormant: nothing runs, and the first join or message opens the agent (on-machine-status.ts).
  if (s.agent.phase === "dormant") return { kind: "session_status", state: "idle" };
  if (s.agent.phase !== "ready") return { kind: "session_status", state: "starting" };
  if (turn) return { kind: "session_status", state: "active", turnId: turn.turnId };
  return { kind: "session_status", state: "idle" };
}

/** The key a logged session_status is compared on: a status is logged only when it changes. */
export const statusKey = (status: SessionStatusEvent): string => `${status.state}:${status.turnId ?? ""}`;
