/**
 * How tests run each real ACP agent offline against the fake model server: a temp HOME/TMPDIR with the
 * agent's config files, its env and argv (from the install cache, see scripts/install-agents.mjs).
 * Facts per agent: /work/shared/real-agents.md (kept in daemon/README.md's agent table).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { LaunchSpec } from "../../daemon/src/agent/agent-process";
import * as installer from "../../scripts/install-agents.mjs";
import { geminiArgv, geminiEnv, geminiHome } from "../fixtures/gemini/gemini-launch";


export const AGENT_IDS = ["claude", "codex", "gemini", "qwen", "opencode", "pi", "copilot"] as const;
export type AgentId = (typeof AGENT_IDS)[number];

/** Agents a run covers: env BATON_AGENTS ("all" or a comma list), default claude and codex (the ones in `npm test`). */
export function selectedAgents(env: NodeJS.ProcessEnv = process.env): AgentId[] {
  const raw = (env.BATON_AGENTS ?? "claude,codex").trim();
  if (raw === "all") return [...AGENT_IDS];
  const ids = raw.split(/[,\s]+/).filter(Boolean);
  for (const id of ids) if (!(AGENT_IDS as readonly string[]).includes(id)) throw new Error(`BATON_AGENTS: unknown agent "${id}" (known: ${AGENT_IDS.join(", ")}, all)`);
  return ids as AgentId[];
}

/** The model each agent starts on, and a second one to switch to mid-turn (both served by the fake server). */
export const FAKE_MODEL = "fake-model";
export const FAKE_MODEL_2 = "fake-model-large";

export type AgentRun = {
  id: AgentId;
  launch: LaunchSpec;
  home: string;
  /** Where the session works (cwd of session.open): inside base, so the daemon's roots can be [base]. */
  workspace: string;
};

const nodeDir = dirname(process.execPath);

function pkg(id: string, ...rel: string[]): string {
  return join(installer.agentDir(id), "node_modules", ...rel);
}

function commonEnv(home: string, tmp: string): Record<string, string> {
  return {
    HOME: home,
    TMPDIR: tmp,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    XDG_CACHE_HOME: join(home, ".cache"),
    // Node 22 first: the agents' `#!/usr/bin/env node` scripts (pi needs ≥ 22.19) and their child tools.
    PATH: `${nodeDir}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    NO_COLOR: "1",
    // Keep the suite's own env from leaking vendor settings into the agents.
    ANTHROPIC_AUTH_TOKEN: "",
    OPENAI_ORG_ID: "",
  };
}

function write(file: string, content: string | object): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
}

/**
 * A fresh home under `base` for agent `id`, pointed at the fake model at `url` (http://127.0.0.1:PORT).
 * `opts.home` reuses an existing home (a daemon restart keeps the agent's state).
 */
export function agentRun(id: AgentId, base: string, url: string, opts: { home?: string; sharedCache?: string } = {}): AgentRun {
  const home = opts.home ?? join(base, `${id}-home`);
  const tmp = join(home, "tmp");
  const workspace = join(base, "workspace");
  mkdirSync(tmp, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const env = commonEnv(home, tmp);
  const v1 = `${url}/v1`;
  const run = (launch: LaunchSpec): AgentRun => ({ id, home, workspace, launch });
  /** This Node running `entry` (a path in the agent's install) with `args`. */
  const node = (entry: string[], args: string[], agentEnv: Record<string, string>) => run({ command: process.execPath, args: [pkg(id, ...entry), ...args], env: agentEnv });
  switch (id) {
    case "claude":
      return node(["@agentclientprotocol", "claude-agent-acp", "dist", "index.js"], [], {
        ...env,
        ANTHROPIC_BASE_URL: url,
        ANTHROPIC_API_KEY: "dummy",
        CLAUDE_CONFIG_DIR: join(home, ".claude"),
        // Claude Code refuses --dangerously-skip-permissions-style runs as root without it.
        IS_SANDBOX: "1",
        DISABLE_TELEMETRY: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_ERROR_REPORTING: "1",
      });
    case "codex": {
      const codexHome = join(home, ".codex");
      write(
        join(codexHome, "config.toml"),
        [
          `model = "gpt-5.5"`,
          `model_provider = "fake"`,
          `check_for_update_on_startup = false`,
          `[analytics]`,
          `enabled = false`,
          `[feedback]`,
          `enabled = false`,
          `[features]`,
          `plugins = false`,
          `apps = false`,
          `remote_plugin = false`,
          `plugin_discovery_prefetch = false`,
          `api_key_model_discovery = false`,
          `[model_providers.fake]`,
          `name = "fake"`,
          `base_url = "${v1}"`,
          `wire_api = "responses"`,
          `env_key = "FAKE_API_KEY"`,
          `request_max_retries = 0`,
          `stream_max_retries = 0`,
          ``,
        ].join("\n"),
      );
      // read-only: escalations come to the client as permission requests (the default mode sends them to an AI reviewer that fails offline).
      return node(["@agentclientprotocol", "codex-acp", "dist", "index.js"], [], { ...env, CODEX_HOME: codexHome, FAKE_API_KEY: "dummy", MODEL_PROVIDER: "fake", NO_BROWSER: "1", INITIAL_AGENT_MODE: "read-only" });
    }
    case "gemini": {
      const gHome = geminiHome(home, { security: { auth: { selectedType: "gemini-api-key" } } });
      const [command, ...args] = geminiArgv();
      return { id, home: gHome, workspace, launch: { command: command!, args, env: { ...env, ...geminiEnv(gHome) } } };
    }
    case "qwen":
      write(join(home, ".qwen", "settings.json"), {
        security: { auth: { selectedType: "openai" } },
        model: { name: FAKE_MODEL },
        modelProviders: {
          openai: [
            { id: FAKE_MODEL, name: FAKE_MODEL, baseUrl: v1, envKey: "OPENAI_API_KEY" },
            { id: FAKE_MODEL_2, name: FAKE_MODEL_2, baseUrl: v1, envKey: "OPENAI_API_KEY" },
          ],
        },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false, disableAutoUpdate: true, disableUpdateNag: true },
      });
      return node(["@qwen-code", "qwen-code", "cli-entry.js"], ["--acp", "--approval-mode", "default"], { ...env, OPENAI_API_KEY: "dummy", OPENAI_BASE_URL: v1, OPENAI_MODEL: FAKE_MODEL });
    case "opencode":
      write(join(home, ".config", "opencode", "opencode.json"), {
        $schema: "https://opencode.ai/config.json",
        model: `fake/${FAKE_MODEL}`,
        autoupdate: false,
        share: "disabled",
        provider: {
          fake: {
            npm: "@ai-sdk/openai-compatible",
            name: "Fake",
            options: { baseURL: v1, apiKey: "dummy" },
            models: { [FAKE_MODEL]: { name: FAKE_MODEL }, [FAKE_MODEL_2]: { name: FAKE_MODEL_2 } },
          },
        },
        permission: { bash: { "*": "allow", "touch *": "ask" } },
      });
      return run({
        command: pkg("opencode", "opencode-ai", "bin", "opencode.exe"),
        args: ["acp"],
        env: {
          ...env,
          OPENCODE_DISABLE_AUTOUPDATE: "1",
          OPENCODE_DISABLE_MODELS_FETCH: "1",
          OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
          OPENCODE_DISABLE_SHARE: "1",
          OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
        },
      });
    case "pi": {
      const models = [FAKE_MODEL, FAKE_MODEL_2].map((m) => ({ id: m, name: m, reasoning: true, input: ["text"], contextWindow: 128000, maxTokens: 8192, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }));
      write(join(home, ".pi", "agent", "models.json"), { providers: { fake: { baseUrl: v1, api: "openai-completions", apiKey: "dummy", models } } });
      write(join(home, ".pi", "agent", "settings.json"), { defaultProvider: "fake", defaultModel: FAKE_MODEL, quietStartup: true });
      // pi-acp starts `pi` from PATH: the pinned one first.
      return node(["pi-acp", "dist", "index.js"], [], { ...env, PATH: `${pkg("pi", ".bin")}:${env.PATH}`, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" });
    }
    case "copilot": {
      // Copilot unpacks ~235 MB into its package cache on first start: one folder for every run.
      const pkgCache = opts.sharedCache ?? join(installer.agentDir("copilot"), "pkg-cache");
      return node(["@github", "copilot", "npm-loader.js"], ["--acp", "--stdio"], {
        ...env,
        COPILOT_OFFLINE: "true",
        COPILOT_AUTO_UPDATE: "false",
        COPILOT_PROVIDER_BASE_URL: v1,
        COPILOT_PROVIDER_API_KEY: "dummy",
        COPILOT_PROVIDER_TYPE: "openai",
        COPILOT_MODEL: FAKE_MODEL,
        COPILOT_HOME: join(home, ".copilot"),
        COPILOT_CACHE_HOME: join(home, ".cache", "copilot"),
        COPILOT_PKG_CACHE_HOME: pkgCache,
      });
    }
  }
}

/** Installs what `ids` need; quick when already cached. */
export async function ensureInstalled(ids: readonly AgentId[]): Promise<void> {
  for (const id of ids) await installer.installAgent(id);
}
