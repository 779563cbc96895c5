/** `baton` command line: flags, env (BATON_SERVER / BATON_TOKEN / BATON_ROOTS) and config file → DaemonOptions. */
import path from "node:path";
import { CAPABILITIES_FILE_NAME } from "./capability-cache";
import { ConfigError, defaultConfigPath, readConfigFile } from "./config-file";
import type { DaemonOptions } from "./daemon-options";

export const USAGE = `Usage: baton daemon --server URL --token TOKEN [--root DIR]... [--agent ID]... [--config FILE] [--debug]
       baton agents [--agent ID]... [--config FILE]     list the agents found on this machine
       baton --help | --version

Runs the Baton daemon: one outbound tunnel to the Baton server; agents run here, in the allowed roots.

  --server URL     Baton server (https://… or http://localhost:8787)       env BATON_SERVER
  --token TOKEN    machine token from "pair a machine" (prefer the env var) env BATON_TOKEN
  --root DIR       a directory sessions may run in (repeatable; default: the current directory)
                                                                           env BATON_ROOTS (${path.delimiter}-separated)
  --agent ID       advertise only these agents (repeatable): claude codex gemini qwen opencode pi copilot demo, or a custom id
  --config FILE    JSON config (default ${defaultConfigPath()}):
                   {"server","token","roots":[…],"agents":[{"id","label","command","args","env"}],"budget"}
  --debug          also log agents' stderr

Capabilities learnt from the agents are kept in agent-capabilities.json beside the config file
(env BATON_CAPABILITIES_FILE to put it elsewhere).`;

export type CliCommand =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "daemon"; options: DaemonOptions }
  | { kind: "agents"; options: DaemonOptions };

export class UsageError extends Error {}

type Flags = { server?: string; token?: string; roots: string[]; agents: string[]; config?: string; debug: boolean; help: boolean; version: boolean };

function parseFlags(args: readonly string[]): { positional: string[]; flags: Flags } {
  const flags: Flags = { roots: [], agents: [], debug: false, help: false, version: false };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const raw = args[i]!;
    const eq = raw.startsWith("--") ? raw.indexOf("=") : -1;
    const name = eq > 0 ? raw.slice(0, eq) : raw;
    const value = () => {
      if (eq > 0) return raw.slice(eq + 1);
      const v = args[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case "--server":
        flags.server = value();
        break;
      case "--token":
        flags.token = value();
        break;
      case "--root":
        flags.roots.push(value());
        break;
      case "--agent":
        flags.agents.push(...value().split(",").filter(Boolean));
        break;
      case "--config":
        flags.config = value();
        break;
      case "--debug":
        flags.debug = true;
        break;
      case "-h":
      case "--help":
        flags.help = true;
        break;
      case "-v":
      case "--version":
        flags.version = true;
        break;
      default:
        if (raw.startsWith("-")) throw new UsageError(`unknown option ${raw}`);
        positional.push(raw);
    }
  }
  return { positional, flags };
}

/** An env var set to "" counts as unset. */
const envValue = (v: string | undefined) => (v?.trim() ? v : undefined);

export function parseCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CliCommand {
  const { positional, flags } = parseFlags(args);
  if (flags.help) return { kind: "help" };
  if (flags.version) return { kind: "version" };
  const sub = positional[0];
  if (sub === undefined) return { kind: "help" };
  if (sub !== "daemon" && sub !== "agents") throw new UsageError(`unknown command "${sub}"`);
  if (positional.length > 1) throw new UsageError(`unexpected argument "${positional[1]}"`);

  const envConfig = envValue(env.BATON_CONFIG);
  const configPath = flags.config ?? envConfig ?? defaultConfigPath(env);
  let file;
  try {
    file = readConfigFile(path.resolve(cwd, configPath), flags.config !== undefined || envConfig !== undefined);
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
  const envRoots = (env.BATON_ROOTS ?? "").split(path.delimiter).filter((r) => r.trim());
  const roots = flags.roots.length ? flags.roots : envRoots.length ? envRoots : (file.roots ?? [cwd]);
  const options: DaemonOptions = {
    server: flags.server ?? envValue(env.BATON_SERVER) ?? file.server ?? "",
    token: flags.token ?? envValue(env.BATON_TOKEN) ?? file.token ?? "",
    roots: roots.map((r) => path.resolve(cwd, r.replace(/^~(?=$|\/)/, env.HOME ?? "~"))),
    agents: flags.agents.length ? flags.agents : undefined,
    customAgents: file.agents ?? [],
    budget: file.budget ?? null,
    debug: flags.debug || env.BATON_DEBUG === "1",
    capabilitiesFile: path.resolve(cwd, envValue(env.BATON_CAPABILITIES_FILE) ?? path.join(path.dirname(configPath), CAPABILITIES_FILE_NAME)),
  };
  if (sub === "agents") return { kind: "agents", options };
  if (!options.server) throw new UsageError("no server: pass --server URL, set BATON_SERVER, or put \"server\" in the config file");
  if (!options.token) throw new UsageError("no token: set BATON_TOKEN (or --token, or \"token\" in the config file)");
  return { kind: "daemon", options };
}
