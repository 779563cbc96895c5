// A daemon restart through the real stack: the agent comes back from `session/load` with its defaults (as codex,
// claude and qwen do); the room's reopen carries the session's settings and the daemon writes them back, or says
// which one the agent refused.
import { describe, expect, it } from "vitest";
import { useStack } from "./file-stack";
import { FAST_DEMO, openIdleSession, text, waitFor } from "./support";

const e2e = useStack({ daemonEnv: { ...FAST_DEMO, DEMO_LOAD_DEFAULTS: "1", DEMO_EXTRA_OPTIONS: "1" } });

describe("settings after a daemon restart", () => {
  it("mode, options and a boolean option are re-applied after session/load; the next turn runs with them", async () => {
    const { v } = await openIdleSession(e2e.stack.url);
    await v.op({ op: "mode.set", modeId: "architect" });
    await v.op({ op: "config.set", configId: "thought_level", value: "high" });
    await v.op({ op: "config.set", configId: "fast", value: true });
    const current = () => v.ofKind("config_state").at(-1)?.config;
    const values = () => Object.fromEntries((current()?.configOptions ?? []).map((o) => [o["id"], o["currentValue"]]));
    await waitFor(() => current()?.modes?.currentModeId === "architect" && values()["thought_level"] === "high" && values()["fast"] === true, "settings set");
    await v.op({ op: "message.send", id: "r0", blocks: text("before") });
    await waitFor(() => v.ofKind("session_status").some((s) => s.state === "idle" && s.stopReason === "end_turn"), "first turn");

    await e2e.stack.restartDaemon("SIGKILL");
    await waitFor(() => v.ofKind("notice").some((n) => /resumed/.test(n.text)), "resumed", 60_000);
    expect(current()?.modes?.currentModeId).toBe("architect");
    expect(values()).toMatchObject({ thought_level: "high", fast: true });
    expect(v.ofKind("notice").filter((n) => n.level === "warn")).toEqual([]);
    const mark = v.agentText().length;
    await v.op({ op: "message.send", id: "r1", blocks: text("config") });
    await waitFor(() => v.agentText().slice(mark).includes("Config for this turn"), "config turn", 30_000);
    expect(v.agentText().slice(mark)).toContain("model: demo-fast, mode: architect, thought_level: high");
    v.close();
  });
});
