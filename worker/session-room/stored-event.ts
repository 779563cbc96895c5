/** One event of the room's log with its sequence number (room-store.ts reads them back). */
import type { SessionEvent } from "../../shared/viewer-protocol";

export type StoredEvent = { seq: number; event: SessionEvent };
