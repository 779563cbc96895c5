/** The session's reactive store: the shared `fold` applied to every frame through setStore. */
import { onCleanup } from "solid-js";
import { createStore, reconcile } from "solid-js/store";
import { clearDropped, fold, type FoldState, initialSessionState } from "../../../shared/fold";
import type { ServerFrame } from "../../../shared/viewer-protocol";
import { type ConnectionState, makeSessionSocket } from "../connection/session-socket";

export function createSessionStore(sessionId: string) {
  const [state, setState] = createStore<FoldState & { connection: ConnectionState }>({ ...initialSessionState(), connection: "connecting" });
  let current: FoldState = initialSessionState();
  const apply = (f: ServerFrame) => {
    const next = fold(current, f);
    if (next === current) return;
    current = next;
    setState(reconcile({ ...next, connection: state.connection }, { key: "id", merge: true }));
  };
  const socket = makeSessionSocket({
    sessionId,
    cursor: () => current.seq,
    onFrame: apply,
    onState: (s) => setState("connection", s),
  });
  onCleanup(() => socket.close());
  return {
    state,
    socket,
    takeDropped() {
      const dropped = current.dropped;
      current = clearDropped(current);
      setState("dropped", []);
      return dropped;
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;
