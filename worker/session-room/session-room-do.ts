/**
 * SessionRoom — one Durable Object per session. Serializes turns, owns the queue, logs and fans out
 * events, replays state on (re)connect. Thin adapter: storage lives in RoomStore, compaction in
 * compact-events, frame parsing in parse-viewer-frame.
 *
 * Invariants
 * - At most one turn runs: a prompt is forwarded only when `turn` is null, and `turn` is set
 *   synchronously before the forward is awaited, so a concurrent send parks instead.
 * - The user_message echo is emitted only after the daemon accepted the prompt, and daemon events
 *   wait for an in-flight forward (`inflight`), so the echo always precedes the agent's output.
 * - Flush order: queue_state{flushed:true} → user_message → (prompt forwarded, already accepted).
 * - Replay reads the backlog and joins the live set in one synchronous step (no await in between).
 * - No timers: the DO hibernates between frames; all state is rebuilt from SQLite.
 */
import { DurableObject } from "cloudflare:workers";
import { mergePrompts, type PromptBlock, assertNever } from "../../shared/blocks";
import { DEFAULT_QUEUE_DEPTH, MAX_QUEUE_BYTES, RATE_BURST, RATE_PER_SECOND, REPLAY_TAIL_MAX } from "../../shared/limits";
import { settingsFromConfig } from "../../shared/session-settings";
import type { AgentConfig, DaemonEvent, MachineCommand } from "../../shared/tunnel-protocol";
import {
  type AuthMethod,
  type Author,
  type ClientOp,
  type ElicitationAction,
  type ElicitationContent,
  type ConfigState,
  ErrorCode,
  type EventOf,
  LOGGED_KINDS,
  type QueueEntry,
  type QueueOpAck,
  type ServerFrame,
  type SessionEvent,
  type Viewer,
} from "../../shared/viewer-protocol";
import type { DispatchOptions, DispatchResult, MachineStatus } from "../machine/dispatch-result";
import { type Env, machineStub } from "../env";
import { compactEvents } from "./compact-events";
import { closeElicitation, judgeAnswer, openElicitation, type OpenElicitations } from "./elicitations";
import { parseViewerFrame } from "./parse-viewer-frame";
import { makeTokenBucket, type TokenBucket } from "./rate-limit";
import { Fate, type RoomSettings, RoomStore, type SessionMeta } from "./room-store";

/** Snapshot pages stay well under the platform's 1 MiB WebSocket message limit. */
const SNAPSHOT_PAGE_BYTES = 512 * 1024;
/** Answered form ids remembered so a late second answer hears "already resolved", not "no such request". */
const RESOLVED_ELICITATIONS_KEPT = 64;
export const VIEWER_HEADER = "x-baton-viewer";
/** Close code when a viewer's role changed or they lost access; the client reconnects and re-checks. */
export const CLOSE_ACCESS_CHANGED = 4403;

type Attachment = { viewer: Viewer; connectedAt: number };
type OpOf<K extends ClientOp["op"]> = Extract<ClientOp, { op: K }>;
type SessionStatusEvent = EventOf<"session_status">;

const encoder = new TextEncoder();
const utf8Bytes = (blocks: PromptBlock[]) => encoder.encode(JSON.stringify(blocks)).byteLength;

export class SessionRoom extends DurableObject<Env> {
  private readonly store: RoomStore;
  private readonly buckets = new WeakMap<WebSocket, TokenBucket>();
  /** A prompt forward awaiting the Machine; daemon events wait for it (echo before output). */
  private inflight: Promise<unknown> | null = null;
  /** Sends by id currently being forwarded: a duplicate arriving meanwhile gets the same answer. */
  private readonly sendsInFlight = new Map<string, Promise<Record<string, unknown> | { error: ErrorCode; message: string }>>();
  /** Frames emitted during a synchronous run of daemon events, sent as one message when it ends. */
  private outgoing: string[] | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new RoomStore(ctx.storage.sql);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  // ================================================================ RPC from the Worker

  /** Creates the session (idempotent) and asks the machine to open it. */
  async init(meta: SessionMeta): Promise<void> {
    if (this.store.session()) return;
    this.store.setMeta("session", meta);
    this.store.setMeta("settings", { queueDepth: DEFAULT_QUEUE_DEPTH, mergeQueued: false } satisfies RoomSettings);
    this.store.setMeta("machine_online", true);
    await this.openAgentSession();
  }

  async info(): Promise<{ exists: boolean; status: SessionStatusEvent; queueLength: number; headSeq: number }> {
    return {
      exists: this.store.session() !== null,
      status: this.currentStatus(),
      queueLength: this.store.queueLength(),
      headSeq: this.store.headSeq(),
    };
  }

  /**
   * A member's role changed or they were removed: close their sockets so the reconnect re-checks
   * membership and carries the new role (a socket's role is fixed at upgrade).
   */
  async viewerAccessChanged(userId: string): Promise<number> {
    let closed = 0;
    for (const ws of this.ctx.getWebSockets()) {
      const att = ws.deserializeAttachment() as Attachment | null;
      if (att?.viewer.id !== userId) continue;
      try {
        ws.close(CLOSE_ACCESS_CHANGED, "access changed");
        closed++;
      } catch {
        /* already closed */
      }
    }
    return closed;
  }

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("expected websocket", { status: 426 });
    const session = this.store.session();
    if (!session) return new Response("no such session", { status: 404 });
    const viewer = JSON.parse(request.headers.get(VIEWER_HEADER) ?? "null") as Viewer | null;
    if (!viewer) return new Response("no viewer", { status: 401 });
    const after = Math.max(0, Number.parseInt(new URL(request.url).searchParams.get("after") ?? "0", 10) || 0);

    const pair = new WebSocketPair();
    const server = pair[1];
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ viewer, connectedAt: Date.now() } satisfies Attachment);
    // Synchronous from here: the backlog we read is exactly what precedes the next broadcast.
    this.sendReplay(server, viewer, after);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  // ================================================================ viewer sockets

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const att = ws.deserializeAttachment() as Attachment | null;
    if (!att) return;
    let bucket = this.buckets.get(ws);
    if (!bucket) this.buckets.set(ws, (bucket = makeTokenBucket(RATE_BURST, RATE_PER_SECOND, Date.now())));
    const parsed = parseViewerFrame(message);
    if (!parsed.ok) return this.sendError(ws, parsed.rid, parsed.code, parsed.message);
    if (!bucket.take(Date.now())) return this.sendError(ws, parsed.op.rid, ErrorCode.RATE_LIMITED, "too many frames; slow down");
    try {
      await this.handleOp(ws, att.viewer, parsed.op);
    } catch (err) {
      console.error("op failed", parsed.op.op, err);
      this.sendError(ws, parsed.op.rid, ErrorCode.INTERNAL, "internal error");
    }
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 ? 1000 : code, "closing");
    } catch {
      /* already closed */
    }
  }

  override async webSocketError(): Promise<void> {}

  private async handleOp(ws: WebSocket, viewer: Viewer, op: ClientOp): Promise<void> {
    if (viewer.role === "viewer")
      return this.sendError(ws, op.rid, ErrorCode.FORBIDDEN, "viewers are read-only in this session");
    switch (op.op) {
      case "message.send":
        return this.onSend(ws, viewer, op);
      case "queue.cancel":
        return this.ack(ws, op, this.onQueueCancel(op.id));
      case "queue.edit": {
        const full = this.store.queue().some((e) => e.id === op.id) ? this.queueBytesExceeded(op.id, op.blocks) : null;
        if (full) return this.sendError(ws, op.rid, ErrorCode.QUEUE_FULL, full);
        return this.ack(ws, op, this.onQueueEdit(op.id, op.blocks));
      }
      case "queue.move":
        return this.ack(ws, op, this.onQueueMove(op.id, op.before ?? null));
      case "queue.steer":
        return this.onQueueSteer(ws, op);
      case "turn.cancel":
        return this.onTurnCancel(ws, op);
      case "config.set":
      case "mode.set":
      case "model.set":
        return this.onConfig(ws, op);
      case "permission.respond":
        return this.onPermission(ws, viewer, op);
      case "elicitation.respond":
        return this.onElicitation(ws, viewer, op);
      case "settings.set":
        return this.onSettings(ws, op);
      default:
        assertNever(op);
    }
  }

  // ---------------------------------------------------------------- send / queue

  private async onSend(ws: WebSocket, viewer: Viewer, op: OpOf<"message.send">): Promise<void> {
    const settled = this.store.settled(op.id);
    if (settled) return this.ack(ws, op, { ...settled.ack, duplicate: true });
    const running = this.sendsInFlight.get(op.id);
    if (running) {
      const r = await running;
      return "error" in r ? this.sendError(ws, op.rid, r.error as ErrorCode, String(r.message)) : this.ack(ws, op, { ...r, duplicate: true });
    }
    const p = this.admitSend(op.id, op.blocks, { id: viewer.id, name: viewer.name });
    this.sendsInFlight.set(op.id, p);
    try {
      const r = await p;
      if ("error" in r) this.sendError(ws, op.rid, r.error as ErrorCode, String(r.message));
      else this.ack(ws, op, r);
    } finally {
      this.sendsInFlight.delete(op.id);
    }
  }

  private async admitSend(
    id: string,
    blocks: PromptBlock[],
    author: Author,
  ): Promise<Record<string, unknown> | { error: ErrorCode; message: string }> {
    const fail = (error: ErrorCode, message: string) => ({ error, message });
    if (!this.store.session()) return fail(ErrorCode.NOT_FOUND, "no such session");
    const failed = this.store.getMeta<string>("failed");
    if (failed) return fail(ErrorCode.SESSION_NOT_READY, `the agent session failed: ${failed}`);
    const online = this.machineOnline();
    const turn = this.store.turn();
    const ready = this.store.getMeta<string>("agent_session_id") !== null;
    if (!online && !turn) return fail(ErrorCode.MACHINE_OFFLINE, "the machine is offline; the message was not sent");

    const busy = turn !== null || !ready;
    if (busy) {
      const depth = this.settings().queueDepth;
      if (this.store.queueLength() >= depth)
        return fail(ErrorCode.QUEUE_FULL, depth === 1 ? "a message is already queued" : `the queue is full (${depth})`);
      const full = this.queueBytesExceeded(id, blocks);
      if (full) return fail(ErrorCode.QUEUE_FULL, full);
      this.store.enqueue({ id, blocks, author, createdAt: Date.now(), state: "queued" });
      const ack = { queued: true, position: this.store.queueLength() };
      this.store.settle(id, Fate.queued, { queued: true });
      this.emitQueue(false);
      return ack;
    }
    const res = await this.startTurn([{ id, blocks, author }], false, () => {});
    if (!res.ok) return fail(res.code, res.message);
    this.store.settle(id, Fate.sent, { queued: false });
    return { queued: false };
  }

  /**
   * Reserves the turn, forwards the prompt, and on acceptance runs `beforeEcho` then emits the
   * user_message echo(s) and the active status. On refusal the reservation is released.
   */
  private async startTurn(
    messages: { id: string; blocks: PromptBlock[]; author: Author }[],
    fromQueue: boolean,
    beforeEcho: () => void,
  ): Promise<DispatchResult> {
    const session = this.store.session()!;
    const first = messages[0]!;
    const turnId = crypto.randomUUID();
    const blocks = messages.length === 1 ? first.blocks : mergePrompts(messages.map((m) => m.blocks));
    this.store.setTurn({ turnId, messageId: first.id, startedAt: Date.now(), cancelRequested: false });
    const forward = this.dispatch(
      { t: "prompt", sessionId: session.sessionId, turnId, messageId: first.id, blocks },
      { startsTurn: true, fromQueue },
    );
    this.inflight = forward;
    let res: DispatchResult;
    try {
      res = await forward;
    } finally {
      if (this.inflight === forward) this.inflight = null;
    }
    if (!res.ok) {
      if (this.store.turn()?.turnId === turnId) this.store.setTurn(null);
      return res;
    }
    beforeEcho();
    const at = Date.now();
    for (const m of messages) this.emit({ kind: "user_message", id: m.id, blocks: m.blocks, author: m.author, at });
    this.emitStatus();
    this.touchDirectory(at);
    return res;
  }

  /** On busy→idle: forward the head of the queue (or all of it, merged). */
  private async maybeFlush(): Promise<void> {
    if (this.store.turn() || !this.machineOnline() || this.store.getMeta("agent_session_id") === null) return;
    if (this.store.getMeta("failed")) return;
    const ready = this.store.queue().filter((e) => e.state === "queued");
    if (!ready.length) return;
    const take = this.settings().mergeQueued ? ready : [ready[0]!];
    for (const e of take) this.store.removeFromQueue(e.id);
    const res = await this.startTurn(take, true, () => {
      for (const e of take) this.store.settle(e.id, Fate.sent, { queued: true });
      this.emitQueue(true);
    });
    if (!res.ok) {
      for (const e of [...take].reverse()) this.store.requeueAtHead(e);
      this.emit({ kind: "notice", level: "warn", text: `Queued message not sent yet: ${res.message}` });
    }
  }

  private fateOutcome(id: string): QueueOpAck {
    const s = this.store.settled(id);
    if (!s) return { outcome: "not_found" };
    switch (s.fate) {
      case Fate.sent:
        return { outcome: "already_sent" };
      case Fate.cancelled:
      case Fate.dropped:
        return { outcome: "cancelled" };
      case Fate.queued:
        return { outcome: "not_found" };
      default:
        return assertNever(s.fate);
    }
  }

  private onQueueCancel(id: string): QueueOpAck {
    const entry = this.store.queue().find((e) => e.id === id);
    if (!entry) return this.fateOutcome(id);
    // Out for steering: it may land in the turn; cancelling now would hide a delivered message.
    if (entry.state === "steering") return { outcome: "steering" };
    this.store.removeFromQueue(id);
    this.store.settle(id, Fate.cancelled, { queued: true });
    this.emitQueue(false);
    return { outcome: "cancelled", entry };
  }

  /** Why the queue cannot hold `blocks` as entry `id` (added, or replacing its blocks), or null when it can. */
  private queueBytesExceeded(id: string, blocks: PromptBlock[]): string | null {
    let bytes = utf8Bytes(blocks);
    for (const e of this.store.queue()) if (e.id !== id) bytes += utf8Bytes(e.blocks);
    return bytes > MAX_QUEUE_BYTES ? `the queue is full (queued messages are limited to ${MAX_QUEUE_BYTES / 1024} KB in total)` : null;
  }

  private onQueueEdit(id: string, blocks: PromptBlock[]): QueueOpAck {
    const entry = this.store.queue().find((e) => e.id === id);
    if (!entry) return this.fateOutcome(id);
    if (entry.state === "steering") return { outcome: "already_sent" };
    this.store.editQueued(id, blocks);
    this.emitQueue(false);
    return { outcome: "edited", entry: { ...entry, blocks } };
  }

  private onQueueMove(id: string, before: string | null): QueueOpAck {
    const ids = this.store.queue().map((e) => e.id);
    if (!ids.includes(id)) return this.fateOutcome(id);
    const rest = ids.filter((x) => x !== id);
    const at = before && before !== id ? rest.indexOf(before) : -1;
    if (at >= 0) rest.splice(at, 0, id);
    else rest.push(id);
    this.store.reorder(rest);
    this.emitQueue(false);
    return { outcome: "moved" };
  }

  private async onQueueSteer(ws: WebSocket, op: OpOf<"queue.steer">): Promise<void> {
    if (!this.store.agentConfig().steering)
      return this.sendError(ws, op.rid, ErrorCode.NOT_SUPPORTED, "this agent does not support steering");
    const entry = this.store.queue().find((e) => e.id === op.id);
    if (!entry) return this.ack(ws, op, this.fateOutcome(op.id));
    if (entry.state === "steering") return this.ack(ws, op, { outcome: "steering" });
    if (!this.store.turn()) {
      // Idle: an unconfirmed entry's explicit retry runs it as the next turn (never automatic).
      if (entry.state !== "indeterminate") return this.sendError(ws, op.rid, ErrorCode.NOT_SUPPORTED, "no running turn to steer into");
      this.store.setQueuedState(op.id, "queued");
      this.store.reorder([op.id, ...this.store.queue().map((e) => e.id).filter((x) => x !== op.id)]);
      this.emitQueue(false);
      this.ack(ws, op, { outcome: "requeued" } satisfies QueueOpAck);
      return this.maybeFlush();
    }
    this.store.setQueuedState(op.id, "steering");
    this.emitQueue(false);
    const res = await this.dispatch({ t: "steer", sessionId: this.sessionId(), entryId: op.id, blocks: entry.blocks }, {});
    if (!res.ok) {
      this.store.setQueuedState(op.id, entry.state);
      this.emitQueue(false);
      return this.sendError(ws, op.rid, res.code, res.message);
    }
    this.ack(ws, op, { outcome: "steering" });
  }

  private async onTurnCancel(ws: WebSocket, op: OpOf<"turn.cancel">): Promise<void> {
    const dropped = this.store.queue();
    this.store.clearQueue();
    for (const e of dropped) this.store.settle(e.id, Fate.dropped, { queued: true });
    const turn = this.store.turn();
    if (dropped.length || turn) this.emit({ kind: "queue_state", entries: [], flushed: false, dropped });
    if (!turn) return this.ack(ws, op, { outcome: "idle", dropped });
    this.store.setTurn({ ...turn, cancelRequested: true });
    await this.dispatch({ t: "cancel", sessionId: this.sessionId() }, { deliverWhenOnline: true });
    this.ack(ws, op, { outcome: "cancelled", dropped });
  }

  // ---------------------------------------------------------------- config / permissions / settings

  private async onConfig(ws: WebSocket, op: OpOf<"config.set"> | OpOf<"mode.set"> | OpOf<"model.set">): Promise<void> {
    const cfg = this.store.agentConfig();
    let command: MachineCommand;
    const sessionId = this.sessionId();
    switch (op.op) {
      case "config.set": {
        const option = cfg.configOptions.find((o) => o["id"] === op.configId);
        if (!option) return this.sendError(ws, op.rid, ErrorCode.NOT_SUPPORTED, `the agent has no config option ${op.configId}`);
        command = { t: "config.set", sessionId, configId: op.configId, value: op.value };
        break;
      }
      case "mode.set":
        if (!cfg.modes?.availableModes.some((m) => m.id === op.modeId))
          return this.sendError(ws, op.rid, ErrorCode.NOT_SUPPORTED, `the agent has no mode ${op.modeId}`);
        command = { t: "mode.set", sessionId, modeId: op.modeId };
        break;
      case "model.set":
        if (!cfg.models?.availableModels.some((m) => m.modelId === op.modelId))
          return this.sendError(ws, op.rid, ErrorCode.NOT_SUPPORTED, `the agent has no model ${op.modelId}`);
        command = { t: "model.set", sessionId, modelId: op.modelId };
        break;
      default:
        return assertNever(op);
    }
    const res = await this.dispatch(command, {});
    if (!res.ok) return this.sendError(ws, op.rid, res.code, res.message);
    this.ack(ws, op, { outcome: "forwarded", appliesNextTurn: this.store.turn() !== null });
  }

  private async onPermission(ws: WebSocket, viewer: Viewer, op: OpOf<"permission.respond">): Promise<void> {
    const pending = this.store.permission(op.requestId);
    if (!pending) return this.sendError(ws, op.rid, ErrorCode.NOT_FOUND, "no such permission request");
    if (op.optionId !== null && !pending.options.some((o) => o.optionId === op.optionId))
      return this.sendError(ws, op.rid, ErrorCode.BAD_FRAME, "that option was not offered");
    if (!this.store.resolvePermission(op.requestId)) return this.ack(ws, op, { outcome: "already_resolved" });
    this.emit({
      kind: "permission_resolved",
      requestId: op.requestId,
      outcome: op.optionId === null ? "cancelled" : "selected",
      optionId: op.optionId,
      by: { id: viewer.id, name: viewer.name },
    });
    await this.dispatch(
      { t: "permission.respond", sessionId: this.sessionId(), requestId: op.requestId, optionId: op.optionId },
      { deliverWhenOnline: true },
    );
    this.ack(ws, op, { outcome: "accepted" });
  }

  private async onElicitation(ws: WebSocket, viewer: Viewer, op: OpOf<"elicitation.respond">): Promise<void> {
    const known = this.resolvedElicitations().includes(op.requestId);
    const verdict = judgeAnswer(this.openElicitations(), known, op.requestId, op.action, op.content);
    switch (verdict.kind) {
      case "unknown":
        return this.sendError(ws, op.rid, ErrorCode.NOT_FOUND, "no such form request");
      case "resolved":
        return this.ack(ws, op, { outcome: "already_resolved" });
      case "invalid":
        return this.sendError(ws, op.rid, ErrorCode.BAD_FRAME, verdict.message);
      case "accept":
        break;
      default:
        return assertNever(verdict);
    }
    this.resolveElicitation(op.requestId, verdict.action, verdict.content, { id: viewer.id, name: viewer.name });
    await this.dispatch(
      { t: "elicitation.respond", sessionId: this.sessionId(), requestId: op.requestId, action: verdict.action, content: verdict.content },
      { deliverWhenOnline: true },
    );
    this.ack(ws, op, { outcome: "accepted" });
  }

  private openElicitations(): OpenElicitations {
    return this.store.getMeta<OpenElicitations>("elicitations") ?? {};
  }
  private resolvedElicitations(): string[] {
    return this.store.getMeta<string[]>("elicitations_resolved") ?? [];
  }
  /** Closes an open form and logs how (`by` null: cancelled by the turn's end, Stop or the agent). */
  private resolveElicitation(requestId: string, action: ElicitationAction, content: ElicitationContent | undefined, by: Author | null): void {
    this.store.setMeta("elicitations", closeElicitation(this.openElicitations(), requestId));
    this.store.setMeta("elicitations_resolved", [...this.resolvedElicitations(), requestId].slice(-RESOLVED_ELICITATIONS_KEPT));
    this.emit({ kind: "elicitation_resolved", requestId, action, ...(content ? { content } : {}), by });
  }

  private onSettings(ws: WebSocket, op: OpOf<"settings.set">): void {
    const next = { ...this.settings() };
    if (op.queueDepth !== undefined) next.queueDepth = op.queueDepth;
    if (op.mergeQueued !== undefined) next.mergeQueued = op.mergeQueued;
    this.store.setMeta("settings", next);
    this.emit({ kind: "config_state", config: this.configState() });
    this.ack(ws, op, { outcome: "saved", settings: next });
  }

  // ================================================================ RPC from the Machine DO

  async onDaemonEvents(epoch: string, batch: { n: number; event: DaemonEvent }[]): Promise<void> {
    while (this.inflight) await this.inflight;
    let i = 0;
    while (i < batch.length) {
      // One synchronous run of events, up to one that awaits (a flush): the cursor is read once and
      // written once, in the same step as the events' effects (they commit together), and viewers get
      // the run's frames as one message. Re-read after an await: another delivery may have interleaved.
      const cursor = this.store.getMeta<{ epoch: string; n: number }>("daemon_cursor");
      let last: number | null = null;
      let awaited: Promise<void> | void = undefined;
      this.outgoing = [];
      this.store.beginRun();
      try {
        while (i < batch.length && !awaited) {
          const { n, event } = batch[i++]!;
          if (cursor && cursor.epoch === epoch && n <= cursor.n) continue;
          last = n;
          awaited = this.applyDaemonEvent(event);
        }
      } finally {
        this.store.endRun();
        if (last !== null) this.store.setMeta("daemon_cursor", { epoch, n: last });
        this.flushOutgoing();
      }
      if (awaited) await awaited;
    }
  }

  async onMachineStatus(status: MachineStatus): Promise<void> {
    if (!this.store.session()) return;
    this.store.setMeta("machine_online", status.online);
    if (!status.online) {
      this.emitStatus();
      return;
    }
    const live = status.liveSessionIds.includes(this.sessionId());
    if (!live || status.restarted) {
      const turn = this.store.turn();
      if (turn) {
        this.store.setTurn(null);
        this.cancelPendingPermissions();
        this.emit({ kind: "turn_error", message: "The agent restarted; the running turn was lost.", code: "AGENT_RESTARTED" });
      }
      if (this.store.getMeta("agent_session_id") !== null) {
        this.store.setMeta("resume_from", this.store.getMeta<string>("agent_session_id"));
        this.store.setMeta("agent_session_id", null);
      }
      await this.openAgentSession();
      return;
    }
    this.emitStatus();
    await this.maybeFlush();
  }

  /** Applies one daemon event; returns a promise only when the event has to await (a flush). */
  private applyDaemonEvent(event: DaemonEvent): Promise<void> | void {
    switch (event.t) {
      case "session.ready": {
        const resumedFrom = this.store.getMeta<string>("resume_from");
        this.store.setMeta("agent_session_id", event.agentSessionId);
        this.store.setMeta("resume_from", null);
        this.store.setMeta("failed", null);
        this.store.setMeta("failed_auth", null);
        this.store.setMeta("agent_config", event.config);
        if (resumedFrom)
          this.emit({
            kind: "notice",
            level: event.resumed ? "info" : "warn",
            text: event.resumed
              ? "The agent restarted; the session was resumed."
              : "The agent restarted and could not resume; it starts fresh (earlier messages are not in its context).",
          });
        this.emit({ kind: "config_state", config: this.configState() });
        this.emitStatus();
        return this.maybeFlush();
      }
      case "session.failed":
        this.store.setMeta("failed", event.message);
        this.store.setMeta("failed_auth", event.authMethods?.length ? event.authMethods : null);
        this.emitStatus();
        return;
      case "session.notice":
        this.emit({ kind: "notice", level: event.level, text: event.text });
        return;
      case "session.update":
        this.emit({ kind: "acp", update: event.update });
        this.handleConfigUpdate(event.update);
        return;
      case "turn.started":
        return;
      case "turn.ended": {
        const turn = this.store.turn();
        if (!turn || turn.turnId !== event.turnId) return;
        this.store.setTurn(null);
        if (event.error) this.emit({ kind: "turn_error", message: event.error, code: event.stopReason });
        this.cancelPendingPermissions();
        this.emitStatus(event.stopReason);
        this.touchDirectory(Date.now());
        return this.maybeFlush();
      }
      case "permission.request":
        this.store.addPermission({ requestId: event.requestId, toolCall: event.toolCall, options: event.options });
        this.emit({ kind: "permission_request", requestId: event.requestId, toolCall: event.toolCall, options: event.options });
        return;
      case "elicitation.request":
        this.store.setMeta("elicitations", openElicitation(this.openElicitations(), event.requestId, event.requestedSchema));
        this.emit({ kind: "elicitation_request", requestId: event.requestId, message: event.message, requestedSchema: event.requestedSchema, toolCallId: event.toolCallId ?? null });
        return;
      case "elicitation.cancelled":
        if (event.requestId in this.openElicitations()) this.resolveElicitation(event.requestId, "cancel", undefined, null);
        return;
      case "permission.cancelled":
        if (this.store.resolvePermission(event.requestId))
          this.emit({ kind: "permission_resolved", requestId: event.requestId, outcome: "cancelled", optionId: null, by: null });
        return;
      case "config.state":
        this.store.setMeta("agent_config", event.config);
        this.emit({ kind: "config_state", config: this.configState() });
        return;
      case "steer.result":
        return this.onSteerResult(event.entryId, event.outcome);
      case "command.failed": {
        this.emit({ kind: "notice", level: "warn", text: `The daemon could not run ${event.command}: ${event.message}` });
        if (event.command === "prompt" && this.store.turn()) {
          this.store.setTurn(null);
          this.emitStatus("error");
          return this.maybeFlush();
        }
        return;
      }
      default:
        return assertNever(event);
    }
  }

  private async onSteerResult(entryId: string, outcome: EventOf<"steer_result">["outcome"]): Promise<void> {
    const entry = this.store.queue().find((e) => e.id === entryId);
    switch (outcome) {
      case "injected":
      case "startedNewTurn":
        if (entry) {
          this.store.removeFromQueue(entryId);
          this.store.settle(entryId, Fate.sent, { queued: true });
          this.emitQueue(true);
          this.emit({ kind: "user_message", id: entry.id, blocks: entry.blocks, author: entry.author, at: Date.now() });
        }
        break;
      case "promptRequired":
      case "failed":
        if (entry) {
          this.store.setQueuedState(entryId, "queued");
          this.emitQueue(false);
        }
        break;
      case "indeterminate":
        if (entry) {
          this.store.setQueuedState(entryId, "indeterminate");
          this.emitQueue(false);
        }
        break;
      default:
        assertNever(outcome);
    }
    this.emit({ kind: "steer_result", id: entryId, outcome });
    // The turn may have ended while the entry was out for steering: it runs next, not never.
    if (outcome === "promptRequired" || outcome === "failed") await this.maybeFlush();
  }

  /** Agents report config changes as session updates too; mirror them into config_state. */
  private handleConfigUpdate(update: Record<string, unknown>): void {
    const kind = update["sessionUpdate"];
    if (kind !== "current_mode_update" && kind !== "config_option_update") return;
    const cfg = this.store.agentConfig();
    let next: AgentConfig | null = null;
    if (update["sessionUpdate"] === "current_mode_update" && cfg.modes && typeof update["currentModeId"] === "string")
      next = { ...cfg, modes: { ...cfg.modes, currentModeId: update["currentModeId"] } };
    if (update["sessionUpdate"] === "config_option_update" && Array.isArray(update["configOptions"]))
      next = { ...cfg, configOptions: update["configOptions"] as AgentConfig["configOptions"] };
    if (next) {
      this.store.setMeta("agent_config", next);
      this.emit({ kind: "config_state", config: this.configState() });
    }
  }

  // ================================================================ helpers

  private async openAgentSession(): Promise<void> {
    const s = this.store.session()!;
    this.emitStatus();
    const resumeFrom = this.store.getMeta<string>("resume_from");
    const res = await this.dispatch(
      {
        t: "session.open",
        sessionId: s.sessionId,
        agentId: s.agentId,
        cwd: s.cwd,
        agentSessionId: resumeFrom,
        // What the user had chosen: the agent reports its defaults after session/load.
        restore: resumeFrom ? settingsFromConfig(this.store.agentConfig()) : null,
      },
      {},
    );
    if (!res.ok && res.code === ErrorCode.MACHINE_OFFLINE) {
      this.store.setMeta("machine_online", false);
      this.emitStatus();
    }
  }

  /** Open permission requests and forms can no longer be answered usefully (turn end, Stop, restart). */
  private cancelPendingPermissions(): void {
    for (const requestId of this.store.pendingPermissionIds()) {
      this.store.resolvePermission(requestId);
      this.emit({ kind: "permission_resolved", requestId, outcome: "cancelled", optionId: null, by: null });
    }
    for (const requestId of Object.keys(this.openElicitations())) this.resolveElicitation(requestId, "cancel", undefined, null);
  }

  private async dispatch(command: MachineCommand, opts: DispatchOptions): Promise<DispatchResult> {
    const s = this.store.session();
    if (!s) return { ok: false, code: ErrorCode.NOT_FOUND, message: "no such session" };
    try {
      return await machineStub(this.env, s.machineId).dispatch(s.sessionId, command, opts);
    } catch (err) {
      console.error("dispatch failed", command.t, err);
      return { ok: false, code: ErrorCode.MACHINE_OFFLINE, message: "the machine could not be reached" };
    }
  }

  private sessionId(): string {
    return this.store.session()!.sessionId;
  }
  private machineOnline(): boolean {
    return this.store.getMeta<boolean>("machine_online") ?? false;
  }
  private settings(): RoomSettings {
    return this.store.getMeta<RoomSettings>("settings") ?? { queueDepth: DEFAULT_QUEUE_DEPTH, mergeQueued: false };
  }
  private configState(): ConfigState {
    return { ...this.store.agentConfig(), ...this.settings() };
  }

  private currentStatus(): SessionStatusEvent {
    const turn = this.store.turn();
    if (!this.store.session()) return { kind: "session_status", state: "closed" };
    if (!this.machineOnline())
      return { kind: "session_status", state: "offline", turnRunning: turn !== null, turnId: turn?.turnId ?? null, message: "machine offline" };
    const failed = this.store.getMeta<string>("failed");
    if (failed) {
      const authMethods = this.store.getMeta<AuthMethod[]>("failed_auth");
      return { kind: "session_status", state: "error", message: failed, ...(authMethods ? { authMethods } : {}) };
    }
    if (this.store.getMeta("agent_session_id") === null) return { kind: "session_status", state: "starting" };
    if (turn) return { kind: "session_status", state: "active", turnId: turn.turnId };
    return { kind: "session_status", state: "idle" };
  }

  /** Logs a session_status when the state changed (or a turn ended with a stop reason). */
  private emitStatus(stopReason?: string): void {
    const status = this.currentStatus();
    const key = `${status.state}:${status.turnId ?? ""}`;
    if (!stopReason && this.store.getMeta<string>("status_key") === key) return;
    this.store.setMeta("status_key", key);
    this.emit(stopReason ? { ...status, stopReason } : status);
    this.updateDirectoryStatus(status.state);
  }

  private emitQueue(flushed: boolean): void {
    this.emit({ kind: "queue_state", entries: this.store.queue(), flushed });
  }

  /** Logs (when a logged kind) and fans out to every viewer — or to `outgoing` during a run. */
  private emit(event: SessionEvent): void {
    const body = JSON.stringify(event);
    // The event is serialised once: the same text goes to the log and into the frame.
    const text = LOGGED_KINDS.has(event.kind)
      ? `{"type":"event","seq":${this.store.append(event.kind, body)},"event":${body}}`
      : `{"type":"state","event":${body}}`;
    if (this.outgoing) this.outgoing.push(text);
    else this.broadcast(text);
  }

  /** Sends what a run emitted: one frame as is, several as one `batch` frame. */
  private flushOutgoing(): void {
    const frames = this.outgoing;
    this.outgoing = null;
    if (!frames?.length) return;
    this.broadcast(frames.length === 1 ? frames[0]! : `{"type":"batch","frames":[${frames.join(",")}]}`);
  }

  /** The same string to every viewer (serialised once, not per socket). */
  private broadcast(text: string): void {
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        /* closing socket */
      }
    }
  }

  private sendReplay(ws: WebSocket, viewer: Viewer, after: number): void {
    const head = this.store.headSeq();
    const send = (f: ServerFrame) => ws.send(JSON.stringify(f));
    send({ type: "welcome", sessionId: this.sessionId(), viewer, headSeq: head });
    const tail = after > 0 && after <= head && head - after <= REPLAY_TAIL_MAX;
    if (tail) {
      for (const { seq, event } of this.store.eventsAfter(after)) send({ type: "event", seq, event });
    } else if (head > 0 || after > 0) {
      const compacted = compactEvents(this.store.allEvents());
      let page: string[] = [];
      let bytes = 0;
      let first = true;
      const flush = (last: boolean) => {
        // Non-final pages carry seq 0: a viewer cut off mid-snapshot reconnects from scratch.
        ws.send(`{"type":"snapshot","seq":${last ? head : 0},"append":${!first},"events":[${page.join(",")}]}`);
        first = false;
        page = [];
        bytes = 0;
      };
      for (const { event } of compacted) {
        const json = JSON.stringify(event);
        if (bytes + json.length > SNAPSHOT_PAGE_BYTES && page.length) flush(false);
        page.push(json);
        bytes += json.length;
      }
      flush(true);
    }
    send({ type: "state", event: { kind: "queue_state", entries: this.store.queue(), flushed: false } });
    send({ type: "state", event: { kind: "config_state", config: this.configState() } });
    send({ type: "state", event: { ...this.currentStatus(), synthetic: true } });
    send({ type: "ready", seq: head });
  }

  private ack(ws: WebSocket, op: ClientOp, result: Record<string, unknown>): void {
    try {
      ws.send(JSON.stringify({ type: "ack", rid: op.rid, op: op.op, result } satisfies ServerFrame));
    } catch {
      /* viewer went away; the outcome is durable and a retry gets it */
    }
  }

  private sendError(ws: WebSocket, rid: string | null, code: ErrorCode, message: string): void {
    try {
      ws.send(JSON.stringify({ type: "error", rid, code, message } satisfies ServerFrame));
    } catch {
      /* closed */
    }
  }

  private updateDirectoryStatus(state: string): void {
    const s = this.store.session();
    if (!s) return;
    this.ctx.waitUntil(
      this.env.DB.prepare("UPDATE sessions SET status = ? WHERE id = ?").bind(state, s.sessionId).run().catch(() => {}),
    );
  }
  private touchDirectory(at: number): void {
    const s = this.store.session();
    if (!s) return;
    this.ctx.waitUntil(
      this.env.DB.prepare("UPDATE sessions SET last_activity_at = ? WHERE id = ?").bind(at, s.sessionId).run().catch(() => {}),
    );
  }
}
