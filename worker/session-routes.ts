/**
 * The session list and the session lifecycle over HTTP (issue 26), mounted at /api/sessions after the
 * identity middleware: the paged list, the live feed's socket, rename / archive, delete, bulk archive.
 * Who may do what is session-list-rules.ts; the SQL is session-list-directory.ts; who hears of a change is
 * session-feed/feed-rules.ts.
 */
import { Hono } from "hono";
import type { AccountScope } from "../shared/api";
import {
  BulkArchiveBody,
  type BulkArchiveResult,
  DeleteSessionBody,
  type DeleteSessionResult,
  SessionListQuery,
  UpdateSessionBody,
} from "../shared/session-list";
import { apiError } from "./api-error";
import { type AuthMode, originAllowed } from "./auth/identity";
import type { User } from "./d1-directory";
import { type Env, feedStub, roomStub } from "./env";
import { publish, publishSession } from "./session-feed/feed-publish";
import type { DestroyedRoom } from "./session-room/room-rpc";
import { deleteAgentSession } from "./agent-session-routes";
import {
  archiveMany,
  BadCursor,
  deleteSessionRows,
  itemsOf,
  listPage,
  memberIds,
  memberItem,
  memberItemsOfMany,
  staleItems,
  updateSession,
} from "./session-list/session-list-directory";
import { archiveNeedsConfirmation, bulkSkipReason, canDelete, canWrite, idleCutoff } from "./session-list/session-list-rules";

type AppEnv = { Bindings: Env; Variables: { user: User; via: AuthMode; scope: AccountScope } };

export const sessionRoutes = new Hono<AppEnv>();

const firstIssue = (e: { issues: { message: string }[] }) => e.issues[0]?.message ?? "invalid body";

/** The live list: one socket per list page into the caller's own SessionFeed (hello, then upsert / remove). */
sessionRoutes.get("/feed", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") return apiError(c, 426, "UPGRADE_REQUIRED", "expected a WebSocket upgrade");
  if (!originAllowed(c.env, c.req.raw)) return apiError(c, 403, "BAD_ORIGIN", "cross-site WebSocket refused");
  return feedStub(c.env, c.get("user").id).fetch(new Request(c.req.raw.url, { headers: c.req.raw.headers }));
});

sessionRoutes.get("/", async (c) => {
  const parsed = SessionListQuery.safeParse(c.req.query());
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", firstIssue(parsed.error));
  try {
    return c.json(await listPage(c.env.DB, c.get("user").id, parsed.data));
  } catch (err) {
    if (err instanceof BadCursor) return apiError(c, 400, "BAD_CURSOR", "that page cursor is not from this list; load the list again");
    throw err;
  }
});

/** Bulk archive: the chosen sessions, or every idle one inactive for N days; running and waiting ones are skipped. */
sessionRoutes.post("/archive", async (c) => {
  const parsed = BulkArchiveBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", firstIssue(parsed.error));
  const userId = c.get("user").id;
  const now = Date.now();
  const body = parsed.data;
  const candidates =
    "ids" in body
      ? await itemsOf(c.env.DB, userId, [...new Set(body.ids)]).then((found) => [...new Set(body.ids)].map((id) => ({ id, item: found.get(id) ?? null })))
      : (await staleItems(c.env.DB, userId, idleCutoff(now, body.idleOlderThanDays))).map((item) => ({ id: item.id, item }));
  const result: BulkArchiveResult = { archived: [], skipped: [] };
  for (const { id, item } of candidates) {
    const reason = bulkSkipReason(item);
    if (reason) result.skipped.push({ id, reason });
    else result.archived.push(id);
  }
  await archiveMany(c.env.DB, result.archived, now);
  c.executionCtx.waitUntil(
    memberItemsOfMany(c.env.DB, result.archived)
      .then((groups) => publish(c.env, groups.map((rows) => ({ kind: "upsert" as const, rows }))))
      .catch((err: unknown) => console.error("bulk archive publish failed", err)),
  );
  return c.json(result);
});

/** Rename and archive / unarchive: owner and members; a viewer 403, a stranger 404. */
sessionRoutes.patch("/:id", async (c) => {
  const parsed = UpdateSessionBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", firstIssue(parsed.error));
  const user = c.get("user");
  const item = await memberItem(c.env.DB, c.req.param("id"), user.id);
  if (!item) return apiError(c, 404, "NOT_FOUND", "no such session");
  if (!canWrite(item.role)) return apiError(c, 403, "FORBIDDEN", "viewers cannot rename or archive a session");
  const { title, archived, confirmRunning } = parsed.data;
  if (archived !== undefined && archiveNeedsConfirmation(item, archived, confirmRunning ?? false))
    return apiError(c, 409, "SESSION_RUNNING", "the agent is working in this session; confirm to archive it anyway");
  const archivedAt = archived === undefined ? undefined : archived ? (item.archivedAt ?? Date.now()) : null;
  await updateSession(c.env.DB, item.id, { ...(title !== undefined ? { title } : {}), ...(archivedAt !== undefined ? { archivedAt } : {}) });
  c.executionCtx.waitUntil(publishSession(c.env, item.id).catch((err: unknown) => console.error("session publish failed", err)));
  return c.json({ session: await memberItem(c.env.DB, item.id, user.id) });
});

/**
 * Delete (owner only): the room closes its viewers (4410) and clears its storage, then the directory rows
 * go and every member's list drops the row.
 */
sessionRoutes.delete("/:id", async (c) => {
  const raw = await c.req.text();
  let json: unknown = {};
  try {
    if (raw.trim()) json = JSON.parse(raw);
  } catch {
    return apiError(c, 400, "BAD_REQUEST", "the body is not JSON");
  }
  const parsed = DeleteSessionBody.safeParse(json);
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", firstIssue(parsed.error));
  const item = await memberItem(c.env.DB, c.req.param("id"), c.get("user").id);
  if (!item) return apiError(c, 404, "NOT_FOUND", "no such session");
  if (!canDelete(item.role)) return apiError(c, 403, "FORBIDDEN", "only the session owner can delete it");
  const members = await memberIds(c.env.DB, item.id);
  const room = await roomStub(c.env, item.id).destroy();
  const agent = await deleteOnAgent(c.env, room, item.cwd, parsed.data.deleteAgentSession);
  await deleteSessionRows(c.env.DB, item.id);
  c.executionCtx.waitUntil(publish(c.env, [{ kind: "remove", sessionId: item.id, userIds: members, reason: "deleted" }]));
  return c.json({ ok: true, agentSessionDeleted: agent.deleted, ...(agent.message ? { agentMessage: agent.message } : {}) } satisfies DeleteSessionResult);
});

/**
 * The agent's own session, deleted through the daemon (`session/delete`) when the owner ticked the box: null
 * when not asked (or the room never had an agent session); false with the reason when the agent could not.
 */
async function deleteOnAgent(env: Env, room: DestroyedRoom | null, cwd: string, wanted: boolean): Promise<{ deleted: boolean | null; message?: string }> {
  if (!wanted || !room) return { deleted: null };
  if (!room.agentSessionId) return { deleted: false, message: "the agent had not started a session yet: nothing to delete on the machine" };
  return deleteAgentSession(env, { machineId: room.machineId, agentId: room.agentId, agentSessionId: room.agentSessionId, cwd });
}
