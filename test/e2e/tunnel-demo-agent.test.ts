// The product path end to end without a browser: viewer socket → SessionRoom → Machine → tunnel →
// real `baton daemon` process → real demo agent subprocess over stdio, and back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, NodeViewer, type Stack, startTestStack, waitFor } from "./support";

let stack: Stack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

const text = (t: string) => [{ type: "text" as const, text: t }];

describe("viewer ⇄ tunnel ⇄ daemon ⇄ demo agent", () => {
  it("a prompt runs on the demo agent and streams back; a mid-turn message is held until idle", async () => {
    const sessionId = await createSession(stack.url);
    const v = await new NodeViewer(stack.url, sessionId).open();
    await waitFor(() => v.status() === "idle", "session ready");
    const cfg = v.ofKind("config_state").at(-1)!.config;
    expect(cfg.configOptions.map((o) => o["category"])).toEqual(expect.arrayContaining(["model", "thought_level"]));
    expect(cfg.modes?.availableModes.length).toBeGreaterThan(0);

    expect(await v.op({ op: "message.send", id: "e1", blocks: text("hello baton") })).toMatchObject({ result: { queued: false } });
    await waitFor(() => v.ofKind("session_status").some((s) => s.state === "idle" && s.stopReason === "end_turn"), "turn end");
    expect(v.agentText()).toContain("hello baton");

    // Long turn; a message sent meanwhile parks and runs after, once.
    await v.op({ op: "message.send", id: "e2", blocks: text("sleep 4") });
    expect(await v.op({ op: "message.send", id: "e3", blocks: text("after the sleep") })).toMatchObject({ result: { queued: true } });
    await waitFor(() => v.ofKind("user_message").some((m) => m.id === "e3"), "flush of e3", 30_000);
    await waitFor(() => v.agentText().includes("after the sleep"), "e3 answered", 30_000);
    expect(v.ofKind("user_message").map((m) => m.id)).toEqual(["e1", "e2", "e3"]);
    v.close();
  });

  it("Stop cancels a long turn promptly and drops the queue", async () => {
    const sessionId = await createSession(stack.url);
    const v = await new NodeViewer(stack.url, sessionId).open();
    await waitFor(() => v.status() === "idle", "session ready");
    await v.op({ op: "message.send", id: "s1", blocks: text("sleep 30") });
    await v.op({ op: "message.send", id: "s2", blocks: text("never") });
    const stop = await v.op({ op: "turn.cancel" });
    expect(stop).toMatchObject({ result: { outcome: "cancelled", dropped: [{ id: "s2" }] } });
    await waitFor(() => v.ofKind("session_status").some((s) => s.state === "idle" && s.stopReason === "cancelled"), "cancelled", 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(v.ofKind("user_message").map((m) => m.id)).toEqual(["s1"]);
    v.close();
  });

  it("a permission request is answered from the viewer", async () => {
    const sessionId = await createSession(stack.url);
    const v = await new NodeViewer(stack.url, sessionId).open();
    await waitFor(() => v.status() === "idle", "session ready");
    await v.op({ op: "message.send", id: "p1", blocks: text("permission") });
    const req = await waitFor(() => v.ofKind("permission_request")[0], "permission request");
    const allow = req.options.find((o) => o.kind === "allow_once")!;
    expect(await v.op({ op: "permission.respond", requestId: req.requestId, optionId: allow.optionId })).toMatchObject({ result: { outcome: "accepted" } });
    await waitFor(() => v.ofKind("session_status").some((s) => s.state === "idle" && s.stopReason === "end_turn"), "turn end");
    v.close();
  });

  it("the daemon process crashing mid-turn: the turn is reported lost, the session resumes, queue kept", async () => {
    const sessionId = await createSession(stack.url);
    const v = await new NodeViewer(stack.url, sessionId).open();
    await waitFor(() => v.status() === "idle", "session ready");
    await v.op({ op: "message.send", id: "k1", blocks: text("sleep 40") });
    await v.op({ op: "message.send", id: "k2", blocks: text("after restart") });
    await stack.restartDaemon("SIGKILL");
    await waitFor(() => v.ofKind("turn_error").some((e) => e.code === "AGENT_RESTARTED"), "restart reported", 30_000);
    await waitFor(() => v.agentText().includes("after restart"), "queued prompt ran on the new daemon", 30_000);
    expect(v.ofKind("notice").some((n) => /resumed/.test(n.text))).toBe(true);
    v.close();
  });

  it("a clean daemon restart (SIGTERM) mid-turn ends the turn, resumes the session and runs the queued prompt", async () => {
    const sessionId = await createSession(stack.url);
    const v = await new NodeViewer(stack.url, sessionId).open();
    await waitFor(() => v.status() === "idle", "session ready");
    await v.op({ op: "message.send", id: "g1", blocks: text("sleep 40") });
    await v.op({ op: "message.send", id: "g2", blocks: text("after clean restart") });
    await stack.restartDaemon("SIGTERM");
    await waitFor(() => v.agentText().includes("after clean restart"), "queued prompt ran after restart", 30_000);
    expect(v.ofKind("user_message").map((m) => m.id)).toEqual(["g1", "g2"]);
    v.close();
  });
});
