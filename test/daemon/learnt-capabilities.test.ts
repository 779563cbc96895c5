/** Capabilities learnt from a session's initialize replace the static preset's, are cached and announced. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { capabilitiesFrom } from "../../daemon/src/agent/agent-config";
import { sendFrame, useMachineServers } from "./fake-machine";
import { FAST_DEMO_ENV, useDaemons, useTmpDirs } from "./host-harness";

const TOKEN = "tok-abcdef-0123456789";
const tempDir = useTmpDirs();
const machineServer = useMachineServers();
const startDaemon = useDaemons();

describe("capabilitiesFrom", () => {
  it("reads what claude-agent-acp / codex-acp answer (top-level steering, sessionCapabilities.resume)", () => {
    const init = {
      agentCapabilities: { loadSession: true, promptCapabilities: { image: true }, sessionCapabilities: { resume: {}, list: {} } },
      _meta: { steering: { supported: true } },
    };
    const session = { sessionId: "s", modes: { currentModeId: "default", availableModes: [{ id: "default", name: "Default" }] }, configOptions: [{ id: "model" }] };
    expect(capabilitiesFrom(init, session)).toEqual({
      loadSession: true,
      resume: true,
      modes: true,
      configOptions: true,
      steering: true,
      images: true,
      // sessionCapabilities (issue 26): what "Continue a past session", Fork and the agent-side delete offer.
      list: true,
      fork: false,
      delete: false,
      close: false,
    });
    expect(capabilitiesFrom({}, {})).toEqual({ loadSession: false, resume: false, modes: false, configOptions: false, steering: false, images: false, list: false, fork: false, delete: false, close: false });
  });
});

describe("learnt capabilities (daemon + fake Machine)", () => {
  it("after a session the agents frame corrects the preset, the file keeps it, and the next hello carries it", async () => {
    const srv = await machineServer();
    const root = tempDir("baton-root-");
    const state = tempDir("baton-state-");
    const conf = tempDir("baton-conf-");
    const capabilitiesFile = path.join(conf, "agent-capabilities.json");
    const start = () =>
      startDaemon({
        server: srv.url,
        token: TOKEN,
        roots: [root],
        agents: ["demo"],
        // An agent without session/load: the preset says it has it.
        demoEnv: { ...FAST_DEMO_ENV, DEMO_STATE_DIR: state, DEMO_LOAD_SESSION: "0" },
        logSink: () => {},
        capabilitiesFile,
      });
    let daemon = await start();
    await srv.until(() => srv.conns[0]?.frames.length === 1);
    const conn = srv.conns[0]!;
    const hello = conn.frames[0]!;
    if (hello.type !== "hello") throw new Error("unreachable");
    expect(hello.agents[0]!.capabilities.loadSession).toBe(true);
    sendFrame(conn.ws, { type: "welcome", machineId: "m1", lastSeenUp: 0 });
    await daemon.connected(3000);
    sendFrame(conn.ws, { type: "command", n: 1, command: { t: "session.open", sessionId: "s1", agentId: "demo", cwd: root } });
    await srv.until(() => conn.frames.some((f) => f.type === "agents"), 8000);
    const frame = conn.frames.find((f) => f.type === "agents");
    if (!frame || frame.type !== "agents") throw new Error("no agents frame");
    expect(frame.agents).toEqual([
      {
        id: "demo",
        label: "Demo agent",
        capabilities: { loadSession: false, resume: false, modes: true, configOptions: true, steering: true, images: true, list: true, fork: true, delete: true, close: false },
      },
    ]);
    expect(daemon.agents[0]!.capabilities.loadSession).toBe(false);
    expect(JSON.parse(fs.readFileSync(capabilitiesFile, "utf8"))).toEqual({ demo: frame.agents[0]!.capabilities });
    // A second session learns the same: no second frame.
    sendFrame(conn.ws, { type: "command", n: 2, command: { t: "session.open", sessionId: "s2", agentId: "demo", cwd: root } });
    await srv.until(() => conn.frames.some((f) => f.type === "event" && f.event.t === "session.ready" && f.event.sessionId === "s2"), 8000);
    expect(conn.frames.filter((f) => f.type === "agents")).toHaveLength(1);

    await daemon.stop();
    daemon = await start();
    await srv.until(() => srv.conns[1]?.frames.length === 1);
    const again = srv.conns[1]!.frames[0]!;
    if (again.type !== "hello") throw new Error("unreachable");
    expect(again.agents[0]!.capabilities.loadSession).toBe(false);
  });
});
