/** The Worker: Hono routes for the directory API, viewer sockets and the daemon tunnel. */
import { Hono } from "hono";
import { CreateSessionBody } from "../shared/api";
import { TUNNEL_TOKEN_HEADER } from "../shared/tunnel-protocol";
import type { Viewer } from "../shared/viewer-protocol";
import { apiError } from "./api-error";
import { originAllowed, resolveIdentity } from "./auth/identity";
import {
  createMachine,
  createSession,
  getMachine,
  getSession,
  listMachines,
  listSessions,
  machineForToken,
  revokeMachine,
  sessionRole,
  type User,
} from "./directory";
import { type Env, machineStub, roomStub } from "./env";
import { MACHINE_ID_HEADER } from "./machine/machine-do";
import { VIEWER_HEADER } from "./session-room/session-room-do";

export { Machine } from "./machine/machine-do";
export { SessionRoom } from "./session-room/session-room-do";

type AppEnv = { Bindings: Env; Variables: { user: User } };
const app = new Hono<AppEnv>();

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

app.use("/api/*", async (c, next) => {
  const user = await resolveIdentity(c.env, c.req.raw);
  if (!user) return apiError(c, 401, "UNAUTHENTICATED", "sign in required");
  c.set("user", user);
  await next();
});

app.get("/api/me", (c) => c.json(c.get("user")));

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

app.get("/api/sessions", async (c) => c.json({ sessions: await listSessions(c.env.DB, c.get("user").id) }));

app.post("/api/sessions", async (c) => {
  const parsed = CreateSessionBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", parsed.error.issues[0]?.message ?? "invalid body");
  const user = c.get("user");
  const machine = await getMachine(c.env.DB, parsed.data.machineId);
  if (!machine || machine.ownerId !== user.id || machine.revoked) return apiError(c, 404, "NOT_FOUND", "no such machine");
  if (!machine.online) return apiError(c, 409, "MACHINE_OFFLINE", "the machine is offline");
  const agent = machine.agents.find((a) => a.id === parsed.data.agentId);
  if (!agent) return apiError(c, 400, "UNKNOWN_AGENT", "that agent is not available on the machine");
  const id = crypto.randomUUID();
  const title = parsed.data.title?.trim() || `${agent.label} · ${parsed.data.cwd.split("/").filter(Boolean).pop() ?? parsed.data.cwd}`;
  await createSession(c.env.DB, { id, ownerId: user.id, machineId: machine.id, agentId: agent.id, cwd: parsed.data.cwd, title });
  await roomStub(c.env, id).init({ sessionId: id, machineId: machine.id, agentId: agent.id, cwd: parsed.data.cwd, title, ownerId: user.id });
  return c.json({ session: await getSession(c.env.DB, id) }, 201);
});

async function membership(env: Env, sessionId: string, user: User) {
  const session = await getSession(env.DB, sessionId);
  if (!session) return null;
  const role = session.ownerId === user.id ? "owner" : await sessionRole(env.DB, sessionId, user.id);
  return role ? { session, role } : null;
}

app.get("/api/sessions/:id", async (c) => {
  const m = await membership(c.env, c.req.param("id"), c.get("user"));
  if (!m) return apiError(c, 404, "NOT_FOUND", "no such session");
  const { ownerId: _o, ...session } = m.session;
  return c.json({ session, role: m.role });
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
