/**
 * What a viewer gets on (re)connect, in this order: welcome → the missed events (a short tail) or a
 * compacted snapshot in pages → queue_state → dropped_offer (when one is open) → config_state → session_status (synthetic) → ready.
 * Synchronous: the caller joins the live set in the same step, so nothing falls between backlog and live.
 */
import { REPLAY_TAIL_MAX } from "../../shared/limits";
import type { ConfigState, ServerFrame, Viewer } from "../../shared/viewer-protocol";
import { compactEvents } from "./compact-events";
import type { RoomStore } from "./room-store";
import type { SessionStatusEvent } from "./room-status";

/** Snapshot pages stay well under the platform's 1 MiB WebSocket message limit. */
const SNAPSHOT_PAGE_BYTES = 512 * 1024;

export type ReplayState = { sessionId: string; config: ConfigState; status: SessionStatusEvent };

export function replay(store: RoomStore, viewer: Viewer, after: number, now: ReplayState, sendText: (text: string) => void): void {
  const head = store.headSeq();
  const send = (f: ServerFrame) => sendText(JSON.stringify(f));
  send({ type: "welcome", sessionId: now.sessionId, viewer, headSeq: head });
  const tail = after > 0 && after <= head && head - after <= REPLAY_TAIL_MAX;
  if (tail) {
    for (const { seq, event } of store.eventsAfter(after)) send({ type: "event", seq, event });
  } else if (head > 0 || after > 0) {
    const compacted = compactEvents(store.allEvents());
    let page: string[] = [];
    let bytes = 0;
    let first = true;
    const flush = (last: boolean) => {
      // Non-final pages carry seq 0: a viewer cut off mid-snapshot reconnects from scratch.
      sendText(`{"type":"snapshot","seq":${last ? head : 0},"append":${!first},"events":[${page.join(",")}]}`);
      first = false;
      page = [];
      bytes = 0;
    };
    for (const { event } of compacted) {
      const json = JSON.stringify(event);
      if (bytes + json.length > SNAPSHOT_PAGE_BYTES && page.length) flush(false);
      page.push(json);
      bytes += json.length;
    }
    flush(true);
  }
  send({ type: "state", event: { kind: "queue_state", entries: store.queue(), flushed: false } });
  const offer = store.getMeta("dropped_offer");
  if (offer?.length) send({ type: "state", event: { kind: "dropped_offer", entries: offer } });
  send({ type: "state", event: { kind: "config_state", config: now.config } });
  send({ type: "state", event: { ...now.status, synthetic: true } });
  send({ type: "ready", seq: head });
}
