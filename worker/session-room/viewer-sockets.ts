/** The SessionRoom's viewer sockets: what rides on each (its attachment), how one is answered and closed. */
import type { Replier } from "./room-core";
import { type AckFrameOf, type ClientOpName, type ErrorFrame, Viewer } from "../../shared/viewer-protocol";

/** Close code when a viewer's role changed or they lost access; the client reconnects and re-checks. */
export const CLOSE_ACCESS_CHANGED = 4403;
/** Close code for a socket that kept flooding past its rate limit (policy violation). */
export const CLOSE_POLICY = 1008;
/** Close code for a socket the runtime reported broken (protocol error). */
export const CLOSE_PROTOCOL_ERROR = 1002;

/** A spectator came through a share link (issue 30 #3): which one, and when it expires (null: never). */
export type ShareGrant = { linkId: string; expiresAt: number | null };
export type Attachment = { viewer: Viewer; connectedAt: number; share?: ShareGrant; /** `baton attach`'s user token id. */ attachTokenId?: string };

/** The share link the Worker put in a spectator's upgrade (absent for members; malformed → refused). */
export function parseShareGrant(header: string | null): ShareGrant | null | "bad" {
  if (header === null) return null;
  try {
    const v: unknown = JSON.parse(header);
    if (typeof v !== "object" || v === null || !("linkId" in v) || !("expiresAt" in v)) return "bad";
    const { linkId, expiresAt } = v;
    if (typeof linkId !== "string" || !(expiresAt === null || typeof expiresAt === "number")) return "bad";
    return { linkId, expiresAt };
  } catch {
    return "bad";
  }
}

/** The viewer the Worker put in the upgrade's header (identity, membership and role already checked). */
export function parseViewer(header: string | null): Viewer | null {
  if (!header) return null;
  try {
    const parsed = Viewer.safeParse(JSON.parse(header));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function closeQuietly(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    /* already closed */
  }
}

/** Answers on one socket; a viewer gone meanwhile loses nothing (outcomes are durable, a retry gets them). */
export function replierFor(ws: WebSocket): Replier {
  const send = (text: string) => {
    try {
      ws.send(text);
    } catch {
      /* closed */
    }
  };
  return {
    ack<K extends ClientOpName>(op: { op: K; rid: string }, result: AckFrameOf<K>["result"]) {
      send(JSON.stringify({ type: "ack", rid: op.rid, op: op.op, result } satisfies AckFrameOf<K>));
    },
    error(rid, code, message) {
      send(JSON.stringify({ type: "error", rid, code, message } satisfies ErrorFrame));
    },
  };
}
