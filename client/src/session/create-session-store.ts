/**
 * The session's reactive store: every server frame goes through the shared `fold`, and the result
 * is applied to a Solid store by reference diff. Also owns the socket for the session's lifetime.
 */
import { onCleanup } from "solid-js";
import { createStore } from "solid-js/store";
import { clearDropped, fold, type FoldState, initialSessionState } from "../../../shared/fold";
import type { QueueEntry, ServerFrame } from "../../../shared/viewer-protocol";
import type { OpReply } from "../connection/op-client";
import type { SendOp } from "../connection/outbox";
import { type ConnectionState, makeSessionSocket } from "../connection/session-socket";
import { type FoldView, syncFold, viewOf } from "./store-sync";

export type SessionStoreState = FoldView & {
  connection: ConnectionState;
  /** Sends typed but not yet answered by the room (waiting for a connection). */
  outbox: number;
};

export function createSessionStore(sessionId: string, hooks: { onOrphanReply?: (op: SendOp, reply: OpReply) => void } = {}) {
  let current: FoldState = initialSessionState();
  const [state, setState] = createStore<SessionStoreState>({ ...structuredClone(viewOf(current)), connection: "connecting", outbox: 0 });
  const apply = (f: ServerFrame) => {
    const next = fold(current, f);
    const prev = current;
    current = next;
    syncFold(setState, prev, next);
  };
  const socket = makeSessionSocket({
    sessionId,
    cursor: () => current.seq,
    onFrame: apply,
    onState: (s) => setState("connection", s),
    onOutboxChange: (n) => setState("outbox", n),
    onOrphanReply: hooks.onOrphanReply,
  });
  setState("outbox", socket.pendingSends().length);
  onCleanup(() => socket.close());
  return {
    state,
    socket,
    /** Takes the entries the last Stop dropped (for "Restore to draft") and clears the offer. */
    takeDropped(): QueueEntry[] {
      const dropped = current.dropped;
      const prev = current;
      current = clearDropped(current);
      syncFold(setState, prev, current);
      return dropped;
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;
