/** Composer decisions, kept out of the .tsx: which buttons show, what a key does, select options. */
import type { PromptBlock } from "../../../shared/blocks";
import type { ConfigState } from "../../../shared/viewer-protocol";

export type SelectSpec = {
  testId: "model-select" | "mode-select" | "effort-select";
  label: string;
  value: string;
  options: { value: string; name: string }[];
  /** How to write it: a config option id, or the legacy mode / model APIs. */
  write: { op: "config.set"; configId: string } | { op: "mode.set" } | { op: "model.set" };
};

type RawOption = { id?: string; name?: string; category?: string; type?: string; currentValue?: unknown; options?: unknown };

function flatOptions(options: unknown): { value: string; name: string }[] {
  if (!Array.isArray(options)) return [];
  return options.flatMap((o: any) => (Array.isArray(o?.options) ? flatOptions(o.options) : o && typeof o.value === "string" ? [{ value: o.value, name: String(o.name ?? o.value) }] : []));
}

/** Only the selectors the agent advertised; legacy modes/models fill in where no config option exists. */
export function selectorsFor(config: ConfigState | null): SelectSpec[] {
  if (!config) return [];
  const out: SelectSpec[] = [];
  const byCategory = (cat: string) => (config.configOptions as RawOption[]).find((o) => o.category === cat && o.type === "select");
  const fromOption = (o: RawOption, testId: SelectSpec["testId"], label: string): SelectSpec => ({
    testId,
    label: o.name || label,
    value: String(o.currentValue ?? ""),
    options: flatOptions(o.options),
    write: { op: "config.set", configId: String(o.id) },
  });
  const model = byCategory("model");
  if (model) out.push(fromOption(model, "model-select", "Model"));
  else if (config.models)
    out.push({
      testId: "model-select",
      label: "Model",
      value: config.models.currentModelId,
      options: config.models.availableModels.map((m) => ({ value: m.modelId, name: m.name })),
      write: { op: "model.set" },
    });
  const mode = byCategory("mode");
  if (mode) out.push(fromOption(mode, "mode-select", "Mode"));
  else if (config.modes)
    out.push({
      testId: "mode-select",
      label: "Mode",
      value: config.modes.currentModeId,
      options: config.modes.availableModes.map((m) => ({ value: m.id, name: m.name })),
      write: { op: "mode.set" },
    });
  const effort = byCategory("thought_level");
  if (effort) out.push(fromOption(effort, "effort-select", "Effort"));
  return out;
}

export function draftBlocks(draft: string): PromptBlock[] | null {
  const text = draft.replace(/\s+$/, "");
  return text.trim() ? [{ type: "text", text }] : null;
}

export function blocksToDraft(blocks: readonly PromptBlock[]): string {
  return blocks.map((b) => (b.type === "text" ? b.text : b.type === "resource_link" ? `@${b.name}` : "")).filter(Boolean).join("\n");
}

/** Enter sends; Shift+Enter is a newline; nothing during IME composition. */
export function isSendKey(e: Pick<KeyboardEvent, "key" | "shiftKey" | "isComposing" | "keyCode">): boolean {
  return e.key === "Enter" && !e.shiftKey && !e.isComposing && e.keyCode !== 229;
}

export function sendTitle(turnActive: boolean): string {
  return turnActive ? "Queue message" : "Send";
}
