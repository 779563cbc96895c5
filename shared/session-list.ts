/**
 * The session list over time (issue 26): the list's HTTP API, the per-user live feed, and the session
 * lifecycle (rename, archive, delete, bulk archive). Types and the pure matching rule; no I/O.
 *
 * - The first page and every further page come from `GET /api/sessions` (query below, keyset cursor).
 * - Changes come over one WebSocket per list page, `GET /api/sessions/feed` → the user's SessionFeed
 *   Durable Object: `hello`, then one `upsert` / `remove` frame per change of a session the user can see.
 *   The client opens the feed first, then fetches the page, and applies each `upsert` whose `version` is
 *   newer than the row it holds (so a change racing the page is neither lost nor applied twice).
 * - Filtering of live changes is the client's, with the same rule as the server's (`matchesQuery`).
 */
import { z } from "zod";
import { SessionSummary } from "./api";
import { type ListStatus, MAX_SESSION_TITLE } from "./session-list-values";

// The rules that need no zod (the home page paints without it) live in session-list-rules.ts.

/** Rows per list page (what a phone screen shows a few times over). */
export const SESSION_PAGE_DEFAULT = 50;
export const SESSION_PAGE_MAX = 200;
/** Ids in one bulk archive (a page's worth of selection, a few times over). */
export const MAX_BULK_IDS = 500;
/** Longest filter text (what a person types into a search box). */
export const MAX_FILTER_TEXT = 200;

export const ListStatusSchema = z.enum(["running", "idle", "needs_you", "offline", "error", "starting"]) satisfies z.ZodType<ListStatus>;

export const ArchivedFilter = z.enum(["hide", "only", "all"]);
export type ArchivedFilter = z.infer<typeof ArchivedFilter>;

/** One row of the list as one user sees it. */
export const SessionListItem = SessionSummary.extend({
  /** A name a person gave the session (rename); wins over the agent's title and the first prompt. */
  customTitle: z.string().nullish(),
  /** When it was archived (null: not archived). */
  archivedAt: z.number().nullable(),
  /** A permission request or an agent's question waits for an answer. */
  needsYou: z.boolean(),
  /** Activity since this user last looked at the session (per user). */
  unread: z.boolean(),
  /** The user's role in the session (what the row's menu offers). */
  role: z.enum(["owner", "member", "viewer"]),
  /** Monotonic per session: a change with a lower version than the row held is stale. */
  version: z.number(),
});
export type SessionListItem = z.infer<typeof SessionListItem>;

/** `GET /api/sessions` query string. */
export const SessionListQuery = z.object({
  text: z.string().max(MAX_FILTER_TEXT).optional(),
  agentId: z.string().max(64).optional(),
  machineId: z.string().max(128).optional(),
  status: ListStatusSchema.optional(),
  archived: ArchivedFilter.default("hide"),
  cursor: z.string().max(256).optional(),
  limit: z.coerce.number().int().min(1).max(SESSION_PAGE_MAX).default(SESSION_PAGE_DEFAULT),
});
export type SessionListQuery = z.infer<typeof SessionListQuery>;

/** `GET /api/sessions` answer: newest activity first; `nextCursor` null on the last page. */
export const SessionListPage = z.object({ sessions: z.array(SessionListItem), nextCursor: z.string().nullable() });
export type SessionListPage = z.infer<typeof SessionListPage>;

/** Frames of the feed socket (server → client). The client sends only "ping" (auto-answered "pong"). */
export const SessionFeedFrame = z.discriminatedUnion("type", [
  z.object({ type: z.literal("hello"), at: z.number() }),
  /** A session the user can see was created or changed: the whole row, as this user sees it. */
  z.object({ type: z.literal("upsert"), item: SessionListItem }),
  /** Gone from this user's list: deleted, or the user lost access. */
  z.object({ type: z.literal("remove"), id: z.string(), reason: z.enum(["deleted", "access"]) }),
]);
export type SessionFeedFrame = z.infer<typeof SessionFeedFrame>;

/** `PATCH /api/sessions/:id`: rename (owner, member) and archive / unarchive (owner, member). */
export const UpdateSessionBody = z
  .object({
    /** Trimmed; 1…MAX_SESSION_TITLE characters; `null` clears the name (back to the agent's title / first prompt). */
    title: z.string().trim().min(1, "a title cannot be empty").max(MAX_SESSION_TITLE, `a title is at most ${MAX_SESSION_TITLE} characters`).nullable().optional(),
    archived: z.boolean().optional(),
    /** Archiving a running session needs this (the UI asks first); without it: 409 SESSION_RUNNING. */
    confirmRunning: z.boolean().optional(),
  })
  .refine((b) => b.title !== undefined || b.archived !== undefined, "nothing to change");
export type UpdateSessionBody = z.infer<typeof UpdateSessionBody>;

/** `DELETE /api/sessions/:id` (owner only): the room's storage and directory rows go; optionally the agent's own session. */
export const DeleteSessionBody = z.object({ deleteAgentSession: z.boolean().default(false) });
export type DeleteSessionBody = z.infer<typeof DeleteSessionBody>;
export const DeleteSessionResult = z.object({
  ok: z.literal(true),
  /** true: the agent deleted its session; false: asked and it could not (why in `agentMessage`); null: not asked. */
  agentSessionDeleted: z.boolean().nullable(),
  agentMessage: z.string().nullish(),
});
export type DeleteSessionResult = z.infer<typeof DeleteSessionResult>;

/** `POST /api/sessions/archive`: the chosen ids, or every idle session (not running, nobody needed) inactive for N days. */
export const BulkArchiveBody = z.union([
  z.object({ ids: z.array(z.string().min(1).max(128)).min(1).max(MAX_BULK_IDS) }),
  z.object({ idleOlderThanDays: z.number().int().min(1).max(3650) }),
]);
export type BulkArchiveBody = z.infer<typeof BulkArchiveBody>;
export const BulkArchiveResult = z.object({ archived: z.array(z.string()), skipped: z.array(z.object({ id: z.string(), reason: z.string() })) });
export type BulkArchiveResult = z.infer<typeof BulkArchiveResult>;
