/** Everything the demo agent reads from its environment, plus the static modes / config options it advertises. */
import os from "node:os";
import type * as acp from "@agentclientprotocol/sdk";

/** Default delay between streamed chunks: slow enough to watch, fast enough not to bore. */
const DEFAULT_PACE_MS = 30;
/** Default length of one `sleep` unit: "sleep 30" reads as 30 seconds. */
const DEFAULT_SLEEP_UNIT_MS = 1000;

export type DemoSettings = {
  paceMs: number;
  sleepUnitMs: number;
  stateDir: string;
  steering: boolean;
  /** Also advertise the legacy `models` field (unstable `session/set_model`); off by default. */
  legacyModels: boolean;
  /** Advertise and serve `session/load`; off plays an agent that cannot reattach after a restart. */
  loadSession: boolean;
  /** `session/list` page size (DEMO_LIST_PAGE_SIZE, default 20): small in tests so paging is exercised. */
  listPageSize: number;
  /** DEMO_NO_DELETE=1: no `session/delete` in sessionCapabilities (an agent that cannot delete). */
  noDelete: boolean;
  /**
   * Where steering is advertised: at the top level of the `initialize` result's `_meta` (as claude and codex
   * do) or inside `agentCapabilities._meta` (the older place).
   */
  steeringAt: "top" | "capabilities";
  /** Advertise `authMethods` and fail session/new and session/load with ACP `auth_required`. */
  authRequired: boolean;
  /** `session/load` resets the session to the defaults and reports them (as real agents do after a restart). */
  loadDefaults: boolean;
  /** Mode ids `session/set_mode` refuses (to play an agent that will not re-apply a setting). */
  refuseModes: string[];
  /** Also advertise a boolean option `fast` and a one-choice select `variant` (like claude / copilot / pi). */
  extraOptions: boolean;
};

function numberFromEnv(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

export function readDemoSettings(env: NodeJS.ProcessEnv = process.env): DemoSettings {
  return {
    paceMs: numberFromEnv(env.DEMO_PACE_MS, DEFAULT_PACE_MS),
    sleepUnitMs: numberFromEnv(env.DEMO_SLEEP_UNIT_MS, DEFAULT_SLEEP_UNIT_MS),
    stateDir: env.DEMO_STATE_DIR?.trim() || os.tmpdir(),
    steering: env.DEMO_STEERING !== "0",
    legacyModels: env.DEMO_LEGACY_MODELS === "1",
    loadSession: env.DEMO_LOAD_SESSION !== "0",
    noDelete: env.DEMO_NO_DELETE === "1",
    listPageSize: Math.max(1, Math.min(100, Number.parseInt(env.DEMO_LIST_PAGE_SIZE ?? "", 10) || 20)),
    steeringAt: env.DEMO_STEERING_AT === "capabilities" ? "capabilities" : "top",
    authRequired: env.DEMO_AUTH_REQUIRED === "1",
    loadDefaults: env.DEMO_LOAD_DEFAULTS === "1",
    refuseModes: (env.DEMO_REFUSE_MODES ?? "")
      .split(",")
      .map((m) => m.trim())
      .filter(Boolean),
    extraOptions: env.DEMO_EXTRA_OPTIONS === "1",
  };
}

export const DEMO_MODES: acp.SessionMode[] = [
  { id: "ask", name: "Ask", description: "Answers questions, changes nothing" },
  { id: "code", name: "Code", description: "Edits files" },
  { id: "architect", name: "Architect", description: "Plans before coding" },
];
export const DEFAULT_MODE_ID = "code";

export const MODEL_CONFIG_ID = "model";
export const EFFORT_CONFIG_ID = "thought_level";

export const DEMO_MODELS = [
  { value: "demo-fast", name: "Demo Fast" },
  { value: "demo-smart", name: "Demo Smart" },
] as const;
export const DEMO_EFFORTS = [
  { value: "low", name: "Low" },
  { value: "medium", name: "Medium" },
  { value: "high", name: "High" },
] as const;

export const FAST_CONFIG_ID = "fast";
export const VARIANT_CONFIG_ID = "variant";

export type DemoConfigValues = { model: string; effort: string; fast: boolean };
export const DEFAULT_CONFIG_VALUES: DemoConfigValues = { model: "demo-fast", effort: "medium", fast: false };

export function configOptionsFor(values: DemoConfigValues, extra = false): acp.SessionConfigOption[] {
  const extras: acp.SessionConfigOption[] = extra
    ? [
        { type: "boolean", id: FAST_CONFIG_ID, name: "Fast mode", description: "Answer faster, think less", currentValue: values.fast },
        { type: "select", id: VARIANT_CONFIG_ID, name: "Variant", currentValue: "standard", options: [{ value: "standard", name: "Standard" }] },
      ]
    : [];
  return [
    {
      type: "select",
      id: MODEL_CONFIG_ID,
      name: "Model",
      category: "model",
      currentValue: values.model,
      options: DEMO_MODELS.map((m) => ({ ...m })),
    },
    {
      type: "select",
      id: EFFORT_CONFIG_ID,
      name: "Thinking effort",
      category: "thought_level",
      currentValue: values.effort,
      options: DEMO_EFFORTS.map((e) => ({ ...e })),
    },
    ...extras,
  ];
}

/** The slash commands the demo advertises in `available_commands_update` (real agents send 3 to 51). */
export const DEMO_COMMANDS: acp.AvailableCommand[] = [
  { name: "help", description: "Show what the demo agent can do" },
  { name: "plan", description: "Play a plan whose steps advance" },
  { name: "review", description: "Review the current changes", input: { hint: "what to focus on" } },
  { name: "compact", description: "Summarise the conversation to free context" },
  { name: "init", description: "Create an AGENTS.md for this project" },
];

/** What the demo's auth method tells a client to run (the `terminal-auth` hint claude sends). */
export const DEMO_AUTH_METHOD = {
  id: "demo-login",
  name: "Log in to the demo agent",
  description: "Run the demo agent's login in a terminal on this machine",
  _meta: { "terminal-auth": { command: "baton-demo-agent", args: ["login"], label: "Demo login" } },
};

export function modeStateFor(modeId: string): acp.SessionModeState {
  return { currentModeId: modeId, availableModes: DEMO_MODES.map((m) => ({ ...m })) };
}

/** The legacy (pre-configOptions) model list, shaped like the unstable `models` field. */
export function legacyModelsFor(modelId: string) {
  return {
    currentModelId: modelId,
    availableModels: DEMO_MODELS.map((m) => ({ modelId: m.value, name: m.name })),
  };
}
