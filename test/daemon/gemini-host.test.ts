// The ACP host against the real Gemini CLI (pinned 0.61, scripted fake model, offline): what a machine
// without credentials sees, and what reattaching after the agent process is gone gives.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { AGENT_PRESETS, type ResolvedAgent } from "../../daemon/src/agent/agent-presets";
import { createSessionHost, type SessionHost } from "../../daemon/src/agent/session-host";
import { silentLogger } from "../../daemon/src/log";
import { ensureGemini, GEMINI_INSTALL_MS, geminiArgv, geminiEnv, geminiHome } from "../fixtures/gemini/gemini-launch";
import { agentText, makeRecorder, tmpDir, type Recorder } from "./host-harness";

/** Gemini's start (config, tools, policy) takes seconds, more on a loaded machine. */
const GEMINI_MS = 60_000;

function geminiAgent(home: string, apiKey: string | null): ResolvedAgent {
  const preset = AGENT_PRESETS.find((p) => p.id === "gemini")!;
  const [command, ...args] = geminiArgv();
  return { info: { id: "gemini", label: preset.label, capabilities: preset.capabilities }, launch: { command: command!, args, env: geminiEnv(home, apiKey) } };
}

beforeAll(ensureGemini, GEMINI_INSTALL_MS);

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function host(agent: ResolvedAgent, root: string, logged?: string[]): { host: SessionHost; rec: Recorder } {
  const rec = makeRecorder();
  const log = { ...silentLogger, info: (l: string) => logged?.push(l) };
  const h = createSessionHost({ agents: [agent], roots: [root], emit: (e) => rec.push(e), log });
  cleanup.push(() => h.closeAll());
  return { host: h, rec };
}

/** Gemini's main-session chat files under a home (…/.gemini/tmp/<project>/chats/session-*.jsonl). */
function chatFiles(home: string): string[] {
  return (fs.readdirSync(home, { recursive: true }) as string[])
    .filter((f) => path.basename(path.dirname(f)) === "chats" && /^session-.*\.jsonl?$/.test(path.basename(f)))
    .map((f) => path.join(home, f));
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

  it("reattach after the agent process is gone: Gemini reloads its session (history not relayed again); with its history gone the daemon opens a new session that works", async () => {
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

    // Gemini names a chat file by the minute it opened it (session-YYYY-MM-DDTHH-MM-<id8>.jsonl), and on
    // session/load first opens a fresh file for the same id: within the same minute that is the same file and
    // the history reads as empty ("No previous sessions found"). A daemon restart normally comes minutes
    // later; dating the file back makes this run say so, whatever minute the test lands in.
    const chat = chatFiles(home).filter((f) => f.includes(`-${ready.agentSessionId.slice(0, 8)}.json`));
    expect(chat).toHaveLength(1);
    fs.renameSync(chat[0]!, chat[0]!.replace(/session-\d{4}-\d\d-\d\dT\d\d-\d\d-/, "session-2026-01-01T00-00-"));

    const logged: string[] = [];
    const second = host(geminiAgent(home, "dummy"), base, logged);
    second.host.handle({ t: "session.open", sessionId: "s1", agentId: "gemini", cwd: workspace, agentSessionId: ready.agentSessionId });
    const again = await opened(second.rec, "s1");
    if (again.t !== "session.ready") throw new Error(`reopen failed: ${JSON.stringify(again)}`);
    expect(again).toMatchObject({ resumed: true, agentSessionId: ready.agentSessionId });
    second.host.handle({ t: "prompt", sessionId: "s1", turnId: "t2", messageId: "m2", blocks: [{ type: "text", text: "hello again" }] });
    expect(await second.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t2", GEMINI_MS)).toMatchObject({ stopReason: "end_turn" });
    // Gemini replayed the conversation (after answering the load); the room has it already, so none of it is relayed.
    const replayed = Number(/(\d+) replayed history updates not relayed/.exec(logged.find((l) => l.includes("replayed history")) ?? "")?.[1]);
    expect(replayed).toBeGreaterThanOrEqual(1);
    expect(second.rec.events.filter((e) => e.t === "session.update" && e.update.sessionUpdate === "user_message_chunk")).toEqual([]);
    expect(agentText(second.rec, "s1")).toContain("Hello from Gemini");
    await second.host.closeAll();

    // History lost (a wiped ~/.gemini): Gemini refuses the load, the daemon falls back to session/new.
    for (const f of chatFiles(home)) fs.rmSync(f);
    const third = host(geminiAgent(home, "dummy"), base);
    third.host.handle({ t: "session.open", sessionId: "s1", agentId: "gemini", cwd: workspace, agentSessionId: ready.agentSessionId });
    const fresh = await opened(third.rec, "s1");
    if (fresh.t !== "session.ready") throw new Error(`reopen failed: ${JSON.stringify(fresh)}`);
    expect(fresh.resumed).toBe(false);
    expect(fresh.agentSessionId).not.toBe(ready.agentSessionId);
    third.host.handle({ t: "prompt", sessionId: "s1", turnId: "t3", messageId: "m3", blocks: [{ type: "text", text: "hello once more" }] });
    expect(await third.rec.waitFor((e) => e.t === "turn.ended" && e.turnId === "t3", GEMINI_MS)).toMatchObject({ stopReason: "end_turn" });
    expect(agentText(third.rec, "s1")).toContain("Hello from Gemini");
  }, 4 * GEMINI_MS);
});
