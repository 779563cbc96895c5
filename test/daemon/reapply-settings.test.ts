/** After a restart `session/load` reports the agent's defaults: the daemon writes back what the session had. */
import { afterEach, describe, expect, it } from "vitest";
import { agentText, makeHostFixture, type HostFixture } from "./host-harness";

describe("settings re-applied after session/load (demo agent reporting its defaults, like real agents)", () => {
  let f: HostFixture;
  afterEach(async () => {
    await f.close();
  });

  async function firstSession(): Promise<string> {
    const first = await f.open("r1");
    await f.turn("r1", "t1", "remember this");
    f.send({ t: "session.close", sessionId: "r1" });
    await new Promise((r) => setTimeout(r, 100));
    return first.agentSessionId;
  }

  it("mode, select options and a boolean option come back before ready; the next turn runs with them", async () => {
    f = makeHostFixture({ env: { DEMO_LOAD_DEFAULTS: "1", DEMO_EXTRA_OPTIONS: "1" } });
    const agentSessionId = await firstSession();
    const ready = await f.open("r2", {
      agentSessionId,
      restore: { modeId: "architect", modelId: null, options: { model: "demo-smart", thought_level: "high", fast: true, variant: "standard" } },
    });
    expect(ready.resumed).toBe(true);
    expect(ready.config.modes?.currentModeId).toBe("architect");
    const values = Object.fromEntries(ready.config.configOptions.map((o) => [o.id, o.currentValue]));
    expect(values).toMatchObject({ model: "demo-smart", thought_level: "high", fast: true });
    expect(f.rec.of("session.notice", "r2")).toEqual([]);
    const mark = f.rec.events.length;
    await f.turn("r2", "t2", "config");
    expect(agentText(f.rec, "r2", mark)).toContain("model: demo-smart, mode: architect, thought_level: high");
  });

  it("a setting the agent refuses gets a visible warn notice naming it and what it is now", async () => {
    f = makeHostFixture({ env: { DEMO_LOAD_DEFAULTS: "1", DEMO_REFUSE_MODES: "architect" } });
    const agentSessionId = await firstSession();
    const ready = await f.open("r2", { agentSessionId, restore: { modeId: "architect", modelId: null, options: { thought_level: "low" } } });
    expect(ready.config.modes?.currentModeId).toBe("code");
    expect(ready.config.configOptions.find((o) => o.id === "thought_level")?.currentValue).toBe("low");
    const notices = f.rec.of("session.notice", "r2");
    expect(notices.map((n) => [n.level, n.text])).toEqual([["warn", "Mode could not be re-applied after the restart: it is Code, not Architect"]]);
    // after ready, so the room logs it beside its own "resumed" notice
    expect(f.rec.events.indexOf(notices[0]!)).toBeGreaterThan(f.rec.events.indexOf(ready));
  });

  it("a fresh session (no load) ignores restore", async () => {
    f = makeHostFixture({ env: { DEMO_LOAD_DEFAULTS: "1" } });
    const ready = await f.open("r3", { restore: { modeId: "architect", modelId: null, options: {} } });
    expect(ready.resumed).toBe(false);
    expect(ready.config.modes?.currentModeId).toBe("code");
  });
});
