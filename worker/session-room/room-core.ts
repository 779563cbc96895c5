/**
 * The SessionRoom's rules, over RoomStore and a port for effects; nothing from the Workers runtime.
 * The Durable Object (session-room-do.ts) holds one RoomCore and does sockets, hibernation and RPC.
 *
 * Invariants
 * - At most one turn runs: a prompt is forwarded only when `turn` is null, and `turn` is set
 *   synchronously before the forward is awaited, so a concurrent send parks instead.
 * - The user_message echo is emitted once, when the turn is confirmed: the Machine took the prompt or
 *   the daemon's turn.started says it runs, whichever is heard first; daemon events wait for an in-flight
 *   forward (`inflight`), so the echo always precedes the agent's output.
 * - A reservation keeps its messages (`turn_pending`) until confirmed: an instance reset mid-forward
 *   neither loses nor repeats them — the next instance forwards the prompt again with the same turnId
 *   (the daemon runs a turn id once) or, refused, puts them back at the head of the queue.
 * - Flush order: queue_state{flushed:true} → user_message → (prompt forwarded, already accepted).
 * - Stop drops the queue (returned in `dropped`) and never auto-sends it; each dropped entry is
 *   re-queued or restored to one draft, once (dropped-offer.ts).
 * - Daemon events apply exactly once: a cursor of the daemon's `n` commits with their effects.
 * - The agent's config is the daemon's (config.state / session.ready); the room never recomputes it.
 *
 * Where the other rules live: queue ops and limits in queue-rules.ts, permission requests in
 * permissions.ts, agent forms in elicitations.ts, config writes and settings in config-rules.ts, status in room-status.ts, the
 * (re)connect replay in room-replay.ts.
 */
import { z } from "zod";
import { assertNever } from "../../shared/assert-never";
import { mergePrompts, type PromptBlock } from "../../shared/blocks";
import { promptPreview } from "../../shared/prompt-preview";
import { settingsFromConfig } from "../../shared/session-settings";
import type { DaemonEvent, MachineCommand } from "../../shared/tunnel-protocol";
import {
  type AckOf,
  type Author,
  type ClientOp,
  type ClientOpName,
  type QueueEntry,
  ErrorCode,
  type EventOf,
  LOGGED_KINDS,
  type SendAck,
  type SessionEvent,
  type SessionState,
  type Viewer,
} from "../../shared/viewer-protocol";
import type { DispatchOptions, DispatchResult, MachineStatus } from "../machine/dispatch-result";
import { configCommand, configState, type ConfigOp, roomSettings, settingsAfter } from "./config-rules";
import { agentSessionOf, type Canceller, initialRoomState, resumeFromOf, type RoomState, startKindOf, type TurnPhase } from "./room-state";
import { answerElicitation, cancelOpenElicitations, elicitationRequested, elicitationWithdrawn } from "./elicitations";
import { claimDropped, clearOffer, currentOffer, offerDropped, requeueAdmitted } from "./dropped-offer";
import { lastAgentText, type PushEvent } from "../push/notify-rules";
import { answerPermission, cancelPendingPermissions, permissionRequested, permissionWithdrawn, type RemoteAnswer, remoteAnswer } from "./permissions";
import { cancelEntry, dropAll, editEntry, fateOutcome, moveEntry, type QueueCtx, queueBytesExceeded, queueFullReason } from "./queue-rules";
import { historyPage, replay } from "./room-replay";
import { agentTitleOf, firstPromptLine, sessionTitleOf } from "./session-title";
import { NEEDS_YOU_KINDS, needsYou } from "./needs-you";
import { searchHistory } from "./room-search";
import { currentStatus, type SessionStatusEvent, statusKey } from "./room-status";
import { forkableEvents, IMPORTED_AUTHOR, readSeed, readyNotice, type RoomStart, RoomStartKind } from "./room-start";
import { Fate, type RoomStore, type SessionMeta, type Turn } from "./room-store";

/** Effects of the room on the world: viewers, the Machine, the directory, the clock. */
export interface RoomPort {
  /** The same text to every connected viewer. */
  broadcast(text: string): void;
  /** A command for the session's daemon through its Machine (budget, numbering, delivery). */
  dispatch(machineId: string, sessionId: string, command: MachineCommand, opts: DispatchOptions): Promise<DispatchResult>;
  /** The directory's copy of the session's status / last activity (best effort, not awaited). */
  directoryStatus(sessionId: string, state: SessionState): void;
  directoryActivity(sessionId: string, at: number): void;
  /** The directory's copy of what tells the session apart in the list (best effort, not awaited). */
  directoryTitle(sessionId: string, title: { firstPrompt?: string; agentTitle?: string }): void;
  /** The directory's "needs you" marker: a permission request or form is open (issue 26; best effort). */
  directoryNeedsYou(sessionId: string, open: boolean): void;
  /**
   * Web Push to followers away from the session (worker/push): after the fact, never awaited by the room.
   * `build` is called at once or not at all (push off): what it reads (the log's tail) costs nothing then.
   */
  notify(build: () => PushEvent): void;
  now(): number;
  newId(): string;
}

/** Answers to the one viewer that sent an op. */
export interface Replier {
  ack<K extends ClientOpName>(op: { op: K; rid: string }, result: AckOf<K>): void;
  error(rid: string | null, code: ErrorCode, message: string): void;
}

type OpOf<K extends ClientOpName> = Extract<ClientOp, { op: K }>;
type SendOutcome = { ok: true; ack: SendAck } | { ok: false; code: ErrorCode; message: string };
type Message = { id: string; blocks: PromptBlock[]; author: Author };
type PushDetail = PushEvent extends infer E ? (E extends PushEvent ? Omit<E, "sessionId" | "sessionTitle"> : never) : never;

/** Log rows read back for a turn's last words in its push (enough to reach them; bounded cost per turn end). */
const PUSH_PREVIEW_TAIL_EVENTS = 200;
/** Longest prompt text carried into a push's preview (the payload cuts it further). */
const PUSH_PROMPT_PREVIEW_CHARS = 300;
const ToolTitle = z.object({ title: z.string() });

export class RoomCore {
  /** A prompt forward awaiting the Machine; daemon events wait for it (echo before output). */
  private inflight: Promise<unknown> | null = null;
  /** Forwarding again a reservation a reset instance left (recoverReservation); ops wait for it. */
  private recovering: Promise<void> | null = null;
  /** Sends by id currently being forwarded: a duplicate arriving meanwhile gets the same answer. */
  private readonly sendsInFlight = new Map<string, Promise<SendOutcome>>();
  /** Frames emitted during a synchronous run of daemon events, sent as one message when it ends. */
  private outgoing: string[] | null = null;
  /** Pushes raised during such a run, built when it ends (their preview reads the run's rows). */
  private pushes: (() => PushEvent)[] | null = null;
  private readonly queueCtx: QueueCtx;

  constructor(
    private readonly store: RoomStore,
    private readonly port: RoomPort,
  ) {
    this.queueCtx = { store, emitQueue: (flushed) => this.emitQueue(flushed) };
  }

  // ================================================================ from the Worker

  /** Creates the session (idempotent) and asks the machine to open it. */
  async init(meta: SessionMeta, start?: RoomStart): Promise<void> {
    if (this.store.session()) return;
    // Issue 26: bound to an existing agent session (import / fork; room-start.ts).
    this.store.save(initialRoomState(meta, start));
    if (start) {
      const seed = readSeed(start.seedJson);
      this.store.beginRun(); // the copied rows: one log row, written in this step
      for (const event of seed ?? [{ kind: "notice", level: "warn", text: "The original session's rows could not be copied." }] satisfies SessionEvent[]) this.emit(event);
      this.store.endRun();
    }
    await this.openAgentSession();
  }

  /** Issue 26: this room's transcript for a fork (room-start.ts `forkableEvents`); the room is not changed. */
  forkSource(maxBytes: number): { eventsJson: string; truncated: boolean; agentSessionId: string | null } {
    const { events, truncated } = forkableEvents(this.store.allEvents(), maxBytes);
    return { eventsJson: JSON.stringify(events), truncated, agentSessionId: agentSessionOf(this.state()) };
  }

  info(): { exists: boolean; status: SessionStatusEvent; queueLength: number; headSeq: number } {
    return {
      exists: this.store.session() !== null,
      status: currentStatus(this.store),
      queueLength: this.store.queueLength(),
      headSeq: this.store.headSeq(),
    };
  }

  /** Replays state to a joining viewer; the caller adds its socket to the live set in the same step. */
  replay(viewer: Viewer, after: number, send: (text: string) => void): void {
    replay(this.store, viewer, after, { sessionId: this.sessionId(), config: configState(this.store), status: currentStatus(this.store) }, send);
  }

  // ================================================================ viewer ops

  async handleOp(viewer: Viewer, op: ClientOp, reply: Replier): Promise<void> {
    // Reading older rows is for everyone; every other op acts on the session.
    if (op.op === "history.page") return reply.ack(op, historyPage(this.store, op.before, op.limit));
    if (op.op === "history.search") return reply.ack(op, searchHistory(this.store, op.query, op));
    if (viewer.role === "viewer") return reply.error(op.rid, ErrorCode.FORBIDDEN, "viewers are read-only in this session");
    await this.recoverReservation();
    switch (op.op) {
      case "message.send":
        return this.onSend(viewer, op, reply);
      case "queue.cancel":
        return reply.ack(op, cancelEntry(this.queueCtx, op.id));
      case "queue.edit": {
        const queue = this.store.queue();
        const full = queue.some((e) => e.id === op.id) ? queueBytesExceeded(queue, op.id, op.blocks) : null;
        if (full) return reply.error(op.rid, ErrorCode.QUEUE_FULL, full);
        return reply.ack(op, editEntry(this.queueCtx, op.id, op.blocks));
      }
      case "queue.move":
        return reply.ack(op, moveEntry(this.queueCtx, op.id, op.before ?? null));
      case "queue.steer":
        return this.onQueueSteer(viewer, op, reply);
      case "turn.cancel":
        return this.onTurnCancel(viewer, op, reply);
      case "queue.claimDropped": {
        const { claimed, offerChanged } = claimDropped(this.store, op.ids);
        if (offerChanged) this.emitOffer();
        return reply.ack(op, { claimed });
      }
      case "config.set":
      case "mode.set":
      case "model.set":
        return this.onConfig(op, reply);
      case "permission.respond":
        return this.onPermission(viewer, op, reply);
      case "elicitation.respond":
        return this.onElicitation(viewer, op, reply);
      case "settings.set": {
        const settings = settingsAfter(roomSettings(this.store), op);
        this.store.update((s) => ({ ...s, settings }));
        this.emit({ kind: "config_state", config: configState(this.store) });
        return reply.ack(op, { outcome: "saved", settings });
      }
      default:
        assertNever(op);
    }
  }

  /** A permission answered from a notification: the card's rules (members only, first valid answer wins). */
  async answerPermissionRemotely(viewer: Viewer, requestId: string, optionId: string): Promise<RemoteAnswer> {
    if (viewer.role === "viewer") return { ok: false, error: "FORBIDDEN", message: "viewers are read-only in this session" };
    if (!this.store.session()) return { ok: false, error: "NOT_FOUND", message: "no such session" };
    const answer = answerPermission(this.store, (e) => this.emit(e), { id: viewer.id, name: viewer.name }, { requestId, optionId }, this.sessionId());
    if (answer.ok && answer.forward) await this.dispatch(answer.forward, { deliverWhenOnline: true });
    return remoteAnswer(this.store, requestId, answer);
  }

  // ---------------------------------------------------------------- send / queue / flush

  private async onSend(viewer: Viewer, op: OpOf<"message.send">, reply: Replier): Promise<void> {
    const settled = this.store.settled(op.id);
    if (settled) return reply.ack(op, { ...settled.ack, duplicate: true });
    const running = this.sendsInFlight.get(op.id);
    if (running) {
      const r = await running;
      return r.ok ? reply.ack(op, { ...r.ack, duplicate: true }) : reply.error(op.rid, r.code, r.message);
    }
    const p = this.admitSend({ id: op.id, blocks: op.blocks, author: { id: viewer.id, name: viewer.name } });
    this.sendsInFlight.set(op.id, p);
    try {
      const r = await p;
      if (r.ok && requeueAdmitted(this.store, op.id)) this.emitOffer();
      if (r.ok) reply.ack(op, r.ack);
      else reply.error(op.rid, r.code, r.message);
    } finally {
      this.sendsInFlight.delete(op.id);
    }
  }

  /** Idle → forward now; busy (or the agent not ready yet) → park in the queue; full → refuse. */
  private async admitSend(m: Message): Promise<SendOutcome> {
    const fail = (code: ErrorCode, message: string): SendOutcome => ({ ok: false, code, message });
    if (!this.store.session()) return fail(ErrorCode.NOT_FOUND, "no such session");
    const agent = this.state().agent;
    if (agent.phase === "failed") return fail(ErrorCode.SESSION_NOT_READY, `the agent session failed: ${agent.message}`);
    const turn = this.store.turn();
    if (!this.machineOnline() && !turn) return fail(ErrorCode.MACHINE_OFFLINE, "the machine is offline; the message was not sent");

    const ready = agent.phase === "ready";
    if (turn !== null || !ready) {
      const full = queueFullReason(this.store, roomSettings(this.store).queueDepth) ?? queueBytesExceeded(this.store.queue(), m.id, m.blocks);
      if (full) return fail(ErrorCode.QUEUE_FULL, full);
      this.store.enqueue({ ...m, createdAt: this.port.now(), state: "queued" });
      const ack = { queued: true, position: this.store.queueLength() };
      this.store.settle(m.id, Fate.queued, { queued: true });
      this.emitQueue(false);
      return { ok: true, ack };
    }
    const res = await this.startTurn([{ ...m, createdAt: this.port.now(), state: "queued" }], false, null);
    if (!res.ok) return fail(res.code, res.message);
    return { ok: true, ack: { queued: false } };
  }

  /**
   * Reserves the turn (with its messages, as `turn_pending`) and forwards the prompt; on acceptance the turn
   * is confirmed (confirmTurn). On refusal the reservation is released and the caller decides.
   */
  private async startTurn(entries: QueueEntry[], fromQueue: boolean, actorId: string | null): Promise<DispatchResult> {
    const turnId = this.port.newId();
    const reserved = { phase: "reserved", turnId, messageId: entries[0]!.id, startedAt: this.port.now(), entries, fromQueue, actorId, cancelledBy: null } as const;
    this.store.update((s) => ({ ...s, turn: reserved }));
    return this.forwardReserved(turnId);
  }

  /** Forwards the reserved turn's prompt (again, after a reset: same turnId, the daemon runs it once). */
  private async forwardReserved(turnId: string): Promise<DispatchResult> {
    const session = this.store.session()!;
    const pending = this.reservation(turnId)!;
    const first = pending.entries[0]!;
    const blocks = pending.entries.length === 1 ? first.blocks : mergePrompts(pending.entries.map((m) => m.blocks));
    const forward = this.dispatch(
      { t: "prompt", sessionId: session.sessionId, turnId, messageId: first.id, blocks },
      { startsTurn: true, fromQueue: pending.fromQueue },
    );
    this.inflight = forward;
    let res: DispatchResult;
    try {
      res = await forward;
    } finally {
      if (this.inflight === forward) this.inflight = null;
    }
    if (!res.ok) {
      if (this.store.turn()?.turnId === turnId) this.setIdle();
      return res;
    }
    this.confirmTurn(turnId);
    return res;
  }

  /**
   * The reserved turn runs (the Machine took the prompt, or the daemon says it started — whichever is heard
   * first): its messages are settled and echoed, once. False if `turnId` is not the one awaiting this.
   */
  private confirmTurn(turnId: string): boolean {
    const pending = this.reservation(turnId);
    if (!pending) return false;
    const { cancelledBy, entries: _entries, fromQueue: _fromQueue, actorId: _actorId, phase: _phase, ...facts } = pending;
    this.store.update((s) => ({ ...s, turn: cancelledBy ? { ...facts, phase: "cancelling", cancelledBy } : { ...facts, phase: "running" } }));
    const { entries, fromQueue, actorId } = pending;
    for (const e of entries) this.store.settle(e.id, Fate.sent, { queued: fromQueue });
    if (fromQueue) this.emitQueue(true);
    if (clearOffer(this.store)) this.emitOffer();
    const at = this.port.now();
    for (const m of entries) this.emit({ kind: "user_message", id: m.id, blocks: m.blocks, author: m.author, at });
    this.emitStatus();
    const sessionId = this.sessionId();
    this.port.directoryActivity(sessionId, at);
    if (this.state().firstPrompt === null) {
      const line = firstPromptLine(entries[0]!.blocks);
      if (line) {
        this.store.update((s) => ({ ...s, firstPrompt: line }));
        this.port.directoryTitle(sessionId, { firstPrompt: line });
      }
    }
    if (fromQueue)
      for (const e of entries)
        this.notify(() => ({ kind: "queued_started", actorId, authorId: e.author.id, preview: promptPreview(e.blocks, PUSH_PROMPT_PREVIEW_CHARS) }));
    return true;
  }

  /**
   * A reservation left by an instance that was reset mid-forward (none of this instance's forwards is in
   * flight): the Machine may or may not have the prompt, so it is forwarded again with the same turnId (the
   * daemon ignores a turn it already has). Refused → its messages go back to the head of the queue, none lost.
   */
  private recoverReservation(): Promise<void> | void {
    if (this.recovering) return this.recovering;
    const pending = this.reservation();
    if (!pending || this.inflight) return;
    this.recovering = (async () => {
      try {
        const res = await this.forwardReserved(pending.turnId);
        if (res.ok) return;
        this.requeue(pending.entries);
        this.emit({ kind: "notice", level: "warn", text: `Queued message not sent yet: ${res.message}` });
        this.emitStatus();
      } finally {
        this.recovering = null;
      }
    })();
    return this.recovering;
  }

  /** The daemon's turns are gone: a reservation never confirmed goes back to the head of the queue (it runs on reopen). */
  private requeueUnconfirmed(): void {
    const pending = this.reservation();
    if (!pending) return;
    this.store.update((s) => ({ ...s, turn: { phase: "running", turnId: pending.turnId, messageId: pending.messageId, startedAt: pending.startedAt } }));
    this.requeue(pending.entries);
  }

  /** Messages of a turn that never ran go back to the head of the queue, in order, and are answered as queued. */
  private requeue(entries: QueueEntry[]): void {
    for (const e of [...entries].reverse()) this.store.requeueAtHead(e);
    for (const e of entries) this.store.settle(e.id, Fate.queued, { queued: true });
    this.emitQueue(false);
  }

  /** On busy→idle: forward the head of the queue (or all of it, merged); `actorId`: who caused the flush, if a person did. */
  private async maybeFlush(actorId: string | null = null): Promise<void> {
    if (this.store.turn() || !this.machineOnline() || this.state().agent.phase !== "ready") return;
    const ready = this.store.queue().filter((e) => e.state === "queued");
    if (!ready.length) return;
    const take = roomSettings(this.store).mergeQueued ? ready : [ready[0]!];
    for (const e of take) this.store.removeFromQueue(e.id);
    const res = await this.startTurn(take, true, actorId);
    if (!res.ok) {
      for (const e of [...take].reverse()) this.store.requeueAtHead(e);
      this.emit({ kind: "notice", level: "warn", text: `Queued message not sent yet: ${res.message}` });
    }
  }

  private async onQueueSteer(viewer: Viewer, op: OpOf<"queue.steer">, reply: Replier): Promise<void> {
    if (!this.store.agentConfig().steering) return reply.error(op.rid, ErrorCode.NOT_SUPPORTED, "this agent does not support steering");
    const entry = this.store.queue().find((e) => e.id === op.id);
    if (!entry) return reply.ack(op, fateOutcome(this.store, op.id));
    if (entry.state === "steering") return reply.ack(op, { outcome: "steering" });
    if (!this.store.turn()) {
      // Idle: an unconfirmed entry's explicit retry runs it as the next turn (never automatic).
      if (entry.state !== "indeterminate") return reply.error(op.rid, ErrorCode.NOT_SUPPORTED, "no running turn to steer into");
      this.store.setQueuedState(op.id, "queued");
      this.store.reorder([op.id, ...this.store.queue().map((e) => e.id).filter((x) => x !== op.id)]);
      this.emitQueue(false);
      reply.ack(op, { outcome: "requeued" });
      return this.maybeFlush(viewer.id);
    }
    this.store.setQueuedState(op.id, "steering");
    this.emitQueue(false);
    const res = await this.dispatch({ t: "steer", sessionId: this.sessionId(), entryId: op.id, blocks: entry.blocks }, {});
    if (!res.ok) {
      this.store.setQueuedState(op.id, entry.state);
      this.emitQueue(false);
      return reply.error(op.rid, res.code, res.message);
    }
    reply.ack(op, { outcome: "steering" });
  }

  /** The agent's answer to a steer: delivered → the entry leaves with its echo; refused → queued again. */
  private async onSteerResult(entryId: string, outcome: EventOf<"steer_result">["outcome"]): Promise<void> {
    const entry = this.store.queue().find((e) => e.id === entryId);
    switch (outcome) {
      case "injected":
      case "startedNewTurn":
        if (entry) {
          this.store.removeFromQueue(entryId);
          this.store.settle(entryId, Fate.sent, { queued: true });
          this.emitQueue(true);
          this.emit({ kind: "user_message", id: entry.id, blocks: entry.blocks, author: entry.author, at: this.port.now() });
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

  /** Stop: drop the queue (returned to viewers), then cancel the running turn. */
  private async onTurnCancel(viewer: Viewer, op: OpOf<"turn.cancel">, reply: Replier): Promise<void> {
    const dropped = dropAll(this.store);
    offerDropped(this.store, dropped);
    const turn = this.store.turn();
    if (dropped.length || turn) this.emit({ kind: "queue_state", entries: [], flushed: false, dropped });
    if (!turn) return reply.ack(op, { outcome: "idle", dropped });
    this.store.update((s) => ({ ...s, turn: cancelRequested(s.turn, { id: viewer.id, name: viewer.name }) }));
    await this.dispatch({ t: "cancel", sessionId: this.sessionId() }, { deliverWhenOnline: true });
    reply.ack(op, { outcome: "cancelled", dropped });
  }

  // ---------------------------------------------------------------- config / permissions

  /** Config writes are never busy-gated: forwarded now, labelled "applies from the next turn" mid-turn. */
  private async onConfig(op: ConfigOp, reply: Replier): Promise<void> {
    const c = configCommand(this.store.agentConfig(), op, this.sessionId());
    if (!c.ok) return reply.error(op.rid, ErrorCode.NOT_SUPPORTED, c.message);
    const res = await this.dispatch(c.command, {});
    if (!res.ok) return reply.error(op.rid, res.code, res.message);
    reply.ack(op, { outcome: "forwarded", appliesNextTurn: this.store.turn() !== null });
  }

  private async onPermission(viewer: Viewer, op: OpOf<"permission.respond">, reply: Replier): Promise<void> {
    const answer = answerPermission(this.store, (e) => this.emit(e), { id: viewer.id, name: viewer.name }, op, this.sessionId());
    if (!answer.ok) return reply.error(op.rid, answer.code, answer.message);
    if (answer.forward) await this.dispatch(answer.forward, { deliverWhenOnline: true });
    reply.ack(op, answer.ack);
  }

  private async onElicitation(viewer: Viewer, op: OpOf<"elicitation.respond">, reply: Replier): Promise<void> {
    const answer = answerElicitation(this.store, (e) => this.emit(e), { id: viewer.id, name: viewer.name }, op, this.sessionId());
    if (!answer.ok) return reply.error(op.rid, answer.code, answer.message);
    if (answer.forward) await this.dispatch(answer.forward, { deliverWhenOnline: true });
    reply.ack(op, answer.ack);
  }

  // ================================================================ from the Machine

  async onDaemonEvents(epoch: string, batch: { n: number; event: DaemonEvent }[]): Promise<void> {
    while (this.inflight) await this.inflight;
    let i = 0;
    while (i < batch.length) {
      // One synchronous run of events, up to one that awaits (a flush): the cursor is read once and
      // written once, in the same step as the events' effects (they commit together), and viewers get
      // the run's frames as one message. Re-read after an await: another delivery may have interleaved.
      const cursor = this.state().daemonCursor;
      let last: number | null = null;
      let awaited: Promise<void> | void = undefined;
      this.outgoing = [];
      this.pushes = [];
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
        if (last !== null) {
          const daemonCursor = { epoch, n: last };
          this.store.update((s) => ({ ...s, daemonCursor }));
        }
        this.flushOutgoing();
        this.flushPushes();
      }
      if (awaited) await awaited;
    }
  }

  async onMachineStatus(status: MachineStatus): Promise<void> {
    if (!this.store.session()) return;
    const wasOnline = this.machineOnline();
    this.store.update((s) => ({ ...s, machineOnline: status.online }));
    if (!status.online) {
      this.emitStatus();
      if (wasOnline && this.store.turn()) this.notify(() => ({ kind: "machine_offline", actorId: null }));
      return;
    }
    const live = status.liveSessionIds.includes(this.sessionId());
    if (!live || status.restarted) {
      const turn = this.store.turn();
      this.requeueUnconfirmed();
      if (turn) {
        this.setIdle();
        this.cancelPermissions();
        this.emit({ kind: "turn_error", message: "The agent restarted; the running turn was lost.", code: "AGENT_RESTARTED" });
        this.notify(() => ({ kind: "turn_failed", actorId: null, message: "The agent restarted; the running turn was lost." }));
      }
      const agent = this.state().agent;
      if (agent.phase === "ready") this.store.update((s) => ({ ...s, agent: { phase: "opening", resumeFrom: agent.agentSessionId, startKind: null } }));
      await this.openAgentSession();
      return;
    }
    this.emitStatus();
    await this.recoverReservation();
    await this.maybeFlush();
  }

  /** Applies one daemon event; returns a promise only when the event has to await (a flush). */
  private applyDaemonEvent(event: DaemonEvent): Promise<void> | void {
    switch (event.t) {
      case "session.ready": {
        const resumedFrom = resumeFromOf(this.state());
        const startKind = startKindOf(this.state());
        this.store.update((s) => ({ ...s, agent: { phase: "ready", agentSessionId: event.agentSessionId }, agentConfig: event.config }));
        const notice = readyNotice(startKind, resumedFrom, event.resumed);
        if (notice) this.emit({ kind: "notice", ...notice });
        this.emit({ kind: "config_state", config: configState(this.store) });
        this.emitStatus();
        return this.maybeFlush();
      }
      case "session.failed":
        this.store.update((s) => ({
          ...s,
          agent: { phase: "failed", message: event.message, authMethods: event.authMethods?.length ? event.authMethods : null, resumeFrom: agentSessionOf(s), startKind: startKindOf(s) },
        }));
        this.emitStatus();
        return;
      case "session.notice":
        this.emit({ kind: "notice", level: event.level, text: event.text });
        return;
      case "session.update":
        // Relayed as is. Config changes it carries arrive from the daemon as `config.state` too.
        this.emit({ kind: "acp", update: event.update });
        this.noteAgentTitle(event.update);
        return;
      case "turn.started":
        this.confirmTurn(event.turnId);
        return;
      case "turn.ended": {
        const turn = this.store.turn();
        if (!turn || turn.turnId !== event.turnId) return;
        this.confirmTurn(event.turnId);
        this.setIdle();
        if (event.error) this.emit({ kind: "turn_error", message: event.error, code: event.stopReason });
        this.notifyTurnEnded(turn, event.error ?? null);
        this.cancelPermissions();
        this.emitStatus(event.stopReason);
        this.port.directoryActivity(this.sessionId(), this.port.now());
        return this.maybeFlush();
      }
      case "permission.request": {
        const fresh = this.store.permission(event.requestId) === null;
        permissionRequested(this.store, (e) => this.emit(e), event);
        const tool = ToolTitle.safeParse(event.toolCall);
        if (fresh)
          this.notify(() => ({ kind: "permission", actorId: null, requestId: event.requestId, toolTitle: tool.success ? tool.data.title : "", options: event.options }));
        return;
      }
      case "permission.cancelled":
        return permissionWithdrawn(this.store, (e) => this.emit(e), event.requestId);
      case "elicitation.request": {
        const fresh = !(event.requestId in this.state().elicitations);
        elicitationRequested(this.store, (e) => this.emit(e), event);
        if (fresh) this.notify(() => ({ kind: "question", actorId: null, requestId: event.requestId, message: event.message }));
        return;
      }
      case "elicitation.cancelled":
        return elicitationWithdrawn(this.store, (e) => this.emit(e), event.requestId);
      case "config.state":
        this.store.update((s) => ({ ...s, agentConfig: event.config }));
        this.emit({ kind: "config_state", config: configState(this.store) });
        return;
      case "steer.result":
        return this.onSteerResult(event.entryId, event.outcome);
      case "history.user":
        // Issue 26: an imported session's replayed user message (the daemon relays an import's history once).
        this.emit({ kind: "user_message", id: this.port.newId(), blocks: event.blocks, author: IMPORTED_AUTHOR, at: this.port.now() });
        return;
      case "command.failed": {
        this.emit({ kind: "notice", level: "warn", text: `The daemon could not run ${event.command}: ${event.message}` });
        if (event.command === "prompt" && this.store.turn()) {
          this.setIdle();
          this.notify(() => ({ kind: "turn_failed", actorId: null, message: `The daemon could not run the prompt: ${event.message}` }));
          this.emitStatus("error");
          return this.maybeFlush();
        }
        return;
      }
      default:
        return assertNever(event);
    }
  }

  // ================================================================ helpers

  private async openAgentSession(): Promise<void> {
    const s = this.store.session()!;
    this.emitStatus();
    const resumeFrom = resumeFromOf(this.state());
    const startKind = startKindOf(this.state());
    const res = await this.dispatch(
      {
        t: "session.open",
        sessionId: s.sessionId,
        agentId: s.agentId,
        cwd: s.cwd,
        agentSessionId: resumeFrom,
        // What the user had chosen: an agent reports its defaults after session/load (an import / fork has none yet).
        restore: resumeFrom && !startKind ? settingsFromConfig(this.store.agentConfig()) : null,
        // Issue 26: only an import's first open relays the agent's history; a reattach drops it.
        ...(startKind === RoomStartKind.import ? { history: "relay" as const } : {}),
      },
      {},
    );
    if (!res.ok && res.code === ErrorCode.MACHINE_OFFLINE) {
      this.store.update((s) => ({ ...s, machineOnline: false }));
      this.emitStatus();
    }
  }

  /** Open permission requests and forms can no longer be answered usefully (turn end, Stop, restart). */
  private cancelPermissions(): void {
    cancelPendingPermissions(this.store, (e) => this.emit(e));
    cancelOpenElicitations(this.store, (e) => this.emit(e));
  }

  private dispatch(command: MachineCommand, opts: DispatchOptions): Promise<DispatchResult> {
    const s = this.store.session();
    if (!s) return Promise.resolve({ ok: false, code: ErrorCode.NOT_FOUND, message: "no such session" });
    return this.port.dispatch(s.machineId, s.sessionId, command, opts);
  }

  /** The agent named the session (`session_info_update`): the directory's list shows it. */
  private noteAgentTitle(update: unknown): void {
    const title = agentTitleOf(update);
    if (!title || this.state().agentTitle === title) return;
    this.store.update((s) => ({ ...s, agentTitle: title }));
    this.port.directoryTitle(this.sessionId(), { agentTitle: title });
  }

  private sessionId(): string {
    return this.store.session()!.sessionId;
  }

  /** A turn's end for its push: stopped (by whom), failed, or finished with the agent's last words. */
  private notifyTurnEnded(turn: Turn, error: string | null): void {
    const actorId = turn.cancelledBy?.id ?? null;
    if (error) return this.notify(() => ({ kind: "turn_failed", actorId, message: error }));
    this.notify(() => ({
      kind: "turn_ended",
      actorId,
      stoppedBy: turn.cancelRequested ? (turn.cancelledBy?.name ?? null) : null,
      preview: lastAgentText(this.store.eventsAfter(Math.max(0, this.store.headSeq() - PUSH_PREVIEW_TAIL_EVENTS)).map((e) => e.event)),
    }));
  }

  /** Raises a push now, or at the end of the current run of daemon events (built then). */
  private notify(build: () => PushDetail): void {
    const s = this.store.session();
    if (!s) return;
    const raise = (): PushEvent => ({ ...build(), sessionId: s.sessionId, sessionTitle: this.sessionTitle() }) as PushEvent;
    if (this.pushes) this.pushes.push(raise);
    else this.port.notify(raise);
  }

  private flushPushes(): void {
    const pushes = this.pushes;
    this.pushes = null;
    for (const build of pushes ?? []) this.port.notify(build);
  }

  /** What people call the session: the agent's title, else the first prompt, else the title it was created with. */
  private sessionTitle(): string {
    const s = this.store.state();
    return sessionTitleOf({ agentTitle: s?.agentTitle ?? null, firstPrompt: s?.firstPrompt ?? null, created: s?.session.title ?? null });
  }
  private machineOnline(): boolean {
    return this.store.state()?.machineOnline ?? false;
  }

  /** The room's state (only called once the session exists). */
  private state(): RoomState {
    return this.store.state()!;
  }

  /** The reserved turn (of `turnId` when given), or null. */
  private reservation(turnId?: string): Extract<TurnPhase, { phase: "reserved" }> | null {
    const t = this.store.state()?.turn;
    return t?.phase === "reserved" && (turnId === undefined || t.turnId === turnId) ? t : null;
  }

  private setIdle(): void {
    this.store.update((s) => ({ ...s, turn: { phase: "idle" } }));
  }

  /** Logs a session_status when the state changed (or a turn ended with a stop reason). */
  private emitStatus(stopReason?: string): void {
    const status = currentStatus(this.store);
    const key = statusKey(status);
    if (!stopReason && this.store.state()?.statusKey === key) return;
    this.store.update((s) => ({ ...s, statusKey: key }));
    this.emit(stopReason ? { ...status, stopReason } : status);
    const s = this.store.session();
    if (s) this.port.directoryStatus(s.sessionId, status.state);
  }

  private emitOffer(): void {
    this.emit({ kind: "dropped_offer", entries: currentOffer(this.store) });
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
    else this.port.broadcast(text);
    // Session list (issue 26): the "needs you" marker follows the open permission requests and forms.
    const s = NEEDS_YOU_KINDS.has(event.kind) ? this.store.session() : null;
    if (s) this.port.directoryNeedsYou(s.sessionId, needsYou(this.store));
  }

  /** Sends what a run emitted: one frame as is, several as one `batch` frame. */
  private flushOutgoing(): void {
    const frames = this.outgoing;
    this.outgoing = null;
    if (!frames?.length) return;
    this.port.broadcast(frames.length === 1 ? frames[0]! : `{"type":"batch","frames":[${frames.join(",")}]}`);
  }
}

/** Stop pressed: a reservation is marked (it becomes `cancelling` when confirmed), a running turn is cancelling. */
function cancelRequested(turn: TurnPhase, by: Canceller): TurnPhase {
  switch (turn.phase) {
    case "idle":
    case "cancelling":
      return turn;
    case "reserved":
      return { ...turn, cancelledBy: turn.cancelledBy ?? by };
    case "running":
      return { ...turn, phase: "cancelling", cancelledBy: by };
    default:
      return assertNever(turn);
  }
}
