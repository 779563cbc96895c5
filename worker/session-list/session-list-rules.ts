/**
 * The session list's rules (issue 26), pure: the page cursor, who may do what to a session, when archiving
 * needs a confirmation, which sessions a bulk archive skips. The SQL and routes apply them
 * (session-list-directory.ts, session-routes.ts).
 */
import type { SessionListItem } from "../../shared/session-list";
import { listStatus, ListStatus } from "../../shared/session-list-rules";

export type Role = SessionListItem["role"];

// ---------------------------------------------------------------- the keyset cursor

/** Where a page ends: the last row's (lastActivityAt, id); the next page starts strictly after it. */
export type ListCursor = { at: number; id: string };

export function encodeCursor(c: ListCursor): string {
  return `${c.at}.${c.id}`;
}

/** null when the text is not a cursor this server made (a bad request, not an empty page). */
export function decodeCursor(text: string): ListCursor | null {
  const dot = text.indexOf(".");
  if (dot <= 0) return null;
  const at = Number(text.slice(0, dot));
  const id = text.slice(dot + 1);
  if (!Number.isSafeInteger(at) || at < 0 || !/^[\w-]{1,128}$/.test(id)) return null;
  return { at, id };
}

// ---------------------------------------------------------------- who may

/** Rename and archive: whoever can write in the session (owner, member); a viewer only reads. */
export const canWrite = (role: Role): boolean => role === "owner" || role === "member";
/** Delete: the owner only (it removes everyone's access and the history). */
export const canDelete = (role: Role): boolean => role === "owner";

/** A turn is running: the agent is at work (its state is `active`, whether or not it waits for someone). */
export const isRunning = (s: Pick<SessionListItem, "status">): boolean => s.status === "active";

/** Archiving a running session needs `confirmRunning` (the UI asked first). */
export function archiveNeedsConfirmation(s: Pick<SessionListItem, "status" | "archivedAt">, archive: boolean, confirmRunning: boolean): boolean {
  return archive && s.archivedAt === null && isRunning(s) && !confirmRunning;
}

export const BulkSkip = {
  notFound: "not found",
  readOnly: "you can only view this session",
  alreadyArchived: "already archived",
  running: "running",
  needsYou: "needs you",
} as const;
export type BulkSkip = (typeof BulkSkip)[keyof typeof BulkSkip];

/** Why a bulk archive leaves a session alone (null: archive it). A bulk action never interrupts work or a question. */
export function bulkSkipReason(s: (Pick<SessionListItem, "status" | "needsYou" | "archivedAt" | "role">) | null): BulkSkip | null {
  if (!s) return BulkSkip.notFound;
  if (!canWrite(s.role)) return BulkSkip.readOnly;
  if (s.archivedAt !== null) return BulkSkip.alreadyArchived;
  if (s.needsYou) return BulkSkip.needsYou;
  if (isRunning(s) || listStatus(s) === ListStatus.running) return BulkSkip.running;
  return null;
}

/** "Idle for N days": no turn started or ended since this cut-off. */
export const idleCutoff = (now: number, days: number): number => now - days * 86_400_000;
