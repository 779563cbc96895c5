import { describe, expect, it } from "vitest";
import type { AgentConfig } from "./tunnel-protocol";
import { reapplyNotices, reapplyPlan, settingsFromConfig } from "./session-settings";

/** Shaped like codex-acp after a restart: mode back to its default, effort too, fast mode a boolean. */
function codex(over: { mode?: string; effort?: string; fast?: boolean; model?: string } = {}): AgentConfig {
  return {
    modes: {
      currentModeId: over.mode ?? "auto",
      availableModes: [
        { id: "read-only", name: "Read-only" },
        { id: "auto", name: "Auto review" },
        { id: "full-access", name: "Full access" },
      ],
    },
    models: null,
    configOptions: [
      {
        id: "model",
        name: "Model",
        type: "select",
        category: "model",
        currentValue: over.model ?? "gpt-5.5",
        options: [{ group: "openai", name: "OpenAI", options: [{ value: "gpt-5.5", name: "GPT-5.5" }, { value: "gpt-5.4", name: "GPT-5.4" }] }],
      },
      {
        id: "reasoning_effort",
        name: "Reasoning effort",
        type: "select",
        category: "thought_level",
        currentValue: over.effort ?? "medium",
        options: [
          { value: "low", name: "Low" },
          { value: "medium", name: "Medium" },
          { value: "high", name: "High" },
        ],
      },
      { id: "fast-mode", name: "Fast mode", type: "boolean", currentValue: over.fast ?? false },
    ],
    steering: true,
    images: true,
  };
}

describe("settingsFromConfig", () => {
  it("takes the current mode, legacy model and every option's current value (booleans too)", () => {
    const cfg = { ...codex({ mode: "read-only", effort: "high", fast: true }), models: { currentModelId: "m1", availableModels: [{ modelId: "m1", name: "M1" }] } };
    expect(settingsFromConfig(cfg)).toEqual({
      modeId: "read-only",
      modelId: "m1",
      options: { model: "gpt-5.5", reasoning_effort: "high", "fast-mode": true },
    });
  });
  it("is empty for an agent without modes or options", () => {
    expect(settingsFromConfig({ modes: null, models: null, configOptions: [], steering: false, images: false })).toEqual({ modeId: null, modelId: null, options: {} });
  });
});

describe("reapplyPlan", () => {
  const wanted = settingsFromConfig(codex({ mode: "read-only", effort: "high", fast: true, model: "gpt-5.4" }));

  it("writes back every setting the load reset: mode, then options in the agent's order (grouped select, boolean)", () => {
    expect(reapplyPlan(wanted, codex())).toEqual([
      { kind: "mode", modeId: "read-only" },
      { kind: "option", configId: "model", value: "gpt-5.4" },
      { kind: "option", configId: "reasoning_effort", value: "high" },
      { kind: "option", configId: "fast-mode", value: true },
    ]);
  });
  it("writes nothing when the agent already reports the session's settings", () => {
    expect(reapplyPlan(wanted, codex({ mode: "read-only", effort: "high", fast: true, model: "gpt-5.4" }))).toEqual([]);
  });
  it("skips settings the agent no longer offers, or values of the wrong type", () => {
    const plan = reapplyPlan(
      { modeId: "plan", modelId: "legacy", options: { reasoning_effort: "xhigh", "fast-mode": "yes", gone: "x" } },
      codex(),
    );
    expect(plan).toEqual([]);
  });
  it("re-applies a legacy model when the agent has the legacy list", () => {
    // Only the legacy list (no model option: an agent offering both is the case below).
    const base = codex();
    const cfg: AgentConfig = {
      ...base,
      configOptions: base.configOptions.filter((o) => o.category !== "model"),
      models: { currentModelId: "a", availableModels: [{ modelId: "a", name: "A" }, { modelId: "b", name: "B" }] },
    };
    expect(reapplyPlan({ modeId: null, modelId: "b", options: {} }, cfg)).toEqual([{ kind: "model", modelId: "b" }]);
  });
  it("an agent offering mode / model both ways (qwen): only the option is re-applied, the legacy value (stale: viewers change the option) is not written", () => {
    // qwen 0.24.4 after session/load: it restored the session's model itself; the legacy list and the option agree.
    const qwen = (model: string, legacyModel: string, mode = "default", legacyMode = mode): AgentConfig => ({
      modes: { currentModeId: legacyMode, availableModes: [{ id: "default", name: "Default" }, { id: "plan", name: "Plan" }] },
      models: { currentModelId: legacyModel, availableModels: [{ modelId: "fake-model(openai)", name: "fake-model" }, { modelId: "fake-model-large(openai)", name: "fake-model-large" }] },
      configOptions: [
        { id: "mode", name: "Mode", type: "select", category: "mode", currentValue: mode, options: [{ value: "default", name: "Default" }, { value: "plan", name: "Plan" }] },
        { id: "model", name: "Model", type: "select", category: "model", currentValue: model, options: [{ value: "fake-model(openai)", name: "fake-model" }, { value: "fake-model-large(openai)", name: "fake-model-large" }] },
      ],
      steering: false,
      images: true,
    });
    // The user changed the model and mode options; the legacy ids did not follow (qwen sends no update for them).
    const had = settingsFromConfig(qwen("fake-model-large(openai)", "fake-model(openai)", "plan", "default"));
    expect(reapplyPlan(had, qwen("fake-model-large(openai)", "fake-model-large(openai)"))).toEqual([{ kind: "option", configId: "mode", value: "plan" }]);
    expect(reapplyPlan(had, qwen("fake-model(openai)", "fake-model(openai)"))).toEqual([
      { kind: "option", configId: "mode", value: "plan" },
      { kind: "option", configId: "model", value: "fake-model-large(openai)" },
    ]);
    expect(reapplyNotices(had, qwen("fake-model-large(openai)", "fake-model-large(openai)", "plan", "plan"))).toEqual([]);
  });
});

describe("reapplyNotices", () => {
  it("names each setting that did not come back and what it is now, in the agent's words", () => {
    const wanted = settingsFromConfig(codex({ mode: "read-only", effort: "high", fast: true }));
    expect(reapplyNotices(wanted, codex({ effort: "high" }))).toEqual([
      "Mode could not be re-applied after the restart: it is Auto review, not Read-only",
      "Fast mode could not be re-applied after the restart: it is off, not on",
    ]);
  });
  it("is empty when everything came back", () => {
    const cfg = codex({ mode: "read-only" });
    expect(reapplyNotices(settingsFromConfig(cfg), cfg)).toEqual([]);
  });
  it("names a value the agent no longer offers by its raw id", () => {
    expect(reapplyNotices({ modeId: "plan", modelId: null, options: {} }, codex())).toEqual([
      "Mode could not be re-applied after the restart: it is Auto review, not plan",
    ]);
  });
});
