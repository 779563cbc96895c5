/** The authoritative per-session AgentConfig: derived from initialize + session/new|load, then kept current. */
import { AgentConfig, type AgentCapabilities } from "../../../shared/tunnel-protocol";
import type { AuthMethod } from "../../../shared/viewer-protocol";
import { isRecord } from "../../../shared/is-record";

const ModesShape = AgentConfig.shape.modes;
const ModelsShape = AgentConfig.shape.models;

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

/** Longest login command shown (an agent's hint is free text from a subprocess). */
const MAX_AUTH_TEXT = 300;

function text(x: unknown): string | null {
  return typeof x === "string" && x.trim() ? x.trim().slice(0, MAX_AUTH_TEXT) : null;
}

/** `_meta["terminal-auth"]` (claude-agent-acp, pi-acp): `{command, args}` → one shell line. */
function terminalAuthCommand(meta: unknown): string | null {
  const hint = field(meta, "terminal-auth");
  const command = text(field(hint, "command"));
  if (!command) return null;
  const args = field(hint, "args");
  const words = Array.isArray(args) ? args.filter((a): a is string => typeof a === "string") : [];
  const quote = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);
  return [command, ...words].map(quote).join(" ").slice(0, MAX_AUTH_TEXT);
}

/**
 * ACP `authMethods` (from `initialize`, or an `auth_required` error's data) with what to run on the machine:
 * the agent's own `terminal-auth` hint, else `loginHint` (the preset's known login command).
 */
export function authMethodsFrom(raw: unknown, loginHint: string | null = null): AuthMethod[] {
  if (!Array.isArray(raw)) return [];
  const out: AuthMethod[] = [];
  for (const m of raw) {
    const id = text(field(m, "id")) ?? text(field(m, "methodId"));
    if (!id) continue;
    out.push({
      id,
      name: text(field(m, "name")) ?? id,
      description: text(field(m, "description")),
      command: terminalAuthCommand(field(m, "_meta")) ?? loginHint,
    });
  }
  return out;
}

/** Builds the config from the raw `initialize` result and the raw session/new|load|resume result. */
export function initialAgentConfig(initResult: unknown, sessionResult: unknown, loginHint: string | null = null): AgentConfig {
  const modes = ModesShape.safeParse(field(sessionResult, "modes") ?? null);
  const models = ModelsShape.safeParse(field(sessionResult, "models") ?? null);
  return {
    modes: modes.success ? modes.data : null,
    models: models.success ? models.data : null,
    configOptions: configOptionsFrom(field(sessionResult, "configOptions")) ?? [],
    steering: steeringAdvertised(initResult),
    images: field(initResult, "agentCapabilities", "promptCapabilities", "image") === true,
    embeddedContext: field(initResult, "agentCapabilities", "promptCapabilities", "embeddedContext") === true,
    imageLimits: imageLimitsFrom(field(initResult, "agentCapabilities", "_meta", "imageCapability")),
    authMethods: authMethodsFrom(field(initResult, "authMethods"), loginHint),
  };
}

/** An agent's own image limits (qwen: `agentCapabilities._meta.imageCapability` {maxBytes, maxImagesPerTurn}); null when it states none. */
export function imageLimitsFrom(raw: unknown): AgentConfig["imageLimits"] {
  const positive = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : undefined);
  const maxBytes = positive(field(raw, "maxBytes"));
  const maxImagesPerTurn = positive(field(raw, "maxImagesPerTurn"));
  if (maxBytes === undefined && maxImagesPerTurn === undefined) return null;
  return { ...(maxBytes !== undefined && { maxBytes }), ...(maxImagesPerTurn !== undefined && { maxImagesPerTurn }) };
}

/** claude-agent-acp / codex-acp `_auth/status_update` `{authStatus: {kind, label}}`; kind "none" = logged out. */
export function authStatusFrom(params: unknown): { loggedOut: boolean; label: string | null } | null {
  const kind = field(params, "authStatus", "kind");
  if (typeof kind !== "string") return null;
  return { loggedOut: kind === "none", label: text(field(params, "authStatus", "label")) };
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

/**
 * What the agent really can do, from a session's `initialize` and session/new|load answers (the Machines page
 * and the new-session picker show it; the static presets are only a first guess).
 */
export function capabilitiesFrom(initResult: unknown, sessionResult: unknown): AgentCapabilities {
  const modes = field(sessionResult, "modes", "availableModes");
  const options = field(sessionResult, "configOptions");
  return {
    loadSession: field(initResult, "agentCapabilities", "loadSession") === true,
    resume: isRecord(field(initResult, "agentCapabilities", "sessionCapabilities", "resume")),
    modes: Array.isArray(modes) && modes.length > 0,
    configOptions: Array.isArray(options) && options.length > 0,
    steering: steeringAdvertised(initResult),
    images: field(initResult, "agentCapabilities", "promptCapabilities", "image") === true,
    ...sessionCapabilitiesFrom(initResult),
  };
}

/** What `initialize` says about the agent's own sessions (`agentCapabilities.sessionCapabilities`: an object = offered). */
export function sessionCapabilitiesFrom(initResult: unknown): Pick<AgentCapabilities, "list" | "fork" | "delete" | "close"> {
  const offered = (name: string) => isRecord(field(initResult, "agentCapabilities", "sessionCapabilities", name));
  return { list: offered("list"), fork: offered("fork"), delete: offered("delete"), close: offered("close") };
}
