// The ACP host against the real Gemini CLI (pinned 0.61, scripted fake model, offline): what a machine
// without credentials sees, and what reattaching after the agent process is gone gives.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { AGENT_PRESETS, type ResolvedAgent } from "../../daemon/src/agent-presets";
import { createSessionHost, type SessionHost } from "../../daemon/src/session-host";
import { geminiArgv, geminiEnv, geminiHome } from "../fixtures/gemini/gemini-launch";
import { agentText, makeRecorder, tmpDir, type Recorder } from "./host-harness";

/** Gemini's start (config, tools, policy) takes seconds, more on a loaded machine. */
const GEMINI_MS = 60_000;

function geminiAgent(home: string, apiKey: string | null): ResolvedAgent {
  const preset = AGENT_PRESETS.find((p) => p.id === "gemini")!;
  const [command, ...args] = geminiArgv();
  return { info: { id: "gemini", label: preset.label, capabilities: preset.capabilities }, launch: { command: command!, args, env: geminiEnv(home, apiKey) } };
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function host(agent: ResolvedAgent, root: string): { host: SessionHost; rec: Recorder } {
  const rec = makeRecorder();
  const h = createSessionHost({ agents: [agent], roots: [root], emit: (e) => rec.push(e) });
  cleanup.push(() => h.closeAll());
  return { host: h, rec };
}

async function opened(rec: Recorder, sessionId: string): Promise<DaemonEvent> {
  return rec.waitFor((e) => (e.t === "session.ready" || e.t === "session.failed") && e.sessionId === sessionId, GEMINI_MS);
}

describe("ACP host ⇄ real Gemini CLI", () => {
  it("no credentials: the session fails with Gemini's own explanation", async () => {
    const base = tmpDir("baton-gemini-unit-");
    cleanup.push(() => fs.rmSync(base, { recursive: true, force: true }));
    const { host: h, rec } = host(geminiAgent(geminiHome(base), null), base);
    h.handle({ t: "session.open", sessionId: "nokey", agentId: "gemini", cwd: base });
    const e = await opened(rec, "nokey");
    expect(e).toMatchObject({ t: "session.failed", message: expect.stringMatching(/API key is missing/i) });
  }, GEMINI_MS + 10_000);

  it("Gemini 0.61 advertises session/load but cannot reload after its process is gone: the daemon opens a new session that works", async () => {
    const base = tmpDir("baton-gemini-unit-");
    cleanup.push(() => fs.rmSync(base, { recursive: true, force: true }));
    // An auth type chosen in settings, so session/load gets past its auth check to the actual loading.
    const home = geminiHome(base, { security: { auth: { selectedType: "gemini-api-key" } } });
    const workspace = path.join(base, "workspace");
    fs.mkdirSync(workspace);

    const first = host(geminiAgent(home, "dummy"), base);
    first.host.handle({ t: "session.open", sessionId: "s1", agentId: "gemini", cwd: workspace });
    const ready = await opened(first.rec, "s1");
    if (ready.t !== "session.ready") throw new Error(`open failed: ${JSON.stringify(ready)}`);
    expect(ready.resumed).toBe(false);
    first.host.handle({ t: "prompt", sessionId: "s1", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "hello" }] });
    expect(await first.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t1", GEMINI_MS)).toMatchObject({ stopReason: "end_turn" });
    expect(agentText(first.rec, "s1")).toContain("Hello from Gemini");
    await first.host.closeAll(); // the agent process is gone, as after a daemon restart

    // Reattach: Gemini answers session/load with "No previous sessions found for this project." (0.61 re-initialises
    // the chat file of the id it is asked to load before reading it), so the daemon falls back to session/new.
    // If a Gemini upgrade fixes that, this turns into resumed: true with the history replayed.
    const second = host(geminiAgent(home, "dummy"), base);
    second.host.handle({ t: "session.open", sessionId: "s1", agentId: "gemini", cwd: workspace, agentSessionId: ready.agentSessionId });
    const again = await opened(second.rec, "s1");
    if (again.t !== "session.ready") throw new Error(`reopen failed: ${JSON.stringify(again)}`);
    expect(again.resumed).toBe(false);
    expect(again.agentSessionId).not.toBe(ready.agentSessionId);
    second.host.handle({ t: "prompt", sessionId: "s1", turnId: "t2", messageId: "m2", blocks: [{ type: "text", text: "hello again" }] });
    expect(await second.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t2", GEMINI_MS)).toMatchObject({ stopReason: "end_turn" });
    expect(agentText(second.rec, "s1")).toContain("Hello from Gemini");
  }, 3 * GEMINI_MS);
});
