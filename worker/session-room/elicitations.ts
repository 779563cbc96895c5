/**
 * The room's rule for agent forms (ACP elicitation), like permissions: every viewer sees the request, the
 * first valid answer wins, later ones are told it is resolved; the turn's end / Stop cancels what is open.
 * Pure: the state is a small map the room keeps in its meta (a form is open for seconds, a handful at most).
 */
import { checkElicitationContent } from "../../shared/elicitation-form";
import type { ElicitationAction, ElicitationContent } from "../../shared/viewer-protocol";

export type PendingElicitation = { requestedSchema: Record<string, unknown> };
/** requestId → the open form. */
export type OpenElicitations = Readonly<Record<string, PendingElicitation>>;

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
