import { describe, expect, it } from "vitest";
import { initialAgentConfig, steeringAdvertised } from "./agent-config";

describe("steering detection", () => {
  it("reads the top-level _meta where claude-agent-acp and codex-acp put it", () => {
    // Shape of claude-agent-acp 0.101 / codex-acp 2.6 `initialize` results (abridged).
    const claude = { protocolVersion: 1, agentCapabilities: { loadSession: true, _meta: { claudeCode: { promptQueueing: true } } }, _meta: { steering: { supported: true } } };
    expect(steeringAdvertised(claude)).toBe(true);
    expect(initialAgentConfig(claude, {}).steering).toBe(true);
  });
  it("still reads agentCapabilities._meta", () => {
    expect(steeringAdvertised({ agentCapabilities: { _meta: { steering: { supported: true } } } })).toBe(true);
  });
  it("is false when absent, false, or malformed", () => {
    expect(steeringAdvertised({ agentCapabilities: {} })).toBe(false);
    expect(steeringAdvertised({ _meta: { steering: { supported: false } } })).toBe(false);
    expect(steeringAdvertised({ _meta: { steering: true } })).toBe(false);
    expect(steeringAdvertised(null)).toBe(false);
  });
});
