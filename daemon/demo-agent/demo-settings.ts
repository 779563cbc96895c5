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

export type DemoConfigValues = { model: string; effort: string };
export const DEFAULT_CONFIG_VALUES: DemoConfigValues = { model: "demo-fast", effort: "medium" };

export function configOptionsFor(values: DemoConfigValues): acp.SessionConfigOption[] {
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
  ];
}

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
