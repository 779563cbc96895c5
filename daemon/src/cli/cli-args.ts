/**
 * `baton` command line: flags (node:util parseArgs), env (BATON_SERVER / BATON_TOKEN / BATON_ROOTS) and config
 * file → a command with its DaemonOptions. Each command takes only its own flags; each has its own help.
 */
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CAPABILITIES_FILE_NAME } from "../agent/capability-cache";
import { ConfigError, defaultConfigPath, defaultWorktreesDir, readConfigFile } from "./config-file";
import type { DaemonOptions } from "../daemon-options";
import { insecureServerProblem } from "../tunnel/server-url";

/** Every flag any command takes; `help` and `version` are taken by all. */
const OPTIONS = {
  server: { type: "string" },
  token: { type: "string" },
  root: { type: "string", multiple: true },
  agent: { type: "string", multiple: true },
  config: { type: "string" },
  "dry-run": { type: "boolean" },
  debug: { type: "boolean" },
  "allow-insecure-http": { type: "boolean" },
  user: { type: "boolean" },
  login: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;
type OptionName = keyof typeof OPTIONS;
const isOption = (s: string): s is OptionName => Object.hasOwn(OPTIONS, s);

const OPTION_HELP: Record<Exclude<OptionName, "help" | "version">, string> = {
  server: "--server URL     Baton server (https://… or http://localhost:8787)       env BATON_SERVER",
  token: `--token TOKEN    machine token (\`baton login\` stores one)                  env BATON_TOKEN
                   for attach: your user token (\`baton login --user\`)    env BATON_USER_TOKEN
                   (prefer the env var to the flag)`,
  root: `--root DIR       a directory sessions may run in (repeatable; default: the current directory)
                                                                           env BATON_ROOTS (${path.delimiter}-separated)`,
  agent: "--agent ID       only these agents (repeatable, or comma-separated): claude codex gemini qwen opencode pi copilot demo, or a custom id",
  config: `--config FILE    JSON config (default ${defaultConfigPath()}; env BATON_CONFIG):
                   {"server","token","roots":[…],"agents":[{"id","label","command","args","env"}],"budget","worktrees"}`,
  "dry-run": "--dry-run        print the file and the commands instead of running them",
  debug: "--debug          also log agents' stderr                                   env BATON_DEBUG=1",
  user: "--user           sign in as yourself (for `baton attach`), not as this machine",
  login: "--login          sign in (as `baton login --user` for the URL's server) instead of attaching",
  "allow-insecure-http": `--allow-insecure-http  send or receive the token over plain http with a non-loopback server (a trusted
                   network)                                                env BATON_ALLOW_INSECURE_HTTP=1`,
};

export const SERVICE_ACTIONS = ["install", "uninstall", "status"] as const;
export type ServiceActionName = (typeof SERVICE_ACTIONS)[number];

/** Each command: its synopsis, what it does, its flags, and how many arguments it takes. */
const COMMANDS = {
  login: {
    synopsis: "baton login SERVER_URL [--user] [--config FILE]",
    summary: "pair this machine, or sign in as yourself with --user (a code approved in the browser)",
    about: `Pairs this machine with a Baton server: prints a link and a code to approve in the browser, then stores the machine token in the config file (mode 600).
With --user it signs you in instead (for \`baton attach\`): the token acts as you, with your role in each session, and
only opens sessions' sockets; revoke it on the server's Machines page.`,
    options: ["server", "config", "agent", "user", "allow-insecure-http"],
    args: 1,
  },
  attach: {
    synopsis: "baton attach SESSION_URL [--token TOKEN] [--config FILE] [--login]",
    summary: "join a live session from any ACP client (an editor, a terminal): an ACP agent over stdio",
    about: `Speaks ACP on stdin / stdout as one more viewer of the session at SESSION_URL (copy it from the browser):
configure it as a custom agent in Zed or run it under acpx. Your messages are queued like the web's; Stop, modes,
settings and permission answers go through the session. Signs in with \`baton login --user <server>\` (or --login here);
the token may also come from --token / env BATON_USER_TOKEN. Logs go to stderr.`,
    options: ["token", "config", "login", "debug", "allow-insecure-http"],
    args: 1,
  },
  daemon: {
    synopsis: "baton daemon [--server URL] [--token TOKEN] [--root DIR]... [--agent ID]... [--config FILE] [--debug]",
    summary: "run the daemon here",
    about: `Runs the Baton daemon: one outbound tunnel to the Baton server; agents run here, in the allowed roots.
Capabilities learnt from the agents are kept in ${path.join("$XDG_CACHE_HOME", "baton", CAPABILITIES_FILE_NAME)} (default ~/.cache/baton;
env BATON_CAPABILITIES_FILE to put it elsewhere).`,
    options: ["server", "token", "root", "agent", "config", "debug", "allow-insecure-http"],
    args: 0,
  },
  service: {
    synopsis: "baton service install|uninstall|status [--root DIR]... [--config FILE] [--dry-run]",
    summary: "run the daemon at login (systemd user unit / launchd agent)",
    about: `Installs, removes or shows the daemon as a user service: a systemd user unit on Linux, a launchd agent on macOS.
The service reads the machine token from the config file (run \`baton login\` first). On Linux, systemd runs a
user's services only while they are logged in unless lingering is on (\`loginctl enable-linger\`); install says so.`,
    options: ["root", "config", "dry-run"],
    args: 1,
  },
  doctor: {
    synopsis: "baton doctor [--root DIR]... [--agent ID]... [--config FILE]",
    summary: "check server, token, roots, service and agents; each problem with its fix",
    about: "Checks what stands between this machine and a working daemon, each problem with its fix. Exits 1 when a check fails.",
    options: ["server", "token", "root", "agent", "config", "allow-insecure-http"],
    args: 0,
  },
  agents: {
    synopsis: "baton agents [--agent ID]... [--config FILE]",
    summary: "list the agents found on this machine",
    about: "Lists the agents found on this machine (PATH, local packages, the config file's custom agents) and how each is started.",
    options: ["agent", "config"],
    args: 0,
  },
} as const satisfies Record<string, { synopsis: string; summary: string; about: string; options: readonly OptionName[]; args: number }>;
export type CommandName = keyof typeof COMMANDS;
const isCommand = (s: string): s is CommandName => Object.hasOwn(COMMANDS, s);

/** The overview (no command) or one command's help. */
export function usage(command?: CommandName): string {
  if (command) {
    const c = COMMANDS[command];
    const flags = c.options.map((o) => `  ${OPTION_HELP[o]}`).join("\n");
    return `Usage: ${c.synopsis}\n\n${c.about}\n\n${flags}\n  -h, --help       this help`;
  }
  const lines = Object.values(COMMANDS).map((c) => `  ${c.synopsis}\n      ${c.summary}`);
  return `Usage: baton <command> [flags]

Runs ACP coding agents on this machine and relays them to a Baton server.

${lines.join("\n")}
  baton --help | --version

Run \`baton <command> --help\` for a command's flags.`;
}

export type CliCommand =
  | { kind: "help"; command?: CommandName }
  | { kind: "version" }
  | { kind: "daemon"; options: DaemonOptions }
  | { kind: "agents"; options: DaemonOptions }
  | { kind: "login"; server: string; configFile: string; options: DaemonOptions; user: boolean }
  | { kind: "attach"; url: string; configFile: string; login: boolean; token: string | null; debug: boolean; allowInsecureHttp: boolean }
  | { kind: "service"; action: ServiceActionName; dryRun: boolean; configFile: string; options: DaemonOptions }
  | { kind: "doctor"; configFile: string; options: DaemonOptions };

/** A command line that cannot run; `command` picks the help shown with it. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: CommandName,
  ) {
    super(message);
  }
}

/**
 * parseArgs, strict in Baton's own words: a first lenient pass yields the tokens to judge (unknown flag,
 * missing value, another command's flag, a value for a switch); the strict pass then gives typed values.
 */
function parseFlags(args: readonly string[]) {
  const { tokens } = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const first = tokens.find((t) => t.kind === "positional");
  const command = first && isCommand(first.value) ? first.value : undefined;
  for (const t of tokens) {
    if (t.kind !== "option") continue;
    const fail = (message: string): never => {
      throw new UsageError(message, command);
    };
    const name = t.name;
    if (!isOption(name)) return fail(`unknown option ${t.rawName}`);
    if (OPTIONS[name].type === "string") {
      // parseArgs takes the next argument as the value even when it is a flag: refuse that guess.
      if (t.value === undefined || (!t.inlineValue && t.value.startsWith("-"))) fail(`${t.rawName} needs a value${t.value ? ` (write ${t.rawName}=${t.value} if "${t.value}" is meant)` : ""}`);
    } else if (t.value !== undefined) fail(`${t.rawName} takes no value`);
    if (command && name !== "help" && name !== "version" && !(COMMANDS[command].options as readonly OptionName[]).includes(name))
      fail(`${t.rawName} is not an option of \`baton ${command}\``);
  }
  return parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
}

/** An env var set to "" counts as unset. */
const envValue = (v: string | undefined) => (v?.trim() ? v : undefined);

/** Where caches go: $XDG_CACHE_HOME/baton, default ~/.cache/baton. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(envValue(env.XDG_CACHE_HOME) ?? path.join(envValue(env.HOME) ?? os.homedir(), ".cache"), "baton");
}

export function parseCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CliCommand {
  const { values: flags, positionals } = parseFlags(args);
  const sub = positionals[0];
  if (sub !== undefined && !isCommand(sub)) throw new UsageError(`unknown command "${sub}"`);
  if (flags.help) return { kind: "help", command: sub };
  if (flags.version) return { kind: "version" };
  if (sub === undefined) return { kind: "help" };
  const maxPositional = 1 + COMMANDS[sub].args;
  if (positionals.length > maxPositional) throw new UsageError(`unexpected argument "${positionals[maxPositional]}"`, sub);

  const envConfig = envValue(env.BATON_CONFIG);
  const configFile = path.resolve(cwd, flags.config ?? envConfig ?? defaultConfigPath(env));
  let file;
  try {
    // A login creates the file: an explicit --config that does not exist yet is fine there.
    file = readConfigFile(configFile, sub !== "login" && sub !== "attach" && (flags.config !== undefined || envConfig !== undefined));
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
  const envRoots = (env.BATON_ROOTS ?? "").split(path.delimiter).filter((r) => r.trim());
  const roots = flags.root?.length ? flags.root : envRoots.length ? envRoots : (file.roots ?? [cwd]);
  const agents = (flags.agent ?? []).flatMap((a) => a.split(",").filter(Boolean));
  const explicitCapabilities = envValue(env.BATON_CAPABILITIES_FILE);
  const allowInsecureHttp = flags["allow-insecure-http"] === true || env.BATON_ALLOW_INSECURE_HTTP === "1";
  const options: DaemonOptions = {
    server: flags.server ?? envValue(env.BATON_SERVER) ?? file.server ?? "",
    token: flags.token ?? envValue(env.BATON_TOKEN) ?? file.token ?? "",
    allowInsecureHttp,
    roots: roots.map((r) => path.resolve(cwd, r.replace(/^~(?=$|\/)/, env.HOME ?? "~"))),
    agents: agents.length ? agents : undefined,
    customAgents: file.agents ?? [],
    budget: file.budget ?? null,
    worktreesDir: path.resolve(cwd, (file.worktrees ?? defaultWorktreesDir(env)).replace(/^~(?=$|\/)/, env.HOME ?? "~")),
    debug: flags.debug === true || env.BATON_DEBUG === "1",
    capabilitiesFile: path.resolve(cwd, explicitCapabilities ?? path.join(defaultCacheDir(env), CAPABILITIES_FILE_NAME)),
    // Before the cache folder it lived beside the config file: read (moved) once.
    legacyCapabilitiesFile: explicitCapabilities ? null : path.join(path.dirname(configFile), CAPABILITIES_FILE_NAME),
  };
  // The token travels to (daemon, service) or from (login) the server: never in the clear off loopback.
  const checkServer = (server: string) => {
    const insecure = insecureServerProblem(server, allowInsecureHttp);
    if (insecure) throw new UsageError(insecure);
  };
  switch (sub) {
    case "agents":
      return { kind: "agents", options };
    case "doctor":
      return { kind: "doctor", configFile, options };
    case "login": {
      const server = positionals[1] ?? flags.server ?? envValue(env.BATON_SERVER) ?? file.server;
      if (!server) throw new UsageError("login needs the server's URL: baton login https://baton.example.com", sub);
      checkServer(server);
      return { kind: "login", server, configFile, options, user: flags.user === true };
    }
    case "attach": {
      const url = positionals[1];
      if (!url) throw new UsageError("attach needs the session's URL (copy it from the browser): baton attach https://baton.example.com/s/<id>", sub);
      return {
        kind: "attach",
        url,
        configFile,
        login: flags.login === true,
        token: flags.token ?? envValue(env.BATON_USER_TOKEN) ?? null,
        debug: options.debug === true,
        allowInsecureHttp,
      };
    }
    case "service": {
      const action = SERVICE_ACTIONS.find((a) => a === positionals[1]);
      if (!action) throw new UsageError(`service needs one of: ${SERVICE_ACTIONS.join(", ")}`, sub);
      return { kind: "service", action, dryRun: flags["dry-run"] === true, configFile, options };
    }
    case "daemon":
      if (!options.server) throw new UsageError("no server: run `baton login <server-url>`, or pass --server URL / set BATON_SERVER", sub);
      if (!options.token) throw new UsageError("no token: run `baton login <server-url>`, or set BATON_TOKEN (or --token, or \"token\" in the config file)", sub);
      checkServer(options.server);
      return { kind: "daemon", options };
  }
}
