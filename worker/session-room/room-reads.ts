/** What the Worker reads of a room without changing it: its info, a fork's source, a joining viewer's replay. */
import type { Viewer } from "../../shared/viewer-protocol";
import { configStateOf } from "./config-rules";
import { replay } from "./room-replay";
import { forkableEvents } from "./room-start";
import { agentSessionOf } from "./room-state";
import { type SessionStatusEvent, statusOf } from "./room-status";
import type { RoomStore } from "./room-store";
import type { RoomReads } from "./room-effects";
import type { RoomPort } from "./room-port";

/** What a transition reads besides the state (room-effects.ts `RoomReads`). */
export function roomReads(store: RoomStore, port: RoomPort): RoomReads {
  return {
    now: port.now(),
    newId: () => port.newId(),
    settled: (id) => store.settled(id),
    request: (id) => store.request(id),
    openRequests: () => store.openRequests(),
    watched: port.watched(),
  };
}

export type RoomInfo = { exists: boolean; status: SessionStatusEvent; queueLength: number; headSeq: number };
export type ForkSource = { eventsJson: string; truncated: boolean; agentSessionId: string | null };

export function roomInfo(store: RoomStore): RoomInfo {
  const s = store.state();
  return { exists: s !== null, status: statusOf(s), queueLength: s?.queue.length ?? 0, headSeq: store.headSeq() };
}

/** Issue 26: this room's transcript for a fork (room-start.ts `forkableEvents`). */
export function forkSource(store: RoomStore, maxBytes: number): ForkSource {
  const { events, truncated } = forkableEvents(store.allEvents(), maxBytes);
  const s = store.state();
  return { eventsJson: JSON.stringify(events), truncated, agentSessionId: s && agentSessionOf(s) };
}

export function replayTo(store: RoomStore, viewer: Viewer, after: number, send: (text: string) => void): void {
  const s = store.state();
  replay(store, viewer, after, { sessionId: s?.session.sessionId ?? "", config: configStateOf(s), status: statusOf(s) }, send);
}
