/** What `startDaemon` takes. The CLI builds this from flags / env / config file (cli-args.ts). */
import type { CustomAgent } from "./agent/agent-presets";
import type { SessionTimeouts } from "./agent/session-timeouts";
import type { BackoffOptions } from "./tunnel/backoff";
import type { LogSink } from "./log";

export type DaemonOptions = {
  /** Baton server base URL (http(s) or ws(s)); the tunnel goes to `<server>/api/tunnel`. */
  server: string;
  /** Machine token; sent only in the tunnel header, redacted from every log line. */
  token: string;
  /** The user allowed the token over plain http to a non-loopback server (`--allow-insecure-http`). */
  allowInsecureHttp?: boolean;
  /** Directories sessions may run in (default: the current directory). */
  roots?: string[];
  /** Advertise only these agent ids (default: every agent found). */
  agents?: string[];
  /** Extra agents (config file `agents`); an id equal to a preset replaces it. */
  customAgents?: CustomAgent[];
  /**
   * Where sessions' git worktrees are made (issue 28; the CLI: config `worktrees`, default
   * `$XDG_DATA_HOME/baton/worktrees`). Created at start and allowed like a root. Unset: no worktrees.
   */
  worktreesDir?: string | null;
  /** Local backstop on concurrent turns; null/undefined = none (the Machine DO enforces the budget). */
  budget?: number | null;
  /** Hostname reported in hello (default os.hostname()). */
  hostname?: string;
  /** Where log lines go (default: stderr, prefixed "[baton]"). */
  logSink?: LogSink;
  /** Also log agents' stderr. */
  debug?: boolean;
  /** Env for the built-in demo agent (e.g. DEMO_PACE_MS); the daemon's own env is inherited anyway. */
  demoEnv?: Record<string, string>;
  /** Process epoch (default: random per start). */
  epoch?: string;
  timeouts?: Partial<SessionTimeouts>;
  /**
   * Where capabilities learnt from the agents are kept (the CLI: `$XDG_CACHE_HOME/baton/agent-capabilities.json`).
   * Unset: learnt and announced in memory only.
   */
  capabilitiesFile?: string | null;
  /** Where older daemons kept it (beside the config file): moved to `capabilitiesFile` at start when only it exists. */
  legacyCapabilitiesFile?: string | null;
  tunnel?: { backoff?: Partial<BackoffOptions>; authRetryMs?: number; heartbeatMs?: number; welcomeTimeoutMs?: number };
};
