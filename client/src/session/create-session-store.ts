/**
 * The session's reactive store: every server frame goes through the shared `fold`, and the result
 * is applied to a Solid store by reference diff. Also owns the socket for the session's lifetime.
 */
import { onCleanup } from "solid-js";
import { createStore } from "solid-js/store";
import { clearDropped, initialSessionState, prependPage } from "../../../shared/fold";
import { HISTORY_PAGE_ROWS, MAX_HISTORY_PAGE_ROWS } from "../../../shared/limits";
import type { QueueEntry } from "../../../shared/viewer-protocol";
import { ackOf, type OpReply } from "../connection/op-client";
import type { SendOp } from "../connection/outbox";
import { type ConnectionState, makeSessionSocket, type SocketRoute } from "../connection/session-socket";
import { type FoldView, makeFoldSync, viewOf } from "./store-sync";

export type SessionStoreState = FoldView & {
  connection: ConnectionState;
  /** Sends typed but not yet answered by the room (waiting for a connection). */
  outbox: number;
  /** A page of older rows was asked for and has not arrived. */
  loadingOlder: boolean;
};

export function createSessionStore(
  sessionId: string,
  hooks: { onOrphanReply?: (op: SendOp, reply: OpReply) => void; onDeleted?: () => void; route?: SocketRoute; onShareEnded?: () => void } = {},
) {
  const initial = initialSessionState();
  const [state, setState] = createStore<SessionStoreState>({ ...structuredClone(viewOf(initial)), connection: "connecting", outbox: 0, loadingOlder: false });
  const folded = makeFoldSync(setState, initial);
  const socket = makeSessionSocket({
    sessionId,
    cursor: () => folded.current.seq,
    onFrame: (f) => folded.apply(f),
    onState: (s) => {
      // A replay cut off by a drop never gets its `ready`: show what was folded rather than hold it.
      if (s !== "live") folded.settle();
      setState("connection", s);
    },
    onOutboxChange: (n) => setState("outbox", n),
    onOrphanReply: hooks.onOrphanReply,
    onDeleted: hooks.onDeleted,
    route: hooks.route,
    onShareEnded: hooks.onShareEnded,
  });
  setState("outbox", socket.pendingSends().length);
  let loading: Promise<void> | null = null;
  onCleanup(() => socket.close());
  return {
    state,
    socket,
    /** Takes the entries the last Stop dropped (for "Restore to draft") and clears the offer. */
    /**
     * Fetches the page of rows before the oldest held (`history.page`) and puts it on top. One at a
     * time; resolves when it is in the store or failed (the reader's next scroll asks again).
     */
    loadOlder(): Promise<void> {
      const before = folded.current.historyBefore;
      if (before === null) return Promise.resolve();
      if (loading) return loading;
      setState("loadingOlder", true);
      loading = socket
        .request({ op: "history.page", before, limit: HISTORY_PAGE_ROWS })
        .then((reply) => {
          const page = ackOf(reply, "history.page");
          if (page) folded.update((s) => prependPage(s, before, page));
        })
        .finally(() => {
          loading = null;
          setState("loadingOlder", false);
        });
      return loading;
    },
    /**
     * Pages older rows in (`history.page`, the largest pages allowed) until the row that began at seq `at`
     * (id `rowId`, a search hit) is held; resolves true once it is, false when it cannot be (gone, failed).
     * Rows keep their ids (named by the seq where they began), so what is on screen does not change.
     */
    async revealRow(at: number, rowId: string): Promise<boolean> {
      for (;;) {
        if (folded.current.rowIndex[rowId] !== undefined) return true;
        const before = folded.current.historyBefore;
        if (before === null || before <= at) return folded.current.rowIndex[rowId] !== undefined;
        if (loading) {
          await loading;
          continue;
        }
        let got = false;
        setState("loadingOlder", true);
        loading = socket
          .request({ op: "history.page", before, limit: MAX_HISTORY_PAGE_ROWS })
          .then((reply) => {
            const page = ackOf(reply, "history.page");
            if (page) folded.update((s) => prependPage(s, before, page));
            got = !!page;
          })
          .finally(() => {
            loading = null;
            setState("loadingOlder", false);
          });
        await loading;
        if (!got) return false;
      }
    },
    takeDropped(): QueueEntry[] {
      const dropped = folded.current.dropped;
      folded.update(clearDropped);
      return dropped;
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;
