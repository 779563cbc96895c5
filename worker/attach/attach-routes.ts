/**
 * `baton attach` (issue 30 #1), the Worker's side:
 * - public (before the sign-in middleware; the user is proven by a user token, not a browser):
 *   GET /api/sessions/:id/attach — the session's viewer socket for `Authorization: Bearer <user token>`,
 *   with that user's own role (a viewer-only member attaches and only watches: the room's rule for every op);
 * - signed in: GET /api/user-tokens (the caller's live sign-ins) and DELETE /api/user-tokens/:id (revoke: the
 *   sign-in's open sockets close in the rooms it attached to, `user_token_sessions`).
 * The token is never logged; only its hash is looked up (user-tokens.ts).
 */
import { Hono } from "hono";
import type { UserTokensReply } from "../../shared/attach-api";
import type { Viewer } from "../../shared/viewer-protocol";
import { apiError } from "../api-error";
import { getSession, sessionAccess, type User } from "../d1-directory";
import { type Env, roomStub } from "../env";
import { ATTACH_HEADER, SHARE_HEADER, VIEWER_HEADER } from "../headers";
import { attachedSessions, listUserTokens, noteAttached, revokeUserToken, userForToken } from "./user-tokens";

/** `Bearer <token>` → the token; anything else → null. */
export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return m ? m[1]! : null;
}

export const attachPublicRoutes = new Hono<{ Bindings: Env }>();

attachPublicRoutes.get("/sessions/:id/attach", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") return apiError(c, 426, "UPGRADE_REQUIRED", "expected a WebSocket upgrade");
  const token = bearerToken(c.req.header("Authorization"));
  if (!token) return apiError(c, 401, "NO_TOKEN", "no user token: run `baton login --user <server>` to sign in");
  const user = await userForToken(c.env.DB, token, Date.now());
  if (!user) return apiError(c, 401, "BAD_TOKEN", "this sign-in was revoked or is unknown: run `baton login --user <server>` again");
  const sessionId = c.req.param("id");
  const m = await sessionAccess(c.env.DB, sessionId, user.id);
  if (!m) {
    // Told apart for the person: a session that is gone is not one they lost access to.
    const exists = await getSession(c.env.DB, sessionId);
    return exists
      ? apiError(c, 403, "NOT_A_MEMBER", `${user.email} is not a member of this session: ask its owner to invite you`)
      : apiError(c, 404, "NOT_FOUND", "no such session: it was deleted, or the URL is wrong");
  }
  const viewer: Viewer = { id: user.id, name: user.name, role: m.role };
  const headers = new Headers(c.req.raw.headers);
  headers.delete("Authorization");
  headers.delete(SHARE_HEADER);
  headers.set(VIEWER_HEADER, JSON.stringify(viewer));
  headers.set(ATTACH_HEADER, user.tokenId);
  await noteAttached(c.env.DB, user.tokenId, m.session.id);
  return roomStub(c.env, m.session.id).fetch(new Request(c.req.raw.url, { headers }));
});

export const userTokenRoutes = new Hono<{ Bindings: Env; Variables: { user: User } }>();

userTokenRoutes.get("/", async (c) => c.json({ tokens: await listUserTokens(c.env.DB, c.get("user").id) } satisfies UserTokensReply));

userTokenRoutes.delete("/:id", async (c) => {
  const user = c.get("user");
  const tokenId = c.req.param("id");
  if (!(await revokeUserToken(c.env.DB, user.id, tokenId, Date.now()))) return apiError(c, 404, "NOT_FOUND", "no such sign-in");
  // Its open sockets close now, not at their next reconnect (which is then refused).
  await Promise.all((await attachedSessions(c.env.DB, tokenId)).map((sessionId) => roomStub(c.env, sessionId).endAttach(tokenId).catch(() => 0)));
  return c.json({ tokens: await listUserTokens(c.env.DB, user.id) } satisfies UserTokensReply);
});
