/**
 * Read-only share links (issue 30 #3), the routes. The rule (is this link usable now) is share-link-rules.ts;
 * the room enforces read-only for every op through the spectator's `viewer` role (room-core.ts `handleOp`).
 * - owner routes, after the identity middleware: create / list / revoke under /api/sessions/:id/share-links;
 * - public routes, before it (a spectator may be anonymous): POST /api/share/open (what the link shows, or
 *   why it does not open) and GET /api/share/ws (the spectator's socket; the token rides in
 *   Sec-WebSocket-Protocol, never in a URL). The token is never logged: only its hash is looked up.
 */
import { Hono } from "hono";
import { CreateShareLinkBody, OpenShareBody, type CreatedShareLink, type OpenedShare, type ShareLinksReply } from "../../shared/share-api";
import { SHARE_PROTOCOL, shareUrl } from "../../shared/share-socket";
import type { Viewer } from "../../shared/viewer-protocol";
import { apiError } from "../api-error";
import { resolveIdentity, originAllowed } from "../auth/identity";
import { getSession, sessionAccess, type User } from "../d1-directory";
import { type Env, roomStub } from "../env";
import { ATTACH_HEADER, SHARE_HEADER, VIEWER_HEADER } from "../headers";
import type { ShareGrant } from "../session-room/viewer-sockets";
import { activeShareLinks, insertShareLink, revokeShareLink, shareLinkByToken } from "./share-directory";
import { expiresAtFor, managesShareLinks, refusalAnswer, type ShareVerdict, shareVerdict, tokenFromProtocols, tokenShape } from "./share-link-rules";

type OwnerEnv = { Bindings: Env; Variables: { user: User } };
export const shareOwnerRoutes = new Hono<OwnerEnv>();

async function asOwner(env: Env, sessionId: string, user: User) {
  const m = await sessionAccess(env.DB, sessionId, user.id);
  if (!m) return { status: 404 as const, code: "NOT_FOUND", message: "no such session" };
  if (!managesShareLinks(m.role)) return { status: 403 as const, code: "FORBIDDEN", message: "only the session owner manages share links" };
  return m;
}

shareOwnerRoutes.get("/:id/share-links", async (c) => {
  const m = await asOwner(c.env, c.req.param("id"), c.get("user"));
  if ("status" in m) return apiError(c, m.status, m.code, m.message);
  return c.json({ links: await activeShareLinks(c.env.DB, m.session.id, Date.now()) } satisfies ShareLinksReply);
});

shareOwnerRoutes.post("/:id/share-links", async (c) => {
  const m = await asOwner(c.env, c.req.param("id"), c.get("user"));
  if ("status" in m) return apiError(c, m.status, m.code, m.message);
  const parsed = CreateShareLinkBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", "choose an expiry (1h, 1d, 7d or never) and who may open the link (signed_in or anyone)");
  const now = Date.now();
  const { link, token } = await insertShareLink(c.env.DB, {
    sessionId: m.session.id,
    scope: parsed.data.scope,
    createdBy: c.get("user").id,
    expiresAt: expiresAtFor(parsed.data.expiry, now),
    now,
  });
  const links = await activeShareLinks(c.env.DB, m.session.id, now);
  return c.json({ link, url: shareUrl(new URL(c.req.url).origin, token), links } satisfies CreatedShareLink, 201);
});

shareOwnerRoutes.delete("/:id/share-links/:linkId", async (c) => {
  const m = await asOwner(c.env, c.req.param("id"), c.get("user"));
  if ("status" in m) return apiError(c, m.status, m.code, m.message);
  const now = Date.now();
  if (!(await revokeShareLink(c.env.DB, m.session.id, c.req.param("linkId"), now))) return apiError(c, 404, "NOT_FOUND", "no such active link");
  // Its spectators are cut off now, not at their next reconnect.
  await roomStub(c.env, m.session.id).endShareLink(c.req.param("linkId"));
  return c.json({ links: await activeShareLinks(c.env.DB, m.session.id, now) } satisfies ShareLinksReply);
});

export const sharePublicRoutes = new Hono<{ Bindings: Env }>();

/** The link behind `token` judged for this caller now; the caller's user when signed in. */
async function judge(env: Env, request: Request, token: string | null): Promise<{ verdict: ShareVerdict; user: User | null; title: string }> {
  const identity = await resolveIdentity(env, request);
  const link = token ? await shareLinkByToken(env.DB, token) : null;
  const session = link ? await getSession(env.DB, link.sessionId) : null;
  const verdict = shareVerdict(link, { now: Date.now(), signedIn: identity !== null, sessionExists: session !== null });
  return { verdict, user: identity?.user ?? null, title: session?.title ?? "" };
}

sharePublicRoutes.post("/share/open", async (c) => {
  const parsed = OpenShareBody.safeParse(await c.req.json().catch(() => null));
  const { verdict, title } = await judge(c.env, c.req.raw, parsed.success ? tokenShape(parsed.data.token) : null);
  if (!verdict.ok) {
    const a = refusalAnswer(verdict.reason);
    return apiError(c, a.status, a.code, a.message);
  }
  const { link } = verdict;
  return c.json({ sessionId: link.sessionId, title, scope: link.scope, expiresAt: link.expiresAt } satisfies OpenedShare);
});

sharePublicRoutes.get("/share/ws", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") return apiError(c, 426, "UPGRADE_REQUIRED", "expected a WebSocket upgrade");
  if (!originAllowed(c.env, c.req.raw)) return apiError(c, 403, "BAD_ORIGIN", "cross-site WebSocket refused");
  const { verdict, user } = await judge(c.env, c.req.raw, tokenFromProtocols(c.req.header("Sec-WebSocket-Protocol") ?? null));
  if (!verdict.ok) {
    const a = refusalAnswer(verdict.reason);
    return apiError(c, a.status, a.code, a.message);
  }
  const { link } = verdict;
  // A spectator is a viewer: the room's read-only rule covers every op. Anonymous ones get an id of their own.
  const viewer: Viewer = user
    ? { id: user.id, name: user.name, role: "viewer" }
    : { id: `spectator:${link.id}:${crypto.randomUUID()}`, name: "Spectator", role: "viewer" };
  const headers = new Headers(c.req.raw.headers);
  headers.delete("Sec-WebSocket-Protocol");
  headers.delete(ATTACH_HEADER);
  headers.set(VIEWER_HEADER, JSON.stringify(viewer));
  headers.set(SHARE_HEADER, JSON.stringify({ linkId: link.id, expiresAt: link.expiresAt } satisfies ShareGrant));
  const res = await roomStub(c.env, link.sessionId).fetch(new Request(c.req.raw.url, { headers }));
  if (res.status !== 101 || !res.webSocket) return res;
  // The browser offered our subprotocol (with the token beside it): the answer must name the one chosen.
  return new Response(null, { status: 101, webSocket: res.webSocket, headers: { "Sec-WebSocket-Protocol": SHARE_PROTOCOL } });
});
