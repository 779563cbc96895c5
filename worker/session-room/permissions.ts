/**
 * Requests from the agent that viewers answer (permission requests): every viewer sees the request,
 * the first valid answer wins and is forwarded, the others see it resolved. Pending requests are
 * answered `cancelled` when the turn ends, is stopped, or the agent restarts.
 *
 * Another first-answer-wins request from the agent (e.g. a form) follows the same shape: stored pending,
 * emitted, resolved once, cancelled with the turn.
 */
import type { DaemonEvent, MachineCommand } from "../../shared/tunnel-protocol";
import { type Author, type ClientOp, ErrorCode, type PermissionAck, type SessionEvent } from "../../shared/viewer-protocol";
import type { RoomStore } from "./room-store";

type Emit = (event: SessionEvent) => void;
type PermissionRequest = Extract<DaemonEvent, { t: "permission.request" }>;
type PermissionRespond = Pick<Extract<ClientOp, { op: "permission.respond" }>, "requestId" | "optionId">;

export function permissionRequested(store: RoomStore, emit: Emit, e: PermissionRequest): void {
  store.addPermission({ requestId: e.requestId, toolCall: e.toolCall, options: e.options });
  emit({ kind: "permission_request", requestId: e.requestId, toolCall: e.toolCall, options: e.options });
}

/** The agent withdrew a request (its turn ended on the machine side). */
export function permissionWithdrawn(store: RoomStore, emit: Emit, requestId: string): void {
  if (store.resolvePermission(requestId)) emit({ kind: "permission_resolved", requestId, outcome: "cancelled", optionId: null, by: null });
}

export function cancelPendingPermissions(store: RoomStore, emit: Emit): void {
  for (const requestId of store.pendingPermissionIds()) {
    store.resolvePermission(requestId);
    emit({ kind: "permission_resolved", requestId, outcome: "cancelled", optionId: null, by: null });
  }
}

export type PermissionAnswer =
  | { ok: false; code: ErrorCode; message: string }
  | { ok: true; ack: PermissionAck; forward: MachineCommand | null };

/** A viewer's answer: refused (unknown request / option), too late, or the winner (resolved here, to forward). */
export function answerPermission(store: RoomStore, emit: Emit, by: Author, op: PermissionRespond, sessionId: string): PermissionAnswer {
  const pending = store.permission(op.requestId);
  if (!pending) return { ok: false, code: ErrorCode.NOT_FOUND, message: "no such permission request" };
  if (op.optionId !== null && !pending.options.some((o) => o.optionId === op.optionId))
    return { ok: false, code: ErrorCode.BAD_FRAME, message: "that option was not offered" };
  if (!store.resolvePermission(op.requestId, by.name)) return { ok: true, ack: { outcome: "already_resolved" }, forward: null };
  emit({
    kind: "permission_resolved",
    requestId: op.requestId,
    outcome: op.optionId === null ? "cancelled" : "selected",
    optionId: op.optionId,
    by,
  });
  return {
    ok: true,
    ack: { outcome: "accepted" },
    forward: { t: "permission.respond", sessionId, requestId: op.requestId, optionId: op.optionId },
  };
}

/**
 * An answer from outside a socket (a notification's Approve / Deny, POST /api/push/action): the same
 * rules as the card, with "already answered" naming who answered (null: the request was cancelled).
 */
export type RemoteAnswer =
  | { ok: true }
  | { ok: false; error: "ALREADY_ANSWERED"; by: string | null }
  | { ok: false; error: "NOT_FOUND" | "FORBIDDEN" | "BAD_OPTION"; message: string };

export function remoteAnswer(store: RoomStore, requestId: string, answer: PermissionAnswer): RemoteAnswer {
  if (!answer.ok)
    return answer.code === ErrorCode.NOT_FOUND
      ? { ok: false, error: "NOT_FOUND", message: answer.message }
      : { ok: false, error: "BAD_OPTION", message: answer.message };
  if (answer.ack.outcome === "already_resolved") return { ok: false, error: "ALREADY_ANSWERED", by: store.permissionAnsweredBy(requestId) };
  return { ok: true };
}
