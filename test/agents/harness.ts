/**
 * One real agent behind the real SessionHost, against the fake model server, with its ACP traffic recorded
 * (test/e2e/stdio-recorder.mjs sits between the daemon and the agent).
 */
import fs from "node:fs";
import path from "node:path";
import type { DaemonEvent, MachineCommand } from "../../shared/tunnel-protocol";
import { AGENT_PRESETS, type ResolvedAgent } from "../../daemon/src/agent/agent-presets";
import { createSessionHost, type SessionHost } from "../../daemon/src/agent/session-host";
import { silentLogger } from "../../daemon/src/log";
import { makeRecorder, tmpDir, type Recorder } from "../daemon/host-harness";
import type { FakeModel } from "../fake-model/server";
import { agentRun, type AgentId, type AgentRun } from "./launch";

export const STDIO_RECORDER = path.join(import.meta.dirname, "..", "e2e", "stdio-recorder.mjs");

/** One JSON-RPC line as the recorder logged it. */
export type WireLine = { dir: "toAgent" | "fromAgent"; t: number; msg: Record<string, unknown> };

export type Ready = Extract<DaemonEvent, { t: "session.ready" }>;

export type AgentHost = {
  run: AgentRun;
  host: SessionHost;
  rec: Recorder;
  logDir: string;
  send(cmd: MachineCommand): void;
  open(sessionId: string, extra?: Partial<Extract<MachineCommand, { t: "session.open" }>>, timeoutMs?: number): Promise<Ready>;
  prompt(sessionId: string, turnId: string, text: string): number;
  ended(turnId: string, timeoutMs?: number, from?: number): Promise<Extract<DaemonEvent, { t: "turn.ended" }>>;
  /** Waits for the turn's end, approving (allow once) every permission request on the way; returns how many it approved. */
  endedApproving(turnId: string, from: number, timeoutMs?: number): Promise<{ ended: Extract<DaemonEvent, { t: "turn.ended" }>; approved: number }>;
  wire(): WireLine[];
  close(): Promise<void>;
};

/** Real agents start slowly on a loaded 2-core machine (opencode's session/new up to ~9 s alone). */
export const START_MS = 120_000;
export const TURN_MS = 90_000;

export function agentInfo(id: AgentId): ResolvedAgent["info"] {
  const preset = AGENT_PRESETS.find((p) => p.id === id)!;
  return { id, label: preset.label, capabilities: preset.capabilities };
}

/** Starts a SessionHost for agent `id` (nothing is spawned until a session.open). `home` keeps state across a restart. */
export function agentHost(id: AgentId, base: string, model: FakeModel, opts: { home?: string; logDir?: string } = {}): AgentHost {
  const run = agentRun(id, base, model.url, { home: opts.home });
  const logDir = opts.logDir ?? tmpDir(`baton-wire-${id}-`);
  const rec = makeRecorder();
  const launch = { command: process.execPath, args: [STDIO_RECORDER, logDir, "--", run.launch.command, ...run.launch.args], env: run.launch.env };
  const host = createSessionHost({ agents: [{ info: agentInfo(id), launch }], roots: [base], emit: (e) => rec.push(e), log: silentLogger });
  const send = (cmd: MachineCommand) => host.handle(cmd);
  return {
    run,
    host,
    rec,
    logDir,
    send,
    async open(sessionId, extra = {}, timeoutMs = START_MS) {
      const mark = rec.events.length;
      send({ t: "session.open", sessionId, agentId: id, cwd: run.workspace, ...extra });
      const e = await rec.waitFor((x) => (x.t === "session.ready" || x.t === "session.failed") && x.sessionId === sessionId, timeoutMs, mark);
      if (e.t !== "session.ready") throw new Error(`${id}: open failed: ${JSON.stringify(e)}`);
      return e;
    },
    prompt(sessionId, turnId, text) {
      const mark = rec.events.length;
      send({ t: "prompt", sessionId, turnId, messageId: `m-${turnId}`, blocks: [{ type: "text", text }] });
      return mark;
    },
    async ended(turnId, timeoutMs = TURN_MS, from = 0) {
      return (await rec.waitFor((x) => x.t === "turn.ended" && x.turnId === turnId, timeoutMs, from)) as Extract<DaemonEvent, { t: "turn.ended" }>;
    },
    async endedApproving(turnId, from, timeoutMs = TURN_MS) {
      let approved = 0;
      let at = from;
      for (;;) {
        const e = await rec.waitFor((x) => (x.t === "turn.ended" && x.turnId === turnId) || x.t === "permission.request", timeoutMs, at);
        at = rec.events.indexOf(e) + 1;
        if (e.t === "turn.ended") return { ended: e, approved };
        if (e.t === "permission.request") {
          const allow = e.options.find((o) => o.kind === "allow_once") ?? e.options.find((o) => o.kind.startsWith("allow"));
          send({ t: "permission.respond", sessionId: e.sessionId, requestId: e.requestId, optionId: allow?.optionId ?? null });
          approved++;
        }
      }
    },
    wire: () => readWire(logDir),
    close: () => host.closeAll(),
  };
}

export function readWire(logDir: string): WireLine[] {
  if (!fs.existsSync(logDir)) return [];
  return fs
    .readdirSync(logDir)
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) =>
      fs
        .readFileSync(path.join(logDir, f), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as WireLine),
    )
    .sort((a, b) => a.t - b.t);
}

type Update = Extract<DaemonEvent, { t: "session.update" }>["update"];

/** session.update events of a session (from index `from`), optionally of one kind. */
export function updates(rec: Recorder, sessionId: string, kind?: string, from = 0): Update[] {
  return rec.events
    .slice(from)
    .filter((e): e is Extract<DaemonEvent, { t: "session.update" }> => e.t === "session.update" && e.sessionId === sessionId)
    .map((e) => e.update)
    .filter((u) => !kind || u.sessionUpdate === kind);
}

export { tmpDir };
