import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentText, makeHostFixture, type HostFixture } from "./host-harness";
import { silentLogger } from "../../daemon/src/log";
import type { MachineCommand } from "../../shared/tunnel-protocol";

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
    // The command list follows session/new (like every real agent): relayed, outside the turn.
    const commands = f.rec.events.find((e) => e.t === "session.update" && e.update.sessionUpdate === "available_commands_update");
    expect(commands && commands.t === "session.update" && (commands.update.availableCommands as unknown[]).length).toBe(5);
    const kinds = f.rec.events.filter((e) => e.sessionId === "s1" && e !== commands).map((e) => e.t);
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

describe("ACP host: scripted turns", () => {
  let f: HostFixture;
  beforeEach(() => {
    f = makeHostFixture();
  });
  afterEach(async () => {
    await f.close();
  });

  it("cancel during a pending permission request answers it cancelled and ends the turn cancelled", async () => {
    await f.open("p1");
    f.send({ t: "prompt", sessionId: "p1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "permission please" }] });
    const req = await f.rec.waitFor((e) => e.t === "permission.request");
    if (req.t !== "permission.request") throw new Error("unreachable");
    expect(req.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    expect(req.toolCall).toMatchObject({ title: "Run `rm -rf build/`", kind: "execute" });
    f.send({ t: "cancel", sessionId: "p1" });
    const ended = await f.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t1");
    expect(ended).toMatchObject({ stopReason: "cancelled" });
    const cancelled = f.rec.of("permission.cancelled", "p1");
    expect(cancelled.map((c) => c.requestId)).toEqual([req.requestId]);
    // permission.cancelled precedes the turn end
    expect(f.rec.events.indexOf(cancelled[0]!)).toBeLessThan(f.rec.events.indexOf(ended));
  });

  it("a permission answer reaches the agent, which reports the chosen option", async () => {
    await f.open("p2");
    f.send({ t: "prompt", sessionId: "p2", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "permission" }] });
    const req = await f.rec.waitFor((e) => e.t === "permission.request");
    if (req.t !== "permission.request") throw new Error("unreachable");
    f.send({ t: "permission.respond", sessionId: "p2", requestId: req.requestId, optionId: "allow_always" });
    const ended = await f.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t1");
    expect(ended).toMatchObject({ stopReason: "end_turn" });
    expect(agentText(f.rec, "p2")).toContain("You chose **allow_always** (Always allow)");
    // a second answer to the settled request is ignored quietly
    f.send({ t: "permission.respond", sessionId: "p2", requestId: req.requestId, optionId: "reject_once" });
    expect(f.rec.of("command.failed")).toEqual([]);
  });

  it("cancel during `sleep 30` ends the turn promptly", async () => {
    // Real-second units here: the point is that cancel does not wait for the sleep.
    await f.close();
    f = makeHostFixture({ env: { DEMO_SLEEP_UNIT_MS: "1000" } });
    await f.open("c1");
    f.send({ t: "prompt", sessionId: "c1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "sleep 30" }] });
    await f.rec.waitFor((e) => e.t === "session.update" && JSON.stringify(e.update).includes("… 1/30"));
    const t0 = Date.now();
    f.send({ t: "cancel", sessionId: "c1" });
    const ended = await f.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t1", 5000);
    expect(ended).toMatchObject({ stopReason: "cancelled" });
    // Seconds, not the 29 left of the sleep (a loaded machine's round trip to the agent process takes its time).
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it("a prompt while a turn runs is refused with command.failed (race backstop)", async () => {
    await f.open("b1");
    f.send({ t: "prompt", sessionId: "b1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "sleep 4" }] });
    await f.rec.waitFor((e) => e.t === "turn.started");
    f.send({ t: "prompt", sessionId: "b1", turnId: "t2", messageId: "m2", blocks: [{ type: "text", text: "second" }] });
    const failed = await f.rec.waitFor((e) => e.t === "command.failed");
    expect(failed).toMatchObject({ sessionId: "b1", command: "prompt" });
    expect(f.rec.of("turn.started").map((e) => e.turnId)).toEqual(["t1"]);
    expect((await f.rec.waitFor((e) => e.t === "turn.ended")).t).toBe("turn.ended");
  });

  it("a prompt forwarded again with its turn id (a room reset mid-forward) runs once, whether running or ended", async () => {
    await f.open("d1");
    const prompt: Extract<MachineCommand, { t: "prompt" }> = { t: "prompt", sessionId: "d1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "sleep 2" }] };
    f.send(prompt);
    await f.rec.waitFor((e) => e.t === "turn.started");
    f.send(prompt);
    await f.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t1", 8000);
    f.send(prompt);
    f.send({ ...prompt, turnId: "t2", blocks: [{ type: "text", text: "next" }] });
    await f.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t2", 8000);
    expect(f.rec.of("turn.started", "d1").map((e) => e.turnId)).toEqual(["t1", "t2"]);
    expect(f.rec.of("command.failed", "d1")).toEqual([]);
  });

  it("config change mid-turn: the running turn keeps the old value, the next turn has the new one", async () => {
    await f.open("k1");
    f.send({ t: "prompt", sessionId: "k1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "config 4" }] });
    await f.rec.waitFor((e) => e.t === "session.update" && JSON.stringify(e.update).includes("… 1/4"));
    f.send({ t: "config.set", sessionId: "k1", configId: "model", value: "demo-smart" });
    const state = await f.rec.waitFor((e) => e.t === "config.state");
    if (state.t !== "config.state") throw new Error("unreachable");
    expect(state.config.configOptions.find((o) => o.id === "model")).toMatchObject({ currentValue: "demo-smart" });
    // the write landed before the turn ended
    expect(f.rec.of("turn.ended")).toEqual([]);
    await f.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t1");
    expect(agentText(f.rec, "k1")).toContain("Config for this turn: model: demo-fast, mode: code, thought_level: medium");

    f.send({ t: "mode.set", sessionId: "k1", modeId: "architect" });
    const modeState = await f.rec.waitFor((e) => e.t === "config.state" && e.config.modes?.currentModeId === "architect");
    expect(modeState.t).toBe("config.state");
    const mark = f.rec.events.length;
    await f.turn("k1", "t2", "config");
    expect(agentText(f.rec, "k1", mark)).toContain("Config for this turn: model: demo-smart, mode: architect, thought_level: medium");
  });

  it("a bad config write fails the command, not the session", async () => {
    await f.open("k2");
    f.send({ t: "config.set", sessionId: "k2", configId: "model", value: "no-such-model" });
    const failed = await f.rec.waitFor((e) => e.t === "command.failed");
    expect(failed).toMatchObject({ command: "config.set" });
    expect(f.rec.of("config.state")).toEqual([]);
    expect((await f.turn("k2", "t1", "hi")).stopReason).toBe("end_turn");
  });

  it("relays an update kind the SDK schema does not know, raw", async () => {
    await f.open("u1");
    await f.turn("u1", "t1", "unknown");
    const custom = f.rec.of("session.update", "u1").find((e) => e.update.sessionUpdate === "_demo_custom");
    expect(custom?.update).toEqual({ sessionUpdate: "_demo_custom", payload: { answer: 42, note: "a kind the schema does not know" } });
  });

  it("relays tool calls, plans and thoughts in order", async () => {
    await f.open("x1");
    await f.turn("x1", "t1", "tool");
    const tool = f.rec.of("session.update", "x1").map((e) => e.update).filter((u) => u.sessionUpdate.startsWith("tool_call"));
    expect(tool.map((u) => [u.sessionUpdate, u.status])).toEqual([
      ["tool_call", "pending"],
      ["tool_call_update", "in_progress"],
      ["tool_call_update", "completed"],
    ]);
    expect(JSON.stringify(tool[2])).toContain('"type":"diff"');

    await f.turn("x1", "t2", "plan");
    const plans = f.rec.of("session.update", "x1").map((e) => e.update).filter((u) => u.sessionUpdate === "plan");
    const last = plans[plans.length - 1] as unknown as { entries: { status: string }[] };
    expect(plans.length).toBeGreaterThan(3);
    expect(last.entries.map((e) => e.status)).toEqual(["completed", "completed", "completed"]);

    const mark = f.rec.events.length;
    await f.turn("x1", "t3", "think");
    const kinds = f.rec.events.slice(mark).flatMap((e) => (e.t === "session.update" ? [e.update.sessionUpdate] : []));
    expect(kinds[0]).toBe("agent_thought_chunk");
    expect(kinds.lastIndexOf("agent_thought_chunk")).toBeLessThan(kinds.indexOf("agent_message_chunk"));
  });

  it("a JSON-RPC error from session/prompt ends the turn with stopReason error", async () => {
    await f.open("e1");
    const ended = await f.turn("e1", "t1", "error");
    expect(ended.stopReason).toBe("error");
    expect(ended.error).toContain("failed on purpose");
    expect((await f.turn("e1", "t2", "still alive?")).stopReason).toBe("end_turn");
  });

  it("steering: injected mid-turn (and visible), promptRequired when idle", async () => {
    await f.open("st1");
    f.send({ t: "steer", sessionId: "st1", entryId: "q0", blocks: [{ type: "text", text: "idle steer" }] });
    expect(await f.rec.waitFor((e) => e.t === "steer.result" && e.entryId === "q0")).toMatchObject({ outcome: "promptRequired" });

    f.send({ t: "prompt", sessionId: "st1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "sleep 6" }] });
    await f.rec.waitFor((e) => e.t === "session.update" && JSON.stringify(e.update).includes("… 1/6"));
    f.send({ t: "steer", sessionId: "st1", entryId: "q1", blocks: [{ type: "text", text: "also add tests" }] });
    expect(await f.rec.waitFor((e) => e.t === "steer.result" && e.entryId === "q1")).toMatchObject({ outcome: "injected" });
    await f.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t1");
    expect(agentText(f.rec, "st1")).toContain("↪ steered: also add tests");
  });

  it("burst N streams N chunks in order; an image prompt is accepted", async () => {
    await f.open("bu1");
    await f.turn("bu1", "t1", "burst 300");
    const chunks = f.rec.of("session.update", "bu1").filter((e) => e.update.sessionUpdate === "agent_message_chunk");
    expect(chunks).toHaveLength(300);
    const mark = f.rec.events.length;
    f.send({
      t: "prompt",
      sessionId: "bu1",
      turnId: "t2",
      messageId: "m2",
      blocks: [
        { type: "text", text: "look at this" },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
      ],
    });
    expect(await f.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t2", undefined, mark)).toMatchObject({ stopReason: "end_turn" });
    expect(agentText(f.rec, "bu1", mark)).toContain("I received 1 image (image/png).");
  });

  it("a re-sent session.open for a live session answers session.ready again without a new process", async () => {
    const first = await f.open("ro1");
    const pid = f.host.session("ro1")!.pid;
    const again = await f.open("ro1");
    expect(again.agentSessionId).toBe(first.agentSessionId);
    expect(f.host.session("ro1")!.pid).toBe(pid);
  });

  it("session.close mid-turn ends the turn, cancels pending permissions and kills the agent", async () => {
    await f.open("cl1");
    f.send({ t: "prompt", sessionId: "cl1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "permission" }] });
    const req = await f.rec.waitFor((e) => e.t === "permission.request");
    const pid = f.host.session("cl1")!.pid!;
    f.send({ t: "session.close", sessionId: "cl1" });
    expect(await f.rec.waitFor((e) => e.t === "turn.ended")).toMatchObject({ stopReason: "cancelled" });
    expect(f.rec.of("permission.cancelled").map((e) => e.requestId)).toEqual([(req as { requestId: string }).requestId]);
    const until = Date.now() + 3000;
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive() && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect(alive()).toBe(false);
    expect(f.rec.of("session.failed")).toEqual([]);
    f.send({ t: "prompt", sessionId: "cl1", turnId: "t2", messageId: "m2", blocks: [{ type: "text", text: "x" }] });
    expect(await f.rec.waitFor((e) => e.t === "command.failed")).toMatchObject({ message: "no such session on this machine" });
  });

  it("legacy models: model.set goes through session/set_model and updates config.models", async () => {
    await f.close();
    f = makeHostFixture({ env: { DEMO_LEGACY_MODELS: "1" } });
    const ready = await f.open("lm1");
    expect(ready.config.models?.currentModelId).toBe("demo-fast");
    f.send({ t: "model.set", sessionId: "lm1", modelId: "demo-smart" });
    const state = await f.rec.waitFor((e) => e.t === "config.state");
    expect(state).toMatchObject({ config: { models: { currentModelId: "demo-smart" } } });
  });
});

describe("ACP host: session lifecycle", () => {
  let f: HostFixture;
  afterEach(async () => {
    await f.close();
  });

  it("steering absent with DEMO_STEERING=0: config.steering false and steer fails", async () => {
    f = makeHostFixture({ env: { DEMO_STEERING: "0" } });
    const ready = await f.open("ns1");
    expect(ready.config.steering).toBe(false);
    f.send({ t: "steer", sessionId: "ns1", entryId: "q1", blocks: [{ type: "text", text: "x" }] });
    expect(await f.rec.waitFor((e) => e.t === "steer.result")).toMatchObject({ outcome: "failed" });
  });

  it("cwd outside the allowed roots → session.failed, no process", async () => {
    f = makeHostFixture();
    for (const [id, cwd] of [
      ["o1", "/"],
      ["o2", `${f.root}/../`],
      ["o3", `${f.root}/does-not-exist`],
      ["o4", "relative/path"],
    ] as const) {
      f.send({ t: "session.open", sessionId: id, agentId: "demo", cwd });
      const failed = await f.rec.waitFor((e) => e.t === "session.failed" && e.sessionId === id);
      expect(failed.t).toBe("session.failed");
      expect(f.host.session(id)).toBeUndefined();
    }
    f.send({ t: "session.open", sessionId: "o5", agentId: "nope", cwd: f.root });
    expect(await f.rec.waitFor((e) => e.t === "session.failed" && e.sessionId === "o5")).toMatchObject({ message: expect.stringContaining("not available") });
  });

  it("a symlink inside a root pointing outside it is refused", async () => {
    f = makeHostFixture();
    const { symlinkSync } = await import("node:fs");
    symlinkSync("/", `${f.root}/escape`);
    f.send({ t: "session.open", sessionId: "sy1", agentId: "demo", cwd: `${f.root}/escape` });
    expect(await f.rec.waitFor((e) => e.t === "session.failed")).toMatchObject({ message: expect.stringContaining("outside the allowed roots") });
  });

  it("session/load in a fresh agent process resumes it; the agent's history replay is not relayed (the room has it)", async () => {
    const lines: string[] = [];
    f = makeHostFixture({ log: { ...silentLogger, info: (l) => lines.push(l) } });
    const first = await f.open("l1");
    await f.turn("l1", "t1", "remember the word pineapple");
    f.send({ t: "config.set", sessionId: "l1", configId: "thought_level", value: "high" });
    await f.rec.waitFor((e) => e.t === "config.state");
    f.send({ t: "session.close", sessionId: "l1" });
    await new Promise((r) => setTimeout(r, 100));

    const mark = f.rec.events.length;
    f.send({ t: "session.open", sessionId: "l2", agentId: "demo", cwd: f.root, agentSessionId: first.agentSessionId });
    const ready = await f.rec.waitFor((e) => e.t === "session.ready" && e.sessionId === "l2");
    expect(ready).toMatchObject({ resumed: true, agentSessionId: first.agentSessionId });
    if (ready.t !== "session.ready") throw new Error("unreachable");
    expect(ready.config.configOptions.find((o) => o.id === "thought_level")).toMatchObject({ currentValue: "high" });
    // The demo agent did replay its stored history (prompt + reply); none of it is relayed.
    const relayed = f.rec.events.slice(mark).filter((e) => e.t === "session.update" && e.sessionId === "l2");
    expect(relayed.map((e) => e.t === "session.update" && e.update.sessionUpdate)).toEqual(["available_commands_update"]);
    // The resumed session is live: the next turn streams as usual.
    await f.turn("l2", "t2", "after the reload");
    const dropped = lines.find((l) => l.startsWith("session l2:") && l.includes("replayed history updates not relayed"));
    expect(Number(/(\d+) replayed/.exec(dropped ?? "")?.[1])).toBeGreaterThanOrEqual(2);
    expect(agentText(f.rec, "l2", mark)).toContain("after the reload");
    expect(agentText(f.rec, "l2", mark)).not.toContain("pineapple");
  });

  it("an agent without session/load (DEMO_LOAD_SESSION=0) opens a new session on reattach (resumed false)", async () => {
    f = makeHostFixture({ env: { DEMO_LOAD_SESSION: "0" } });
    const first = await f.open("nl1");
    f.send({ t: "session.close", sessionId: "nl1" });
    await new Promise((r) => setTimeout(r, 100));
    const ready = await f.open("nl2", { agentSessionId: first.agentSessionId });
    expect(ready.resumed).toBe(false);
    expect(ready.agentSessionId).not.toBe(first.agentSessionId);
  });

  it("an unknown agentSessionId falls back to a new session (resumed false)", async () => {
    f = makeHostFixture();
    f.send({ t: "session.open", sessionId: "l3", agentId: "demo", cwd: f.root, agentSessionId: "gone-session" });
    const ready = await f.rec.waitFor((e) => e.t === "session.ready");
    expect(ready).toMatchObject({ resumed: false });
    if (ready.t === "session.ready") expect(ready.agentSessionId).not.toBe("gone-session");
  });

  it("an agent crash mid-turn ends the turn with an error and fails the session; the host lives on", async () => {
    f = makeHostFixture();
    await f.open("cr1");
    f.send({ t: "prompt", sessionId: "cr1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "sleep 40" }] });
    await f.rec.waitFor((e) => e.t === "session.update" && JSON.stringify(e.update).includes("… 1/40"));
    process.kill(f.host.session("cr1")!.pid!, "SIGKILL");
    const ended = await f.rec.waitFor((e) => e.t === "turn.ended");
    expect(ended).toMatchObject({ stopReason: "error", error: expect.stringMatching(/^agent exited/) });
    expect(await f.rec.waitFor((e) => e.t === "session.failed")).toMatchObject({ sessionId: "cr1", message: expect.stringMatching(/^agent exited/) });
    f.send({ t: "prompt", sessionId: "cr1", turnId: "t2", messageId: "m2", blocks: [{ type: "text", text: "hello" }] });
    expect(await f.rec.waitFor((e) => e.t === "command.failed")).toMatchObject({ command: "prompt" });
    // a new open for the same session id starts over
    await f.open("cr1");
    expect((await f.turn("cr1", "t3", "back")).stopReason).toBe("end_turn");
  });

  it("an agent that dies during startup → session.failed with its exit status", async () => {
    f = makeHostFixture();
    const { createSessionHost } = await import("../../daemon/src/agent/session-host");
    const { makeRecorder } = await import("./host-harness");
    const rec = makeRecorder();
    const host = createSessionHost({
      agents: [
        { info: { id: "bad", label: "bad", capabilities: demoCaps }, launch: { command: process.execPath, args: ["-e", "console.error('boom: no api key'); process.exit(3)"] } },
        { info: { id: "missing", label: "missing", capabilities: demoCaps }, launch: { command: "/nonexistent/agent-binary", args: [] } },
      ],
      roots: [f.root],
      emit: (e) => rec.push(e),
    });
    host.handle({ t: "session.open", sessionId: "d1", agentId: "bad", cwd: f.root });
    expect(await rec.waitFor((e) => e.t === "session.failed" && e.sessionId === "d1")).toMatchObject({ message: "agent exited (code 3): boom: no api key" });
    host.handle({ t: "session.open", sessionId: "d2", agentId: "missing", cwd: f.root });
    expect(await rec.waitFor((e) => e.t === "session.failed" && e.sessionId === "d2")).toMatchObject({ message: expect.stringContaining("could not start") });
    expect(rec.of("session.failed", "d1")).toHaveLength(1);
    await host.closeAll();
  });
});

const demoCaps = { loadSession: false, resume: false, modes: false, configOptions: false, steering: false, images: false };
