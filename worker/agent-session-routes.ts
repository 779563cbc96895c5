/**
 * The agent's own sessions (issue 26): list them (through the daemon: Machine.ask → ACP `session/list`), import
 * one as a Baton session (its history relayed once), fork a Baton session (the agent forks, the new room starts
 * with the original's rows), and delete the agent's session (`deleteAgentSession`, called by the session DELETE
 * route when the user opts in). Every check happens before anything is created: bad input changes nothing.
 */
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ImportSessionBody } from "../shared/agent-sessions-api";
import type { AccountScope } from "../shared/api";
import { ASK_TIMEOUT_MS, MAX_FORK_COPY_BYTES } from "../shared/limits";
import { insideRoots } from "../shared/paths";
import { AskErrorCode, type AskKind, type AskOutcome, type AskRequest, outcomeOf } from "../shared/tunnel-ask";
import { apiError } from "./api-error";
import { createSession, getMachine, getSession, type User } from "./d1-directory";
import { type Env, machineStub, roomStub } from "./env";

type RouteEnv = { Bindings: Env; Variables: { user: User; scope: AccountScope } };
export const agentSessionRoutes = new Hono<RouteEnv>();

type Refusal = { status: ContentfulStatusCode; code: string; message: string };
const refusal = (status: ContentfulStatusCode, code: string, message: string): Refusal => ({ status, code, message });

/** How an ask's failure reads over HTTP. */
export function askRefusal(outcome: { code: string; message: string }): Refusal {
  switch (outcome.code) {
    case AskErrorCode.MACHINE_OFFLINE:
      return refusal(409, "MACHINE_OFFLINE", outcome.message);
    case AskErrorCode.TIMEOUT:
      return refusal(504, outcome.code, outcome.message);
    case AskErrorCode.BAD_REQUEST:
      return refusal(400, outcome.code, outcome.message);
    case AskErrorCode.AGENT_REFUSED:
    case AskErrorCode.GIT_REFUSED:
    case AskErrorCode.GIT_MISSING:
      return refusal(422, outcome.code, outcome.message);
    default:
      return refusal(502, outcome.code, outcome.message);
  }
}

/** Machine.ask with its outcome checked for the kind; an RPC failure reads as MACHINE_OFFLINE. */
export async function ask<K extends AskKind>(env: Env, machineId: string, request: Extract<AskRequest, { kind: K }>, timeoutMs = ASK_TIMEOUT_MS): Promise<AskOutcome<K>> {
  try {
    const out = await machineStub(env, machineId).ask(request, timeoutMs);
    return out.ok ? outcomeOf(request.kind as K, { ok: true, result: JSON.parse(out.result) }) : out;
  } catch (err) {
    console.error("machine ask failed", request.kind, err);
    return { ok: false, code: AskErrorCode.MACHINE_OFFLINE, message: "the machine could not be reached" };
  }
}

/** The user's machine, online, with the agent advertised and `cwd` in its roots; or why not. */
async function usableMachine(env: Env, user: User, machineId: string, agentId: string, cwd: string) {
  const machine = await getMachine(env.DB, machineId);
  if (!machine || machine.ownerId !== user.id || machine.revoked) return refusal(404, "NOT_FOUND", "no such machine");
  if (!machine.online) return refusal(409, "MACHINE_OFFLINE", `${machine.name} is offline`);
  const agent = machine.agents.find((a) => a.id === agentId);
  if (!agent) return refusal(400, "UNKNOWN_AGENT", "that agent is not available on the machine");
  if (!insideRoots(cwd, machine.roots))
    return refusal(400, "CWD_OUTSIDE_ROOTS", `the directory is outside the machine's allowed roots (${machine.roots.join(", ")})`);
  return { machine, agent };
}

const isRefusal = (x: object): x is Refusal => "status" in x && "code" in x;

agentSessionRoutes.get("/machines/:machineId/agents/:agentId/sessions", async (c) => {
  const cwd = c.req.query("cwd") ?? "";
  const cursor = c.req.query("cursor") || null;
  if (!cwd || cwd.length > 4096 || (cursor && cursor.length > 4096)) return apiError(c, 400, "BAD_REQUEST", "cwd (and at most a 4 KB cursor) required");
  const m = await usableMachine(c.env, c.get("user"), c.req.param("machineId"), c.req.param("agentId"), cwd);
  if (isRefusal(m)) return apiError(c, m.status, m.code, m.message);
  if (m.agent.capabilities.list === false || m.agent.capabilities.list === undefined)
    return apiError(c, 422, "NOT_SUPPORTED", `${m.agent.label} does not list its sessions (no session/list)`);
  const out = await ask(c.env, m.machine.id, { kind: "agent.sessions.list", agentId: m.agent.id, cwd, cursor });
  if (!out.ok) {
    const r = askRefusal(out);
    return apiError(c, r.status, r.code, r.message);
  }
  return c.json(out.result);
});

agentSessionRoutes.post("/sessions/import", async (c) => {
  if (c.get("scope") !== "full") return apiError(c, 403, "GUEST_ACCOUNT", "your account was invited to sessions; it cannot start sessions");
  const parsed = ImportSessionBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return apiError(c, 400, "BAD_REQUEST", parsed.error.issues[0]?.message ?? "invalid body");
  const { machineId, agentId, cwd, agentSessionId } = parsed.data;
  const user = c.get("user");
  const m = await usableMachine(c.env, user, machineId, agentId, cwd);
  if (isRefusal(m)) return apiError(c, m.status, m.code, m.message);
  // The agent must know the session (and says its title): an unknown id creates nothing.
  const found = await ask(c.env, m.machine.id, { kind: "agent.sessions.find", agentId, cwd, agentSessionId });
  if (!found.ok) {
    const r = askRefusal(found);
    return apiError(c, r.status, r.code, r.message);
  }
  if (!found.result.session) return apiError(c, 404, "NO_AGENT_SESSION", `${m.agent.label} has no session ${agentSessionId} in ${cwd}`);
  const id = crypto.randomUUID();
  const title = found.result.session.title?.slice(0, 200) || `${m.agent.label} · imported`;
  await createSession(c.env.DB, { id, ownerId: user.id, machineId: m.machine.id, agentId, cwd, title });
  await roomStub(c.env, id).init({ sessionId: id, machineId: m.machine.id, agentId, cwd, title, ownerId: user.id }, { kind: "import", agentSessionId });
  return c.json({ session: await getSession(c.env.DB, id) }, 201);
});

agentSessionRoutes.post("/sessions/:id/fork", async (c) => {
  if (c.get("scope") !== "full") return apiError(c, 403, "GUEST_ACCOUNT", "your account was invited to sessions; it cannot start sessions");
  const user = c.get("user");
  const original = await getSession(c.env.DB, c.req.param("id"));
  // Only the owner forks: the fork runs on the owner's machine as a session of its own.
  if (!original || original.ownerId !== user.id) return apiError(c, 404, "NOT_FOUND", "no such session");
  const m = await usableMachine(c.env, user, original.machineId, original.agentId, original.cwd);
  if (isRefusal(m)) return apiError(c, m.status, m.code, m.message);
  if (!m.agent.capabilities.fork) return apiError(c, 422, "NOT_SUPPORTED", `${m.agent.label} cannot fork sessions (no session/fork)`);
  const source = await roomStub(c.env, original.id).forkSource(MAX_FORK_COPY_BYTES);
  if (!source.agentSessionId) return apiError(c, 409, "NOT_READY", "the session has no agent session yet (it is still starting or failed)");
  const forked = await ask(c.env, m.machine.id, { kind: "agent.sessions.fork", agentId: original.agentId, cwd: original.cwd, agentSessionId: source.agentSessionId });
  if (!forked.ok) {
    const r = askRefusal(forked);
    return apiError(c, r.status, r.code, r.message);
  }
  const id = crypto.randomUUID();
  const title = `Fork of ${original.agentTitle || original.title}`.slice(0, 200);
  await createSession(c.env.DB, { id, ownerId: user.id, machineId: m.machine.id, agentId: original.agentId, cwd: original.cwd, title });
  await roomStub(c.env, id).init(
    { sessionId: id, machineId: m.machine.id, agentId: original.agentId, cwd: original.cwd, title, ownerId: user.id },
    { kind: "fork", agentSessionId: forked.result.agentSessionId, seedJson: source.eventsJson },
  );
  return c.json({ session: await getSession(c.env.DB, id), truncated: source.truncated }, 201);
});

/**
 * Deletes the agent's own session (ACP `session/delete`) — the opt-in half of deleting a Baton session. Never
 * throws: an offline machine, an agent without `session/delete` or a refusal is "not deleted" with the reason.
 */
export async function deleteAgentSession(
  env: Env,
  s: { machineId: string; agentId: string; agentSessionId: string; cwd: string },
): Promise<{ deleted: boolean; message?: string }> {
  const out = await ask(env, s.machineId, { kind: "agent.sessions.delete", agentId: s.agentId, cwd: s.cwd, agentSessionId: s.agentSessionId });
  if (out.ok) return out.result;
  return { deleted: false, message: out.code === AskErrorCode.MACHINE_OFFLINE ? "the machine is offline: the agent's session was not deleted" : out.message };
}
