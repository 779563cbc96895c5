/**
 * The room's side of config: which writes the agent can take (only what it advertised), the room-only
 * settings, and the config_state viewers see. The agent's config itself is computed by the daemon
 * (daemon/src/agent/agent-config.ts) and arrives as `session.ready` / `config.state`: the room stores and relays
 * it, never recomputes it from session updates.
 */
import type { AgentConfig, MachineCommand } from "../../shared/tunnel-protocol";
import type { ClientOp, ConfigState, RoomSettings } from "../../shared/viewer-protocol";
import { assertNever } from "../../shared/assert-never";
import { agentConfigOf, DEFAULT_SETTINGS, type RoomState } from "./room-state";


export type ConfigOp = Extract<ClientOp, { op: "config.set" | "mode.set" | "model.set" }>;
export type SettingsOp = Extract<ClientOp, { op: "settings.set" }>;

/** What viewers see as the session's config: the agent's (as the daemon said) and the room's settings. */
export function configStateOf(s: RoomState | null): ConfigState {
  return { ...agentConfigOf(s), ...(s?.settings ?? DEFAULT_SETTINGS) };
}

/** The command a config write becomes, or why this agent cannot take it. */
export function configCommand(
  cfg: AgentConfig,
  op: ConfigOp,
  sessionId: string,
): { ok: true; command: MachineCommand } | { ok: false; message: string } {
  switch (op.op) {
    case "config.set":
      if (!cfg.configOptions.some((o) => o["id"] === op.configId)) return { ok: false, message: `the agent has no config option ${op.configId}` };
      return { ok: true, command: { t: "config.set", sessionId, configId: op.configId, value: op.value } };
    case "mode.set":
      if (!cfg.modes?.availableModes.some((m) => m.id === op.modeId)) return { ok: false, message: `the agent has no mode ${op.modeId}` };
      return { ok: true, command: { t: "mode.set", sessionId, modeId: op.modeId } };
    case "model.set":
      if (!cfg.models?.availableModels.some((m) => m.modelId === op.modelId)) return { ok: false, message: `the agent has no model ${op.modelId}` };
      return { ok: true, command: { t: "model.set", sessionId, modelId: op.modelId } };
    default:
      return assertNever(op);
  }
}

/** Room settings after a `settings.set` (fields left out keep their value). */
export function settingsAfter(current: RoomSettings, op: SettingsOp): RoomSettings {
  const next = { ...current };
  if (op.queueDepth !== undefined) next.queueDepth = op.queueDepth;
  if (op.mergeQueued !== undefined) next.mergeQueued = op.mergeQueued;
  return next;
}
