import { describe, expect, it } from "vitest";
import type { ConfigState } from "../../../shared/viewer-protocol";
import { blocksToDraft, composerButtons, draftBlocks, groupOptions, isSendKey, mergeDraft, optionsFor, selectorsFor } from "./composer-logic";
import { chipLabel, moveTarget } from "./queue-logic";

const base: ConfigState = { modes: null, models: null, configOptions: [], steering: false, images: true, queueDepth: 1, mergeQueued: false };

/** Not a speed target: the bound of a frozen page. `/\s+$/` took 8 s over this test's text here, trimEnd milliseconds. */
const FREEZE_MS = 5_000;

describe("composer logic", () => {
  it("a restored or sent draft with a long run of spaces inside loses only its trailing whitespace, in one pass", () => {
    const text = `a${" ".repeat(128 * 1024)}b`;
    expect(mergeDraft({ text: `${text} \n`, attachments: [] }, { text: "back", attachments: [] }).text).toBe(`${text}\n\nback`);
    expect(draftBlocks({ text: `${text}\n\n`, attachments: [] })).toEqual([{ type: "text", text }]);
  }, FREEZE_MS);

  it("take-back keeps non-text blocks as attachments; a send carries them again", () => {
    const blocks = [
      { type: "text" as const, text: "look at " },
      { type: "image" as const, mimeType: "image/png", data: "AAAA" },
      { type: "resource_link" as const, uri: "file:///a.ts", name: "a.ts" },
    ];
    const d = blocksToDraft(blocks);
    expect(d.text).toBe("look at ");
    expect(d.attachments).toHaveLength(2);
    expect(draftBlocks(d)).toEqual([{ type: "text", text: "look at" }, blocks[1], blocks[2]]);
    expect(draftBlocks({ text: "   ", attachments: [] })).toBeNull();
  });

  it("merging returned content never clobbers the typed draft", () => {
    expect(mergeDraft({ text: "", attachments: [] }, { text: "back", attachments: [] }).text).toBe("back");
    expect(mergeDraft({ text: "mine  ", attachments: [] }, { text: "back", attachments: [] }).text).toBe("mine\n\nback");
    expect(mergeDraft({ text: "mine", attachments: [] }, { text: "", attachments: [] }).text).toBe("mine");
  });

  it("buttons: idle Send; mid-turn Stop (+ Queue message with a draft); viewers nothing", () => {
    expect(composerButtons({ turnActive: false, hasDraft: false, canAct: true })).toMatchObject({ send: true, stop: false, sendTitle: "Send" });
    expect(composerButtons({ turnActive: true, hasDraft: false, canAct: true })).toMatchObject({ send: false, stop: true });
    expect(composerButtons({ turnActive: true, hasDraft: true, canAct: true })).toMatchObject({ send: true, stop: true, sendTitle: "Queue message" });
    expect(composerButtons({ turnActive: true, hasDraft: true, canAct: false })).toMatchObject({ send: false, stop: false });
  });

  it("Enter sends; Shift/Alt+Enter and IME composition do not", () => {
    const k = (o: Partial<KeyboardEvent>) => isSendKey({ key: "Enter", shiftKey: false, altKey: false, ctrlKey: false, metaKey: false, isComposing: false, keyCode: 13, ...o });
    expect(k({})).toBe(true);
    expect(k({ shiftKey: true })).toBe(false);
    expect(k({ altKey: true })).toBe(false);
    expect(k({ isComposing: true })).toBe(false);
    expect(k({ keyCode: 229 })).toBe(false);
    expect(k({ key: "a" })).toBe(false);
  });

  it("selectors: grouped options flatten with their group; a current value missing from the list is kept", () => {
    const specs = selectorsFor({
      ...base,
      configOptions: [
        {
          id: "model",
          name: "Model",
          category: "model",
          type: "select",
          currentValue: "custom-x",
          options: [
            { group: "anthropic", name: "Anthropic", options: [{ value: "opus", name: "Opus" }] },
            { group: "openai", name: "OpenAI", options: [{ value: "gpt", name: "GPT" }] },
          ],
        },
        { id: "think", name: "Thinking", category: "thought_level", type: "select", currentValue: "on", options: [{ value: "on", name: "On" }, { value: "off", name: "Off" }] },
        { id: "flag", name: "Flag", category: "other", type: "boolean", currentValue: true },
      ],
    });
    expect(specs.map((s) => s.testId)).toEqual(["model-select", "effort-select"]);
    expect(specs[0]!.options.map((o) => [o.value, o.group])).toEqual([
      ["custom-x", null],
      ["opus", "Anthropic"],
      ["gpt", "OpenAI"],
    ]);
    expect(groupOptions(specs[0]!.options).map((g) => g.group)).toEqual([null, "Anthropic", "OpenAI"]);
    expect(specs[1]!.label).toBe("Thinking");
  });

  it("selectors: the legacy model / mode APIs fill in where no config option of that category exists", () => {
    const specs = selectorsFor({
      ...base,
      modes: { currentModeId: "plan", availableModes: [{ id: "default", name: "Default" }] },
      models: { currentModelId: "pro", availableModels: [{ modelId: "pro", name: "Pro" }, { modelId: "flash", name: "Flash" }] },
    });
    expect(specs.map((s) => [s.testId, s.label, s.value, s.write.op])).toEqual([
      ["model-select", "Model", "pro", "model.set"],
      ["mode-select", "Mode", "plan", "mode.set"],
    ]);
    expect(specs[0]!.options).toEqual([
      { value: "pro", name: "Pro", group: null },
      { value: "flash", name: "Flash", group: null },
    ]);
    // The current mode is not in the advertised list: kept, so the select shows what the agent runs.
    expect(specs[1]!.options.map((o) => o.value)).toEqual(["plan", "default"]);
    // A config option of category mode wins over the legacy list.
    const withOption = selectorsFor({
      ...base,
      modes: { currentModeId: "plan", availableModes: [{ id: "default", name: "Default" }] },
      configOptions: [{ id: "m", name: "Mode", category: "mode", type: "select", currentValue: "a", options: [{ value: "a", name: "A" }, { value: "b", name: "B" }] }],
    });
    expect(withOption.map((s) => s.write)).toEqual([{ op: "config.set", configId: "m" }]);
  });

  it("selectors: nothing advertised → nothing; empty legacy lists → nothing", () => {
    expect(selectorsFor(null)).toEqual([]);
    expect(selectorsFor({ ...base, modes: { currentModeId: "x", availableModes: [] }, models: { currentModelId: "m", availableModels: [] } })).toEqual([]);
  });
});

describe("config options by type", () => {
  // Shapes as claude / codex / copilot / pi send them.
  const real: ConfigState = {
    ...base,
    modes: { currentModeId: "off", availableModes: [{ id: "off", name: "Off" }] },
    configOptions: [
      { id: "model", name: "Model", category: "model", type: "select", currentValue: "default", options: [{ value: "default", name: "Default (recommended)", description: "Opus 4.7" }, { value: "haiku", name: "Haiku" }] },
      { id: "mode", name: "Mode", category: "mode", type: "select", currentValue: "only", options: [{ value: "only", name: "Only one" }] },
      { id: "fast", name: "Fast mode", description: "Faster output, same model", type: "boolean", currentValue: false },
      {
        id: "collaboration_mode", name: "Collaboration mode", type: "select", currentValue: "pair",
        options: [{ group: "solo", name: "Solo", options: [{ value: "execute", name: "Execute" }] }, { group: "team", name: "Team", options: [{ value: "pair", name: "Pair programming" }] }],
      },
      { id: "allow_all", name: "Allow all tools", category: "permissions", type: "boolean", currentValue: true },
      { id: "broken", type: "boolean" },
      { id: "weird", name: "Weird", type: "slider", currentValue: 3 },
    ],
  };

  it("a select with one option is hidden (pills and the options list); legacy modes with one mode too", () => {
    expect(selectorsFor(real).map((s) => s.testId)).toEqual(["model-select"]);
    expect(optionsFor(real).map((o) => o.id)).not.toContain("mode");
  });

  it("every other option, in the agent's order, by its type: selects (flat or grouped) and booleans", () => {
    const opts = optionsFor(real);
    expect(opts.map((o) => [o.id, o.kind])).toEqual([
      ["model", "select"],
      ["fast", "boolean"],
      ["collaboration_mode", "select"],
      ["allow_all", "boolean"],
    ]);
    expect(opts[0]).toMatchObject({ name: "Model", value: "default", valueName: "Default (recommended)", main: true });
    expect(opts[1]).toMatchObject({ name: "Fast mode", description: "Faster output, same model", value: false, main: false });
    expect(opts[2]).toMatchObject({ valueName: "Pair programming", main: false });
    expect(opts[2]!.kind === "select" && opts[2]!.options.map((o) => [o.group, o.value])).toEqual([
      ["Solo", "execute"],
      ["Team", "pair"],
    ]);
    expect(opts[3]).toMatchObject({ kind: "boolean", value: true, write: { op: "config.set", configId: "allow_all" } });
  });

  it("nothing advertised → nothing", () => {
    expect(optionsFor(null)).toEqual([]);
    expect(optionsFor(base)).toEqual([]);
  });
});

describe("queue logic", () => {
  it("labels and one-step moves", () => {
    expect(chipLabel({ state: "queued" }, 0, 1)).toBe("Queued");
    expect(chipLabel({ state: "queued" }, 1, 2)).toBe("Queued · 2");
    expect(moveTarget(["a", "b", "c"], "c", -1)).toEqual({ before: "b" });
    expect(moveTarget(["a", "b", "c"], "a", 1)).toEqual({ before: "c" });
    expect(moveTarget(["a", "b", "c"], "b", 1)).toEqual({ before: null });
    expect(moveTarget(["a", "b"], "a", -1)).toBeNull();
    expect(moveTarget(["a"], "zz", 1)).toBeNull();
  });
});
