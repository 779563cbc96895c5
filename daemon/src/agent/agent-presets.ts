/**
 * Known ACP agents and how to launch them, plus custom agents from the config file.
 * Only agents found on this machine are advertised; detection never downloads anything.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import { AgentCapabilities, type AgentInfo } from "../../../shared/tunnel-protocol";
import type { LaunchSpec } from "./agent-process";
import { findOnPath, findPackageBin, packageSearchDirs } from "./find-executable";

export const CustomAgent = z.object({
  id: z.string().min(1).max(64).regex(/^[A-Za-z0-9._-]+$/, "agent ids use letters, digits, . _ -"),
  label: z.string().min(1).max(100).optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  capabilities: AgentCapabilities.partial().optional(),
});
export type CustomAgent = z.infer<typeof CustomAgent>;

type Launch =
  | { kind: "command"; command: string; args: string[] }
  /** `npx -y <pkg>`: run from a local install (bin on PATH or package on disk), never via npx while detecting. */
  | { kind: "npx"; pkg: string; bin: string; args: string[] }
  | { kind: "demo" };

/**
 * `login`: what a person runs on the machine to log the agent in, shown when a session fails for want of it
 * (the agent's own `terminal-auth` hint wins when it sends one).
 */
export type AgentPreset = { id: string; label: string; launch: Launch; capabilities: AgentCapabilities; login?: string };

const caps = (c: Partial<AgentCapabilities>): AgentCapabilities => ({
  loadSession: false,
  resume: false,
  modes: false,
  configOptions: false,
  steering: false,
  images: false,
  ...c,
});

/** Static best knowledge per agent; `initialize` refines it per session (session.ready carries the truth). */
export const AGENT_PRESETS: readonly AgentPreset[] = [
  {
    id: "claude",
    label: "Claude Code",
    launch: { kind: "npx", pkg: "@agentclientprotocol/claude-agent-acp", bin: "claude-agent-acp", args: [] },
    // claude-agent-acp 0.101: steering at the top level of `initialize`'s `_meta`.
    capabilities: caps({ loadSession: true, resume: true, modes: true, configOptions: true, steering: true, images: true, list: true, fork: true, delete: true, close: true }),
    login: "claude, then /login",
  },
  {
    id: "codex",
    label: "Codex",
    launch: { kind: "npx", pkg: "@agentclientprotocol/codex-acp", bin: "codex-acp", args: [] },
    capabilities: caps({ loadSession: true, resume: true, modes: true, configOptions: true, steering: true, images: true, list: true, fork: true, delete: true, close: true }),
    login: "codex login",
  },
  {
    id: "gemini",
    label: "Gemini CLI",
    launch: { kind: "command", command: "gemini", args: ["--acp"] },
    capabilities: caps({ loadSession: true, modes: true, images: true }),
    login: "gemini",
  },
  {
    id: "qwen",
    label: "Qwen Code",
    launch: { kind: "command", command: "qwen", args: ["--acp"] },
    // qwen-code 0.24: mode and model as config options.
    capabilities: caps({ loadSession: true, modes: true, configOptions: true, images: true }),
    login: "qwen, then /auth",
  },
  {
    id: "opencode",
    label: "opencode",
    launch: { kind: "command", command: "opencode", args: ["acp"] },
    capabilities: caps({ loadSession: true, modes: true, configOptions: true, images: true, list: true, fork: true, close: true }),
    login: "opencode auth login",
  },
  {
    id: "pi",
    label: "Pi",
    launch: { kind: "npx", pkg: "pi-acp", bin: "pi-acp", args: [] },
    // pi-acp 0.0.34: session/load, model and thought_level options, image prompts; its only mode is "off".
    capabilities: caps({ loadSession: true, configOptions: true, images: true }),
    login: "pi, then /login",
  },
  {
    id: "copilot",
    label: "GitHub Copilot",
    launch: { kind: "command", command: "copilot", args: ["--acp", "--stdio"] },
    // copilot 1.0.102: mode and `allow_all` (a boolean) as config options.
    capabilities: caps({ loadSession: true, modes: true, configOptions: true, images: true }),
    login: "copilot, then /login",
  },
  {
    id: "demo",
    label: "Demo agent",
    launch: { kind: "demo" },
    capabilities: caps({ loadSession: true, modes: true, configOptions: true, steering: true, images: true, list: true, fork: true, delete: true }),
  },
];

export const DEMO_AGENT_MAIN = fileURLToPath(new URL("../../demo-agent/main.ts", import.meta.url));

/** The demo agent built beside the bundled CLI (daemon/dist/demo-agent.mjs in the npm package). */
const BUILT_DEMO_AGENT = fileURLToPath(new URL("./demo-agent.mjs", import.meta.url));

/**
 * How to run the built-in demo agent (absolute paths, so any cwd works): from the package, the built JS with
 * this Node; from the repository's sources, a build named by `BATON_DEMO_AGENT` (npm test makes one per run),
 * else this Node with the tsx loader.
 */
export function demoLaunch(env: Readonly<Record<string, string>> = {}): LaunchSpec {
  if (existsSync(BUILT_DEMO_AGENT)) return { command: process.execPath, args: [BUILT_DEMO_AGENT], env };
  const named = process.env["BATON_DEMO_AGENT"];
  if (named && existsSync(named)) return { command: process.execPath, args: [named], env };
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return { command: process.execPath, args: ["--import", tsxLoader, DEMO_AGENT_MAIN], env };
}

export type ResolvedAgent = { info: AgentInfo; launch: LaunchSpec; login?: string | null };

export type DetectOptions = {
  /** Custom agents from the config file (an id equal to a preset's replaces it). */
  custom?: readonly CustomAgent[];
  /** Advertise only these ids (`--agent`); empty/undefined = all found. */
  only?: readonly string[];
  /** Extra env for the demo agent (tests pace it fast). */
  demoEnv?: Readonly<Record<string, string>>;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
};

function resolvePreset(p: AgentPreset, o: DetectOptions, dirs: () => string[]): LaunchSpec | null {
  const launch = p.launch;
  switch (launch.kind) {
    case "demo": {
      const env = { ...(o.demoEnv ?? {}) };
      if (env.DEMO_STEERING === undefined && o.env?.DEMO_STEERING !== undefined) env.DEMO_STEERING = o.env.DEMO_STEERING;
      return demoLaunch(env);
    }
    case "command": {
      const found = findOnPath(launch.command, o.env);
      return found ? { command: found, args: launch.args } : null;
    }
    case "npx": {
      const onPath = findOnPath(launch.bin, o.env);
      if (onPath) return { command: onPath, args: launch.args };
      const script = findPackageBin(launch.pkg, launch.bin, dirs());
      return script ? { command: process.execPath, args: [script, ...launch.args] } : null;
    }
    default:
      return assertNeverLaunch(launch);
  }
}

function assertNeverLaunch(x: never): never {
  throw new Error(`unexpected launch ${JSON.stringify(x)}`);
}

/** The agents to advertise in hello, each with how to start it. */
export function detectAgents(o: DetectOptions = {}): ResolvedAgent[] {
  const env = o.env ?? process.env;
  const opts = { ...o, env };
  let dirsCache: string[] | null = null;
  const dirs = () => (dirsCache ??= packageSearchDirs(env, o.cwd));
  const only = o.only?.length ? new Set(o.only) : null;
  const customIds = new Set((o.custom ?? []).map((c) => c.id));
  const out: ResolvedAgent[] = [];
  for (const p of AGENT_PRESETS) {
    if (customIds.has(p.id) || (only && !only.has(p.id))) continue;
    const launch = resolvePreset(p, opts, dirs);
    if (!launch) continue;
    const capabilities = p.id === "demo" ? { ...p.capabilities, steering: launch.env?.DEMO_STEERING !== "0" } : p.capabilities;
    out.push({ info: { id: p.id, label: p.label, capabilities }, launch, login: p.login ?? null });
  }
  for (const c of o.custom ?? []) {
    if (only && !only.has(c.id)) continue;
    const found = findOnPath(c.command, env);
    if (!found) continue;
    // A custom agent replacing a preset (e.g. `gemini` run from a pinned path) keeps the preset's label and
    // capabilities unless the config says otherwise.
    const preset = AGENT_PRESETS.find((p) => p.id === c.id);
    out.push({
      info: { id: c.id, label: c.label ?? preset?.label ?? c.id, capabilities: { ...(preset?.capabilities ?? caps({})), ...(c.capabilities ?? {}) } },
      launch: { command: found, args: c.args, env: c.env },
      login: preset?.login ?? null,
    });
  }
  return out;
}
