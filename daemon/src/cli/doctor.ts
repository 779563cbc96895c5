/**
 * `baton doctor`: what stands between this machine and a working daemon, each problem with its fix.
 * Checks: Node version, config file (and its permissions), server reachable, token valid (and the
 * server's protocol), roots, the systemd service's lingering (Linux), and each agent found (its version and
 * how it authenticates, from `initialize`).
 */
import fs from "node:fs";
import os from "node:os";
import { TUNNEL_PROTOCOL_VERSION, upgradeCommand } from "../../../shared/protocol-version";
import { TUNNEL_TOKEN_HEADER } from "../../../shared/tunnel-protocol";
import { detectAgents, type ResolvedAgent } from "../agent/agent-presets";
import { probeAgent, type ProbeResult } from "../agent/agent-probe";
import { resolveRoots } from "../allowed-roots";
import { configTooOpen } from "./config-write";
import type { DaemonOptions } from "../daemon-options";
import type { Check } from "./doctor-check";
import { insecureServerProblem } from "../tunnel/server-url";
import { lingerCheck, queryLinger } from "./linger";
import { errorMessage } from "../log";
import { serverBase } from "./login";
import { serviceLocation } from "./service-files";
import { gitRunner, type GitRun } from "../git/git-run";
import { managedWorktrees, orphanCheck } from "../git/orphans";
import { knownSessions } from "../git/known-sessions";

/** The oldest Node major the package is built for and tested on (daemon/package.json `engines`). */
export const MIN_NODE_MAJOR = 20;
const REQUEST_TIMEOUT_MS = 10_000;

export type { Check } from "./doctor-check";

/** How to install each preset (shown when it is missing or broken). */
export const AGENT_INSTALL_HINTS: Record<string, string> = {
  claude: "npm i -g @agentclientprotocol/claude-agent-acp, and log in once with Claude Code (`claude`) or set ANTHROPIC_API_KEY",
  codex: "npm i -g @agentclientprotocol/codex-acp, and `codex login` or set OPENAI_API_KEY",
  gemini: "npm i -g @google/gemini-cli, and choose a login in `gemini` or set GEMINI_API_KEY",
  qwen: "npm i -g @qwen-code/qwen-code, and log in with `qwen`",
  opencode: "npm i -g opencode-ai, and `opencode auth login`",
  pi: "npm i -g pi-acp (and the `pi` coding agent)",
  copilot: "npm i -g @github/copilot, and `/login` in `copilot`",
};

export function nodeCheck(version = process.versions.node): Check {
  const major = Number(version.split(".")[0]);
  return major >= MIN_NODE_MAJOR
    ? { name: "node", ok: true, detail: `Node ${version}` }
    : { name: "node", ok: false, detail: `Node ${version} is older than ${MIN_NODE_MAJOR}`, fix: `install Node ${MIN_NODE_MAJOR} LTS or newer (https://nodejs.org)` };
}

export function configCheck(file: string): Check {
  if (!fs.existsSync(file)) return { name: "config", ok: true, detail: `${file} (none yet; \`baton login <server>\` writes it)` };
  if (configTooOpen(file)) return { name: "config", ok: false, detail: `${file} is readable by other users and holds the machine token`, fix: `chmod 600 ${file}` };
  return { name: "config", ok: true, detail: `${file} (mode 600)` };
}

export function agentCheck(agent: ResolvedAgent, probe: ProbeResult): Check {
  const name = `agent ${agent.info.id}`;
  if (!probe.ok) return { name, ok: false, detail: `${agent.info.label} did not start: ${probe.error}`, fix: AGENT_INSTALL_HINTS[agent.info.id] ?? "check the agent's command in the config file" };
  const auth = probe.authMethods.length
    ? `; signs in with: ${probe.authMethods.map((m) => m.name).join(", ")} (log in once in its own CLI; an agent that cannot authenticate fails the session with its own message)`
    : "";
  return { name, ok: true, detail: `${agent.info.label} ${probe.version ?? "(no version reported)"}${auth}` };
}

export type DoctorDeps = {
  fetch?: typeof fetch;
  probe?: typeof probeAgent;
  agents?: ResolvedAgent[];
  git?: GitRun;
  /** Where the service check looks (default: this process's platform, home, user and env). */
  service?: { platform: NodeJS.Platform; home: string; user: string; env: NodeJS.ProcessEnv };
};

/** systemd only: launchd agents have no lingering (they run in the user's GUI session). */
function serviceCheck(s: NonNullable<DoctorDeps["service"]>): Check | null {
  if (s.platform !== "linux") return null;
  const installed = fs.existsSync(serviceLocation("systemd", s.home).file);
  return lingerCheck(installed, s.user, installed ? queryLinger(s.user, s.env) : { linger: "no" });
}

export async function runDoctor(o: DaemonOptions, configFile: string, deps: DoctorDeps = {}): Promise<Check[]> {
  const doFetch = deps.fetch ?? fetch;
  const checks: Check[] = [nodeCheck(), configCheck(configFile)];

  if (!o.server) {
    checks.push({ name: "server", ok: false, detail: "no server configured", fix: "baton login <server-url>" });
  } else {
    let base: string | null = null;
    try {
      base = serverBase(o.server);
    } catch (err) {
      checks.push({ name: "server", ok: false, detail: `not a server URL: ${o.server} (${errorMessage(err)})`, fix: "baton login <server-url>" });
    }
    if (base) {
      const health = await doFetch(`${base}/api/health`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).then(
        (r) => (r.ok ? null : `HTTP ${r.status}`),
        (err: unknown) => errorMessage(err),
      );
      checks.push(
        health === null
          ? { name: "server", ok: true, detail: `${base} is reachable` }
          : { name: "server", ok: false, detail: `${base} is not reachable: ${health}`, fix: "check the URL, the network, or that the server is up" },
      );
      // The same rule as daemon and login: the token never goes over plain http off loopback.
      const insecure = insecureServerProblem(base, o.allowInsecureHttp === true);
      if (health === null && insecure)
        checks.push({ name: "token", ok: false, detail: `not checked: ${insecure}`, fix: `baton login https://${new URL(base).host}` });
      else if (health === null) {
        const token = await tokenCheck(doFetch, base, o.token);
        checks.push(token);
        if (token.ok && o.worktreesDir) checks.push(await worktreesCheck(doFetch, base, o.token, o.worktreesDir, deps.git ?? gitRunner()));
      }
    }
  }

  const roots = o.roots?.length ? o.roots : [process.cwd()];
  const { roots: ok, missing } = resolveRoots(roots);
  checks.push(
    missing.length
      ? { name: "roots", ok: false, detail: `not a directory: ${missing.join(", ")}${ok.length ? `; usable: ${ok.join(", ")}` : ""}`, fix: "pass existing directories with --root (or fix \"roots\" in the config file)" }
      : { name: "roots", ok: true, detail: ok.join(", ") },
  );

  const service = serviceCheck(deps.service ?? { platform: process.platform, home: os.homedir(), user: os.userInfo().username, env: process.env });
  if (service) checks.push(service);

  const agents = deps.agents ?? detectAgents({ custom: o.customAgents, only: o.agents });
  const probe = deps.probe ?? probeAgent;
  const found = agents.filter((a) => a.info.id !== "demo");
  if (!found.length)
    checks.push({ name: "agents", ok: false, detail: "no coding agent found (only the built-in demo)", fix: `install one, e.g. ${AGENT_INSTALL_HINTS.claude}` });
  // One at a time: some agents are heavy to start.
  for (const a of agents) checks.push(agentCheck(a, await probe(a.launch, ok[0] ?? os.tmpdir())));
  return checks;
}

async function tokenCheck(doFetch: typeof fetch, base: string, token: string): Promise<Check> {
  if (!token) return { name: "token", ok: false, detail: "no machine token", fix: `baton login ${base}` };
  try {
    const r = await doFetch(`${base}/api/tunnel/check`, { headers: { [TUNNEL_TOKEN_HEADER]: token }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (r.status === 401) return { name: "token", ok: false, detail: "the server does not know this machine token (wrong, or revoked)", fix: `baton login ${base}` };
    if (r.status === 404) return { name: "token", ok: true, detail: "cannot be checked: the server predates `baton doctor` (the tunnel will tell)" };
    if (!r.ok) return { name: "token", ok: false, detail: `token check failed: HTTP ${r.status}`, fix: "try again; if it persists, check the server's logs" };
    const body = (await r.json()) as { machine?: { name?: unknown }; minProtocolVersion?: unknown; protocolVersion?: unknown };
    const min = typeof body.minProtocolVersion === "number" ? body.minProtocolVersion : 0;
    const max = typeof body.protocolVersion === "number" ? body.protocolVersion : TUNNEL_PROTOCOL_VERSION;
    if (TUNNEL_PROTOCOL_VERSION < min)
      return { name: "token", ok: false, detail: `valid, but this daemon's protocol ${TUNNEL_PROTOCOL_VERSION} is older than the server's ${min}–${max}`, fix: upgradeCommand };
    if (TUNNEL_PROTOCOL_VERSION > max)
      return { name: "token", ok: false, detail: `valid, but this daemon's protocol ${TUNNEL_PROTOCOL_VERSION} is newer than the server's ${max}`, fix: "update the Baton server (npm run deploy)" };
    return { name: "token", ok: true, detail: `valid: machine "${String(body.machine?.name ?? "?")}", protocol ${TUNNEL_PROTOCOL_VERSION} (server ${min}–${max})` };
  } catch (err) {
    return { name: "token", ok: false, detail: `token check failed: ${errorMessage(err)}`, fix: "check the network and try again" };
  }
}

/** Session worktrees under the managed folder whose session the server no longer has. */
async function worktreesCheck(doFetch: typeof fetch, base: string, token: string, dir: string, git: GitRun): Promise<Check> {
  const all = await managedWorktrees(git, dir);
  if (!all.length) return { name: "worktrees", ok: true, detail: `none in ${dir}` };
  const ids = all.flatMap((w) => (w.sessionId ? [w.sessionId] : []));
  try {
    const r = await knownSessions(doFetch, base, token, ids);
    if (!r.ok) return { name: "worktrees", ok: true, warn: true, detail: `${all.length} in ${dir}; the server did not say which sessions exist (${r.why})` };
    return orphanCheck(all, r.known);
  } catch (err) {
    return { name: "worktrees", ok: true, warn: true, detail: `${all.length} in ${dir}; not checked: ${errorMessage(err)}` };
  }
}

export function formatChecks(checks: readonly Check[]): string {
  return checks.map((c) => `${c.warn ? "!" : c.ok ? "✓" : "✗"} ${c.name.padEnd(16)} ${c.detail}${c.fix ? `\n  ${"".padEnd(16)} fix: ${c.fix}` : ""}`).join("\n");
}
