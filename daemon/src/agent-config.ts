/** The authoritative per-session AgentConfig: derived from initialize + session/new|load, then kept current. */
import { AgentConfig } from "../../shared/tunnel-protocol";

const ModesShape = AgentConfig.shape.modes;
const ModelsShape = AgentConfig.shape.models;

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function field(x: unknown, ...keys: string[]): unknown {
  let cur = x;
  for (const k of keys) {
    if (!isRecord(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

function configOptionsFrom(x: unknown): Record<string, unknown>[] | null {
  return Array.isArray(x) ? x.filter(isRecord) : null;
}

/**
 * Steering (`_session/steering`): claude-agent-acp and codex-acp advertise `_meta.steering.supported` at the top
 * level of the `initialize` result, beside `agentCapabilities`; older agents put it in `agentCapabilities._meta`.
 */
export function steeringAdvertised(initResult: unknown): boolean {
  return (
    field(initResult, "_meta", "steering", "supported") === true ||
    field(initResult, "agentCapabilities", "_meta", "steering", "supported") === true
  );
}

/** Builds the config from the raw `initialize` result and the raw session/new|load|resume result. */
export function initialAgentConfig(initResult: unknown, sessionResult: unknown): AgentConfig {
  const modes = ModesShape.safeParse(field(sessionResult, "modes") ?? null);
  const models = ModelsShape.safeParse(field(sessionResult, "models") ?? null);
  return {
    modes: modes.success ? modes.data : null,
    models: models.success ? models.data : null,
    configOptions: configOptionsFrom(field(sessionResult, "configOptions")) ?? [],
    steering: steeringAdvertised(initResult),
    images: field(initResult, "agentCapabilities", "promptCapabilities", "image") === true,
  };
}

/** Config after a raw session/update, or null when the update does not touch config. */
export function configAfterUpdate(config: AgentConfig, update: Record<string, unknown>): AgentConfig | null {
  switch (update.sessionUpdate) {
    case "current_mode_update": {
      const id = update.currentModeId;
      if (typeof id !== "string" || !config.modes) return null;
      return { ...config, modes: { ...config.modes, currentModeId: id } };
    }
    case "config_option_update": {
      const options = configOptionsFrom(update.configOptions);
      return options ? { ...config, configOptions: options } : null;
    }
    default:
      return null;
  }
}

/** Config after a successful session/set_config_option (the response carries the full option list). */
export function configAfterSetOption(config: AgentConfig, response: unknown, configId: string, value: string | boolean): AgentConfig {
  const options = configOptionsFrom(field(response, "configOptions"));
  if (options) return { ...config, configOptions: options };
  // An agent that answers without the list: reflect the write ourselves.
  return {
    ...config,
    configOptions: config.configOptions.map((o) => (o.id === configId ? { ...o, currentValue: value } : o)),
  };
}

export function configAfterSetMode(config: AgentConfig, modeId: string): AgentConfig {
  return config.modes ? { ...config, modes: { ...config.modes, currentModeId: modeId } } : config;
}

export function configAfterSetModel(config: AgentConfig, modelId: string): AgentConfig {
  return config.models ? { ...config, models: { ...config.models, currentModelId: modelId } } : config;
}

export function sameConfig(a: AgentConfig, b: AgentConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
