/**
 * The daemon's answers to the Machine's asks (shared/tunnel-ask.ts) about an agent's own sessions: list, find,
 * delete, fork. Each runs on a short-lived agent process (spawn, `initialize`, the call, kill), so it never
 * touches a live Baton session's process. The cwd is confined to the machine's roots, the agent to the
 * advertised ones, and every method to what the agent's `initialize` offers.
 */
import * as acp from "@agentclientprotocol/sdk";
import { MAX_LISTED_AGENT_SESSIONS } from "../../../shared/limits";
import { AgentAskRequest, type AgentSessionInfo, type AskKind, AskErrorCode, type AskResult } from "../../../shared/tunnel-ask";
import { assertNever } from "../../../shared/assert-never";
import type { AgentCapabilities } from "../../../shared/tunnel-protocol";
import { isRecord, tappedStdioStream } from "./acp-tap";
import { sessionCapabilitiesFrom } from "./agent-config";
import { spawnAgent } from "./agent-process";
import type { ResolvedAgent } from "./agent-presets";
import { rpcErrorText } from "./agent-rpc";
import { checkCwd, isInside } from "../allowed-roots";
import { errorMessage, type Logger } from "../log";
import { TimeoutError, withTimeout } from "../timing";
import { DAEMON_VERSION } from "../version";
import type { AskAnswer } from "../tunnel/tunnel-client";

/** Pages a `find` reads before it gives up (the agent's own page size times this bounds the search). */
const MAX_FIND_PAGES = 20;
/** The whole ask on the agent (spawn + initialize + calls): under the Worker's ASK_TIMEOUT_MS so the answer arrives. */
export const AGENT_ASK_TIMEOUT_MS = 25_000;
/** ACP `session/fork` (unstable in the SDK's stable export; claude-agent-acp, codex-acp and opencode offer it). */
const FORK_METHOD = "session/fork";

export type AskHandlerOptions = {
  agents: readonly ResolvedAgent[];
  roots: readonly string[];
  log: Logger;
  timeoutMs?: number;
  /** What the short-lived process's `initialize` said about the agent's sessions (refines the advertised capabilities). */
  learnt?(agentId: string, caps: Pick<AgentCapabilities, "list" | "fork" | "delete" | "close">): void;
};

type Fail = { ok: false; code: string; message: string };
const refuse = (message: string): Fail => ({ ok: false, code: AskErrorCode.AGENT_REFUSED, message });

/** The agent's `SessionInfo` as Baton lists it; null when it has no id. */
export function toSessionInfo(raw: unknown): AgentSessionInfo | null {
  if (!isRecord(raw) || typeof raw.sessionId !== "string" || !raw.sessionId || raw.sessionId.length > 512) return null;
  return {
    agentSessionId: raw.sessionId,
    title: typeof raw.title === "string" && raw.title.trim() ? raw.title.trim().slice(0, 1000) : null,
    updatedAt: typeof raw.updatedAt === "string" ? raw.updatedAt.slice(0, 64) : null,
    cwd: typeof raw.cwd === "string" ? raw.cwd.slice(0, 4096) : "",
  };
}

/** One `session/list` answer as a page: sessions outside the machine's roots are left out; bounded in count. */
export function toSessionPage(raw: unknown, roots: readonly string[]): AskResult<"agent.sessions.list"> {
  const list = isRecord(raw) && Array.isArray(raw.sessions) ? raw.sessions : [];
  const sessions = list
    .map(toSessionInfo)
    .filter((s): s is AgentSessionInfo => s !== null && (!s.cwd || roots.some((r) => isInside(s.cwd, r))))
    .slice(0, MAX_LISTED_AGENT_SESSIONS);
  const next = isRecord(raw) && typeof raw.nextCursor === "string" && raw.nextCursor ? raw.nextCursor.slice(0, 4096) : null;
  return { sessions, nextCursor: next };
}

export function createAskHandler(o: AskHandlerOptions): (request: unknown) => Promise<AskAnswer> {
  const timeoutMs = o.timeoutMs ?? AGENT_ASK_TIMEOUT_MS;

  /** Spawns the agent in `cwd`, initializes it, runs `fn`, and always kills it. */
  async function withAgent<T>(agent: ResolvedAgent, cwd: string, fn: (conn: acp.ClientConnection, caps: ReturnType<typeof sessionCapabilitiesFrom>) => Promise<T>): Promise<T | Fail> {
    const proc = spawnAgent(agent.launch, cwd, (line) => o.log.debug(`[agent ${agent.info.id} ask] ${line}`));
    // Notifications (commands, titles) from a process nobody watches: kept from the SDK.
    const stream = tappedStdioStream(proc.child.stdin, proc.child.stdout, (m) => ("method" in m && !("id" in m) ? "drop" : "pass"));
    const conn = acp.client({ name: "baton-daemon" }).connect(stream);
    try {
      return await withTimeout(
        (async () => {
          const init: unknown = await conn.agent.request(acp.methods.agent.initialize, {
            protocolVersion: acp.PROTOCOL_VERSION,
            clientCapabilities: {},
            clientInfo: { name: "baton", version: DAEMON_VERSION },
          });
          const caps = sessionCapabilitiesFrom(init);
          o.learnt?.(agent.info.id, caps);
          return fn(conn, caps);
        })(),
        timeoutMs,
        "the agent",
      );
    } catch (err) {
      if (err instanceof TimeoutError) return { ok: false, code: AskErrorCode.AGENT_FAILED, message: `${agent.info.label} did not answer within ${timeoutMs / 1000} s` };
      if (err instanceof acp.RequestError) return { ok: false, code: AskErrorCode.AGENT_REFUSED, message: rpcErrorText(err) };
      const tail = proc.stderrTail().at(-1);
      return { ok: false, code: AskErrorCode.AGENT_FAILED, message: `${errorMessage(err)}${tail ? `: ${tail}` : ""}` };
    } finally {
      conn.close();
      await proc.kill();
    }
  }

  const isFail = (x: unknown): x is Fail => isRecord(x) && x.ok === false;
  const answer = <K extends AskKind>(r: AskResult<K> | Fail): AskAnswer => (isFail(r) ? r : { ok: true, result: r });

  return async (raw) => {
    const parsed = AgentAskRequest.safeParse(raw);
    if (!parsed.success) {
      const kind = isRecord(raw) ? raw.kind : undefined;
      const known = AgentAskRequest.options.some((opt) => opt.shape.kind.value === kind);
      return known
        ? { ok: false, code: AskErrorCode.BAD_REQUEST, message: parsed.error.issues[0]?.message ?? "invalid request" }
        : { ok: false, code: AskErrorCode.UNKNOWN_ASK, message: `this daemon does not answer "${String(kind).slice(0, 64)}"` };
    }
    const req = parsed.data;
    const agent = o.agents.find((a) => a.info.id === req.agentId);
    if (!agent) return refuse(`agent "${req.agentId}" is not available on this machine`);
    const cwd = checkCwd(req.cwd, o.roots);
    if (!cwd.ok) return { ok: false, code: AskErrorCode.BAD_REQUEST, message: cwd.message };
    const label = agent.info.label;
    const list = async (conn: acp.ClientConnection, cursor: string | null | undefined) =>
      toSessionPage(await conn.agent.request(acp.methods.agent.session.list, { cwd: cwd.cwd, ...(cursor ? { cursor } : {}) }), o.roots);

    switch (req.kind) {
      case "agent.sessions.list":
        return answer(
          await withAgent(agent, cwd.cwd, async (conn, caps) => (caps.list ? list(conn, req.cursor) : refuse(`${label} does not list its sessions (no session/list)`))),
        );
      case "agent.sessions.find":
        return answer(
          await withAgent(agent, cwd.cwd, async (conn, caps) => {
            if (!caps.list) return refuse(`${label} does not list its sessions (no session/list)`);
            let cursor: string | null = null;
            for (let page = 0; page < MAX_FIND_PAGES; page++) {
              const got = await list(conn, cursor);
              const hit = got.sessions.find((s) => s.agentSessionId === req.agentSessionId);
              if (hit) return { session: hit };
              if (!got.nextCursor) break;
              cursor = got.nextCursor;
            }
            return { session: null };
          }),
        );
      case "agent.sessions.delete": {
        const out = await withAgent(agent, cwd.cwd, async (conn, caps) => {
          if (!caps.delete) return { deleted: false, message: `${label} does not delete its sessions (no session/delete)` };
          await conn.agent.request(acp.methods.agent.session.delete, { sessionId: req.agentSessionId });
          return { deleted: true };
        });
        // A refusal (unknown session, …) is an answer: not deleted, and why.
        return isFail(out) && out.code === AskErrorCode.AGENT_REFUSED ? { ok: true, result: { deleted: false, message: out.message } } : answer(out);
      }
      case "agent.sessions.fork":
        return answer(
          await withAgent(agent, cwd.cwd, async (conn, caps) => {
            if (!caps.fork) return refuse(`${label} does not fork sessions (no session/fork)`);
            const res: unknown = await conn.agent.request(FORK_METHOD, { sessionId: req.agentSessionId, cwd: cwd.cwd, mcpServers: [] });
            const id = isRecord(res) && typeof res.sessionId === "string" && res.sessionId ? res.sessionId : null;
            return id ? { agentSessionId: id } : { ok: false as const, code: AskErrorCode.AGENT_FAILED, message: `${label} answered session/fork without a session id` };
          }),
        );
      default:
        return assertNever(req);
    }
  };
}
