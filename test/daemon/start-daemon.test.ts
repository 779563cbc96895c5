import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { sendFrame, useMachineServers, type Conn } from "./fake-machine";
import { FAST_DEMO_ENV, useDaemons, useTmpDirs } from "./host-harness";
import { BATON_BIN } from "../../scripts/baton-bin.mjs";

const TOKEN = "tok-abcdef-0123456789";
/** One step's limit (a spawned CLI under tsx starts in seconds on a loaded 2-core machine; 8 s was missed there). */
const STEP_MS = 20_000;
/** A test of several such steps. */
const TEST_MS = 90_000;
const events = (c: Conn): DaemonEvent[] => c.frames.flatMap((f) => (f.type === "event" ? [f.event] : []));

const tempDir = useTmpDirs();
const machineServer = useMachineServers();
const startDaemon = useDaemons();

describe("startDaemon (in-process) against a fake Machine DO", () => {
  it("advertises the demo agent, runs a session through the tunnel and acks commands", async () => {
    const srv = await machineServer();
    const root = tempDir("baton-root-");
    const state = tempDir("baton-state-");
    const logs: string[] = [];
    const daemon = await startDaemon({
      server: srv.url,
      token: TOKEN,
      roots: [root, path.join(root, "missing")],
      agents: ["demo"],
      demoEnv: { ...FAST_DEMO_ENV, DEMO_STATE_DIR: state },
      logSink: (_l, line) => logs.push(line),
      hostname: "box-1",
    });
    await srv.until(() => srv.conns[0]?.frames.length === 1);
    const conn = srv.conns[0]!;
    const hello = conn.frames[0]!;
    expect(hello).toMatchObject({ type: "hello", hostname: "box-1", roots: [root], sessions: [], lastSeenDown: 0 });
    if (hello.type !== "hello") throw new Error("unreachable");
    expect(hello.agents.map((a) => a.id)).toEqual(["demo"]);
    expect(hello.agents[0]!.capabilities).toMatchObject({ loadSession: true, steering: true, modes: true, configOptions: true, images: true });
    sendFrame(conn.ws, { type: "welcome", machineId: "m1", lastSeenUp: 0 });
    await daemon.connected(3000);

    sendFrame(conn.ws, { type: "command", n: 1, command: { t: "session.open", sessionId: "s1", agentId: "demo", cwd: root } });
    await srv.until(() => events(conn).some((e) => e.t === "session.ready"), STEP_MS);
    sendFrame(conn.ws, { type: "command", n: 2, command: { t: "prompt", sessionId: "s1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "hi there" }] } });
    sendFrame(conn.ws, { type: "command", n: 2, command: { t: "prompt", sessionId: "s1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "hi there" }] } }); // resend
    sendFrame(conn.ws, { type: "command", n: 3, command: { t: "nonsense", sessionId: "s1" } });
    await srv.until(() => events(conn).some((e) => e.t === "turn.ended"), STEP_MS);
    const ended = events(conn).find((e) => e.t === "turn.ended");
    expect(ended).toMatchObject({ turnId: "t1", stopReason: "end_turn" });
    expect(events(conn).filter((e) => e.t === "turn.started")).toHaveLength(1);
    expect(events(conn).some((e) => e.t === "command.failed" && e.command === "nonsense")).toBe(true);
    const acks = conn.frames.flatMap((f) => (f.type === "ack" ? [f.n] : []));
    expect(acks).toEqual([1, 2, 2, 3]);
    const ns = conn.frames.flatMap((f) => (f.type === "event" ? [f.n] : []));
    expect(ns).toEqual(ns.map((_, i) => i + 1));

    // a reconnect reports the live session and what was processed
    conn.ws.terminate();
    await srv.until(() => srv.conns[1]?.frames.length === 1, STEP_MS);
    expect(srv.conns[1]!.frames[0]).toMatchObject({
      type: "hello",
      epoch: daemon.epoch,
      lastSeenDown: 3,
      sessions: [{ sessionId: "s1", agentId: "demo", cwd: root, busy: false }],
    });
    expect(logs.some((l) => l.includes("does not exist"))).toBe(true);
    expect(logs.join("\n")).not.toContain(TOKEN);
  }, TEST_MS);
});

const BIN = BATON_BIN;

describe("baton CLI (spawned)", () => {
  it("refuses a missing explicit config file with a clear message (exit 2)", async () => {
    const child = spawn(process.execPath, [BIN, "daemon", "--server", "http://127.0.0.1:9"], {
      env: { ...process.env, BATON_TOKEN: TOKEN, BATON_CONFIG: "/nonexistent/baton.json" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stderr.on("data", (d) => (output += String(d)));
    const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
    expect(code).toBe(2);
    expect(output).toContain("cannot read config file /nonexistent/baton.json");
    expect(output).not.toContain(TOKEN);
  });

  it.skipIf(process.platform !== "linux")("runs a session from the real CLI and kills the agent process on SIGTERM", async () => {
    const srv = await machineServer();
    const root = tempDir("baton-root-");
    const state = tempDir("baton-state-");
    const cfgDir = tempDir("baton-cfg-");
    fs.writeFileSync(path.join(cfgDir, "config.json"), JSON.stringify({ server: srv.url, roots: [root] }));
    const child = spawn(process.execPath, [BIN, "daemon", "--config", path.join(cfgDir, "config.json"), "--agent", "demo"], {
      env: { ...process.env, BATON_TOKEN: TOKEN, BATON_SERVER: "", BATON_ROOTS: "", ...FAST_DEMO_ENV, DEMO_STATE_DIR: state },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stderr.on("data", (d) => (output += String(d)));
    child.stdout.on("data", (d) => (output += String(d)));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    try {
      await srv.until(() => srv.conns[0]?.frames.length === 1, STEP_MS);
      const conn = srv.conns[0]!;
      expect(conn.headers["x-baton-machine-token"]).toBe(TOKEN);
      sendFrame(conn.ws, { type: "welcome", machineId: "m1", lastSeenUp: 0 });
      sendFrame(conn.ws, { type: "command", n: 1, command: { t: "session.open", sessionId: "s1", agentId: "demo", cwd: root } });
      await srv.until(() => events(conn).some((e) => e.t === "session.ready"), STEP_MS);
      sendFrame(conn.ws, { type: "command", n: 2, command: { t: "prompt", sessionId: "s1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "sleep 100" }] } });
      await srv.until(() => events(conn).some((e) => e.t === "turn.started"), STEP_MS);
      const agentPids = fs
        .readdirSync("/proc")
        .filter((p) => /^\d+$/.test(p))
        .filter((p) => {
          try {
            return fs.readFileSync(`/proc/${p}/cmdline`, "utf8").match(/demo-agent(\/main\.ts|\.mjs)/) !== null && fs.readFileSync(`/proc/${p}/environ`, "utf8").includes(state);
          } catch {
            return false;
          }
        })
        .map(Number);
      expect(agentPids).toHaveLength(1);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      const alive = (pid: number) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      const until = Date.now() + 3000;
      while (alive(agentPids[0]!) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(alive(agentPids[0]!)).toBe(false);
      expect(output).toContain("[baton] connected to ws://127.0.0.1");
      expect(output).not.toContain(TOKEN);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, TEST_MS);
});
