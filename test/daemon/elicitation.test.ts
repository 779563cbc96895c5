/** ACP form elicitation end to end with the demo agent's `ask` (what claude's AskUserQuestion sends). */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentText, makeHostFixture, type HostFixture } from "./host-harness";

describe("elicitation (form) through the daemon", () => {
  let f: HostFixture;
  beforeEach(() => {
    f = makeHostFixture();
  });
  afterEach(async () => {
    await f.close();
  });

  it("the daemon advertises form elicitation; the form reaches the machine and the answer reaches the agent", async () => {
    await f.open("e1");
    f.send({ t: "prompt", sessionId: "e1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "ask" }] });
    const req = await f.rec.waitFor((e) => e.t === "elicitation.request");
    if (req.t !== "elicitation.request") throw new Error("unreachable");
    expect(req.message).toBe("A few questions before I scaffold the project");
    expect(Object.keys((req.requestedSchema as { properties: object }).properties)).toEqual(["name", "language", "size", "workers", "tests", "extras"]);
    f.send({ t: "elicitation.respond", sessionId: "e1", requestId: req.requestId, action: "accept", content: { name: "demo", language: "ts", extras: ["ci"] } });
    const ended = await f.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t1");
    expect(ended).toMatchObject({ stopReason: "end_turn" });
    expect(agentText(f.rec, "e1")).toContain('You answered: {"name":"demo","language":"ts","extras":["ci"]}');
    // a second answer is ignored quietly
    f.send({ t: "elicitation.respond", sessionId: "e1", requestId: req.requestId, action: "decline" });
    expect(f.rec.of("command.failed")).toEqual([]);
  });

  it("decline reaches the agent", async () => {
    await f.open("e2");
    f.send({ t: "prompt", sessionId: "e2", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "ask" }] });
    const req = await f.rec.waitFor((e) => e.t === "elicitation.request");
    if (req.t !== "elicitation.request") throw new Error("unreachable");
    f.send({ t: "elicitation.respond", sessionId: "e2", requestId: req.requestId, action: "decline" });
    await f.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t1");
    expect(agentText(f.rec, "e2")).toContain("You chose **decline**");
  });

  it("Stop while the form is open cancels it (elicitation.cancelled before the turn end)", async () => {
    await f.open("e3");
    f.send({ t: "prompt", sessionId: "e3", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "ask" }] });
    const req = await f.rec.waitFor((e) => e.t === "elicitation.request");
    f.send({ t: "cancel", sessionId: "e3" });
    const ended = await f.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t1");
    expect(ended).toMatchObject({ stopReason: "cancelled" });
    const cancelled = f.rec.of("elicitation.cancelled", "e3");
    expect(cancelled.map((c) => c.requestId)).toEqual([req.t === "elicitation.request" ? req.requestId : ""]);
    expect(f.rec.events.indexOf(cancelled[0]!)).toBeLessThan(f.rec.events.indexOf(ended));
  });
});
