import { describe, expect, it } from "vitest";
import { HistoryReplay } from "./history-replay";
import { silentLogger } from "../log";

describe("history replay after session/load", () => {
  it("drops history kinds only while active; live kinds always pass; settled once quiet", async () => {
    const h = new HistoryReplay("s1", silentLogger);
    expect(h.drops("agent_message_chunk")).toBe(false);
    h.start();
    expect(["user_message_chunk", "agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "plan"].map((k) => h.drops(k))).toEqual([true, true, true, true, true, true]);
    expect(["current_mode_update", "config_option_update", "available_commands_update", "usage_update"].map((k) => h.drops(k))).toEqual([false, false, false, false]);
    const t0 = Date.now();
    await h.settled(30, 1000, () => true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
    h.end();
    expect(h.drops("agent_message_chunk")).toBe(false);
  });
});
