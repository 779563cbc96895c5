/** Programmatic entry: `startDaemon(options)` runs the ACP host and the tunnel in this process. */
import fs from "node:fs";
import os from "node:os";
import { Id } from "../../shared/viewer-protocol";
import type { AgentInfo } from "../../shared/tunnel-protocol";
import { detectAgents, type ResolvedAgent } from "./agent/agent-presets";
import { isInside, resolveRoots } from "./allowed-roots";
import { gitRunner } from "./git/git-run";
import { createGitAskHandler, GIT_ASK_KINDS } from "./git/git-asks";
import { turnSnapshots } from "./git/turn-snapshot";
import { migrateCapabilityCache, readCapabilityCache, sameCapabilities, withLearnt, writeCapabilityCache, type CapabilityCache } from "./agent/capability-cache";
import type { DaemonOptions } from "./daemon-options";
import { errorMessage, makeLogger, type Logger } from "./log";
import { createSessionHost, type SessionHost } from "./agent/session-host";
import { createAskHandler } from "./agent/agent-asks";
import { createFileListHandler } from "./files/file-list";
import { routeAsks } from "./tunnel/ask-router";
import { createTunnelClient, tunnelUrl, type TunnelClient, type TunnelStatus } from "./tunnel/tunnel-client";
import { DAEMON_VERSION } from "./version";

export type { DaemonOptions } from "./daemon-options";
export type { TunnelStatus } from "./tunnel/tunnel-client";
export { detectAgents, AGENT_PRESETS } from "./agent/agent-presets";
export { DAEMON_VERSION } from "./version";

export type RunningDaemon = {
  /** Kills every agent process and closes the tunnel. Idempotent. */
  stop(): Promise<void>;
  /** Resolves once the server has welcomed this daemon (rejects after `timeoutMs`). */
  connected(timeoutMs?: number): Promise<void>;
  readonly status: TunnelStatus;
  readonly epoch: string;
  /** The agents as advertised now (capabilities learnt from sessions replace the presets'). */
  readonly agents: AgentInfo[];
  readonly roots: string[];
  readonly host: SessionHost;
  readonly tunnel: TunnelClient;
  readonly log: Logger;
};

export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  if (!options.token) throw new Error("startDaemon: a machine token is required");
  const url = tunnelUrl(options.server); // throws on a malformed server URL
  const log = makeLogger({ sink: options.logSink, secrets: [options.token], debug: options.debug });

  const { roots, missing } = resolveRoots(options.roots?.length ? options.roots : [process.cwd()]);
  for (const m of missing) log.warn(`root ${m} does not exist or is not a directory; ignored`);
  if (!roots.length) throw new Error("startDaemon: none of the roots exists");
  const worktreesDir = managedWorktrees(options.worktreesDir ?? null, log);
  // Sessions run in their worktrees: the folder is allowed like a root.
  if (worktreesDir && !roots.some((r) => isInside(worktreesDir, r))) roots.push(worktreesDir);

  const agents: ResolvedAgent[] = detectAgents({ custom: options.customAgents, only: options.agents, demoEnv: options.demoEnv });
  const unknown = (options.agents ?? []).filter((id) => !agents.some((a) => a.info.id === id));
  if (unknown.length) log.warn(`agent(s) not found on this machine: ${unknown.join(", ")}`);
  log.info(`agents: ${agents.map((a) => a.info.id).join(", ") || "(none)"}; roots: ${roots.join(", ")}`);

  const capabilitiesFile = options.capabilitiesFile ?? null;
  if (capabilitiesFile && options.legacyCapabilitiesFile) {
    try {
      if (migrateCapabilityCache(capabilitiesFile, options.legacyCapabilitiesFile)) log.info(`moved ${options.legacyCapabilitiesFile} to ${capabilitiesFile}`);
    } catch (err) {
      log.warn(`could not move ${options.legacyCapabilitiesFile} to ${capabilitiesFile}: ${errorMessage(err)}`);
    }
  }
  let learnt: CapabilityCache = capabilitiesFile ? readCapabilityCache(capabilitiesFile) : {};
  const advertised = () => withLearnt(agents.map((a) => a.info), learnt);
  const onLearnt = (agentId: string, caps: AgentInfo["capabilities"]) => {
    const current = advertised().find((a) => a.id === agentId);
    if (!current || sameCapabilities(current.capabilities, caps)) return;
    learnt = { ...learnt, [agentId]: caps };
    log.info(`agent ${agentId}: capabilities learnt from its session: ${JSON.stringify(caps)}`);
    if (capabilitiesFile) {
      try {
        writeCapabilityCache(capabilitiesFile, learnt);
      } catch (err) {
        log.warn(`could not save ${capabilitiesFile}: ${errorMessage(err)}`);
      }
    }
    tunnel?.sendAgents(advertised());
  };

  let tunnel: TunnelClient | null = null;
  const gitAsks = createGitAskHandler({ git: gitRunner(), roots, dir: worktreesDir });
  const host = createSessionHost({
    agents,
    roots,
    learnt: onLearnt,
    emit: (e) => tunnel?.send(e),
    log,
    timeouts: options.timeouts,
    budget: options.budget ?? null,
    snapshot: turnSnapshots(gitRunner(), worktreesDir),
  });

  const statusWaiters = new Set<(s: TunnelStatus) => void>();
  tunnel = createTunnelClient({
    server: options.server,
    token: options.token,
    epoch: options.epoch,
    log,
    hello: () => ({
      version: DAEMON_VERSION,
      hostname: options.hostname ?? os.hostname(),
      pid: process.pid,
      agents: advertised(),
      roots,
      sessions: host.liveSessions(),
    }),
    onCommand: (cmd) => host.handle(cmd),
    onAsk: routeAsks({
      // Issue 29: the session directory's files for the Sender's "@" picker.
      byKind: {
        "files.list": createFileListHandler({ roots, log }),
        // Issue 28: a session's git worktree (status, commit, diff).
        ...Object.fromEntries(GIT_ASK_KINDS.map((k) => [k, gitAsks])),
      },
      // Issue 26: the agent's own sessions (list / find / delete / fork) on a short-lived agent process.
      otherwise: createAskHandler({
        agents,
        roots,
        log,
        learnt: (agentId, caps) => {
          const current = advertised().find((a) => a.id === agentId);
          if (current) onLearnt(agentId, { ...current.capabilities, ...caps });
        },
      }),
    }),
    onInvalidCommand: (raw, reason) => {
      const r = raw as { t?: unknown; sessionId?: unknown } | null;
      const sessionId = Id.safeParse(r?.sessionId);
      if (sessionId.success)
        tunnel?.send({ t: "command.failed", sessionId: sessionId.data, command: typeof r?.t === "string" ? r.t.slice(0, 64) : "unknown", message: reason });
    },
    onStatus: (s) => statusWaiters.forEach((w) => w(s)),
    backoff: options.tunnel?.backoff,
    authRetryMs: options.tunnel?.authRetryMs,
    heartbeatMs: options.tunnel?.heartbeatMs,
    welcomeTimeoutMs: options.tunnel?.welcomeTimeoutMs,
  });
  log.info(`dialing ${url}`);
  tunnel.start();

  let stopping: Promise<void> | null = null;
  const t = tunnel;
  return {
    stop() {
      stopping ??= (async () => {
        // Tunnel first: closing sessions ends their turns, and a room told "turn ended" by a daemon on
        // its way out would flush its queue into it and lose that prompt. With the tunnel gone the
        // next daemon's new epoch reports the turns lost and the queue runs there.
        await t.stop();
        await host.closeAll();
      })();
      return stopping;
    },
    connected(timeoutMs = 30_000) {
      if (t.status === "connected") return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          statusWaiters.delete(waiter);
          reject(new Error(`not connected after ${timeoutMs} ms (status ${t.status})`));
        }, timeoutMs);
        const waiter = (s: TunnelStatus) => {
          if (s !== "connected") return;
          clearTimeout(timer);
          statusWaiters.delete(waiter);
          resolve();
        };
        statusWaiters.add(waiter);
      });
    },
    get status() {
      return t.status;
    },
    epoch: t.epoch,
    get agents() {
      return advertised();
    },
    roots,
    host,
    tunnel: t,
    log,
  };
}

/** The worktrees folder, created when missing (real path); null when unset or it cannot be made (logged). */
function managedWorktrees(dir: string | null, log: Logger): string | null {
  if (!dir) return null;
  try {
    fs.mkdirSync(dir, { recursive: true });
    return fs.realpathSync(dir);
  } catch (err) {
    log.warn(`worktrees folder ${dir} cannot be used (${errorMessage(err)}); sessions get no worktrees`);
    return null;
  }
}
