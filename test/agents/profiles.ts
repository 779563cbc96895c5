/**
 * What each real agent does, as observed (daemon/README.md's agent table; /work/shared/real-agents.md):
 * the facts the matrix asserts per agent, and which config option a mid-turn write changes.
 */
import type { AgentConfig, MachineCommand } from "../../shared/tunnel-protocol";
import type { RecordedRequest } from "../fake-model/server";
import { FAKE_MODEL_2, type AgentId } from "./launch";

export type AgentProfile = {
  /** Talks to the fake model server (gemini runs on its own scripted responses: test/fixtures/gemini). */
  fakeModel: boolean;
  loadSession: boolean;
  authMethods: boolean;
  /** `_meta.steering` at the top level of the initialize result. */
  steering: boolean;
  /** Asks the client before `touch` in the configuration launch.ts gives it. */
  asksPermission: boolean;
  /** A config write that makes the agent ask before running commands (claude starts in "auto": its own classifier decides). */
  askSetup?: { configId: string; value: string };
  helloAnswer: string;
  afterRestartAnswer: string;
};

const fake = { fakeModel: true, helloAnswer: "Fake reply to: hello", afterRestartAnswer: "Fake reply to: hello after restart" };

export const AGENT_PROFILES: Record<AgentId, AgentProfile> = {
  // claude lists its login methods only to a client that advertises terminal-auth (Baton does).
  claude: { ...fake, loadSession: true, authMethods: true, steering: true, asksPermission: true, askSetup: { configId: "mode", value: "default" } },
  codex: { ...fake, loadSession: true, authMethods: true, steering: true, asksPermission: true },
  gemini: { fakeModel: false, loadSession: true, authMethods: true, steering: false, asksPermission: true, helloAnswer: "Hello from Gemini", afterRestartAnswer: "" },
  qwen: {
    ...fake,
    loadSession: true,
    authMethods: true,
    steering: false,
    asksPermission: true,
  },
  opencode: {
    ...fake,
    loadSession: true,
    authMethods: true,
    steering: false,
    asksPermission: true,
  },
  pi: { ...fake, loadSession: true, authMethods: true, steering: false, asksPermission: false },
  copilot: { ...fake, loadSession: true, authMethods: true, steering: false, asksPermission: true },
};

export type ConfigWrite = { command: MachineCommand; check(before: RecordedRequest, after: RecordedRequest): void; revert: MachineCommand };

type Option = { id: string; type: string; category?: string; currentValue: unknown; values: string[] };

function options(config: AgentConfig): Option[] {
  return config.configOptions.map((o) => {
    const raw = Array.isArray(o.options) ? (o.options as unknown[]) : [];
    // Select options may be flat ({value}) or grouped ({options: [{value}]}).
    const flat = raw.flatMap((x) => (x && typeof x === "object" && Array.isArray((x as { options?: unknown }).options) ? ((x as { options: unknown[] }).options) : [x]));
    const values = flat.map((x) => (x && typeof x === "object" ? String((x as { value?: unknown }).value) : String(x)));
    return { id: String(o.id), type: String(o.type), category: typeof o.category === "string" ? o.category : undefined, currentValue: o.currentValue, values };
  });
}

/**
 * The write to make mid-turn for this agent and how the next model request shows it: the model where the
 * agent has a model option with another value (the request's `model` changes), else the reasoning effort.
 */
export function pickConfigWrite(id: AgentId, config: AgentConfig): ConfigWrite | null {
  const opts = options(config);
  const effort = opts.find((o) => o.category === "thought_level" && o.values.length > 1);
  const model = opts.find((o) => (o.category === "model" || o.id === "model") && o.values.length > 1);
  const prefer = id === "codex" || id === "claude" ? effort ?? model : model ?? effort;
  if (prefer) {
    // The fake provider's second model where the agent lists it (opencode also lists its online providers' models).
    const value = prefer.values.find((v) => v.includes(FAKE_MODEL_2) && v !== String(prefer.currentValue)) ?? prefer.values.find((v) => v !== String(prefer.currentValue) && v !== "default" && v !== "none" && v !== "minimal" && v !== "off") ?? prefer.values.find((v) => v !== String(prefer.currentValue))!;
    const isEffort = prefer === effort;
    return {
      command: { t: "config.set", sessionId: "s1", configId: prefer.id, value },
      revert: { t: "config.set", sessionId: "s1", configId: prefer.id, value: String(prefer.currentValue) },
      check(before, after) {
        if (isEffort) {
          if (after.view!.effort === before.view!.effort) throw new Error(`${id}: effort ${String(after.view!.effort)} did not change after setting ${prefer.id}=${value}`);
        } else if (after.view!.model === before.view!.model) {
          throw new Error(`${id}: model ${after.view!.model} did not change after setting ${prefer.id}=${value}`);
        }
      },
    };
  }
  const mode = opts.find((o) => o.category === "mode" && o.values.length > 1);
  if (mode) {
    const value = mode.values.find((v) => /plan/i.test(v) && v !== String(mode.currentValue)) ?? mode.values.find((v) => v !== String(mode.currentValue))!;
    return {
      command: { t: "config.set", sessionId: "s1", configId: mode.id, value },
      revert: { t: "config.set", sessionId: "s1", configId: mode.id, value: String(mode.currentValue) },
      check(before, after) {
        // A mode shows in what the agent tells the model: its system prompt / instructions change.
        if (systemText(after) === systemText(before)) throw new Error(`${id}: the system prompt did not change after setting ${mode.id}=${value}`);
      },
    };
  }
  if (config.models && config.models.availableModels.length > 1) {
    const next = config.models.availableModels.find((m) => m.modelId !== config.models!.currentModelId)!;
    return {
      command: { t: "model.set", sessionId: "s1", modelId: next.modelId },
      revert: { t: "model.set", sessionId: "s1", modelId: config.models.currentModelId },
      check(before, after) {
        if (after.view!.model === before.view!.model) throw new Error(`${id}: model ${after.view!.model} did not change after set_model ${next.modelId}`);
      },
    };
  }
  return null;
}

/** The instructions a model request carried (anthropic `system`, responses `instructions`, chat system/developer messages). */
export function systemText(r: RecordedRequest): string {
  const b = (r.body && typeof r.body === "object" ? r.body : {}) as Record<string, unknown>;
  const msgs = Array.isArray(b.messages) ? (b.messages as { role?: unknown; content?: unknown }[]) : [];
  return JSON.stringify([b.system ?? null, b.instructions ?? null, msgs.filter((m) => m.role === "system" || m.role === "developer").map((m) => m.content)]);
}
