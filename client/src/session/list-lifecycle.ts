/** What a session list row's menu offers and what its forms accept (issue 26). Plain. */
import type { MachineSummary } from "../../../shared/api";
import type { SessionListItem } from "../../../shared/session-list";
import { listStatus, MAX_SESSION_TITLE } from "../../../shared/session-list-rules";

type Role = SessionListItem["role"];

/** Owners and members can write: rename, archive, unarchive. */
export const canEdit = (role: Role): boolean => role === "owner" || role === "member";
/** Only the owner deletes a session (the server says the same: `DELETE /api/sessions/:id`). */
export const canDelete = (role: Role): boolean => role === "owner";

/**
 * Whether the delete dialog offers "Also delete the agent's own session": the session's agent on its machine
 * advertises `session/delete` (the machine's last hello, refined by the agent's own `initialize`). Unknown
 * machine or agent (a revoked machine, a list not loaded yet): not offered. The server still answers
 * `agentSessionDeleted: false` with a reason when the agent cannot after all.
 */
export function offersAgentDelete(s: Pick<SessionListItem, "agentId" | "machineId">, machines: readonly Pick<MachineSummary, "id" | "agents">[] | undefined): boolean {
  const agent = machines?.find((m) => m.id === s.machineId)?.agents.find((a) => a.id === s.agentId);
  return agent?.capabilities.delete === true;
}

/** Archiving a running session (a turn in flight, or one waiting for an answer) asks first. */
export function archiveAsksFirst(s: Pick<SessionListItem, "status" | "needsYou" | "archivedAt">): boolean {
  if (s.archivedAt !== null) return false;
  const st = listStatus(s);
  return st === "running" || st === "needs_you";
}

/** A rename as typed: trimmed, 1…MAX_SESSION_TITLE characters (the server's rule, in words for the form). */
export function checkTitle(raw: string): { title: string } | { error: string } {
  const title = raw.trim();
  if (!title) return { error: "A title cannot be empty." };
  if (title.length > MAX_SESSION_TITLE) return { error: `A title is at most ${MAX_SESSION_TITLE} characters (this one has ${title.length}).` };
  return { title };
}

/** Days an idle session must have been quiet for "Archive idle sessions older than N days" (the form's choices). */
export const IDLE_DAYS_CHOICES = [1, 3, 7, 14, 30, 90] as const;
export const IDLE_DAYS_DEFAULT = 14;
