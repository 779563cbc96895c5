/**
 * The session list's checks on what crosses the wire (pages, feed frames, lifecycle answers): the shared
 * schemas. A module of its own, loaded on demand: it brings zod, which the home page paints without.
 */
import { BulkArchiveResult, DeleteSessionResult, SessionFeedFrame, SessionListItem, SessionListPage } from "../../../shared/session-list";

export const parsePage = (raw: unknown): SessionListPage => SessionListPage.parse(raw);

/** A feed frame, or null (logged) when it is not one: a frame not understood changes nothing. */
export function parseFrame(text: string): SessionFeedFrame | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    console.warn("session feed: a frame that is not JSON");
    return null;
  }
  const r = SessionFeedFrame.safeParse(json);
  if (r.success) return r.data;
  console.warn("session feed: a frame not understood", r.error.issues);
  return null;
}

export const parseDeleteResult = (raw: unknown): DeleteSessionResult => DeleteSessionResult.parse(raw);
export const parseBulkResult = (raw: unknown): BulkArchiveResult => BulkArchiveResult.parse(raw);

/** The row a lifecycle answer carries, when it carries one (`{session}` or `{item}`): applied like a feed upsert. */
export function rowOf(raw: unknown): SessionListItem | null {
  if (typeof raw !== "object" || raw === null) return null;
  const candidate = "session" in raw ? raw.session : "item" in raw ? raw.item : undefined;
  const r = SessionListItem.safeParse(candidate);
  return r.success ? r.data : null;
}
