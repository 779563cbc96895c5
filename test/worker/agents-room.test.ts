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
