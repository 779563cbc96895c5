/** Test harness: a SessionHost with the real demo agent (real process, real stdio) and an event recorder. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { DaemonEvent, type MachineCommand } from "../../shared/tunnel-protocol";
import { AGENT_PRESETS, demoLaunch, type ResolvedAgent } from "../../daemon/src/agent/agent-presets";
import { createSessionHost, type SessionHost } from "../../daemon/src/agent/session-host";
import type { SessionTimeouts } from "../../daemon/src/agent/session-timeouts";
import type { Logger } from "../../daemon/src/log";
import { startDaemon, type RunningDaemon } from "../../daemon/src/index";

export type Recorder = {
  events: DaemonEvent[];
  push(e: DaemonEvent): void;
  /** Resolves with the first event (at index ≥ `from`) matching `pred`, past or future. */
  waitFor(pred: (e: DaemonEvent) => boolean, timeoutMs?: number, from?: number): Promise<DaemonEvent>;
  of<K extends DaemonEvent["t"]>(t: K, sessionId?: string): Extract<DaemonEvent, { t: K }>[];
};

export function makeRecorder(): Recorder {
  const events: DaemonEvent[] = [];
  let waiters: { pred: (e: DaemonEvent) => boolean; resolve(e: DaemonEvent): void }[] = [];
  return {
    events,
    push(e) {
      // Every event must be valid on the wire (the Machine DO parses with the same schema).
      const parsed = DaemonEvent.safeParse(e);
      if (!parsed.success) throw new Error(`invalid DaemonEvent ${JSON.stringify(e)}: ${parsed.error.message}`);
      events.push(e);
      waiters = waiters.filter((w) => (w.pred(e) ? (w.resolve(e), false) : true));
    },
    waitFor(pred: (e: DaemonEvent) => boolean, timeoutMs = 8000, from = 0): Promise<DaemonEvent> {
      const hit = events.slice(from).find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting; events so far: ${JSON.stringify(events.map((e) => e.t))}`)), timeoutMs);
        waiters.push({ pred, resolve: (e) => (clearTimeout(timer), resolve(e)) });
      });
    },
    of(t, sessionId) {
      return events.filter((e) => e.t === t && (!sessionId || e.sessionId === sessionId)) as never;
    },
  } as Recorder;
}

/** Test pacing: fast chunks and 50 ms "seconds" keep each test to a second or two. */
export const FAST_DEMO_ENV = { DEMO_PACE_MS: "2", DEMO_SLEEP_UNIT_MS: "50" };

export function tmpDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/**
 * tmpDir whose directories go after each test (an afterEach; after hooks run in reverse, so register this
 * before a hook that stops what still writes in them).
 */
/** startDaemon whose daemons stop after the test that started them (an afterEach: see useTmpDirs on order). */
export function useDaemons(): typeof startDaemon {
  const started: RunningDaemon[] = [];
  afterEach(async () => {
    for (const d of started.splice(0)) await d.stop();
  });
  return async (options) => {
    const d = await startDaemon(options);
    started.push(d);
    return d;
  };
}

export function useTmpDirs(): (prefix: string) => string {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = tmpDir(prefix);
    made.push(dir);
    return dir;
  };
}

export function demoAgent(env: Record<string, string>): ResolvedAgent {
  const preset = AGENT_PRESETS.find((p) => p.id === "demo")!;
  return { info: { id: "demo", label: preset.label, capabilities: preset.capabilities }, launch: demoLaunch(env) };
}

export type HostFixture = {
  host: SessionHost;
  rec: Recorder;
  root: string;
  stateDir: string;
  send(cmd: MachineCommand): void;
  open(sessionId: string, extra?: Partial<Extract<MachineCommand, { t: "session.open" }>>): Promise<Extract<DaemonEvent, { t: "session.ready" }>>;
  /** Sends a text prompt and waits for its turn.ended. */
  turn(sessionId: string, turnId: string, text: string, timeoutMs?: number): Promise<Extract<DaemonEvent, { t: "turn.ended" }>>;
  close(): Promise<void>;
};

export function makeHostFixture(
  opts: { env?: Record<string, string>; timeouts?: Partial<SessionTimeouts>; log?: Logger; snapshot?: (cwd: string) => Promise<string | null> } = {},
): HostFixture {
  const root = tmpDir("baton-root-");
  const stateDir = tmpDir("baton-demo-state-");
  const rec = makeRecorder();
  const host = createSessionHost({
    agents: [demoAgent({ ...FAST_DEMO_ENV, DEMO_STATE_DIR: stateDir, ...(opts.env ?? {}) })],
    roots: [root],
    emit: (e) => rec.push(e),
    timeouts: opts.timeouts,
    log: opts.log,
    ...(opts.snapshot ? { snapshot: opts.snapshot } : {}),
  });
  const send = (cmd: MachineCommand) => host.handle(cmd);
  return {
    host,
    rec,
    root,
    stateDir,
    send,
    async open(sessionId, extra = {}) {
      const mark = rec.events.length;
      send({ t: "session.open", sessionId, agentId: "demo", cwd: root, ...extra });
      const e = await rec.waitFor((x) => (x.t === "session.ready" || x.t === "session.failed") && x.sessionId === sessionId, undefined, mark);
      if (e.t !== "session.ready") throw new Error(`open failed: ${JSON.stringify(e)}`);
      return e;
    },
    async turn(sessionId, turnId, text, timeoutMs) {
      const mark = rec.events.length;
      send({ t: "prompt", sessionId, turnId, messageId: `m-${turnId}`, blocks: [{ type: "text", text }] });
      return (await rec.waitFor((x) => x.t === "turn.ended" && x.turnId === turnId, timeoutMs, mark)) as Extract<DaemonEvent, { t: "turn.ended" }>;
    },
    async close() {
      await host.closeAll();
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** The text of all agent_message_chunk updates of a session, in order. */
export function agentText(rec: Recorder, sessionId: string, from = 0): string {
  return rec.events
    .slice(from)
    .filter((e): e is Extract<DaemonEvent, { t: "session.update" }> => e.t === "session.update" && e.sessionId === sessionId)
    .filter((e) => e.update.sessionUpdate === "agent_message_chunk")
    .map((e) => {
      const c = (e.update as { content?: { type?: string; text?: string } }).content;
      return c?.type === "text" ? (c.text ?? "") : "";
    })
    .join("");
}
