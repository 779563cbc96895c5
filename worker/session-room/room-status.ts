/** The session's state as viewers see it, derived from the room's durable facts (one home for the rule). */
import type { EventOf } from "../../shared/viewer-protocol";
import type { RoomStore } from "./room-store";

export type SessionStatusEvent = EventOf<"session_status">;

export function currentStatus(store: RoomStore): SessionStatusEvent {
  const turn = store.turn();
  if (!store.session()) return { kind: "session_status", state: "closed" };
  if (!(store.getMeta("machine_online") ?? false))
    return { kind: "session_status", state: "offline", turnRunning: turn !== null, turnId: turn?.turnId ?? null, message: "machine offline" };
  const failed = store.getMeta("failed");
  if (failed) {
    const authMethods = store.getMeta("failed_auth");
    return { kind: "session_status", state: "error", message: failed, ...(authMethods?.length ? { authMethods } : {}) };
  }
  if (store.getMeta("agent_session_id") === null) return { kind: "session_status", state: "starting" };
  if (turn) return { kind: "session_status", state: "active", turnId: turn.turnId };
  return { kind: "session_status", state: "idle" };
}

/** The key a logged session_status is compared on: a status is logged only when it changes. */
export const statusKey = (status: SessionStatusEvent): string => `${status.state}:${status.turnId ?? ""}`;
