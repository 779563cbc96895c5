/** Shared helpers for end-to-end tests: the real local stack and a Node viewer socket. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import type { AckFrameOf, ClientOp, ClientOpName, ErrorFrame, ServerFrame, SessionEvent } from "../../shared/viewer-protocol";
import { framesOf } from "../../shared/fold";
// @ts-expect-error plain .mjs module without types
import { startStack } from "../../scripts/dev-stack.mjs";
import { demoLaunch } from "../../daemon/src/agent/agent-presets";
import { onFreePort } from "./port-retry";

export type Stack = {
  url: string;
  token: string;
  /** Where the stack's demo agent keeps its sessions (DEMO_STATE_DIR): a test may put a session there to import. */
  demoSessions: string;
  stop(): Promise<void>;
  restartDaemon(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
  daemon: import("node:child_process").ChildProcess;
  /** The server's last output lines (workerd's log included). */
  serverOutput(): string[];
  /** With `tunnelProxy`: drops the daemon's live tunnel connection(s) (the daemon process lives on); returns how many. */
  cutTunnel(): number;
  /** With `tunnelProxy`: how many tunnel connections go through it now. */
  liveTunnels(): number;
};

/** A prompt of one text block, as `message.send` carries it. */
export const text = (t: string) => [{ type: "text" as const, text: t }];

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

/** Id of the extra demo agent without `session/load` (`startTestStack({ noLoadAgent: true })`). */
export const NO_LOAD_AGENT = "demo-noload";

export type TestStackOptions = {
  /** The daemon dials a loopback TCP relay instead of the server, so a test can cut the tunnel alone. */
  tunnelProxy?: boolean;
  /** Also advertise NO_LOAD_AGENT: the demo agent with DEMO_LOAD_SESSION=0 (a restart cannot reattach). */
  noLoadAgent?: boolean;
};

export async function startTestStack(daemonEnv: Record<string, string> = FAST_DEMO, opts: TestStackOptions = {}): Promise<Stack> {
  const stateDir = mkdtempSync(join(tmpdir(), "baton-e2e-"));
  // Capabilities the daemon learns, and the demo agent's session files, stay with this stack (removed with it).
  const env: Record<string, string> = { BATON_CAPABILITIES_FILE: join(stateDir, "agent-capabilities.json"), DEMO_STATE_DIR: join(stateDir, "demo-sessions"), ...daemonEnv };
  if (opts.noLoadAgent) {
    // A custom agent from the daemon's config file: the same demo agent, launched like the preset.
    const launch = demoLaunch({ DEMO_LOAD_SESSION: "0" });
    const agent = { id: NO_LOAD_AGENT, label: "Demo (no session/load)", command: launch.command, args: launch.args, env: launch.env };
    const config = join(stateDir, "daemon-config.json");
    writeFileSync(config, JSON.stringify({ agents: [agent] }));
    env.BATON_CONFIG = config;
  }
  const { stack, proxy } = await onFreePort(async (port) => {
    const proxy = opts.tunnelProxy ? await startTcpRelay(port) : null;
    const stack = await startStack({
      port,
      stateDir,
      quiet: !process.env.E2E_VERBOSE,
      daemonEnv: env,
      roots: [tmpdir()],
      daemonServer: proxy ? `http://127.0.0.1:${proxy.port}` : undefined,
    }).catch(async (err: unknown) => {
      await proxy?.close();
      throw err;
    });
    return { stack, proxy };
  }, freePort);
  return {
    ...stack,
    demoSessions: env.DEMO_STATE_DIR!,
    cutTunnel() {
      if (!proxy) throw new Error("startTestStack({ tunnelProxy: true }) to cut the tunnel");
      return proxy.cut();
    },
    liveTunnels() {
      if (!proxy) throw new Error("startTestStack({ tunnelProxy: true }) to see the tunnel");
      return proxy.live();
    },
    async stop() {
      await stack.stop();
      await proxy?.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** A loopback TCP relay to `targetPort`; `cut()` destroys every live connection pair. */
export async function startTcpRelay(targetPort: number): Promise<{ port: number; cut(): number; live(): number; close(): Promise<void> }> {
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((down) => {
    const up = connect(targetPort, "127.0.0.1");
    const pair: [Socket, Socket] = [down, up];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      down.destroy();
      up.destroy();
    };
    down.on("error", end).on("close", end);
    up.on("error", end).on("close", end);
    down.pipe(up);
    up.pipe(down);
  });
  await new Promise<void>((res, rej) => server.once("error", rej).listen(0, "127.0.0.1", () => res()));
  const cut = () => {
    const n = pairs.size;
    for (const [down, up] of [...pairs]) {
      down.destroy();
      up.destroy();
    }
    pairs.clear();
    return n;
  };
  return {
    port: (server.address() as { port: number }).port,
    cut,
    live: () => pairs.size,
    async close() {
      cut();
      await new Promise<void>((res) => server.close(() => res()));
    },
  };
}

/**
 * How often waitFor asks: briskly at first, then every 100 ms. A long wait (a turn, a reconnect) asking a page 40
 * times a second kept Chromium's browser process and the page busy for nothing (each ask is a round trip to both).
 */
const POLL_FIRST_MS = 25;
const POLL_MAX_MS = 100;

export async function waitFor<T>(fn: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (let asked = 0; ; asked++) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    // 25 ms for the first four asks, 50 for the next four, then 100.
    await new Promise((r) => setTimeout(r, Math.min(POLL_MAX_MS, POLL_FIRST_MS * 2 ** Math.floor(asked / 4))));
  }
}

export async function createSession(url: string, agentId = "demo", cwd = tmpdir()): Promise<string> {
  const { machines } = (await (await fetch(`${url}/api/machines`)).json()) as { machines: { id: string; online: boolean }[] };
  const machine = machines.find((m) => m.online)!;
  const r = await fetch(`${url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ machineId: machine.id, agentId, cwd }),
  });
  if (r.status !== 201) throw new Error(`create session: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { session: { id: string } }).session.id;
}

/** A new session on `agentId` and a NodeViewer on it, once the agent is idle. */
export async function openIdleSession(url: string, agentId = "demo"): Promise<{ sessionId: string; v: NodeViewer }> {
  const sessionId = await createSession(url, agentId);
  const v = await new NodeViewer(url, sessionId).open();
  await waitFor(() => v.status() === "idle", "session ready");
  return { sessionId, v };
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
  async op<K extends ClientOpName>(op: OpInput & { op: K }): Promise<AckFrameOf<K> | ErrorFrame> {
    const rid = op.rid ?? `n${++this.rid}`;
    this.ws.send(JSON.stringify({ ...op, rid }));
    const reply = await waitFor(
      () => this.frames.find((f): f is Extract<ServerFrame, { type: "ack" | "error" }> => (f.type === "ack" || f.type === "error") && f.rid === rid),
      `reply to ${op.op}`,
    );
    // The answer under this rid is the answer to this op (its result typed by the op).
    return reply as AckFrameOf<K> | ErrorFrame;
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
  /** Closes and waits until the server has closed its end (the room no longer counts this socket). */
  async closed(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const done = new Promise<void>((r) => this.ws.once("close", () => r()));
    this.ws.close();
    await done;
  }
}
