/**
 * The room's rule for ACP permission requests, pure over the room's reads (the permission table) with its
 * writes as effects: every viewer sees the request, the first valid answer wins and is forwarded, the
 * others see it resolved. Pending requests are answered `cancelled` when the turn ends, is stopped, or the
 * agent restarts.
 */
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { type Author, type ClientOp, ErrorCode } from "../../shared/viewer-protocol";
import type { Out } from "./room-effects";
import type { OpReply } from "./room-effects";

type PermissionRequest = Extract<DaemonEvent, { t: "permission.request" }>;
type PermissionRespond = Pick<Extract<ClientOp, { op: "permission.respond" }>, "requestId" | "optionId">;

export function permissionRequested(out: Out, e: PermissionRequest): void {
  // A request heard again (a resend) keeps its first record.
  if (!out.reads.request(e.requestId)) out.add({ t: "request.add", request: { kind: "permission", requestId: e.requestId, toolCall: e.toolCall, options: e.options } });
  out.emit({ kind: "permission_request", requestId: e.requestId, toolCall: e.toolCall, options: e.options });
}

/** The agent withdrew a request (its turn ended on the machine side). */
export function permissionWithdrawn(out: Out, requestId: string): void {
  const r = out.reads.request(requestId);
  if (r?.kind !== "permission" || !r.open) return;
  out.add({ t: "request.resolve", requestId, by: null });
  out.emit({ kind: "permission_resolved", requestId, outcome: "cancelled", optionId: null, by: null });
}

export function cancelPendingPermissions(out: Out): void {
  for (const { requestId } of out.reads.openRequests().filter((r) => r.kind === "permission")) {
    out.add({ t: "request.resolve", requestId, by: null });
    out.emit({ kind: "permission_resolved", requestId, outcome: "cancelled", optionId: null, by: null });
  }
}

/** A viewer's answer: refused (unknown request / option), too late, or the winner (resolved here, forwarded). */
export function answerPermission(out: Out, by: Author, op: PermissionRespond): OpReply<"permission.respond"> {
  const pending = out.reads.request(op.requestId);
  if (pending?.kind !== "permission") return { ok: false, code: ErrorCode.NOT_FOUND, message: "no such permission request" };
  if (op.optionId !== null && !pending.options.some((o) => o.optionId === op.optionId))
    return { ok: false, code: ErrorCode.BAD_FRAME, message: "that option was not offered" };
  if (!pending.open) return { ok: true, ack: { outcome: "already_resolved" } };
  out.add({ t: "request.resolve", requestId: op.requestId, by: by.name });
  out.emit({ kind: "permission_resolved", requestId: op.requestId, outcome: op.optionId === null ? "cancelled" : "selected", optionId: op.optionId, by });
  const sessionId = out.state.session.sessionId;
  out.dispatch({ t: "permission.respond", sessionId, requestId: op.requestId, optionId: op.optionId }, { deliverWhenOnline: true });
  return { ok: true, ack: { outcome: "accepted" } };
}

/**
 * An answer from outside a socket (a notification's Approve / Deny, POST /api/push/action): the same
 * rules as the card, with "already answered" naming who answered (null: the request was cancelled).
 */
export type RemoteAnswer =
  | { ok: true }
  | { ok: false; error: "ALREADY_ANSWERED"; by: string | null }
  | { ok: false; error: "NOT_FOUND" | "FORBIDDEN" | "BAD_OPTION"; message: string };

export function remoteAnswer(answer: OpReply<"permission.respond">, answeredBy: () => string | null): RemoteAnswer {
  if (!answer.ok)
    return answer.code === ErrorCode.NOT_FOUND ? { ok: false, error: "NOT_FOUND", message: answer.message } : { ok: false, error: "BAD_OPTION", message: answer.message };
  if (answer.ack.outcome === "already_resolved") return { ok: false, error: "ALREADY_ANSWERED", by: answeredBy() };
  return { ok: true };
}
