/**
 * `baton attach`: the viewer socket to the session's room, as the web client's (same frames, same ops), signed
 * in with the user's token. Reconnects with backoff from its cursor; a refusal a retry cannot fix (revoked
 * token, not a member, deleted session) is fatal and reported once. Thin: frames out, ops in.
 */
import WebSocket from "ws";
import { attachSocketPath } from "../../../shared/attach-api";
import { CLOSE_SESSION_DELETED } from "../../../shared/close-codes";
import { framesOf } from "../../../shared/fold";
import { type AckFrameOf, AckResults, type ClientOp, type ClientOpName, type ErrorFrame, ServerFrame } from "../../../shared/viewer-protocol";
import { errorMessage, type Logger } from "../log";
import { backoffDelay } from "../tunnel/backoff";

/** An op without its rid (the link mints them). */
export type OpInput = ClientOp extends infer T ? (T extends ClientOp ? Omit<T, "rid"> : never) : never;
export type OpReply<K extends ClientOpName> = AckFrameOf<K> | ErrorFrame;

/** Why the room will not have us: what the person must do is in `message`. */
export type Refusal = { code: string; message: string };

/** Longest wait for an op's answer: the room answers at once; a silent socket is a dead one. */
const OP_TIMEOUT_MS = 30_000;
/** Reconnect delays: as the tunnel's, a blip is quick and an outage is not hammered. */
const BACKOFF = { baseMs: 300, maxMs: 10_000 };

export type RoomLinkOptions = {
  server: string;
  sessionId: string;
  token: string;
  onFrame: (f: Exclude<ServerFrame, { type: "batch" }>) => void;
  onRefused: (r: Refusal) => void;
  log: Logger;
};

export type RoomLink = {
  op<K extends ClientOpName>(op: OpInput & { op: K }): Promise<OpReply<K>>;
  close(): void;
};

/** The answer under an op's rid is an error or an ack whose result has that op's shape (mode / model / config share theirs). */
function isReplyTo<K extends ClientOpName>(f: AckFrameOf<ClientOpName> | ErrorFrame, op: K): f is OpReply<K> {
  return f.type === "error" || AckResults[op].safeParse(f.result).success;
}

/** The server's `{error: {code, message}}` body, if it is one. */
function refusalOf(status: number, body: string): Refusal {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && "error" in parsed) {
      const e: unknown = parsed.error;
      if (typeof e === "object" && e !== null && "code" in e && "message" in e && typeof e.code === "string" && typeof e.message === "string")
        return { code: e.code, message: e.message };
    }
  } catch {
    /* not JSON */
  }
  return { code: `HTTP_${status}`, message: `the server refused the session's socket (HTTP ${status})` };
}

/** Statuses a retry will not change. */
const FATAL_STATUSES = new Set([400, 401, 403, 404, 410, 426]);

export function openRoomLink(o: RoomLinkOptions): RoomLink {
  const base = o.server.replace(/^http/, "ws");
  let cursor = 0;
  let attempt = 0;
  let rid = 0;
  let closed = false;
  let ws: WebSocket | null = null;
  let timer: NodeJS.Timeout | null = null;
  const pending = new Map<string, { resolve: (f: AckFrameOf<ClientOpName> | ErrorFrame) => void; timer: NodeJS.Timeout }>();

  const failPending = (message: string) => {
    for (const [r, p] of pending) {
      clearTimeout(p.timer);
      p.resolve({ type: "error", rid: r, code: "DISCONNECTED", message });
    }
    pending.clear();
  };

  const refuse = (r: Refusal) => {
    if (closed) return;
    closed = true;
    failPending(r.message);
    o.onRefused(r);
  };

  const connect = () => {
    if (closed) return;
    const socket = new WebSocket(`${base}${attachSocketPath(o.sessionId)}?after=${cursor}`, { headers: { Authorization: `Bearer ${o.token}` } });
    ws = socket;
    socket.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        if (FATAL_STATUSES.has(status)) refuse(refusalOf(status, body));
        else o.log.warn(`the session's socket was refused (HTTP ${status}); retrying`);
        socket.terminate();
      });
    });
    socket.on("message", (data) => {
      let json: unknown;
      try {
        json = JSON.parse(String(data));
      } catch {
        return; // "pong" and the like
      }
      const parsed = ServerFrame.safeParse(json);
      if (!parsed.success) return o.log.warn(`a frame from the room did not parse: ${parsed.error.issues[0]?.message ?? "invalid"}`);
      for (const f of framesOf(parsed.data)) {
        if (f.type === "batch") continue;
        if (f.type === "event" || f.type === "snapshot" || f.type === "ready") cursor = Math.max(cursor, f.seq);
        if (f.type === "ready") attempt = 0;
        if ((f.type === "ack" || f.type === "error") && f.rid !== null) {
          const p = pending.get(f.rid);
          if (p) {
            pending.delete(f.rid);
            clearTimeout(p.timer);
            p.resolve(f);
          }
        }
        o.onFrame(f);
      }
    });
    socket.on("error", (err) => o.log.debug(`room socket: ${errorMessage(err)}`));
    socket.on("close", (code, reason) => {
      if (ws === socket) ws = null;
      failPending("the connection to Baton dropped before the room answered; try again");
      if (closed) return;
      if (code === CLOSE_SESSION_DELETED) return refuse({ code: "SESSION_DELETED", message: "the session was deleted" });
      o.log.debug(`room socket closed (${code} ${String(reason)}); reconnecting`);
      timer = setTimeout(connect, backoffDelay(attempt++, BACKOFF));
    });
  };
  connect();

  return {
    op<K extends ClientOpName>(input: OpInput & { op: K }): Promise<OpReply<K>> {
      const r = `a${++rid}`;
      return new Promise((resolve) => {
        const socket = ws;
        if (closed || !socket || socket.readyState !== WebSocket.OPEN) {
          resolve({ type: "error", rid: r, code: "DISCONNECTED", message: "not connected to Baton right now; try again in a moment" });
          return;
        }
        const t = setTimeout(() => {
          pending.delete(r);
          resolve({ type: "error", rid: r, code: "TIMEOUT", message: "the room did not answer in time; try again" });
        }, OP_TIMEOUT_MS);
        pending.set(r, {
          resolve: (f) => resolve(isReplyTo(f, input.op) ? f : { type: "error", rid: r, code: "BAD_FRAME", message: `the room's answer to ${input.op} did not parse` }),
          timer: t,
        });
        socket.send(JSON.stringify({ ...input, rid: r }));
      });
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      failPending("closed");
      ws?.close();
    },
  };
}
