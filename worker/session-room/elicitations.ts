/**
 * The room's rule for agent forms (ACP elicitation), like permissions: every viewer sees the request, the
 * first valid answer wins, later ones are told it is resolved; the turn's end / Stop cancels what is open.
 * The rules are pure over a small map the room keeps in its meta (a form is open for seconds, a handful at
 * most); the functions below apply them to the room's store, like permissions.ts.
 */
import { assertNever } from "../../shared/assert-never";
import { checkElicitationContent } from "../../shared/elicitation-form";
import type { DaemonEvent, MachineCommand } from "../../shared/tunnel-protocol";
import {
  type Author,
  type ClientOp,
  type ElicitationAction,
  type ElicitationContent,
  ErrorCode,
  type PermissionAck,
  type SessionEvent,
} from "../../shared/viewer-protocol";
import type { RoomStore } from "./room-store";
import type { OpenElicitations, PendingElicitation } from "./room-state";

export type { OpenElicitations, PendingElicitation };

export function openElicitation(open: OpenElicitations, requestId: string, requestedSchema: Record<string, unknown>): OpenElicitations {
  return requestId in open ? open : { ...open, [requestId]: { requestedSchema } };
}

export function closeElicitation(open: OpenElicitations, requestId: string): OpenElicitations {
  if (!(requestId in open)) return open;
  const { [requestId]: _closed, ...rest } = open;
  return rest;
}

export type AnswerVerdict =
  /** Forward it; the form closes. `content` only with accept. */
  | { kind: "accept"; action: ElicitationAction; content?: ElicitationContent }
  /** Already answered or cancelled: the first answer won (or the request never existed: `unknown`). */
  | { kind: "resolved" }
  | { kind: "unknown" }
  | { kind: "invalid"; message: string };

/**
 * Judges one viewer's answer. `known` tells a request that was answered or cancelled (resolved) from one
 * that never existed (unknown).
 */
export function judgeAnswer(
  open: OpenElicitations,
  known: boolean,
  requestId: string,
  action: ElicitationAction,
  content: ElicitationContent | undefined,
): AnswerVerdict {
  const pending = open[requestId];
  if (!pending) return known ? { kind: "resolved" } : { kind: "unknown" };
  if (action !== "accept") return { kind: "accept", action };
  const check = checkElicitationContent(pending.requestedSchema, content ?? {});
  if (!check.ok) return { kind: "invalid", message: check.message };
  return { kind: "accept", action, content: content ?? {} };
}

// ---------------------------------------------------------------- the room's side, over its store

type Emit = (event: SessionEvent) => void;
type ElicitationRequest = Extract<DaemonEvent, { t: "elicitation.request" }>;
type ElicitationRespond = Extract<ClientOp, { op: "elicitation.respond" }>;

/** Answered form ids remembered so a late second answer hears "already resolved", not "no such request". */
const RESOLVED_ELICITATIONS_KEPT = 64;

const openOf = (store: RoomStore): OpenElicitations => store.state()?.elicitations ?? {};

export function elicitationRequested(store: RoomStore, emit: Emit, e: ElicitationRequest): void {
  store.update((s) => ({ ...s, elicitations: openElicitation(s.elicitations, e.requestId, e.requestedSchema) }));
  emit({ kind: "elicitation_request", requestId: e.requestId, message: e.message, requestedSchema: e.requestedSchema, toolCallId: e.toolCallId ?? null });
}

/** Closes an open form and logs how (`by` null: cancelled by the turn's end, Stop or the agent). */
function resolve(store: RoomStore, emit: Emit, requestId: string, action: ElicitationAction, content: ElicitationContent | undefined, by: Author | null): void {
  store.update((s) => ({
    ...s,
    elicitations: closeElicitation(s.elicitations, requestId),
    elicitationsResolved: [...s.elicitationsResolved, requestId].slice(-RESOLVED_ELICITATIONS_KEPT),
  }));
  emit({ kind: "elicitation_resolved", requestId, action, ...(content ? { content } : {}), by });
}

/** The agent withdrew its form. */
export function elicitationWithdrawn(store: RoomStore, emit: Emit, requestId: string): void {
  if (requestId in openOf(store)) resolve(store, emit, requestId, "cancel", undefined, null);
}

/** The turn ended, was stopped, or the agent restarted: open forms can no longer be answered usefully. */
export function cancelOpenElicitations(store: RoomStore, emit: Emit): void {
  for (const requestId of Object.keys(openOf(store))) resolve(store, emit, requestId, "cancel", undefined, null);
}

export type ElicitationAnswer =
  | { ok: false; code: ErrorCode; message: string }
  | { ok: true; ack: PermissionAck; forward: MachineCommand | null };

/** A viewer's answer: refused (unknown form / invalid content), too late, or the winner (resolved here, to forward). */
export function answerElicitation(store: RoomStore, emit: Emit, by: Author, op: ElicitationRespond, sessionId: string): ElicitationAnswer {
  const known = (store.state()?.elicitationsResolved ?? []).includes(op.requestId);
  const verdict = judgeAnswer(openOf(store), known, op.requestId, op.action, op.content);
  switch (verdict.kind) {
    case "unknown":
      return { ok: false, code: ErrorCode.NOT_FOUND, message: "no such form request" };
    case "resolved":
      return { ok: true, ack: { outcome: "already_resolved" }, forward: null };
    case "invalid":
      return { ok: false, code: ErrorCode.BAD_FRAME, message: verdict.message };
    case "accept":
      resolve(store, emit, op.requestId, verdict.action, verdict.content, by);
      return {
        ok: true,
        ack: { outcome: "accepted" },
        forward: { t: "elicitation.respond", sessionId, requestId: op.requestId, action: verdict.action, content: verdict.content },
      };
    default:
      return assertNever(verdict);
  }
}
