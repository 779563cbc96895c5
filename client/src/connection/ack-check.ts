/**
 * The session socket's check on an ack before anyone reads it: its result must have its op's shape
 * (the shared `AckFrame` schema). A module of its own, loaded on demand: it brings zod, which the
 * session page's first paint does without (session-socket.ts warms it once the page has painted).
 */
import { AckFrame } from "../../../shared/viewer-protocol";
import type { OpReply } from "./op-client";

export function checkReply(reply: OpReply): OpReply {
  if (reply.type !== "ack") return reply;
  const parsed = AckFrame.safeParse(reply);
  if (parsed.success) return parsed.data;
  console.warn(`An answer to ${reply.op} was not understood:`, parsed.error.issues);
  return { type: "unread_ack", rid: reply.rid, op: reply.op };
}
