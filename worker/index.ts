/** The Worker: Hono routes for the directory API, viewer sockets and the daemon tunnel. */
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { AccountScope } from "../shared/api";
import { accountScope } from "./auth/account-scope";
import { deleteAuthSessionsOf } from "./auth/auth-sessions";
import { AddMemberBody, CreateSessionBody, SetRoleBody } from "../shared/api";
import { insideRoots } from "../shared/paths";
import { TUNNEL_TOKEN_HEADER } from "../shared/tunnel-protocol";
import type { Viewer } from "../shared/viewer-protocol";
import { apiError } from "./api-error";
import { withSecurityHeaders } from "./security-headers";
import { authRoutes } from "./auth/auth-routes";
import { type AuthMode, authMode, originAllowed, resolveIdentity, sameOriginWrite } from "./auth/identity";
import {
  createMachine,
  createSession,
  getMachine,
  getSession,
  getUser,
  isInvited,
  listMachines,
  listMembers,
  machineForToken,
  removeMember,
  revokeMachine,
  sessionAccess,
  sessionRole,
  setMember,
  upsertUser,
  type User,
} from "./d1-directory";
import { daemonPublicRoutes, deviceApprovalRoutes } from "./device-routes";
import { pushRoutes } from "./push/push-routes";
import { exportRoutes } from "./export-routes";
import { agentSessionRoutes } from "./agent-session-routes";
import { fileListRoutes } from "./file-list-routes";
import { dropWorktree, makeWorktree, worktreeRoutes } from "./worktree-routes";
import { reviewRoutes } from "./review-routes";
import { deleteSubscriptionsOfUser } from "./push/push-directory";
import { type Env, machineStub, roomStub } from "./env";
import { ATTACH_HEADER, MACHINE_ID_HEADER, SHARE_HEADER, VIEWER_HEADER } from "./headers";
import { sessionRoutes } from "./session-routes";
import { publish, publishIfChanged, publishSession } from "./session-feed/feed-publish";
import { markSeen } from "./session-list/session-list-directory";
import { shareOwnerRoutes, sharePublicRoutes } from "./share/share-routes";
import { attachPublicRoutes, userTokenRoutes } from "./attach/attach-routes";

export { Machine } from "./machine/machine-do";
export { SessionRoom } from "./session-room/session-room-do";
export { SessionFeed } from "./session-feed/session-feed-do";

type AppEnv = { Bindings: Env; Variables: { user: User; via: AuthMode; scope: AccountScope } };
const app = new Hono<AppEnv>();

app.use("*", async (c, next) => {
  await next();
  c.res = withSecurityHeaders(c.res);
});

app.get("/api/health", (c) => c.json({ ok: true }));

// The daemon's tunnel: authenticated by the machine token header, not by a viewer identity.
app.get("/api/tunnel", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") return apiError(c, 426, "UPGRADE_REQUIRED", "expected a WebSocket upgrade");
  const token = c.req.header(TUNNEL_TOKEN_HEADER);
  if (!token) return apiError(c, 401, "NO_TOKEN", "missing machine token");
  const machine = await machineForToken(c.env.DB, token);
  if (!machine) return apiError(c, 401, "BAD_TOKEN", "unknown or revoked machine token");
  const headers = new Headers(c.req.raw.headers);
  headers.delete(TUNNEL_TOKEN_HEADER);
  headers.set(MACHINE_ID_HEADER, machine.id);
  return machineStub(c.env, machine.id).fetch(new Request(c.req.raw.url, { headers }));
});

// `baton login` (device code + poll) and `baton doctor`'s token check: daemons, no viewer identity.
app.route("/api", daemonPublicRoutes);

// Sign-in / sign-out / which mode (public: they are how a browser gets an identity).
app.route("/api/auth", authRoutes);

// A read-only share link's page data and socket (public: a spectator may be anonymous; worker/share).
app.route("/api", sharePublicRoutes);

// `baton attach`: a session's viewer socket for a user token (public: the token is the identity; worker/attach).
app.route("/api", attachPublicRoutes);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

app.use("/api/*", async (c, next) => {
  // CSRF: a write carrying ambient browser credentials must come from our own origin. In dev mode
  // (loopback, no credentials) local scripts without an Origin are fine, a foreign page is not.
  if (!SAFE_METHODS.has(c.req.method)) {
    const origin = c.req.header("Origin");
    const ok = authMode(c.env) === "dev" ? origin === undefined || sameOriginWrite(c.env, c.req.raw) : sameOriginWrite(c.env, c.req.raw);
    if (!ok) return apiError(c, 403, "BAD_ORIGIN", "cross-site request refused");
  }
  const identity = await resolveIdentity(c.env, c.req.raw);
  if (!identity) return apiError(c, 401, "UNAUTHENTICATED", "sign in required");
  c.set("user", identity.user);
  c.set("via", identity.via);
  c.set("scope", identity.scope);
  await next();
});

/** Guests (invited-only accounts) act only inside the sessions they were given: see worker/auth/account-scope.ts. */
const fullAccountOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("scope") !== "full") return apiError(c, 403, "GUEST_ACCOUNT", "your account was invited to sessions; it cannot pair machines, start sessions or invite people");
  await next();
});
for (const [method, path] of [
  ["POST", "/api/machines"],
  ["DELETE", "/api/machines/:id"],
  ["POST", "/api/sessions"],
  ["POST", "/api/sessions/:id/members"],
  ["PATCH", "/api/sessions/:id/members/:userId"],
  ["DELETE", "/api/sessions/:id/members/:userId"],
] as const)
  app.on(method, path, fullAccountOnly);

// Web Push: subscriptions, choices, mutes, and Approve / Deny from a notification (worker/push).
app.route("/api", pushRoutes);
// The transcript as a Markdown download (any role that can see the session).
app.route("/api", exportRoutes);

// Issue 26: the agent's own sessions — list, import, fork (worker/agent-session-routes.ts).
app.route("/api", agentSessionRoutes);
app.route("/api", worktreeRoutes);
app.route("/api", reviewRoutes);

app.get("/api/me", (c) => c.json({ ...c.get("user"), authMode: c.get("via"), scope: c.get("scope") }));

app.get("/api/machines", async (c) => c.json({ machines: await listMachines(c.env.DB, c.get("user").id) }));

app.post("/api/machines", async (c) => {
  const body = (await c.req.json().catch(() => null)) as { name?: unknown } | null;
  const name = typeof body?.name === "string" && body.name.trim() ? body.name.trim().slice(0, 100) : "My machine";
  const { machine, token } = await createMachine(c.env.DB, c.get("user").id, name);
  const server = new URL(c.req.url).origin;
  return c.json({ machine, token, command: `baton daemon --server ${server} --token ${token}` }, 201);
});

app.delete("/api/machines/:id", async (c) => {
  const m = await getMachine(c.env.DB, c.req.param("id"));
  if (!m || m.ownerId !== c.get("user").id) return apiError(c, 404, "NOT_FOUND", "no such machine");
  await revokeMachine(c.env.DB, m.id);
  await machineStub(c.env, m.id).disconnect("token revoked");
  return c.json({ ok: true });
});

// A guest may approve its own sign-in for `baton attach` (its sessions only), not pair a machine: device-routes.ts.
app.route("/api/device/approvals", deviceApprovalRoutes);
// The caller's `baton login --user` sign-ins: list and revoke (worker/attach).
app.route("/api/user-tokens", userTokenRoutes);

// The session list, its live feed and the lifecycle (issue 26): worker/session-routes.ts.
app.route("/api/sessions", sessionRoutes);
// The Sender's "@" picker: the session directory's files, from the daemon (worker/file-list-routes.ts).
app.route("/api/sessions", fileListRoutes);
// Read-only share links: the owner creates, lists and revokes them (worker/share/share-routes.ts).
app.route("/api/sessions", shareOwnerRoutes);

app.post("/api/sessions", async (c) => {
  const parsed = CreateSessionBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", parsed.error.issues[0]?.message ?? "invalid body");
  const user = c.get("user");
  const machine = await getMachine(c.env.DB, parsed.data.machineId);
  if (!machine || machine.ownerId !== user.id || machine.revoked) return apiError(c, 404, "NOT_FOUND", "no such machine");
  if (!machine.online) return apiError(c, 409, "MACHINE_OFFLINE", "the machine is offline");
  const agent = machine.agents.find((a) => a.id === parsed.data.agentId);
  if (!agent) return apiError(c, 400, "UNKNOWN_AGENT", "that agent is not available on the machine");
  if (!insideRoots(parsed.data.cwd, machine.roots))
    return apiError(c, 400, "CWD_OUTSIDE_ROOTS", `the directory is outside the machine's allowed roots (${machine.roots.join(", ")})`);
  const id = crypto.randomUUID();
  const title = parsed.data.title?.trim() || `${agent.label} · ${parsed.data.cwd.split("/").filter(Boolean).pop() ?? parsed.data.cwd}`;
  // Issue 28: the worktree first; a refusal creates nothing, and a session that then fails drops it again.
  const made = parsed.data.worktree ? await makeWorktree(c.env, machine.id, id, parsed.data.cwd, parsed.data.worktree) : null;
  if (made && !made.ok) return apiError(c, made.status, made.code, made.message);
  const worktree = made?.worktree ?? null;
  const cwd = worktree?.path ?? parsed.data.cwd;
  try {
    await createSession(c.env.DB, { id, ownerId: user.id, machineId: machine.id, agentId: agent.id, cwd, title, worktree });
    await roomStub(c.env, id).init({ sessionId: id, machineId: machine.id, agentId: agent.id, cwd, title, ownerId: user.id });
  } catch (err) {
    if (worktree) await dropWorktree(c.env, machine.id, worktree);
    throw err;
  }
  c.executionCtx.waitUntil(publishSession(c.env, id));
  return c.json({ session: await getSession(c.env.DB, id) }, 201);
});

/** A guest removed from its last session is signed out everywhere (its sign-in rested on that grant). */
async function endGuestSignInIfLastGrant(env: Env, userId: string): Promise<void> {
  const user = await getUser(env.DB, userId);
  if (!user || !authMode(env) || accountScope(authMode(env)!, user.email, env) !== "guest") return;
  if (!(await isInvited(env.DB, user.email))) {
    await deleteAuthSessionsOf(env.DB, userId);
    await deleteSubscriptionsOfUser(env.DB, userId);
  }
}

const membership = (env: Env, sessionId: string, user: User) => sessionAccess(env.DB, sessionId, user.id);

app.get("/api/sessions/:id", async (c) => {
  const m = await membership(c.env, c.req.param("id"), c.get("user"));
  if (!m) return apiError(c, 404, "NOT_FOUND", "no such session");
  const { ownerId: _o, ...session } = m.session;
  return c.json({ session, role: m.role });
});

app.get("/api/sessions/:id/members", async (c) => {
  const m = await membership(c.env, c.req.param("id"), c.get("user"));
  if (!m) return apiError(c, 404, "NOT_FOUND", "no such session");
  return c.json({ members: await listMembers(c.env.DB, m.session.id, m.session.ownerId), role: m.role });
});

/** Owner-only member management; anyone else who can see the session gets 403, others 404. */
async function ownerOf(c: { env: Env; req: { param: (k: "id") => string }; get: (k: "user") => User }) {
  const m = await membership(c.env, c.req.param("id"), c.get("user"));
  if (!m) return { status: 404 as const, code: "NOT_FOUND", message: "no such session" };
  if (m.role !== "owner") return { status: 403 as const, code: "FORBIDDEN", message: "only the session owner manages members" };
  return m;
}

app.post("/api/sessions/:id/members", async (c) => {
  const m = await ownerOf(c);
  if ("status" in m) return apiError(c, m.status, m.code, m.message);
  const parsed = AddMemberBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", parsed.error.issues[0]?.message ?? "invalid body");
  const { email, role } = parsed.data;
  if (email === c.get("user").email) return apiError(c, 400, "BAD_REQUEST", "you already own this session");
  // Adding an address creates its user: that is the invitation (builtin sign-in admits invited users).
  const user = await upsertUser(c.env.DB, email, email.split("@")[0] ?? email);
  await setMember(c.env.DB, m.session.id, user.id, role);
  await roomStub(c.env, m.session.id).viewerAccessChanged(user.id);
  c.executionCtx.waitUntil(publishSession(c.env, m.session.id, user.id));
  return c.json({ members: await listMembers(c.env.DB, m.session.id, m.session.ownerId) }, 201);
});

app.patch("/api/sessions/:id/members/:userId", async (c) => {
  const m = await ownerOf(c);
  if ("status" in m) return apiError(c, m.status, m.code, m.message);
  const parsed = SetRoleBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", parsed.error.issues[0]?.message ?? "invalid body");
  const userId = c.req.param("userId");
  if (userId === m.session.ownerId) return apiError(c, 400, "BAD_REQUEST", "the owner's role cannot change");
  if (!(await sessionRole(c.env.DB, m.session.id, userId))) return apiError(c, 404, "NOT_FOUND", "not a member");
  await setMember(c.env.DB, m.session.id, userId, parsed.data.role);
  await roomStub(c.env, m.session.id).viewerAccessChanged(userId);
  c.executionCtx.waitUntil(publishSession(c.env, m.session.id, userId));
  return c.json({ members: await listMembers(c.env.DB, m.session.id, m.session.ownerId) });
});

app.delete("/api/sessions/:id/members/:userId", async (c) => {
  const m = await ownerOf(c);
  if ("status" in m) return apiError(c, m.status, m.code, m.message);
  const userId = c.req.param("userId");
  if (userId === m.session.ownerId) return apiError(c, 400, "BAD_REQUEST", "the owner cannot be removed");
  if (!(await removeMember(c.env.DB, m.session.id, userId))) return apiError(c, 404, "NOT_FOUND", "not a member");
  await roomStub(c.env, m.session.id).viewerAccessChanged(userId);
  c.executionCtx.waitUntil(publish(c.env, [{ kind: "remove", sessionId: m.session.id, userIds: [userId], reason: "access" }]));
  await endGuestSignInIfLastGrant(c.env, userId);
  return c.json({ members: await listMembers(c.env.DB, m.session.id, m.session.ownerId) });
});

app.get("/api/sessions/:id/ws", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") return apiError(c, 426, "UPGRADE_REQUIRED", "expected a WebSocket upgrade");
  if (!originAllowed(c.env, c.req.raw)) return apiError(c, 403, "BAD_ORIGIN", "cross-site WebSocket refused");
  const user = c.get("user");
  const m = await membership(c.env, c.req.param("id"), user);
  if (!m) return apiError(c, 404, "NOT_FOUND", "no such session");
  const viewer: Viewer = { id: user.id, name: user.name, role: m.role };
  const headers = new Headers(c.req.raw.headers);
  headers.set(VIEWER_HEADER, JSON.stringify(viewer));
  headers.delete(SHARE_HEADER); // only the share route says a socket came through a link
  headers.delete(ATTACH_HEADER); // and only the attach route that it came through a user token
  // Joining is looking: the list's "new since you looked" clears (again when the socket closes).
  c.executionCtx.waitUntil(publishIfChanged(c.env, m.session.id, markSeen(c.env.DB, m.session.id, user.id, Date.now()), user.id));
  return roomStub(c.env, m.session.id).fetch(new Request(c.req.raw.url, { headers }));
});

// Local development: pair the embedded daemon without a browser round-trip.
app.post("/api/dev/pair", async (c) => {
  if (c.env.AUTH_MODE !== "dev") return apiError(c, 404, "NOT_FOUND", "not found");
  const body = (await c.req.json().catch(() => null)) as { name?: string } | null;
  const { machine, token } = await createMachine(c.env.DB, c.get("user").id, body?.name ?? "This machine");
  return c.json({ machine, token }, 201);
});

app.all("/api/*", (c) => apiError(c, 404, "NOT_FOUND", "no such route"));

export default app;
