/** `baton` command line: flags, env (BATON_SERVER / BATON_TOKEN / BATON_ROOTS) and config file → DaemonOptions. */
import path from "node:path";
import { CAPABILITIES_FILE_NAME } from "./capability-cache";
import { ConfigError, defaultConfigPath, readConfigFile } from "./config-file";
import type { DaemonOptions } from "./daemon-options";
import { insecureServerProblem } from "./server-url";

export const USAGE = `Usage: baton login SERVER_URL [--config FILE]                pair this machine (a code approved in the browser)
       baton daemon [--server URL] [--token TOKEN] [--root DIR]... [--agent ID]... [--config FILE] [--debug]
       baton service install|uninstall|status [--root DIR]... [--config FILE] [--dry-run]
                                                                 run the daemon at login (systemd user unit / launchd agent)
       baton doctor [--root DIR]... [--config FILE]              check server, token, roots and agents; each problem with its fix
       baton agents [--agent ID]... [--config FILE]              list the agents found on this machine
       baton --help | --version

Runs the Baton daemon: one outbound tunnel to the Baton server; agents run here, in the allowed roots.

  --server URL     Baton server (https://… or http://localhost:8787)       env BATON_SERVER
  --token TOKEN    machine token (\`baton login\` stores one; prefer the env var to the flag) env BATON_TOKEN
  --root DIR       a directory sessions may run in (repeatable; default: the current directory)
                                                                           env BATON_ROOTS (${path.delimiter}-separated)
  --agent ID       advertise only these agents (repeatable): claude codex gemini qwen opencode pi copilot demo, or a custom id
  --config FILE    JSON config (default ${defaultConfigPath()}):
                   {"server","token","roots":[…],"agents":[{"id","label","command","args","env"}],"budget"}
  --dry-run        service: print the file and the commands instead of running them
  --debug          also log agents' stderr
  --allow-insecure-http  send or receive the token over plain http with a non-loopback server (a trusted
                   network)                                                env BATON_ALLOW_INSECURE_HTTP=1

Capabilities learnt from the agents are kept in agent-capabilities.json beside the config file
(env BATON_CAPABILITIES_FILE to put it elsewhere).`;

export const SERVICE_ACTIONS = ["install", "uninstall", "status"] as const;
export type ServiceActionName = (typeof SERVICE_ACTIONS)[number];

export type CliCommand =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "daemon"; options: DaemonOptions }
  | { kind: "agents"; options: DaemonOptions }
  | { kind: "login"; server: string; configFile: string; options: DaemonOptions }
  | { kind: "service"; action: ServiceActionName; dryRun: boolean; configFile: string; options: DaemonOptions }
  | { kind: "doctor"; configFile: string; options: DaemonOptions };

export class UsageError extends Error {}

type Flags = {
  server?: string;
  token?: string;
  roots: string[];
  agents: string[];
  config?: string;
  debug: boolean;
  dryRun: boolean;
  help: boolean;
  version: boolean;
  allowInsecureHttp: boolean;
};

function parseFlags(args: readonly string[]): { positional: string[]; flags: Flags } {
  const flags: Flags = { roots: [], agents: [], debug: false, dryRun: false, help: false, version: false, allowInsecureHttp: false };
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
      case "--dry-run":
        flags.dryRun = true;
        break;
      case "--allow-insecure-http":
        flags.allowInsecureHttp = true;
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
  if (sub !== "daemon" && sub !== "agents" && sub !== "login" && sub !== "service" && sub !== "doctor") throw new UsageError(`unknown command "${sub}"`);
  // login SERVER_URL and service ACTION take one argument; the others none.
  const maxPositional = sub === "login" || sub === "service" ? 2 : 1;
  if (positional.length > maxPositional) throw new UsageError(`unexpected argument "${positional[maxPositional]}"`);

  const envConfig = envValue(env.BATON_CONFIG);
  const configFile = path.resolve(cwd, flags.config ?? envConfig ?? defaultConfigPath(env));
  let file;
  try {
    // A login creates the file: an explicit --config that does not exist yet is fine there.
    file = readConfigFile(configFile, sub !== "login" && (flags.config !== undefined || envConfig !== undefined));
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
    capabilitiesFile: path.resolve(cwd, envValue(env.BATON_CAPABILITIES_FILE) ?? path.join(path.dirname(configFile), CAPABILITIES_FILE_NAME)),
  };
  // The token travels to (daemon, service) or from (login) the server: never in the clear off loopback.
  const checkServer = (server: string) => {
    const insecure = insecureServerProblem(server, flags.allowInsecureHttp || env.BATON_ALLOW_INSECURE_HTTP === "1");
    if (insecure) throw new UsageError(insecure);
  };
  switch (sub) {
    case "agents":
      return { kind: "agents", options };
    case "doctor":
      return { kind: "doctor", configFile, options };
    case "login": {
      const server = positional[1] ?? flags.server ?? envValue(env.BATON_SERVER) ?? file.server;
      if (!server) throw new UsageError("login needs the server's URL: baton login https://baton.example.com");
      checkServer(server);
      return { kind: "login", server, configFile, options };
    }
    case "service": {
      const action = SERVICE_ACTIONS.find((a) => a === positional[1]);
      if (!action) throw new UsageError(`service needs one of: ${SERVICE_ACTIONS.join(", ")}`);
      return { kind: "service", action, dryRun: flags.dryRun, configFile, options };
    }
    case "daemon":
      if (!options.server) throw new UsageError("no server: run `baton login <server-url>`, or pass --server URL / set BATON_SERVER");
      if (!options.token) throw new UsageError("no token: run `baton login <server-url>`, or set BATON_TOKEN (or --token, or \"token\" in the config file)");
      checkServer(options.server);
      return { kind: "daemon", options };
  }
}
