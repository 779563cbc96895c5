/**
 * The room's rule for agent forms (ACP elicitation), like permissions: every viewer sees the request, the
 * first valid answer wins, later ones are told it is resolved; the turn's end / Stop cancels what is open.
 * The rules are pure over the open forms (the requests table, kind `elicitation`; open for seconds, a handful at most).
 */
import { assertNever } from "../../shared/assert-never";
import { checkElicitationContent } from "../../shared/elicitation-form";
import { patternMatches } from "../../shared/pattern-check";
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import {
  type Author,
  type ClientOp,
  type ElicitationAction,
  type ElicitationContent,
  ErrorCode,
} from "../../shared/viewer-protocol";
import type { OpReply, Out } from "./room-effects";
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
  const check = checkElicitationContent(pending.requestedSchema, content ?? {}, patternMatches);
  if (!check.ok) return { kind: "invalid", message: check.message };
  return { kind: "accept", action, content: content ?? {} };
}

// ---------------------------------------------------------------- the room's side, over its state

type ElicitationRequest = Extract<DaemonEvent, { t: "elicitation.request" }>;
type ElicitationRespond = Extract<ClientOp, { op: "elicitation.respond" }>;

/** The forms still open, as the pure rules read them. */
function openForms(out: Out): OpenElicitations {
  const open: Record<string, PendingElicitation> = {};
  for (const r of out.reads.openRequests()) if (r.kind === "elicitation") open[r.requestId] = { requestedSchema: r.requestedSchema };
  return open;
}

export function elicitationRequested(out: Out, e: ElicitationRequest): void {
  if (!out.reads.request(e.requestId)) out.add({ t: "request.add", request: { kind: "elicitation", requestId: e.requestId, requestedSchema: e.requestedSchema } });
  out.emit({ kind: "elicitation_request", requestId: e.requestId, message: e.message, requestedSchema: e.requestedSchema, toolCallId: e.toolCallId ?? null });
}

/** Closes an open form and logs how (`by` null: cancelled by the turn's end, Stop or the agent). */
function resolve(out: Out, requestId: string, action: ElicitationAction, content: ElicitationContent | undefined, by: Author | null): void {
  out.add({ t: "request.resolve", requestId, by: by?.name ?? null });
  out.emit({ kind: "elicitation_resolved", requestId, action, ...(content ? { content } : {}), by });
}

/** The agent withdrew its form. */
export function elicitationWithdrawn(out: Out, requestId: string): void {
  if (requestId in openForms(out)) resolve(out, requestId, "cancel", undefined, null);
}

/** The turn ended, was stopped, or the agent restarted: open forms can no longer be answered usefully. */
export function cancelOpenElicitations(out: Out): void {
  for (const requestId of Object.keys(openForms(out))) resolve(out, requestId, "cancel", undefined, null);
}

/** A viewer's answer: refused (unknown form / invalid content), too late, or the winner (resolved here, forwarded). */
export function answerElicitation(out: Out, by: Author, op: ElicitationRespond): OpReply<"elicitation.respond"> {
  const known = out.reads.request(op.requestId)?.kind === "elicitation";
  const verdict = judgeAnswer(openForms(out), known, op.requestId, op.action, op.content);
  switch (verdict.kind) {
    case "unknown":
      return { ok: false, code: ErrorCode.NOT_FOUND, message: "no such form request" };
    case "resolved":
      return { ok: true, ack: { outcome: "already_resolved" } };
    case "invalid":
      return { ok: false, code: ErrorCode.BAD_FRAME, message: verdict.message };
    case "accept": {
      resolve(out, op.requestId, verdict.action, verdict.content, by);
      const command = { t: "elicitation.respond", sessionId: out.state.session.sessionId, requestId: op.requestId, action: verdict.action, content: verdict.content } as const;
      out.dispatch(command, { deliverWhenOnline: true });
      return { ok: true, ack: { outcome: "accepted" } };
    }
    default:
      return assertNever(verdict);
  }
}
