/**
 * The session list's rules that need no zod (issue 26): the home page and the session page import these
 * without loading the schemas (docs/ARCHITECTURE.md, "Phone-class loading"). The wire shapes are in
 * session-list.ts (its types read here; it imports nothing from here, so no circle).
 */
import type { SessionListItem, SessionListQuery } from "./session-list";

import { ListStatus } from "./session-list-values";

export { ListStatus, MAX_SESSION_TITLE } from "./session-list-values";
export { CLOSE_SESSION_DELETED } from "./close-codes";

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

/**
 * A list page as the server sent it, before the schemas (zod) have loaded: the home page paints with it and the
 * full check (`SessionListPage` in session-list.ts) follows. Checks every field the list reads; throws otherwise.
 */
export function pageAsSent(raw: unknown): import("./session-list").SessionListPage {
  const fail = (why: string): never => {
    throw new Error(`the session list answer is not one (${why})`);
  };
  if (typeof raw !== "object" || raw === null || !("sessions" in raw) || !("nextCursor" in raw)) return fail("no sessions");
  const { sessions, nextCursor } = raw;
  if (!Array.isArray(sessions)) return fail("sessions is not a list");
  if (nextCursor !== null && typeof nextCursor !== "string") return fail("bad cursor");
  const str = (o: Record<string, unknown>, k: string) => typeof o[k] === "string" || fail(`${k} is not text`);
  const num = (o: Record<string, unknown>, k: string) => typeof o[k] === "number" || fail(`${k} is not a number`);
  const opt = (o: Record<string, unknown>, k: string) => o[k] === undefined || o[k] === null || typeof o[k] === "string" || fail(`${k} is not text`);
  const rows = sessions.map((item: unknown) => {
    if (typeof item !== "object" || item === null) return fail("a row is not an object");
    const o: Record<string, unknown> = { ...item };
    for (const k of ["id", "title", "machineId", "machineName", "agentId", "agentLabel", "cwd", "status"]) str(o, k);
    for (const k of ["createdAt", "lastActivityAt", "version"]) num(o, k);
    for (const k of ["firstPrompt", "agentTitle", "customTitle"]) opt(o, k);
    if (o.archivedAt !== null && typeof o.archivedAt !== "number") fail("archivedAt");
    if (typeof o.needsYou !== "boolean" || typeof o.unread !== "boolean") fail("markers");
    if (o.role !== "owner" && o.role !== "member" && o.role !== "viewer") fail("role");
    return {
      id: String(o.id),
      title: String(o.title),
      machineId: String(o.machineId),
      machineName: String(o.machineName),
      agentId: String(o.agentId),
      agentLabel: String(o.agentLabel),
      cwd: String(o.cwd),
      status: String(o.status),
      createdAt: Number(o.createdAt),
      lastActivityAt: Number(o.lastActivityAt),
      firstPrompt: typeof o.firstPrompt === "string" ? o.firstPrompt : null,
      agentTitle: typeof o.agentTitle === "string" ? o.agentTitle : null,
      customTitle: typeof o.customTitle === "string" ? o.customTitle : null,
      archivedAt: typeof o.archivedAt === "number" ? o.archivedAt : null,
      needsYou: o.needsYou === true,
      unread: o.unread === true,
      role: o.role === "owner" ? ("owner" as const) : o.role === "member" ? ("member" as const) : ("viewer" as const),
      version: Number(o.version),
    };
  });
  return { sessions: rows, nextCursor: typeof nextCursor === "string" ? nextCursor : null };
}
