import { describe, expect, it } from "vitest";
import { authMethodsFrom, authStatusFrom, imageLimitsFrom, initialAgentConfig, sessionCapabilitiesFrom, steeringAdvertised } from "./agent-config";

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

describe("auth methods", () => {
  it("takes the agent's terminal-auth hint as the command (claude-agent-acp / pi-acp shape)", () => {
    const init = {
      authMethods: [
        {
          id: "claude-ai-login",
          name: "Claude Subscription",
          description: "Use Claude subscription ",
          type: "terminal",
          _meta: { "terminal-auth": { command: "/usr/bin/node", args: ["/opt/claude agent/index.js", "--cli", "auth", "login"], label: "Claude Login" } },
        },
      ],
    };
    expect(initialAgentConfig(init, {}, "claude, then /login").authMethods).toEqual([
      {
        id: "claude-ai-login",
        name: "Claude Subscription",
        description: "Use Claude subscription",
        command: "/usr/bin/node '/opt/claude agent/index.js' --cli auth login",
      },
    ]);
  });
  it("falls back to the preset's login command (codex-acp sends no hint)", () => {
    const codex = [{ id: "api-key", name: "Use OPENAI_API_KEY", description: "Requires setting the `OPENAI_API_KEY` environment variable." }];
    expect(authMethodsFrom(codex, "codex login")).toEqual([
      { id: "api-key", name: "Use OPENAI_API_KEY", description: "Requires setting the `OPENAI_API_KEY` environment variable.", command: "codex login" },
    ]);
  });
  it("skips malformed entries and reads v2's methodId", () => {
    expect(authMethodsFrom([null, { name: "no id" }, { methodId: "m", name: "M" }])).toEqual([{ id: "m", name: "M", description: null, command: null }]);
    expect(authMethodsFrom("nope")).toEqual([]);
  });
  it("_auth/status_update: kind none is logged out", () => {
    expect(authStatusFrom({ authStatus: { kind: "none", label: "Not logged in" } })).toEqual({ loggedOut: true, label: "Not logged in" });
    expect(authStatusFrom({ authStatus: { kind: "apiKey", label: "API key" } })).toEqual({ loggedOut: false, label: "API key" });
    expect(authStatusFrom({})).toBeNull();
  });
});

describe("the agent's own sessions (sessionCapabilities)", () => {
  it("reads list / fork / delete / close from the captured initialize answers", async () => {
    const { readFileSync } = await import("node:fs");
    const caps = (agent: string) => {
      const line = readFileSync(new URL(`../../../test/fixtures/acp-captures/${agent}.jsonl`, import.meta.url), "utf8")
        .split("\n")
        .find((l) => l.includes('"agentCapabilities"'))!;
      const find = (o: unknown): unknown =>
        o && typeof o === "object" ? ("agentCapabilities" in o ? o : Object.values(o).map(find).find(Boolean)) : undefined;
      return sessionCapabilitiesFrom(find(JSON.parse(line)));
    };
    expect(caps("claude")).toEqual({ list: true, fork: true, delete: true, close: true });
    expect(caps("codex")).toEqual({ list: true, fork: true, delete: true, close: true });
    expect(caps("opencode")).toEqual({ list: true, fork: true, delete: false, close: true });
    expect(caps("gemini")).toEqual({ list: false, fork: false, delete: false, close: false });
  });
  it("a non-object entry is not an offer", () => {
    expect(sessionCapabilitiesFrom({ agentCapabilities: { sessionCapabilities: { list: true, fork: null } } })).toMatchObject({ list: false, fork: false });
  });
});

describe("image prompts and embedded files (promptCapabilities, an agent's own image limits)", () => {
  const init = async (agent: string) => {
    const { readFileSync } = await import("node:fs");
    const line = readFileSync(new URL(`../../../test/fixtures/acp-captures/${agent}.jsonl`, import.meta.url), "utf8")
      .split("\n")
      .find((l) => l.includes('"agentCapabilities"'))!;
    const find = (o: unknown): unknown => (o && typeof o === "object" ? ("agentCapabilities" in o ? o : Object.values(o).map(find).find(Boolean)) : undefined);
    return find(JSON.parse(line));
  };
  it("qwen states its own limits in _meta.imageCapability; claude states none", async () => {
    const qwen = initialAgentConfig(await init("qwen"), {});
    expect(qwen).toMatchObject({ images: true, embeddedContext: true, imageLimits: { maxBytes: 10380902, maxImagesPerTurn: 4 } });
    const claude = initialAgentConfig(await init("claude"), {});
    expect(claude.images).toBe(true);
    expect(claude.imageLimits).toBeNull();
  });
  it("a malformed statement is no limit", () => {
    expect(imageLimitsFrom({ maxBytes: "big", maxImagesPerTurn: -1 })).toBeNull();
    expect(imageLimitsFrom({ maxImagesPerTurn: 2 })).toEqual({ maxImagesPerTurn: 2 });
  });
});
