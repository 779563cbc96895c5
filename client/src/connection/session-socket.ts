/**
 * The viewer socket: partysocket with a fast jittered backoff, the cursor on every connect,
 * immediate reconnect on visibility / pageshow / online, request ids with pending promises, and the
 * send outbox. Plain (`make*`): the Solid store wires its callbacks.
 */
import { WebSocket as ReconnectingWebSocket } from "partysocket";
import { viewerSocketPath } from "../../../shared/api";
import type { ClientOp, ServerFrame } from "../../../shared/viewer-protocol";
import { makeOutbox } from "./outbox";

/** partysocket's 3 s default first retry is too slow for a phone switching networks. */
const MIN_RECONNECT_MS = 400;
const MAX_RECONNECT_MS = 10_000;
/** An op with no answer after this long is reported as failed (the socket may be half-open). */
const OP_TIMEOUT_MS = 15_000;
const WS_OPEN = 1;

export type ConnectionState = "connecting" | "live" | "reconnecting" | "offline";
export type OpReply = Extract<ServerFrame, { type: "ack" | "error" }>;
type OpInput = ClientOp extends infer T ? (T extends ClientOp ? Omit<T, "rid"> : never) : never;

export function makeSessionSocket(opts: {
  sessionId: string;
  cursor: () => number;
  onFrame: (f: ServerFrame) => void;
  onState: (s: ConnectionState) => void;
}) {
  const outbox = makeOutbox();
  const waiting = new Map<string, (r: OpReply) => void>();
  let everLive = false;
  const url = () => {
    const base = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${viewerSocketPath(opts.sessionId)}`;
    return `${base}?after=${opts.cursor()}`;
  };
  const ws = new ReconnectingWebSocket(url, [], {
    minReconnectionDelay: MIN_RECONNECT_MS + Math.random() * MIN_RECONNECT_MS,
    maxReconnectionDelay: MAX_RECONNECT_MS,
    reconnectionDelayGrowFactor: 1.6,
    connectionTimeout: 8000,
    maxEnqueuedMessages: 0,
  });
  opts.onState("connecting");
  ws.addEventListener("message", (e: MessageEvent) => {
    if (typeof e.data !== "string" || e.data === "pong") return;
    let f: ServerFrame;
    try {
      f = JSON.parse(e.data) as ServerFrame;
    } catch {
      return;
    }
    if (f.type === "ack" || f.type === "error") {
      if (f.rid) {
        outbox.settle(f.rid);
        waiting.get(f.rid)?.(f);
        waiting.delete(f.rid);
      }
    }
    opts.onFrame(f);
    if (f.type === "ready") {
      everLive = true;
      opts.onState("live");
      for (const op of outbox.resend()) ws.send(JSON.stringify(op));
    }
  });
  ws.addEventListener("close", () => opts.onState(navigator.onLine === false ? "offline" : everLive ? "reconnecting" : "connecting"));
  const nudge = () => {
    if (ws.readyState !== WS_OPEN) ws.reconnect();
  };
  const onVisible = () => document.visibilityState === "visible" && nudge();
  const onOffline = () => opts.onState("offline");
  document.addEventListener("visibilitychange", onVisible);
  window.addEventListener("pageshow", nudge);
  window.addEventListener("online", nudge);
  window.addEventListener("offline", onOffline);

  return {
    /** Sends an op; resolves with its ack / error (message.send survives reconnects via the outbox). */
    request(op: OpInput): Promise<OpReply> {
      const rid = crypto.randomUUID();
      const frame = { ...op, rid } as ClientOp;
      if (frame.op === "message.send") outbox.add(frame);
      return new Promise<OpReply>((resolve) => {
        waiting.set(rid, resolve);
        if (ws.readyState === WS_OPEN) ws.send(JSON.stringify(frame));
        else if (frame.op !== "message.send")
          return resolve({ type: "error", rid, code: "NOT_CONNECTED", message: "not connected — try again in a moment" });
        // A send never times out: the outbox resends it after a reconnect until the room answers.
        if (frame.op === "message.send") return;
        setTimeout(() => {
          if (!waiting.has(rid)) return;
          waiting.delete(rid);
          resolve({ type: "error", rid, code: "TIMEOUT", message: "no answer from the server" });
        }, OP_TIMEOUT_MS);
      });
    },
    close(): void {
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("pageshow", nudge);
      window.removeEventListener("online", nudge);
      window.removeEventListener("offline", onOffline);
      ws.close();
    },
  };
}
export type SessionSocket = ReturnType<typeof makeSessionSocket>;
