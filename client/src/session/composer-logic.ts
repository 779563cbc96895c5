/** Composer decisions, kept out of the .tsx: drafts, which buttons show, what a key does, selects. */
import type { PromptBlock } from "../../../shared/blocks";
import { fileName } from "../../../shared/prompt-preview";
import type { ConfigState } from "../../../shared/viewer-protocol";

// ---------------------------------------------------------------- drafts

/** Non-text blocks ride along with the text (a taken-back image is not lost). */
export type Attachment = Exclude<PromptBlock, { type: "text" }>;
export type Draft = { text: string; attachments: Attachment[] };
export const EMPTY_DRAFT: Draft = { text: "", attachments: [] };

export function isDraftEmpty(d: Draft): boolean {
  return !d.text.trim() && d.attachments.length === 0;
}

/** The blocks a send carries, or null when there is nothing to send. */
export function draftBlocks(d: Draft): PromptBlock[] | null {
  if (isDraftEmpty(d)) return null;
  // trimEnd, not /\s+$/: that pattern backtracks from every space of a long run not at the end (40 KB: 1 s).
  const text = d.text.trimEnd();
  const blocks: PromptBlock[] = text.trim() ? [{ type: "text", text }] : [];
  return [...blocks, ...d.attachments];
}

export function blocksToDraft(blocks: readonly PromptBlock[]): Draft {
  const texts: string[] = [];
  const attachments: Attachment[] = [];
  for (const b of blocks) {
    if (b.type === "text") texts.push(b.text);
    else attachments.push(b);
  }
  return { text: texts.join("").trim() ? texts.join("") : "", attachments };
}

/** Puts returned content into the composer without clobbering what is already typed. */
export function mergeDraft(current: Draft, incoming: Draft): Draft {
  const a = current.text.trimEnd();
  const b = incoming.text;
  const text = !a.trim() ? b : !b.trim() ? current.text : `${a}\n\n${b}`;
  return { text, attachments: [...current.attachments, ...incoming.attachments] };
}

/** A prompt's images (thumbnails on a queued chip). */
export function imagesOf(blocks: readonly PromptBlock[]): Extract<PromptBlock, { type: "image" }>[] {
  return blocks.filter((b): b is Extract<PromptBlock, { type: "image" }> => b.type === "image");
}

export function attachmentLabel(a: Attachment): string {
  if (a.type === "image") return `Image (${a.mimeType.replace("image/", "")})`;
  return `@${a.type === "resource" ? fileName(a.resource.uri) : a.name}`;
}

// ---------------------------------------------------------------- keys and buttons

/** Enter sends; Shift+Enter is a newline; nothing during IME composition. */
export function isSendKey(e: Pick<KeyboardEvent, "key" | "shiftKey" | "isComposing" | "keyCode" | "altKey" | "ctrlKey" | "metaKey">): boolean {
  if (e.key !== "Enter" || e.shiftKey || e.altKey) return false;
  if (e.isComposing || e.keyCode === 229) return false;
  return true;
}

export type ComposerButtons = { send: boolean; stop: boolean; sendTitle: string; sendLabel: string };

/** Idle: Send. Mid-turn: Stop, plus Send (titled "Queue message") when there is a draft. */
export function composerButtons(o: { turnActive: boolean; hasDraft: boolean; canAct: boolean }): ComposerButtons {
  if (!o.canAct) return { send: false, stop: false, sendTitle: "", sendLabel: "" };
  if (o.turnActive)
    return { send: o.hasDraft, stop: true, sendTitle: "Queue message", sendLabel: "Queue" };
  return { send: true, stop: false, sendTitle: "Send", sendLabel: "Send" };
}

export const APPLIES_NEXT_TURN = "applies from the next turn";

// ---------------------------------------------------------------- selects

export type SelectOption = { value: string; name: string; group: string | null };
export type SelectSpec = {
  testId: "model-select" | "mode-select" | "effort-select";
  /** Short visible label / accessible name. */
  label: string;
  /** The agent's own name for the setting (tooltip when idle). */
  description: string;
  value: string;
  options: SelectOption[];
  /** How to write it: a config option id, or the legacy mode / model APIs. */
  write: { op: "config.set"; configId: string } | { op: "mode.set" } | { op: "model.set" };
};

/** What a config write needs: a name for its "applies from the next turn" note, and how to write it. */
export type ConfigWrite = Pick<SelectSpec, "label" | "write">;

type RawOption = { id?: unknown; name?: unknown; description?: unknown; category?: unknown; type?: unknown; currentValue?: unknown; options?: unknown };

function flatOptions(options: unknown, group: string | null = null): SelectOption[] {
  if (!Array.isArray(options)) return [];
  return options.flatMap((o: Record<string, unknown>): SelectOption[] => {
    if (!o || typeof o !== "object") return [];
    if (Array.isArray(o["options"])) return flatOptions(o["options"], String(o["name"] ?? o["group"] ?? ""));
    if (typeof o["value"] !== "string") return [];
    return [{ value: o["value"], name: String(o["name"] ?? o["value"]), group }];
  });
}

function withCurrent(options: SelectOption[], value: string): SelectOption[] {
  return !value || options.some((o) => o.value === value) ? options : [{ value, name: value, group: null }, ...options];
}

/** A select for the legacy model / mode API (agents without a config option of that category). */
function legacySelect(
  testId: SelectSpec["testId"],
  label: string,
  value: string,
  items: { value: string; name: string }[],
  op: "model.set" | "mode.set",
): SelectSpec {
  return {
    testId,
    label,
    description: label,
    value,
    options: withCurrent(items.map((m) => ({ ...m, group: null })), value),
    write: { op },
  };
}

/** The config options shown as the Sender's pills, by category (the first of each). */
const PILL_CATEGORIES = ["model", "mode", "thought_level"] as const;

function pillOptions(options: RawOption[]): Map<string, RawOption> {
  const out = new Map<string, RawOption>();
  for (const cat of PILL_CATEGORIES) {
    const o = options.find((x) => x.category === cat && x.type === "select" && typeof x.id === "string");
    if (o) out.set(cat, o);
  }
  return out;
}

/**
 * Only the selectors the agent advertised: config options of category model / mode / thought_level;
 * the legacy `models` / `modes` fill in where no such option exists. A select with one option (nothing
 * to choose: pi's mode "off") is not shown.
 */
export function selectorsFor(config: ConfigState | null | undefined): SelectSpec[] {
  return allSelectors(config).filter((s) => s.options.length > 1);
}

function allSelectors(config: ConfigState | null | undefined): SelectSpec[] {
  if (!config) return [];
  const out: SelectSpec[] = [];
  const options = (config.configOptions ?? []) as RawOption[];
  const pills = pillOptions(options);
  const byCategory = (cat: (typeof PILL_CATEGORIES)[number]) => pills.get(cat);
  const fromOption = (o: RawOption, testId: SelectSpec["testId"], label: string): SelectSpec => {
    const value = String(o.currentValue ?? "");
    return {
      testId,
      label,
      description: typeof o.name === "string" && o.name ? o.name : label,
      value,
      options: withCurrent(flatOptions(o.options), value),
      write: { op: "config.set", configId: String(o.id) },
    };
  };
  const model = byCategory("model");
  if (model) out.push(fromOption(model, "model-select", "Model"));
  else if (config.models && config.models.availableModels.length)
    out.push(
      legacySelect("model-select", "Model", config.models.currentModelId, config.models.availableModels.map((m) => ({ value: m.modelId, name: m.name })), "model.set"),
    );
  const mode = byCategory("mode");
  if (mode) out.push(fromOption(mode, "mode-select", "Mode"));
  else if (config.modes && config.modes.availableModes.length)
    out.push(
      legacySelect("mode-select", "Mode", config.modes.currentModeId, config.modes.availableModes.map((m) => ({ value: m.id, name: m.name })), "mode.set"),
    );
  const effort = byCategory("thought_level");
  if (effort) {
    const name = typeof effort.name === "string" ? effort.name : "";
    out.push(fromOption(effort, "effort-select", /think/i.test(name) && !/effort/i.test(name) ? "Thinking" : "Effort"));
  }
  return out;
}

/** Groups options for <optgroup> rendering, keeping order. */
export function groupOptions(options: SelectOption[]): { group: string | null; options: SelectOption[] }[] {
  const out: { group: string | null; options: SelectOption[] }[] = [];
  for (const o of options) {
    const last = out[out.length - 1];
    if (last && last.group === o.group) last.options.push(o);
    else out.push({ group: o.group, options: [o] });
  }
  return out;
}

// ---------------------------------------------------------------- every config option, by type

type OptionWrite = { op: "config.set"; configId: string };
type OptionBase = {
  id: string;
  /** The agent's full name for the option. */
  name: string;
  description: string;
  /** Also shown as one of the Sender's pills (model / mode / effort). */
  main: boolean;
  write: OptionWrite;
};
export type OptionSpec =
  | (OptionBase & { kind: "select"; value: string; valueName: string; options: SelectOption[] })
  | (OptionBase & { kind: "boolean"; value: boolean });

/**
 * Every ACP config option the agent advertised that can be set, in its order, rendered by its type:
 * `select` (flat or grouped options; hidden with a single option) and `boolean` (a toggle). Other
 * types are left out until the client knows them.
 */
export function optionsFor(config: ConfigState | null | undefined): OptionSpec[] {
  if (!config) return [];
  const raw = (config.configOptions ?? []) as (RawOption & Record<string, unknown>)[];
  const pills = new Set([...pillOptions(raw).values()]);
  const out: OptionSpec[] = [];
  for (const o of raw) {
    if (typeof o.id !== "string" || !o.id) continue;
    const base: OptionBase = {
      id: o.id,
      name: typeof o.name === "string" && o.name ? o.name : o.id,
      description: typeof o.description === "string" ? o.description : "",
      main: pills.has(o),
      write: { op: "config.set", configId: o.id },
    };
    if (o.type === "boolean") {
      if (typeof o.currentValue === "boolean") out.push({ ...base, main: false, kind: "boolean", value: o.currentValue });
    } else if (o.type === "select") {
      const value = typeof o.currentValue === "string" ? o.currentValue : "";
      const options = withCurrent(flatOptions(o.options), value);
      if (options.length < 2) continue;
      out.push({ ...base, kind: "select", value, valueName: options.find((x) => x.value === value)?.name ?? value, options });
    }
  }
  return out;
}
