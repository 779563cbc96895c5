/**
 * Review comments (issue 28 #3) over HTTP: kept with the session in D1 (every member sees them) until "Send
 * review", which the client sends as one message through the room (queued like any message) and then clears.
 * Reading: anyone who sees the session; writing: owner and members. After each write the session's room tells
 * every viewer (a `review` frame with the new version; they read the list again), so nobody reloads to see it.
 */
import { Hono } from "hono";
import type { AccountScope } from "../shared/api";
import { MAX_REVIEW_COMMENTS, type ReviewComment, ReviewCommentBody } from "../shared/review-message";
import { apiError } from "./api-error";
import { sessionAccess, type User } from "./d1-directory";
import { type Env, roomStub } from "./env";
import { canWrite } from "./session-list/session-list-rules";

type RouteEnv = { Bindings: Env; Variables: { user: User; scope: AccountScope } };
export const reviewRoutes = new Hono<RouteEnv>();

type Row = { id: string; path: string; line: number; endLine: number; quoted: string; text: string; author: string; createdAt: number };

async function comments(db: D1Database, sessionId: string): Promise<ReviewComment[]> {
  const { results } = await db
    .prepare(
      `SELECT r.id, r.path, r.line, r.end_line AS endLine, r.quoted, r.body AS text, u.name AS author, r.created_at AS createdAt
       FROM review_comments r JOIN users u ON u.id = r.author_id WHERE r.session_id = ? ORDER BY r.created_at, r.id`,
    )
    .bind(sessionId)
    .all<Row>();
  return results;
}

/** Every viewer of the session hears that the review changed (best effort: the write stands either way). */
async function tellViewers(env: Env, sessionId: string): Promise<void> {
  try {
    await roomStub(env, sessionId).reviewChanged();
  } catch (err) {
    console.error("review change not fanned out", sessionId, err);
  }
}

reviewRoutes.get("/sessions/:id/review", async (c) => {
  const access = await sessionAccess(c.env.DB, c.req.param("id"), c.get("user").id);
  if (!access) return apiError(c, 404, "NOT_FOUND", "no such session");
  return c.json({ comments: await comments(c.env.DB, access.session.id) });
});

reviewRoutes.post("/sessions/:id/review", async (c) => {
  const body = ReviewCommentBody.safeParse(await c.req.json().catch(() => null));
  if (!body.success) return apiError(c, 400, "BAD_REQUEST", body.error.issues[0]?.message ?? "invalid body");
  const access = await sessionAccess(c.env.DB, c.req.param("id"), c.get("user").id);
  if (!access) return apiError(c, 404, "NOT_FOUND", "no such session");
  if (!canWrite(access.role)) return apiError(c, 403, "FORBIDDEN", "viewers cannot comment");
  const count = await c.env.DB.prepare("SELECT COUNT(*) AS n FROM review_comments WHERE session_id = ?").bind(access.session.id).first<{ n: number }>();
  if ((count?.n ?? 0) >= MAX_REVIEW_COMMENTS) return apiError(c, 409, "REVIEW_FULL", `a review holds at most ${MAX_REVIEW_COMMENTS} comments: send it first`);
  const d = body.data;
  await c.env.DB.prepare("INSERT INTO review_comments (id, session_id, author_id, path, line, end_line, quoted, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
    .bind(crypto.randomUUID(), access.session.id, c.get("user").id, d.path, d.line, d.endLine, d.quoted, d.text, Date.now())
    .run();
  await tellViewers(c.env, access.session.id);
  return c.json({ comments: await comments(c.env.DB, access.session.id) }, 201);
});

/** One comment removed, or (no id) the whole review: after it was sent, or dropped. */
reviewRoutes.delete("/sessions/:id/review/:commentId?", async (c) => {
  const access = await sessionAccess(c.env.DB, c.req.param("id"), c.get("user").id);
  if (!access) return apiError(c, 404, "NOT_FOUND", "no such session");
  if (!canWrite(access.role)) return apiError(c, 403, "FORBIDDEN", "viewers cannot change the review");
  const one = c.req.param("commentId");
  const del = one
    ? await c.env.DB.prepare("DELETE FROM review_comments WHERE session_id = ? AND id = ?").bind(access.session.id, one).run()
    : await c.env.DB.prepare("DELETE FROM review_comments WHERE session_id = ?").bind(access.session.id).run();
  if (del.meta.changes > 0) await tellViewers(c.env, access.session.id);
  return c.json({ comments: await comments(c.env.DB, access.session.id) });
});
