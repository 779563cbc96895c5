/**
 * The agent's questions to a person — permission requests and session-scoped forms (elicitation) — relayed to
 * every viewer; the first valid answer settles each.
 * Invariant: a request is announced from the tap (in wire order among the updates) and answered from the SDK's
 * handler; whichever comes first, the entry keyed by the JSON-RPC id waits for the other. Cancelled ones are
 * announced as cancelled once.
 */
import { randomUUID } from "node:crypto";
import type { DaemonEvent } from "../../../shared/tunnel-protocol";
import { type ElicitationAction, type ElicitationContent, PermissionOption } from "../../../shared/viewer-protocol";
import { isRecord } from "./acp-tap";
import { rpcKey } from "./agent-rpc";
import { type Deferred, deferred } from "../timing";

type PendingPermission = {
  requestId: string;
  rpcKey: string;
  optionIds: string[];
  answer: Deferred<string | null>;
};

type ElicitationAnswer = { action: ElicitationAction; content?: ElicitationContent };

type PendingElicitation = {
  requestId: string;
  rpcKey: string;
  answer: Deferred<ElicitationAnswer>;
};

export type PermissionOutcome = { outcome: "cancelled" } | { outcome: "selected"; optionId: string };
export type ElicitationOutcome = { action: "accept"; content: ElicitationContent } | { action: "decline" | "cancel" };

export class AgentRequests {
  private readonly permissions = new Map<string, PendingPermission>();
  private readonly permissionsByRpc = new Map<string, PendingPermission>();
  private readonly elicitations = new Map<string, PendingElicitation>();
  private readonly elicitationsByRpc = new Map<string, PendingElicitation>();

  constructor(
    private readonly sessionId: string,
    private readonly emit: (e: DaemonEvent) => void,
    /** Forms for another session (or none) are not offered to this session's viewers. */
    private readonly agentSessionId: () => string | null,
  ) {}

  // ---------------------------------------------------------------- from the tap: announce

  registerPermission(id: unknown, params: unknown): void {
    const p = isRecord(params) ? params : {};
    const toolCall = isRecord(p.toolCall) ? p.toolCall : {};
    const options = Array.isArray(p.options)
      ? p.options.flatMap((o): PermissionOption[] => {
          const parsed = PermissionOption.safeParse(o);
          return parsed.success ? [parsed.data] : [];
        })
      : [];
    const pending: PendingPermission = {
      requestId: `perm-${randomUUID()}`,
      rpcKey: rpcKey(id),
      optionIds: options.map((o) => o.optionId),
      answer: deferred<string | null>(),
    };
    this.permissions.set(pending.requestId, pending);
    this.permissionsByRpc.set(pending.rpcKey, pending);
    this.emit({
      t: "permission.request",
      sessionId: this.sessionId,
      requestId: pending.requestId,
      toolCall,
      options,
    });
  }

  /** A session-scoped form (claude's AskUserQuestion, an MCP server's question) goes to every viewer. */
  registerElicitation(id: unknown, params: unknown): void {
    const p = isRecord(params) ? params : {};
    const schema = p.requestedSchema;
    if (p.mode !== "form" || p.sessionId !== this.agentSessionId() || !isRecord(schema)) return;
    const pending: PendingElicitation = { requestId: `elicit-${randomUUID()}`, rpcKey: rpcKey(id), answer: deferred<ElicitationAnswer>() };
    this.elicitations.set(pending.requestId, pending);
    this.elicitationsByRpc.set(pending.rpcKey, pending);
    this.emit({
      t: "elicitation.request",
      sessionId: this.sessionId,
      requestId: pending.requestId,
      message: typeof p.message === "string" ? p.message : "",
      requestedSchema: schema,
      toolCallId: typeof p.toolCallId === "string" ? p.toolCallId : null,
    });
  }

  // ---------------------------------------------------------------- from the SDK's handlers: wait for the answer

  /** The answer may already be in (a fast viewer): the entry stays until this handler takes it. */
  async answerPermission(id: unknown, signal: AbortSignal): Promise<PermissionOutcome> {
    const pending = this.permissionsByRpc.get(rpcKey(id));
    this.permissionsByRpc.delete(rpcKey(id));
    if (!pending) return { outcome: "cancelled" };
    const onAbort = () => this.cancelPermission(pending);
    signal.addEventListener("abort", onAbort, { once: true });
    const optionId = await pending.answer.promise;
    signal.removeEventListener("abort", onAbort);
    return optionId === null ? { outcome: "cancelled" } : { outcome: "selected", optionId };
  }

  /**
   * Only session-scoped forms were announced to the viewers (see registerElicitation); anything else (a URL, a
   * request-scoped form) Baton does not offer: cancelled.
   */
  async answerElicitation(id: unknown, signal: AbortSignal): Promise<ElicitationOutcome> {
    const pending = this.elicitationsByRpc.get(rpcKey(id));
    this.elicitationsByRpc.delete(rpcKey(id));
    if (!pending) return { action: "cancel" };
    const onAbort = () => this.cancelElicitation(pending);
    signal.addEventListener("abort", onAbort, { once: true });
    const answer = await pending.answer.promise;
    signal.removeEventListener("abort", onAbort);
    return answer.action === "accept" ? { action: "accept", content: answer.content ?? {} } : { action: answer.action };
  }

  // ---------------------------------------------------------------- from the viewers: answer

  respondPermission(requestId: string, optionId: string | null): void {
    const p = this.permissions.get(requestId);
    if (!p) return; // already answered, cancelled or unknown: first answer won
    if (optionId === null) return this.cancelPermission(p);
    if (p.optionIds.length && !p.optionIds.includes(optionId))
      return this.emit({ t: "command.failed", sessionId: this.sessionId, command: "permission.respond", message: `unknown option ${optionId}` });
    this.permissions.delete(p.requestId);
    p.answer.resolve(optionId);
  }

  /** The room checked the answer against the form; the first one settles it. */
  respondElicitation(requestId: string, action: ElicitationAction, content: ElicitationContent | undefined): void {
    const e = this.elicitations.get(requestId);
    if (!e) return; // already answered, cancelled or unknown: first answer won
    this.elicitations.delete(requestId);
    e.answer.resolve(action === "accept" ? { action, content: content ?? {} } : { action });
  }

  // ---------------------------------------------------------------- nobody can answer any more

  /** Turn end, cancel, exit: every open request is cancelled (and announced so). */
  cancelAll(): void {
    for (const p of [...this.permissions.values()]) this.cancelPermission(p);
    for (const e of [...this.elicitations.values()]) this.cancelElicitation(e);
  }

  /** At turn end: also forget requests the agent abandoned without the SDK handler ever running. */
  turnEnded(): void {
    this.cancelAll();
    this.permissionsByRpc.clear();
    this.elicitationsByRpc.clear();
  }

  private cancelPermission(p: PendingPermission): void {
    if (!this.permissions.delete(p.requestId)) return;
    p.answer.resolve(null);
    this.emit({ t: "permission.cancelled", sessionId: this.sessionId, requestId: p.requestId });
  }

  private cancelElicitation(e: PendingElicitation): void {
    if (!this.elicitations.delete(e.requestId)) return;
    e.answer.resolve({ action: "cancel" });
    this.emit({ t: "elicitation.cancelled", sessionId: this.sessionId, requestId: e.requestId });
  }
}
