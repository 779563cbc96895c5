/** Shared helpers for end-to-end tests: the real local stack and a Node viewer socket. */
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import type { ClientOp, ServerFrame, SessionEvent } from "../../shared/viewer-protocol";
import { framesOf } from "../../shared/fold";
// @ts-expect-error plain .mjs module without types
import { startStack } from "../../scripts/dev-stack.mjs";

export type Stack = {
  url: string;
  token: string;
  stop(): Promise<void>;
  restartDaemon(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
  daemon: import("node:child_process").ChildProcess;
};

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
    s.on("error", rej);
  });
}

/** Demo agent fast enough for tests, slow enough that a `sleep N` turn can be raced. */
export const FAST_DEMO = { DEMO_PACE_MS: "4", DEMO_SLEEP_UNIT_MS: "250" };

export async function startTestStack(daemonEnv: Record<string, string> = FAST_DEMO): Promise<Stack> {
  const stateDir = mkdtempSync(join(tmpdir(), "baton-e2e-"));
  return startStack({ port: await freePort(), stateDir, quiet: !process.env.E2E_VERBOSE, daemonEnv, roots: [tmpdir()] });
}

export async function waitFor<T>(fn: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function createSession(url: string, agentId = "demo"): Promise<string> {
  const { machines } = (await (await fetch(`${url}/api/machines`)).json()) as { machines: { id: string; online: boolean }[] };
  const machine = machines.find((m) => m.online)!;
  const r = await fetch(`${url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ machineId: machine.id, agentId, cwd: tmpdir() }),
  });
  if (r.status !== 201) throw new Error(`create session: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { session: { id: string } }).session.id;
}

type OpInput = ClientOp extends infer T ? (T extends ClientOp ? Omit<T, "rid"> & { rid?: string } : never) : never;

export class NodeViewer {
  frames: ServerFrame[] = [];
  private ws!: WebSocket;
  private rid = 0;
  constructor(
    private readonly url: string,
    private readonly sessionId: string,
  ) {}
  async open(after = 0): Promise<this> {
    const wsUrl = `${this.url.replace(/^http/, "ws")}/api/sessions/${this.sessionId}/ws?after=${after}`;
    this.ws = new WebSocket(wsUrl, { headers: { Origin: this.url } });
    // A `batch` is recorded as the frames it carries (one frame per event, as tests read them).
    this.ws.on("message", (d) => this.frames.push(...framesOf(JSON.parse(String(d)) as ServerFrame)));
    await waitFor(() => this.frames.some((f) => f.type === "ready"), "ready");
    return this;
  }
  async op(op: OpInput) {
    const rid = op.rid ?? `n${++this.rid}`;
    this.ws.send(JSON.stringify({ ...op, rid }));
    return waitFor(
      () => this.frames.find((f): f is Extract<ServerFrame, { type: "ack" | "error" }> => (f.type === "ack" || f.type === "error") && f.rid === rid),
      `reply to ${op.op}`,
    );
  }
  events(): SessionEvent[] {
    return this.frames.flatMap((f) => (f.type === "event" || f.type === "state" ? [f.event] : f.type === "snapshot" ? f.events : []));
  }
  ofKind<K extends SessionEvent["kind"]>(kind: K) {
    return this.events().filter((e): e is Extract<SessionEvent, { kind: K }> => e.kind === kind);
  }
  status() {
    return this.ofKind("session_status").at(-1)?.state;
  }
  agentText(): string {
    return this.ofKind("acp")
      .filter((e) => e.update.sessionUpdate === "agent_message_chunk")
      .map((e) => ((e.update as any).content?.text as string) ?? "")
      .join("");
  }
  close() {
    this.ws.close();
  }
}
