/**
 * `GET /api/sessions/:id/export.md`: the transcript as a Markdown download, for every role that can see
 * the session (owner, member, viewer). Mounted under /api after the identity middleware; membership is
 * checked as for the room socket (anyone else: 404, the session's existence is not told). The room
 * renders and streams it (room-export.ts).
 */
import { Hono } from "hono";
import { apiError } from "./api-error";
import { sessionAccess, type User } from "./d1-directory";
import { type Env, roomStub } from "./env";

export const exportRoutes = new Hono<{ Bindings: Env; Variables: { user: User } }>();

exportRoutes.get("/sessions/:id/export.md", async (c) => {
  const m = await sessionAccess(c.env.DB, c.req.param("id"), c.get("user").id);
  if (!m) return apiError(c, 404, "NOT_FOUND", "no such session");
  return roomStub(c.env, m.session.id).exportMarkdown();
});
