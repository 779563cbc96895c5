/**
 * The settings a session had (mode, legacy model, config option values) and how to bring an agent back to them
 * after `session/load`, which reports the agent's defaults (codex Read-only → Auto review, claude effort High →
 * Default, qwen mode Default → Auto). The room sends `settingsFromConfig` with a reopen; the daemon plans the
 * writes with `reapplyPlan` and, once they are done, tells viewers what did not come back (`reapplyNotices`).
 */
import type { AgentConfig, SessionSettings } from "./tunnel-protocol";
import { isRecord } from "./is-record";

export type ReapplyStep =
  | { kind: "mode"; modeId: string }
  | { kind: "model"; modelId: string }
  | { kind: "option"; configId: string; value: string | boolean };

type Option = AgentConfig["configOptions"][number];

function optionValue(o: Option): string | boolean | undefined {
  const v = o["currentValue"];
  return typeof v === "string" || typeof v === "boolean" ? v : undefined;
}

function optionId(o: Option): string | undefined {
  const id = o["id"];
  return typeof id === "string" ? id : undefined;
}

/** A select's choices, flat or grouped (`{group, name, options: [...]}`), as value → name. */
function selectChoices(o: Option): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const c of list) {
      if (!isRecord(c)) continue;
      if (typeof c["value"] === "string") out.set(c["value"], typeof c["name"] === "string" ? c["name"] : c["value"]);
      else walk(c["options"]);
    }
  };
  walk(o["options"]);
  return out;
}

/** What the user has now, from the room's stored config. */
export function settingsFromConfig(config: AgentConfig): SessionSettings {
  const options: Record<string, string | boolean> = {};
  for (const o of config.configOptions) {
    const id = optionId(o);
    const value = optionValue(o);
    if (id !== undefined && value !== undefined) options[id] = value;
  }
  return { modeId: config.modes?.currentModeId ?? null, modelId: config.models?.currentModelId ?? null, options };
}

/**
 * Where an agent offers mode / model both ways — a config option of that category and the legacy `modes` /
 * `models` (qwen, codex) — viewers change the option (composer-logic prefers it) and the agent may not move the
 * legacy id with it (qwen 0.24.4 does not): the legacy value is then stale and is neither written nor checked.
 */
function hasOptionFor(config: AgentConfig, category: "mode" | "model"): boolean {
  return config.configOptions.some((o) => o["category"] === category);
}

/**
 * The writes that bring `reported` (what the agent says after a load) back to `wanted`: only settings the agent
 * still offers, with a value it still offers, that differ (legacy mode / model only where no option stands for them,
 * see hasOptionFor). Mode first, then the legacy model, then the options
 * in the agent's order (a later option's choices may depend on an earlier one, e.g. effort on model).
 */
export function reapplyPlan(wanted: SessionSettings, reported: AgentConfig): ReapplyStep[] {
  const steps: ReapplyStep[] = [];
  const modes = hasOptionFor(reported, "mode") ? null : reported.modes;
  if (wanted.modeId && modes && modes.currentModeId !== wanted.modeId && modes.availableModes.some((m) => m.id === wanted.modeId))
    steps.push({ kind: "mode", modeId: wanted.modeId });
  const models = hasOptionFor(reported, "model") ? null : reported.models;
  if (
    wanted.modelId &&
    models &&
    models.currentModelId !== wanted.modelId &&
    models.availableModels.some((m) => m.modelId === wanted.modelId)
  )
    steps.push({ kind: "model", modelId: wanted.modelId });
  for (const o of reported.configOptions) {
    const id = optionId(o);
    if (id === undefined || !(id in wanted.options)) continue;
    const want = wanted.options[id]!;
    const now = optionValue(o);
    if (now === want) continue;
    const type = o["type"];
    if (type === "boolean" ? typeof want !== "boolean" : typeof want !== "string" || !selectChoices(o).has(want)) continue;
    steps.push({ kind: "option", configId: id, value: want });
  }
  return steps;
}

function label(value: string | boolean, names?: Map<string, string>): string {
  if (typeof value === "boolean") return value ? "on" : "off";
  return names?.get(value) ?? value;
}

/**
 * One line per setting the agent does not have as wanted after the re-apply (refused, or no longer offered),
 * naming the setting and what it is now, e.g. "Mode could not be re-applied after the restart: it is Auto
 * review, not Read-only". Values are named the way the agent names them.
 */
export function reapplyNotices(wanted: SessionSettings, final: AgentConfig, before: AgentConfig = final): string[] {
  const out: string[] = [];
  const line = (setting: string, now: string, want: string) => `${setting} could not be re-applied after the restart: it is ${now}, not ${want}`;
  const modes = hasOptionFor(final, "mode") ? null : final.modes;
  if (wanted.modeId && modes && modes.currentModeId !== wanted.modeId) {
    const names = new Map([...(before.modes?.availableModes ?? []), ...modes.availableModes].map((m) => [m.id, m.name] as const));
    out.push(line("Mode", label(modes.currentModeId, names), label(wanted.modeId, names)));
  }
  const models = hasOptionFor(final, "model") ? null : final.models;
  if (wanted.modelId && models && models.currentModelId !== wanted.modelId) {
    const names = new Map([...(before.models?.availableModels ?? []), ...models.availableModels].map((m) => [m.modelId, m.name] as const));
    out.push(line("Model", label(models.currentModelId, names), label(wanted.modelId, names)));
  }
  for (const o of final.configOptions) {
    const id = optionId(o);
    if (id === undefined || !(id in wanted.options)) continue;
    const want = wanted.options[id]!;
    const now = optionValue(o);
    if (now === undefined || now === want) continue;
    const prior = before.configOptions.find((p) => optionId(p) === id);
    const names = new Map([...(prior ? selectChoices(prior) : []), ...selectChoices(o)]);
    const name = typeof o["name"] === "string" && o["name"] ? o["name"] : id;
    out.push(line(name, label(now, names), label(want, names)));
  }
  return out;
}
