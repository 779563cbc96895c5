/**
 * The session list's "needs you" marker (issue 26): someone must answer the agent — a permission request
 * or a form (elicitation) is open. The room re-reads it after each event that opens or closes one.
 */
import type { SessionEvent } from "../../shared/viewer-protocol";
import type { RoomStore } from "./room-store";

/** Events after which the marker may have changed. */
export const NEEDS_YOU_KINDS: ReadonlySet<SessionEvent["kind"]> = new Set(["permission_request", "permission_resolved", "elicitation_request", "elicitation_resolved"]);

export function needsYou(store: RoomStore): boolean {
  return store.openRequests().length > 0;
}
