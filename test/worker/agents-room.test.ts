/** Room rules for real agents' needs (issue 16): settings re-applied on reopen, login guidance on failure. */
import { describe, expect, it } from "vitest";
import { DEMO_CONFIG, setupSession, TestDaemon, TestViewer, text, waitFor } from "./harness";

describe("SessionRoom: what real agents need", () => {
  it("a reopen after a daemon restart sends the settings the session had (mode, options) as restore", async () => {
    const { daemon, sessionId, token } = await setupSession();
    const v = await TestViewer.open(sessionId);
    await waitFor(() => v.lastStatus()?.state === "idle", "idle");
    // The user picks another mode and model; the daemon reports the agent's new config.
    await v.op({ op: "config.set", configId: "model", value: "smart" });
    const changed = {
      ...DEMO_CONFIG,
      modes: { ...DEMO_CONFIG.modes!, currentModeId: "ask" },
      configOptions: DEMO_CONFIG.configOptions.map((o) => ({ ...o, currentValue: "smart" })),
    };
    daemon.emit({ t: "config.state", sessionId, config: changed });
    await daemon.settle();
    // First open carried nothing to restore.
    expect(daemon.of("session.open").at(-1)?.restore ?? null).toBeNull();
    daemon.close();
    await waitFor(() => v.lastStatus()?.state === "offline", "offline");
    const fresh = new TestDaemon(token);
    await fresh.connect([]);
    const open = await waitFor(() => fresh.of("session.open").find((c) => c.sessionId === sessionId), "reopen");
    expect(open.agentSessionId).toBe(`agent-${sessionId}`);
    expect(open.restore).toEqual({ modeId: "ask", modelId: null, options: { model: "smart" } });
  });

  it("a daemon notice (a setting not re-applied) is logged for every viewer", async () => {
    const { daemon, sessionId } = await setupSession();
    const v = await TestViewer.open(sessionId);
    daemon.emit({ t: "session.notice", sessionId, level: "warn", text: "Mode could not be re-applied after the restart: it is Code, not Ask" });
    await daemon.settle();
    await waitFor(() => v.ofKind("notice").find((n) => n.text.startsWith("Mode could not")), "notice");
    const late = await TestViewer.open(sessionId);
    expect(late.ofKind("notice").map((n) => [n.level, n.text])).toContainEqual(["warn", "Mode could not be re-applied after the restart: it is Code, not Ask"]);
  });

  it("a session that fails for want of a login carries the agent's authMethods to viewers, also on join", async () => {
    const { daemon, sessionId } = await setupSession();
    daemon.autoReady = false;
    const v = await TestViewer.open(sessionId);
    const authMethods = [{ id: "codex-login", name: "Log in with ChatGPT", description: null, command: "codex login" }];
    daemon.emit({ t: "session.failed", sessionId, message: "Authentication required", authMethods });
    await daemon.settle();
    const status = await waitFor(() => v.ofKind("session_status").find((s) => s.state === "error"), "error status");
    expect(status).toMatchObject({ message: "Authentication required", authMethods });
    const late = await TestViewer.open(sessionId);
    expect(late.lastStatus()).toMatchObject({ state: "error", authMethods });
    // a send is refused with the failure
    expect(await v.op({ op: "message.send", id: "m1", blocks: text("hi") })).toMatchObject({ type: "error" });
  });
});

describe("SessionRoom: agent forms (ACP elicitation)", () => {
  const form = {
    type: "object",
    properties: { name: { type: "string", title: "Name", minLength: 1 }, tests: { type: "boolean", title: "Add tests" } },
    required: ["name"],
  };

  it("every viewer sees the form; an invalid answer is refused; the first valid answer wins and reaches the daemon once", async () => {
    const { daemon, sessionId } = await setupSession();
    const a = await TestViewer.open(sessionId);
    const b = await TestViewer.open(sessionId);
    await a.op({ op: "message.send", id: "m1", blocks: text("ask") });
    daemon.emit({ t: "elicitation.request", sessionId, requestId: "e1", message: "Project?", requestedSchema: form });
    await daemon.settle();
    await waitFor(() => a.ofKind("elicitation_request").length === 1 && b.ofKind("elicitation_request").length === 1, "form on both");
    expect(b.ofKind("elicitation_request")[0]).toMatchObject({ requestId: "e1", message: "Project?", requestedSchema: form });
    expect(await a.op({ op: "elicitation.respond", requestId: "e1", action: "accept", content: { tests: true } })).toMatchObject({
      type: "error",
      code: "BAD_FRAME",
      message: "Name is required",
    });
    const [ra, rb] = await Promise.all([
      a.op({ op: "elicitation.respond", requestId: "e1", action: "accept", content: { name: "demo", tests: true } }),
      b.op({ op: "elicitation.respond", requestId: "e1", action: "decline" }),
    ]);
    const outcomes = [ra, rb].map((r) => (r.type === "ack" ? r.result.outcome : r.code)).sort();
    expect(outcomes).toEqual(["accepted", "already_resolved"]);
    await waitFor(() => daemon.of("elicitation.respond").length === 1, "one answer forwarded");
    await waitFor(() => a.ofKind("elicitation_resolved").length === 1 && b.ofKind("elicitation_resolved").length === 1, "resolved everywhere");
    const resolved = b.ofKind("elicitation_resolved")[0]!;
    expect(resolved.by).not.toBeNull();
    expect(daemon.of("elicitation.respond")[0]).toMatchObject({ requestId: "e1", action: resolved.action });
    expect(await a.op({ op: "elicitation.respond", requestId: "nope", action: "cancel" })).toMatchObject({ type: "error", code: "NOT_FOUND" });
    // a late joiner sees the form answered
    const late = await TestViewer.open(sessionId);
    expect(late.ofKind("elicitation_resolved").map((r) => r.requestId)).toEqual(["e1"]);
  });

  it("Stop: the form still open when the turn ends is cancelled for every viewer (by nobody)", async () => {
    const { daemon, sessionId } = await setupSession();
    const a = await TestViewer.open(sessionId);
    await a.op({ op: "message.send", id: "m1", blocks: text("ask") });
    daemon.emit({ t: "elicitation.request", sessionId, requestId: "e2", message: "Project?", requestedSchema: form });
    await daemon.settle();
    await waitFor(() => a.ofKind("elicitation_request").length === 1, "form");
    await a.op({ op: "turn.cancel" });
    await waitFor(() => daemon.of("cancel").length === 1, "cancel forwarded");
    await daemon.finishTurn(sessionId, "", "cancelled");
    const r = await waitFor(() => a.ofKind("elicitation_resolved")[0], "cancelled");
    expect(r).toMatchObject({ requestId: "e2", action: "cancel", by: null });
    expect(await a.op({ op: "elicitation.respond", requestId: "e2", action: "accept", content: { name: "x" } })).toMatchObject({
      type: "ack",
      result: { outcome: "already_resolved" },
    });
  });

  it("the daemon cancelling a form (turn ended) resolves it once", async () => {
    const { daemon, sessionId } = await setupSession();
    const a = await TestViewer.open(sessionId);
    await a.op({ op: "message.send", id: "m1", blocks: text("ask") });
    daemon.emit({ t: "elicitation.request", sessionId, requestId: "e3", message: "Project?", requestedSchema: form });
    daemon.emit({ t: "elicitation.cancelled", sessionId, requestId: "e3" });
    await daemon.finishTurn(sessionId);
    await waitFor(() => a.lastStatus()?.state === "idle", "idle");
    expect(a.ofKind("elicitation_resolved").map((r) => [r.requestId, r.action, r.by])).toEqual([["e3", "cancel", null]]);
  });
});
