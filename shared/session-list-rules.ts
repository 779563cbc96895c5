/**
 * The session list's rules that need no zod (issue 26): the home page and the session page import these
 * without loading the schemas (docs/ARCHITECTURE.md, "Phone-class loading"). The wire shapes are in
 * session-list.ts, which re-exports everything here.
 */
import type { SessionListItem, SessionListQuery } from "./session-list";

/** Longest title a person can give a session (a heading, not a paragraph). */
export const MAX_SESSION_TITLE = 120;

/** What the list shows as a session's status (the room's state folded with the machine's and the markers). */
export const ListStatus = { running: "running", idle: "idle", needsYou: "needs_you", offline: "offline", error: "error", starting: "starting" } as const;
export type ListStatus = (typeof ListStatus)[keyof typeof ListStatus];
/** Close code a SessionRoom sends its viewers when the session was deleted (the page says so and goes to the list). */
export const CLOSE_SESSION_DELETED = 4410;

export const SESSION_FEED_PATH = "/api/sessions/feed";

/** What the list shows for a row's status. */
export function listStatus(s: Pick<SessionListItem, "status" | "needsYou">): ListStatus {
  if (s.status === "offline") return ListStatus.offline;
  if (s.needsYou) return ListStatus.needsYou;
  switch (s.status) {
    case "active":
      return ListStatus.running;
    case "error":
      return ListStatus.error;
    case "starting":
      return ListStatus.starting;
    default:
      return ListStatus.idle;
  }
}

/** The title a row shows: a person's name for it, the agent's, the first prompt, the created title. */
export function displayTitle(s: Pick<SessionListItem, "customTitle" | "agentTitle" | "firstPrompt" | "title">): string {
  return s.customTitle || s.agentTitle || s.firstPrompt || s.title;
}

/** Whether a row belongs in a list filtered by `q` (server and client apply the same rule). */
export function matchesQuery(s: SessionListItem, q: Pick<SessionListQuery, "text" | "agentId" | "machineId" | "status" | "archived">): boolean {
  const archived = s.archivedAt !== null;
  if (q.archived === "hide" && archived) return false;
  if (q.archived === "only" && !archived) return false;
  if (q.agentId && s.agentId !== q.agentId) return false;
  if (q.machineId && s.machineId !== q.machineId) return false;
  if (q.status && listStatus(s) !== q.status) return false;
  const text = q.text?.trim().toLowerCase();
  if (text) {
    const hay = [s.customTitle, s.agentTitle, s.firstPrompt, s.title, s.cwd].filter(Boolean).join("\n").toLowerCase();
    if (!hay.includes(text)) return false;
  }
  return true;
}
