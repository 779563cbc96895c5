/**
 * The session list in D1 (issue 26): the paged, filtered list as one user sees it, each member's row of one
 * session (what the feed sends), and the lifecycle writes. Every write that changes what a row shows bumps
 * the session's `version` (the client keeps the row with the highest).
 */
import type { AgentInfo } from "../../shared/tunnel-protocol";
import type { SessionListItem, SessionListPage, SessionListQuery } from "../../shared/session-list";
import { decodeCursor, encodeCursor } from "./session-list-rules";
import { worktreeOf } from "../d1-directory";

/** A member's row: the session as they see it (role, unread) and whose it is. */
export type MemberItem = { userId: string; item: SessionListItem };

/** How many idle sessions one bulk archive takes (the rest on the next call; a D1 batch stays small). */
export const MAX_BULK_IDLE = 500;

const ITEM_SELECT = `SELECT sm.user_id AS userId, s.id, s.title, s.machine_id AS machineId, m.name AS machineName, s.agent_id AS agentId,
  m.agents_json AS agentsJson, s.cwd, s.status, m.online AS machineOnline, s.created_at AS createdAt,
  s.last_activity_at AS lastActivityAt, s.first_prompt AS firstPrompt, s.agent_title AS agentTitle,
  s.worktree_json AS worktreeJson, s.custom_title AS customTitle, s.archived_at AS archivedAt, s.needs_you AS needsYou, s.version, sm.seen_at AS seenAt,
  CASE WHEN s.owner_id = sm.user_id THEN 'owner' ELSE sm.role END AS role
  FROM session_members sm JOIN sessions s ON s.id = sm.session_id JOIN machines m ON m.id = s.machine_id`;

type ItemRow = {
  userId: string;
  id: string;
  title: string;
  machineId: string;
  machineName: string;
  agentId: string;
  agentsJson: string;
  cwd: string;
  status: string;
  machineOnline: number;
  createdAt: number;
  lastActivityAt: number;
  firstPrompt: string | null;
  agentTitle: string | null;
  worktreeJson: string | null;
  customTitle: string | null;
  archivedAt: number | null;
  needsYou: number;
  version: number;
  seenAt: number;
  role: SessionListItem["role"];
};

function toItem(r: ItemRow): MemberItem {
  const agents = JSON.parse(r.agentsJson) as AgentInfo[];
  return {
    userId: r.userId,
    item: {
      id: r.id,
      title: r.title,
      machineId: r.machineId,
      machineName: r.machineName,
      agentId: r.agentId,
      agentLabel: agents.find((a) => a.id === r.agentId)?.label ?? r.agentId,
      cwd: r.cwd,
      status: r.machineOnline ? r.status : "offline",
      createdAt: r.createdAt,
      lastActivityAt: r.lastActivityAt,
      firstPrompt: r.firstPrompt,
      agentTitle: r.agentTitle,
      worktree: worktreeOf(r.worktreeJson),
      customTitle: r.customTitle,
      archivedAt: r.archivedAt,
      needsYou: r.needsYou === 1,
      unread: r.lastActivityAt > r.seenAt,
      role: r.role,
      version: r.version,
    },
  };
}

/** `listStatus` (shared/session-list.ts) in SQL, for the status filter: the same order of cases. */
const LIST_STATUS_SQL = `CASE WHEN m.online = 0 OR s.status = 'offline' THEN 'offline'
  WHEN s.needs_you = 1 THEN 'needs_you' WHEN s.status = 'active' THEN 'running' WHEN s.status = 'error' THEN 'error'
  WHEN s.status = 'starting' THEN 'starting' ELSE 'idle' END`;

/** `matchesQuery`'s text haystack in SQL (lower() folds ASCII only: a non-ASCII capital matches as typed). */
const HAYSTACK_SQL = `lower(coalesce(s.custom_title, '') || char(10) || coalesce(s.agent_title, '') || char(10) ||
  coalesce(s.first_prompt, '') || char(10) || s.title || char(10) || s.cwd)`;

export class BadCursor extends Error {}

/** One page of the user's list, newest activity first; filters as `matchesQuery` decides them. */
export async function listPage(db: D1Database, userId: string, q: SessionListQuery): Promise<SessionListPage> {
  const where = ["sm.user_id = ?"];
  const binds: unknown[] = [userId];
  if (q.archived === "hide") where.push("s.archived_at IS NULL");
  if (q.archived === "only") where.push("s.archived_at IS NOT NULL");
  if (q.agentId) where.push("s.agent_id = ?") && binds.push(q.agentId);
  if (q.machineId) where.push("s.machine_id = ?") && binds.push(q.machineId);
  if (q.status) where.push(`(${LIST_STATUS_SQL}) = ?`) && binds.push(q.status);
  const text = q.text?.trim().toLowerCase();
  if (text) where.push(`instr(${HAYSTACK_SQL}, ?) > 0`) && binds.push(text);
  if (q.cursor !== undefined) {
    const c = decodeCursor(q.cursor);
    if (!c) throw new BadCursor("not a cursor from this list");
    where.push("(s.last_activity_at < ? OR (s.last_activity_at = ? AND s.id < ?))");
    binds.push(c.at, c.at, c.id);
  }
  const { results } = await db
    .prepare(`${ITEM_SELECT} WHERE ${where.join(" AND ")} ORDER BY s.last_activity_at DESC, s.id DESC LIMIT ?`)
    .bind(...binds, q.limit + 1)
    .all<ItemRow>();
  const rows = results.slice(0, q.limit).map((r) => toItem(r).item);
  const last = rows.at(-1);
  return { sessions: rows, nextCursor: results.length > q.limit && last ? encodeCursor({ at: last.lastActivityAt, id: last.id }) : null };
}

/** The session as each member sees it (the owner included): the feed's upserts. */
export async function memberItems(db: D1Database, sessionId: string): Promise<MemberItem[]> {
  const { results } = await db.prepare(`${ITEM_SELECT} WHERE sm.session_id = ?`).bind(sessionId).all<ItemRow>();
  return results.map(toItem);
}

/** The session as one user sees it, or null when they have no access. */
export async function memberItem(db: D1Database, sessionId: string, userId: string): Promise<SessionListItem | null> {
  const r = await db.prepare(`${ITEM_SELECT} WHERE sm.session_id = ? AND sm.user_id = ?`).bind(sessionId, userId).first<ItemRow>();
  return r ? toItem(r).item : null;
}

/** Every session of a machine as each of its members sees it (its online state changed). */
export async function machineMemberItems(db: D1Database, machineId: string): Promise<MemberItem[]> {
  await db.prepare("UPDATE sessions SET version = version + 1 WHERE machine_id = ?").bind(machineId).run();
  const { results } = await db.prepare(`${ITEM_SELECT} WHERE s.machine_id = ?`).bind(machineId).all<ItemRow>();
  return results.map(toItem);
}

export async function memberIds(db: D1Database, sessionId: string): Promise<string[]> {
  const { results } = await db.prepare("SELECT user_id AS userId FROM session_members WHERE session_id = ?").bind(sessionId).all<{ userId: string }>();
  return results.map((r) => r.userId);
}

// ---------------------------------------------------------------- lifecycle writes

/** Rename (a title, or null: back to the agent's title / first prompt) and / or archive (a time) or unarchive (null). */
export async function updateSession(db: D1Database, sessionId: string, change: { title?: string | null; archivedAt?: number | null }): Promise<void> {
  await db
    .prepare(
      `UPDATE sessions SET custom_title = CASE WHEN ?1 THEN ?2 ELSE custom_title END,
       archived_at = CASE WHEN ?3 THEN ?4 ELSE archived_at END, version = version + 1 WHERE id = ?5`,
    )
    .bind(change.title !== undefined ? 1 : 0, change.title ?? null, change.archivedAt !== undefined ? 1 : 0, change.archivedAt ?? null, sessionId)
    .run();
}

/** The chosen sessions as the user sees them (missing ones: no access or no such session). */
export async function itemsOf(db: D1Database, userId: string, ids: string[]): Promise<Map<string, SessionListItem>> {
  const out = new Map<string, SessionListItem>();
  // D1 caps bound parameters per statement (100): ask in chunks.
  for (let i = 0; i < ids.length; i += 90) {
    const chunk = ids.slice(i, i + 90);
    const { results } = await db
      .prepare(`${ITEM_SELECT} WHERE sm.user_id = ? AND sm.session_id IN (${chunk.map(() => "?").join(",")})`)
      .bind(userId, ...chunk)
      .all<ItemRow>();
    for (const r of results) out.set(r.id, toItem(r).item);
  }
  return out;
}

/** The user's unarchived sessions with no activity since `before` (oldest first, at most MAX_BULK_IDLE). */
export async function staleItems(db: D1Database, userId: string, before: number): Promise<SessionListItem[]> {
  const { results } = await db
    .prepare(`${ITEM_SELECT} WHERE sm.user_id = ? AND s.archived_at IS NULL AND s.last_activity_at < ? ORDER BY s.last_activity_at LIMIT ?`)
    .bind(userId, before, MAX_BULK_IDLE)
    .all<ItemRow>();
  return results.map((r) => toItem(r).item);
}

export async function archiveMany(db: D1Database, ids: string[], at: number): Promise<void> {
  if (!ids.length) return;
  await db.batch(ids.map((id) => db.prepare("UPDATE sessions SET archived_at = ?, version = version + 1 WHERE id = ? AND archived_at IS NULL").bind(at, id)));
}

/** The session's directory rows: its push mutes, members and the session itself. */
export async function deleteSessionRows(db: D1Database, sessionId: string): Promise<void> {
  await db.batch([
    db.prepare("DELETE FROM push_mutes WHERE session_id = ?").bind(sessionId),
    db.prepare("DELETE FROM session_members WHERE session_id = ?").bind(sessionId),
    db.prepare("DELETE FROM sessions WHERE id = ?").bind(sessionId),
  ]);
}

/** The room's needs-you marker; true when it changed. */
export async function setNeedsYou(db: D1Database, sessionId: string, on: boolean): Promise<boolean> {
  const r = await db
    .prepare("UPDATE sessions SET needs_you = ?1, version = version + 1 WHERE id = ?2 AND needs_you IS NOT ?1")
    .bind(on ? 1 : 0, sessionId)
    .run();
  return r.meta.changes > 0;
}

/** The member looked at the session now (joined or left it): its "new since you looked" clears. */
export async function markSeen(db: D1Database, sessionId: string, userId: string, at: number): Promise<boolean> {
  const seen = await db
    .prepare("UPDATE session_members SET seen_at = ? WHERE session_id = ? AND user_id = ? AND seen_at < ?")
    .bind(at, sessionId, userId, at)
    .run();
  if (seen.meta.changes === 0) return false;
  await db.prepare("UPDATE sessions SET version = version + 1 WHERE id = ?").bind(sessionId).run();
  return true;
}

/** Each of these sessions as each of its members sees it, grouped per session (a bulk change's upserts). */
export async function memberItemsOfMany(db: D1Database, sessionIds: string[]): Promise<MemberItem[][]> {
  const bySession = new Map<string, MemberItem[]>();
  for (let i = 0; i < sessionIds.length; i += 90) {
    const chunk = sessionIds.slice(i, i + 90);
    const { results } = await db
      .prepare(`${ITEM_SELECT} WHERE sm.session_id IN (${chunk.map(() => "?").join(",")})`)
      .bind(...chunk)
      .all<ItemRow>();
    for (const r of results) bySession.set(r.id, [...(bySession.get(r.id) ?? []), toItem(r)]);
  }
  return [...bySession.values()];
}
