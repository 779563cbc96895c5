/**
 * Test peers for workerd tests: a viewer socket and a scripted daemon speaking the real tunnel
 * protocol to the real Machine DO (the product path: viewer → room → machine → tunnel).
 */
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { AgentConfig, DaemonEvent, MachineCommand, MachineFrame } from "../../shared/tunnel-protocol";
import { TUNNEL_TOKEN_HEADER } from "../../shared/tunnel-protocol";
import type { AckFrameOf, ClientOp, ClientOpName, ErrorFrame, ServerFrame, SessionEvent } from "../../shared/viewer-protocol";
import { framesOf } from "../../shared/fold";
import { TUNNEL_PROTOCOL_VERSION } from "../../shared/protocol-version";

/** Dev identity is only granted to loopback hosts (worker/auth/identity.ts). */
export const ORIGIN = "http://localhost";
const worker = () => exports.default;

export async function api<T = any>(path: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const res = await worker().fetch(`${ORIGIN}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

export async function waitFor<T>(fn: () => T | undefined | null | false, what: string, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const DEMO_CONFIG: AgentConfig = {
  modes: { currentModeId: "code", availableModes: [{ id: "ask", name: "Ask" }, { id: "code", name: "Code" }] },
  models: null,
  configOptions: [
    { id: "model", name: "Model", category: "model", type: "select", currentValue: "fast", options: [{ value: "fast", name: "Fast" }, { value: "smart", name: "Smart" }] },
  ],
  steering: true,
  images: false,
};

/** Daemons that opened a tunnel in this file (closed by the test or not): settled when the file ends (settle-daemons.ts). */
const openDaemons = new Set<TestDaemon>();

/** Takes the daemons opened since the last call (each is settled once). */
export function takeOpenDaemons(): TestDaemon[] {
  const out = [...openDaemons];
  openDaemons.clear();
  return out;
}

/** How long a test daemon waits for its events' acks (tens of ms on a quiet machine; seconds under `npm test`'s load). */
const SETTLE_ACKS_MS = 20_000;

export class TestDaemon {
  ws!: WebSocket;
  commands: { n: number; command: MachineCommand }[] = [];
  frames: MachineFrame[] = [];
  private n = 0;
  unacked: { n: number; event: DaemonEvent }[] = [];
  lastSeenDown = 0;
  acked = 0;
  /** Like the real daemon: nothing new is sent on a fresh socket until welcome says what to resend. */
  welcomed = false;
  /**
   * The socket ended without close() (abortAllDurableObjects, an eviction): the Machine that held it is gone, so
   * none of its rooms will be told anything more and no call of it is in flight (settleDaemons does not wait).
   */
  droppedByServer = false;
  /** Auto-answer session.open with session.ready. */
  autoReady = true;
  config: AgentConfig = DEMO_CONFIG;

  constructor(
    readonly token: string,
    readonly epoch = crypto.randomUUID(),
  ) {}

  async connect(sessions: { sessionId: string; busy: boolean }[] = []): Promise<void> {
    const res = await worker().fetch(`${ORIGIN}/api/tunnel`, {
      headers: { Upgrade: "websocket", [TUNNEL_TOKEN_HEADER]: this.token },
    });
    expect(res.status).toBe(101);
    this.ws = res.webSocket!;
    this.ws.accept();
    openDaemons.add(this);
    this.welcomed = false;
    const ws = this.ws;
    this.droppedByServer = false;
    ws.addEventListener("message", (e) => {
      if (ws === this.ws) this.onFrame(JSON.parse(e.data as string) as MachineFrame);
    });
    ws.addEventListener("close", () => {
      if (ws === this.ws && this.welcomed) this.droppedByServer = true;
    });
    ws.addEventListener("error", () => {
      if (ws === this.ws && this.welcomed) this.droppedByServer = true;
    });
    this.ws.send(
      JSON.stringify({
        type: "hello",
        epoch: this.epoch,
        version: "test",
        protocolVersion: TUNNEL_PROTOCOL_VERSION,
        hostname: "test-host",
        agents: [{ id: "demo", label: "Demo", capabilities: { loadSession: true, resume: false, modes: true, configOptions: true, steering: true, images: false } }],
        roots: ["/work"],
        sessions: sessions.map((s) => ({ ...s, agentId: "demo", agentSessionId: `agent-${s.sessionId}`, cwd: "/work" })),
        lastSeenDown: this.lastSeenDown,
      }),
    );
    await waitFor(() => this.welcomed, "welcome");
  }

  private onFrame(f: MachineFrame): void {
    this.frames.push(f);
    switch (f.type) {
      case "welcome":
        this.unacked = this.unacked.filter((u) => u.n > f.lastSeenUp);
        for (const u of this.unacked) this.ws.send(JSON.stringify({ type: "event", n: u.n, event: u.event }));
        this.welcomed = true;
        return;
      case "ack":
        this.acked = Math.max(this.acked, f.n);
        this.unacked = this.unacked.filter((u) => u.n > f.n);
        return;
      case "command":
        if (f.n <= this.lastSeenDown) return void this.ws.send(JSON.stringify({ type: "ack", n: f.n }));
        this.lastSeenDown = f.n;
        this.commands.push({ n: f.n, command: f.command });
        this.ws.send(JSON.stringify({ type: "ack", n: f.n }));
        if (f.command.t === "session.open" && this.autoReady)
          this.emit({ t: "session.ready", sessionId: f.command.sessionId, agentSessionId: `agent-${f.command.sessionId}`, config: this.config, resumed: !!f.command.agentSessionId });
        return;
      case "error":
        return;
    }
  }

  emit(event: DaemonEvent): number {
    const n = ++this.n;
    this.unacked.push({ n, event });
    if (!this.welcomed) return n;
    try {
      this.ws.send(JSON.stringify({ type: "event", n, event }));
    } catch {
      /* socket down: stays in unacked, resent after welcome */
    }
    return n;
  }

  /** Emits one agent_message_chunk of `text` for the session. */
  chunk(sessionId: string, text: string): number {
    return this.emit({ t: "session.update", sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
  }

  /** Like emit, many events in one `batch` frame (what a daemon does with a burst of chunks). */
  emitBatch(events: DaemonEvent[]): void {
    const items = events.map((event) => ({ n: ++this.n, event }));
    this.unacked.push(...items);
    if (!this.welcomed) return;
    for (let i = 0; i < items.length; i += 256) this.ws.send(JSON.stringify({ type: "batch", events: items.slice(i, i + 256) }));
  }

  /** Waits until every event sent so far is acked: liveness, not speed (a storm fans each out to 200 sockets on a CPU the whole suite shares). */
  async settle(ms = SETTLE_ACKS_MS): Promise<void> {
    await waitFor(() => this.acked >= this.n, `acks up to ${this.n}`, ms);
  }

  prompts(sessionId?: string) {
    return this.commands
      .map((c) => c.command)
      .filter((c): c is Extract<MachineCommand, { t: "prompt" }> => c.t === "prompt" && (!sessionId || c.sessionId === sessionId));
  }

  of<T extends MachineCommand["t"]>(t: T) {
    return this.commands.map((c) => c.command).filter((c): c is Extract<MachineCommand, { t: T }> => c.t === t);
  }

  /** Streams text then ends the turn the room forwarded last. */
  async finishTurn(sessionId: string, text = "done", stopReason = "end_turn"): Promise<void> {
    const p = this.prompts(sessionId).at(-1)!;
    this.emit({ t: "session.update", sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
    this.emit({ t: "turn.ended", sessionId, turnId: p.turnId, stopReason });
    await this.settle();
  }

  close(): void {
    this.welcomed = false;
    try {
      this.ws.close(1000, "bye");
    } catch {
      /* already */
    }
  }
}

type OpInput = ClientOp extends infer T ? (T extends ClientOp ? Omit<T, "rid"> & { rid?: string } : never) : never;

export class TestViewer {
  ws!: WebSocket;
  /** Characters received on every socket of this viewer so far (what a join or catch-up costs). */
  bytes = 0;
  frames: ServerFrame[] = [];
  seq = 0;
  /** How the server closed the current socket, once it has. */
  closed: { code: number; reason: string } | null = null;
  private rid = 0;

  static async open(sessionId: string, after = 0, origin = ORIGIN): Promise<TestViewer> {
    const v = new TestViewer();
    await v.connect(sessionId, after, origin);
    return v;
  }

  async connect(sessionId: string, after = this.seq, origin = ORIGIN): Promise<void> {
    const res = await worker().fetch(`${ORIGIN}/api/sessions/${sessionId}/ws?after=${after}`, {
      headers: { Upgrade: "websocket", Origin: origin },
    });
    expect(res.status).toBe(101);
    this.ws = res.webSocket!;
    this.ws.accept();
    this.closed = null;
    const ws = this.ws;
    ws.addEventListener("close", (e) => {
      if (ws === this.ws) this.closed = { code: e.code, reason: e.reason };
    });
    const from = this.frames.length;
    this.ws.addEventListener("message", (e) => {
      // A `batch` is recorded as the frames it carries, so tests read one frame per event.
      this.bytes += (e.data as string).length;
      for (const f of framesOf(JSON.parse(e.data as string) as ServerFrame)) {
        this.frames.push(f);
        if (f.type === "event" || f.type === "ready") this.seq = Math.max(this.seq, f.seq);
        if (f.type === "snapshot" && f.seq) this.seq = f.seq;
      }
    });
    await waitFor(() => this.frames.slice(from).some((f) => f.type === "ready"), "ready");
  }

  /** Sends an op and resolves with its ack or error frame. */
  async op<K extends ClientOpName>(op: OpInput & { op: K }, ms?: number): Promise<AckFrameOf<K> | ErrorFrame> {
    const rid = op.rid ?? `r${++this.rid}-${crypto.randomUUID()}`;
    this.ws.send(JSON.stringify({ ...op, rid }));
    const reply = await waitFor(
      () => this.frames.find((f): f is Extract<ServerFrame, { type: "ack" | "error" }> => (f.type === "ack" || f.type === "error") && f.rid === rid),
      `reply to ${op.op}`,
      ms,
    );
    // The answer under this rid is the answer to this op (its result typed by the op).
    return reply as AckFrameOf<K> | ErrorFrame;
  }

  /**
   * Waits until the room has handled everything sent on this socket so far: frames on one socket are handled
   * in order, so once a later op is answered all before it were seen. Over the rate limit an op may be
   * dropped unanswered, so it is retried after each notice window. "closed": the room closed the socket first
   * (a flood refused for RATE_STRIKES_TO_CLOSE windows in a row — a slow read of a burst counts as sustained).
   */
  async drained(windowMs: number, ms = 60_000): Promise<"drained" | "closed"> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, windowMs + 100));
      if (this.closed) return "closed";
      const rid = `drained-${crypto.randomUUID()}`;
      this.ws.send(JSON.stringify({ op: "queue.cancel", rid, id: "drained" }));
      try {
        await waitFor(() => this.closed !== null || this.frames.some((f) => f.type === "ack" && f.rid === rid), "drained", 2 * windowMs);
        return this.closed ? "closed" : "drained";
      } catch {
        /* dropped over the limit: try again after the window */
      }
    }
    throw new Error("socket never drained");
  }

  raw(data: string): void {
    this.ws.send(data);
  }

  events(): SessionEvent[] {
    return this.frames.flatMap((f) =>
      f.type === "event" || f.type === "state" ? [f.event] : f.type === "snapshot" ? f.events : [],
    );
  }
  ofKind<K extends SessionEvent["kind"]>(kind: K): Extract<SessionEvent, { kind: K }>[] {
    return this.events().filter((e): e is Extract<SessionEvent, { kind: K }> => e.kind === kind);
  }
  /** The text of every agent_message_chunk received, in order. */
  chunkTexts(): string[] {
    return this.ofKind("acp").flatMap((e) => {
      const u = e.update as { sessionUpdate?: string; content?: { text?: string } };
      return u.sessionUpdate === "agent_message_chunk" && typeof u.content?.text === "string" ? [u.content.text] : [];
    });
  }
  lastQueue() {
    return this.ofKind("queue_state").at(-1);
  }
  lastStatus() {
    return this.ofKind("session_status").at(-1);
  }
  clear(): void {
    this.frames = [];
  }
  close(): void {
    try {
      this.ws.close(1000, "bye");
    } catch {
      /* already */
    }
  }
}

export const text = (t: string) => [{ type: "text" as const, text: t }];

/** A paired machine with a connected test daemon and a ready session. */
export async function setupSession(opts: { budget?: number } = {}) {
  const pair = await api<{ machine: { id: string }; token: string }>("/api/dev/pair", { method: "POST", body: "{}" });
  expect(pair.status).toBe(201);
  const daemon = new TestDaemon(pair.body.token);
  await daemon.connect();
  const sessionId = await newSession(pair.body.machine.id);
  await waitFor(() => daemon.of("session.open").some((c) => c.sessionId === sessionId), "session.open");
  await daemon.settle();
  return { machineId: pair.body.machine.id, token: pair.body.token, daemon, sessionId, ...opts };
}

/** A ready session whose queue holds `depth` messages, with viewer `a` and a turn running (message "run"). */
export async function busyRoom(depth: number) {
  const s = await setupSession();
  const a = await TestViewer.open(s.sessionId);
  await waitFor(() => a.lastStatus()?.state === "idle", "idle");
  expect(await a.op({ op: "settings.set", queueDepth: depth })).toMatchObject({ type: "ack" });
  await a.op({ op: "message.send", id: "run", blocks: text("running") });
  return { ...s, a };
}

export async function newSession(machineId: string): Promise<string> {
  const res = await api<{ session: { id: string } }>("/api/sessions", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ machineId, agentId: "demo", cwd: "/work" }),
  });
  expect(res.status).toBe(201);
  return res.body.session.id;
}
