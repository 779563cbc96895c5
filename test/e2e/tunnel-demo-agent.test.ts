// The product path end to end without a browser: viewer socket → SessionRoom → Machine → tunnel →
// real `baton daemon` process → real demo agent subprocess over stdio, and back.
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { figure } from "../figure";
import { useStack } from "./file-stack";
import { FAST_DEMO, NO_LOAD_AGENT, NodeViewer, openIdleSession, text, waitFor } from "./support";
import { BATON_BIN } from "../../scripts/baton-bin.mjs";

// The daemon dials through a loopback relay so a test can cut the tunnel without touching the process.
const e2e = useStack({ daemonEnv: FAST_DEMO, stack: { tunnelProxy: true, noLoadAgent: true } });

describe("viewer ⇄ tunnel ⇄ daemon ⇄ demo agent", () => {
  it("a prompt runs on the demo agent and streams back; a mid-turn message is held until idle", async () => {
    const { v } = await openIdleSession(e2e.stack.url);
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
    const { v } = await openIdleSession(e2e.stack.url);
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
    const { v } = await openIdleSession(e2e.stack.url);
    await v.op({ op: "message.send", id: "p1", blocks: text("permission") });
    const req = await waitFor(() => v.ofKind("permission_request")[0], "permission request");
    const allow = req.options.find((o) => o.kind === "allow_once")!;
    expect(await v.op({ op: "permission.respond", requestId: req.requestId, optionId: allow.optionId })).toMatchObject({ result: { outcome: "accepted" } });
    await waitFor(() => v.ofKind("session_status").some((s) => s.state === "idle" && s.stopReason === "end_turn"), "turn end");
    v.close();
  });

  it("the daemon process crashing mid-turn: the turn is reported lost, the session resumes, queue kept", async () => {
    const { sessionId, v } = await openIdleSession(e2e.stack.url);
    await v.op({ op: "message.send", id: "k0", blocks: text("before the crash") });
    await waitFor(() => v.ofKind("session_status").some((s) => s.state === "idle" && s.stopReason === "end_turn"), "first turn end");
    await v.op({ op: "message.send", id: "k1", blocks: text("sleep 40") });
    await v.op({ op: "message.send", id: "k2", blocks: text("after restart") });
    await waitFor(() => v.agentText().includes("… 1/40"), "long turn running");
    const t0 = Date.now();
    await e2e.stack.restartDaemon("SIGKILL");
    await waitFor(() => v.ofKind("turn_error").some((e) => e.code === "AGENT_RESTARTED"), "restart reported", 30_000);
    await waitFor(() => v.agentText().includes("after restart"), "queued prompt ran on the new daemon", 30_000);
    const ms = Date.now() - t0;
    expect(v.ofKind("notice").some((n) => n.level === "info" && /resumed/.test(n.text))).toBe(true);
    expect(v.ofKind("user_message").map((m) => m.id)).toEqual(["k0", "k1", "k2"]);
    // session/load replays the agent's history to the daemon; the room already has it, so none of it reappears.
    expect(v.agentText().split("before the crash").length - 1).toBe(1);
    const late = await new NodeViewer(e2e.stack.url, sessionId).open();
    expect(late.agentText()).toBe(v.agentText());
    late.close();
    figure("daemon SIGKILL mid-turn, agent with session/load (real stack)", "1 restart", "turn reported lost, session resumed, queued prompt ran once", ms);
    v.close();
  });

  it("the daemon crashing mid-turn on an agent without session/load: a clear 'agent restarted' state, a fresh session, the queued prompt runs", async () => {
    const { sessionId, v } = await openIdleSession(e2e.stack.url, NO_LOAD_AGENT);
    await v.op({ op: "message.send", id: "n1", blocks: text("sleep 40") });
    await v.op({ op: "message.send", id: "n2", blocks: text("after restart without load") });
    await waitFor(() => v.agentText().includes("… 1/40"), "long turn running");
    const t0 = Date.now();
    await e2e.stack.restartDaemon("SIGKILL");
    const lost = await waitFor(() => v.ofKind("turn_error").find((e) => e.code === "AGENT_RESTARTED"), "restart reported", 30_000);
    expect(lost.message).toMatch(/agent restarted/i);
    const fresh = await waitFor(() => v.ofKind("notice").find((n) => /could not resume/.test(n.text)), "not-resumed notice", 30_000);
    expect(fresh.level).toBe("warn");
    expect(v.ofKind("notice").some((n) => n.level === "info" && /resumed/.test(n.text))).toBe(false);
    await waitFor(() => v.agentText().includes("after restart without load"), "queued prompt ran in the fresh agent session", 30_000);
    await waitFor(() => v.status() === "idle", "idle after the queued prompt");
    const ms = Date.now() - t0;
    expect(v.ofKind("user_message").map((m) => m.id)).toEqual(["n1", "n2"]);
    // A viewer arriving now sees the same story: the lost turn, the warning, then the queued prompt's reply.
    const late = await new NodeViewer(e2e.stack.url, sessionId).open();
    expect(late.ofKind("turn_error").map((e) => e.code)).toEqual(["AGENT_RESTARTED"]);
    expect(late.ofKind("notice").map((n) => n.level)).toEqual(["warn"]);
    expect(late.agentText()).toBe(v.agentText());
    figure("daemon SIGKILL mid-turn, agent without session/load (real stack)", "1 restart", "AGENT_RESTARTED + 'could not resume' warning, queued prompt ran once", ms);
    late.close();
    v.close();
  });

  it("cutting the tunnel (the daemon process lives) 3 times mid-turn: every agent event arrives exactly once, in order", async () => {
    const { v } = await openIdleSession(e2e.stack.url);
    // 10 s of turn (250 ms a unit) with the cuts in its first 2: on a loaded machine the viewer sees a unit late,
    // and a 3 s turn could end — its queued follow-up too — before the last cut, leaving nothing to resume.
    const UNITS = 40;
    const CUTS = 3;
    await v.op({ op: "message.send", id: "c1", blocks: text(`sleep ${UNITS}`) });
    await v.op({ op: "message.send", id: "c2", blocks: text("after the cuts") });
    const resumeMs: number[] = [];
    let cut = 0;
    for (let i = 0; i < CUTS; i++) {
      await waitFor(() => v.agentText().includes(`… ${2 + i * 3}/${UNITS}`), `progress before cut ${i + 1}`);
      // Events already past the tunnel can reach the viewer after a cut: a resumed stream is not yet a new tunnel.
      await waitFor(() => e2e.stack.liveTunnels() > 0, `a tunnel to cut (${i + 1})`, 30_000);
      const before = v.ofKind("acp").length;
      const t0 = Date.now();
      cut += e2e.stack.cutTunnel();
      // Converged: the agent's output flows again through a new tunnel.
      await waitFor(() => v.ofKind("acp").length > before, `stream resumes after cut ${i + 1}`, 30_000);
      resumeMs.push(Date.now() - t0);
    }
    expect(cut).toBeGreaterThanOrEqual(CUTS);
    await waitFor(() => v.agentText().includes("after the cuts"), "queued prompt ran", 30_000);
    await waitFor(() => v.status() === "idle", "idle");
    // The long turn's text, between its echo and the next one: each unit line once, in order.
    const turnText: string[] = [];
    let current: string | null = null;
    for (const e of v.events()) {
      if (e.kind === "user_message") current = e.id;
      else if (e.kind === "acp" && current === "c1" && e.update.sessionUpdate === "agent_message_chunk") turnText.push((e.update as any).content.text);
    }
    const units = Array.from({ length: UNITS }, (_, i) => `… ${i + 1}/${UNITS}\n`);
    expect(turnText.slice(0, UNITS + 1)).toEqual([`Sleeping for ${UNITS} units…\n`, ...units]);
    expect(turnText.slice(UNITS + 1)).toEqual([expect.stringMatching(/^Done sleeping/)]);
    const seqs = v.frames.flatMap((f) => (f.type === "event" ? [f.seq] : []));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(v.ofKind("user_message").map((m) => m.id)).toEqual(["c1", "c2"]);
    const worst = Math.max(...resumeMs);
    figure("tunnel cut mid-turn, daemon alive (real stack)", `${CUTS} cuts`, `${turnText.length} agent events, 0 lost, 0 duplicated`, worst);
    v.close();
  });

  it("a clean daemon restart (SIGTERM) mid-turn ends the turn, resumes the session and runs the queued prompt", async () => {
    const { v } = await openIdleSession(e2e.stack.url);
    await v.op({ op: "message.send", id: "g1", blocks: text("sleep 40") });
    await v.op({ op: "message.send", id: "g2", blocks: text("after clean restart") });
    const t0 = Date.now();
    await e2e.stack.restartDaemon("SIGTERM");
    await waitFor(() => v.agentText().includes("after clean restart"), "queued prompt ran after restart", 30_000);
    expect(v.ofKind("user_message").map((m) => m.id)).toEqual(["g1", "g2"]);
    figure("daemon SIGTERM mid-turn (real stack)", "1 restart", "session resumed, queued prompt ran once", Date.now() - t0);
    v.close();
  });

  // Last in this file (its own stack): it leaves the stack's machine to the daemons started here.
  it("two daemons on one token do not flap: the replaced one says once which daemon took over and stands by", async () => {
    const start = (name: string) => {
      const lines: string[] = [];
      const child = spawn(process.execPath, [BATON_BIN, "daemon", "--server", e2e.stack.url, "--root", tmpdir()], {
        env: { ...process.env, BATON_TOKEN: e2e.stack.token, BATON_CAPABILITIES_FILE: join(tmpdir(), `baton-caps-${name}-${process.pid}.json`) },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout.on("data", (d) => lines.push(...String(d).split("\n").filter(Boolean)));
      child.stderr.on("data", (d) => lines.push(...String(d).split("\n").filter(Boolean)));
      return { child, lines, text: () => lines.join("\n") };
    };
    const first = start("first");
    let second: ReturnType<typeof start> | null = null;
    try {
      await waitFor(() => /connected to/.test(first.text()), "the first daemon connected", 30_000);
      second = start("second");
      const other = second;
      await waitFor(() => /took it over/.test(first.text()), "the first daemon is told it was replaced", 30_000);
      // Long enough for the old behaviour (reconnect in ~0.3 s, evict the other, …) to flap many times.
      await new Promise((r) => setTimeout(r, 5_000));
      const told = first.lines.filter((l) => /took it over/.test(l));
      expect(told).toHaveLength(1);
      expect(told[0]).toContain(`pid ${other.child.pid}`);
      expect(first.lines.filter((l) => /tunnel closed|reconnecting/.test(l))).toEqual([]);
      expect(other.lines.filter((l) => /connected to/.test(l))).toHaveLength(1);
      expect(other.lines.filter((l) => /tunnel closed|took it over|reconnecting/.test(l))).toEqual([]);
    } finally {
      first.child.kill("SIGKILL");
      second?.child.kill("SIGKILL");
    }
  });
});
