/**
 * The viewer socket: partysocket with a fast jittered backoff (ours, cut short when the network returns), the
 * cursor `?after=<seq>` on every connect, an immediate reconnect on visibility / pageshow / online, a ping/pong liveness probe
 * (phones wake up with dead sockets), and the op client (rids, timeouts, send outbox).
 * Plain (`make*`): the Solid store wires its callbacks.
 */
import { WebSocket as ReconnectingWebSocket } from "partysocket";
import { CLOSE_SESSION_DELETED, CLOSE_SHARE_ENDED } from "../../../shared/close-codes";
import type { ServerFrame } from "../../../shared/viewer-protocol";
import { whenIdle } from "../lib/idle";
import { socketUrl, withEarlySocket } from "./early-socket";
import { makeBackoff } from "./backoff";
import { keepAlive } from "./liveness";
import { makeOpClient, type OpClientOptions, type OpInput, type OpReply } from "./op-client";
import { localOutboxStorage, makeOutbox } from "./outbox";

/** The ack check brings zod: fetched once the join has rendered, awaited by an answer that comes sooner. */
const loadAckCheck = () => import("./ack-check");

/** An op's answer as the app reads it: acks checked against their op's schema (ack-check.ts). */
export async function checkedReply(reply: OpReply, load = loadAckCheck): Promise<OpReply> {
  if (reply.type !== "ack") return reply;
  try {
    return (await load()).checkReply(reply);
  } catch {
    // The check could not load (offline, a deploy replaced the chunk): the op was answered, what it said is unknown.
    return { type: "unread_ack", rid: reply.rid, op: reply.op };
  }
}

export type ConnectionState = "connecting" | "live" | "reconnecting" | "offline";

export { BACKOFF, makeBackoff } from "./backoff";

const WS_OPEN = 1;

export { socketUrl } from "./early-socket";

/** A spectator's socket (issue 30 #3): another path, and the share token offered as a subprotocol. */
export type SocketRoute = { path: string; protocols: string[] };

export type SessionSocketOptions = {
  sessionId: string;
  /** The fold's cursor, read on every (re)connect. */
  cursor: () => number;
  onFrame: (f: ServerFrame) => void;
  onState: (s: ConnectionState) => void;
  /** The WebSocket class (tests pass one that fails like a dead network). */
  WebSocket?: typeof WebSocket;
  /** The room closed the socket because the session was deleted (CLOSE_SESSION_DELETED): no reconnect. */
  onDeleted?: () => void;
  /** Where to connect instead of the member's socket (a share link's). */
  route?: SocketRoute;
  /** The room closed a spectator's socket because its share link was revoked or expired (CLOSE_SHARE_ENDED): no reconnect. */
  onShareEnded?: () => void;
} & Pick<OpClientOptions, "onOrphanReply" | "onOutboxChange">;

export function makeSessionSocket(opts: SessionSocketOptions) {
  let everLive = false;
  let state: ConnectionState = "connecting";
  const setState = (s: ConnectionState) => {
    if (s !== state) opts.onState((state = s));
  };

  const backoff = makeBackoff();
  const options = {
    // The backoff is ours (makeBackoff, awaited by the URL provider); partysocket dials as soon as it has the URL.
    minReconnectionDelay: 0,
    connectionTimeout: 8_000,
    minUptime: 3_000,
    // The op client owns retries (outbox); never let partysocket replay stale frames.
    maxEnqueuedMessages: 0,
    // The first connect adopts the socket the entry dialled for this page, if it is this one (early-socket.ts).
    WebSocket: opts.WebSocket ?? withEarlySocket(),
  };
  const ws = new ReconnectingWebSocket(
    () => backoff.wait().then(() => socketUrl(location, opts.sessionId, opts.cursor(), opts.route?.path)),
    opts.route?.protocols ?? [],
    options,
  );

  const ops = makeOpClient({
    transmit: (frame) => {
      if (ws.readyState !== WS_OPEN) return false;
      ws.send(JSON.stringify(frame));
      return true;
    },
    outbox: makeOutbox(localOutboxStorage(opts.sessionId)),
    onStall: () => ws.reconnect(),
    onOrphanReply: opts.onOrphanReply,
    onOutboxChange: opts.onOutboxChange,
  });

  ws.addEventListener("message", (e: MessageEvent) => {
    // Any frame (or pong) on a socket that finished its replay proves it is live: an `offline` /
    // `online` blip the socket survived must not leave the badge on "Reconnecting…".
    if (ops.live) setState("live");
    if (typeof e.data !== "string" || e.data === "pong") return;
    let f: ServerFrame;
    try {
      f = JSON.parse(e.data) as ServerFrame;
    } catch {
      return;
    }
    ops.handle(f);
    opts.onFrame(f);
    if (f.type === "ready") {
      // Off the join's path: evaluating zod's schemas while the join's frames land delays the first render.
      if (!everLive) whenIdle(() => void loadAckCheck().catch(() => {}));
      everLive = true;
      backoff.reset();
      setState("live");
      ops.setLive(true);
    }
  });
  ws.addEventListener("close", (e: CloseEvent) => {
    if (e.code === CLOSE_SESSION_DELETED) {
      // Gone for good: nothing may dial it again (a tab coming back, the network returning).
      liveness.stop();
      ws.close();
      opts.onDeleted?.();
      return;
    }
    if (e.code === CLOSE_SHARE_ENDED) {
      // The link was revoked or expired: the same, the page asks why.
      liveness.stop();
      ws.close();
      opts.onShareEnded?.();
      return;
    }
    ops.setLive(false);
    setState(navigator.onLine === false ? "offline" : everLive ? "reconnecting" : "connecting");
  });

  const liveness = keepAlive(ws, backoff, {
    online: () => setState(everLive ? "reconnecting" : "connecting"),
    offline: () => setState("offline"),
  });
  opts.onState(state);

  return {
    request: (input: OpInput): Promise<OpReply> => ops.request(input).then((r) => checkedReply(r)),
    pendingSends: ops.pendingSends,
    /** Reconnect now (the user tapped "retry"). */
    reconnect: () => ws.reconnect(),
    close(): void {
      liveness.stop();
      ws.close();
    },
  };
}
export type SessionSocket = ReturnType<typeof makeSessionSocket>;
