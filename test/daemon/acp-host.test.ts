import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentText, makeHostFixture, type HostFixture } from "./host-harness";

describe("ACP host with the real demo agent", () => {
  let f: HostFixture;
  beforeEach(() => {
    f = makeHostFixture();
  });
  afterEach(async () => {
    await f.close();
  });

  it("opens a session and streams a markdown prompt in order, ending with end_turn", async () => {
    const ready = await f.open("s1");
    expect(ready.resumed).toBe(false);
    expect(ready.agentSessionId).toMatch(/.+/);
    expect(ready.config.modes?.currentModeId).toBe("code");
    expect(ready.config.configOptions.map((o) => o.id)).toEqual(["model", "thought_level"]);
    expect(ready.config.steering).toBe(true);
    expect(ready.config.images).toBe(true);
    expect(ready.config.models).toBeNull();

    const ended = await f.turn("s1", "t1", "hello *world*");
    expect(ended.stopReason).toBe("end_turn");
    expect(ended.error ?? null).toBeNull();
    const kinds = f.rec.events.filter((e) => e.sessionId === "s1").map((e) => e.t);
    expect(kinds[0]).toBe("session.ready");
    expect(kinds[1]).toBe("turn.started");
    expect(kinds[kinds.length - 1]).toBe("turn.ended");
    expect(kinds.filter((k) => k === "session.update").length).toBeGreaterThan(5);
    const text = agentText(f.rec, "s1");
    expect(text.startsWith("## Demo reply\n")).toBe(true);
    expect(text).toContain("```ts\nfunction greet(name: string): string {\n");
    expect(text).toContain("> hello *world*");
    expect(text.endsWith("`burst 1000`.")).toBe(true);
  });
});
