/**
 * Who hears of a change to a session in their live list (issue 26), pure: the rows come from the session's
 * member join (the owner has a member row), so a stranger is never among them; an upsert carries the row as
 * that member sees it (role, unread). Frames are grouped per user: one call per user's feed per change.
 */
import type { SessionFeedFrame, SessionListItem } from "../../shared/session-list";

export type FeedChange =
  /** The session changed: each member gets its own row (or only `onlyUser`: its unread flag or role changed). */
  | { kind: "upsert"; rows: { userId: string; item: SessionListItem }[]; onlyUser?: string }
  /** Gone from these users' lists: the session was deleted, or they lost access. */
  | { kind: "remove"; sessionId: string; userIds: string[]; reason: "deleted" | "access" };

export type Delivery = { userId: string; frames: string[] };

export function deliveriesFor(changes: FeedChange[]): Delivery[] {
  const byUser = new Map<string, string[]>();
  const add = (userId: string, frame: SessionFeedFrame) => {
    const frames = byUser.get(userId) ?? [];
    frames.push(JSON.stringify(frame));
    byUser.set(userId, frames);
  };
  for (const c of changes) {
    switch (c.kind) {
      case "upsert":
        for (const r of c.rows) if (c.onlyUser === undefined || r.userId === c.onlyUser) add(r.userId, { type: "upsert", item: r.item });
        break;
      case "remove":
        for (const u of new Set(c.userIds)) add(u, { type: "remove", id: c.sessionId, reason: c.reason });
        break;
    }
  }
  return [...byUser].map(([userId, frames]) => ({ userId, frames }));
}
