/**
 * The SessionRoom's loader, saver and effect runner; nothing from the Workers runtime. Each input — a viewer's
 * op, a run of daemon events, the machine's status, a dispatch's answer — goes through a pure transition
 * (on-*.ts: the state and the input in, the new state and effects as data out); the state is saved once
 * per input, then the effects run (room-effects.ts). The DO (session-room-do.ts) holds one RoomCore.
 *
 * What lives here because it is this instance's memory, not the room's state:
 * - a prompt forward in flight: daemon events wait for it, so the user_message echo precedes the agent's output;
 * - a reservation a reset instance left is forwarded again once (`recover`) before ops run;
 * - sends by id being forwarded: a duplicate arriving meanwhile gets the same answer;
 * - daemon events apply exactly once: a cursor of the daemon's `n`, saved with the run's effects.
 */
import type { DaemonEvent, MachineCommand } from "../../shared/tunnel-protocol";
import { type AckOf, type ClientOp, type ClientOpName, ErrorCode, type SessionEvent, type SessionState, type Viewer } from "../../shared/viewer-protocol";
import type { DispatchOptions, DispatchResult, MachineStatus } from "../machine/dispatch-result";
import type { PushEvent } from "../push/notify-rules";
import { configStateOf } from "./config-rules";
import { onDaemonEvent } from "./on-daemon-event";
import { onDispatchAnswer } from "./on-dispatch-answer";
import { onMachineStatus, openAgentSession } from "./on-machine-status";
import { onViewerOp } from "./on-viewer-op";
import { answerPermission, type RemoteAnswer, remoteAnswer } from "./permissions";
import { type Effect, Out, type Reply, type RoomReads } from "./room-effects";
import { RoomOutbox } from "./room-outbox";
import { historyPage, replay } from "./room-replay";
import { searchHistory } from "./room-search";
import { forkableEvents, readSeed, type RoomStart } from "./room-start";
import { agentSessionOf, initialRoomState, type RoomState } from "./room-state";
import { type SessionStatusEvent, statusOf } from "./room-status";
import type { RoomStore, SessionMeta } from "./room-store";
import { flush, forward, reservationOf } from "./turn-rules";

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
  /** Web Push to followers away from the session (worker/push); `build` is called at once or not at all (push off). */
  notify(build: () => PushEvent): void;
  now(): number;
  newId(): string;
}

/** Answers to the one viewer that sent an op. */
export interface Replier {
  ack<K extends ClientOpName>(op: { op: K; rid: string }, result: AckOf<K>): void;
  error(rid: string | null, code: ErrorCode, message: string): void;
}

type Transition<T> = (out: Out) => T;

/** An input that is not an op (a flush, the machine's status): no one to answer. */
const NO_REPLY: Reply = { ok: false, code: ErrorCode.NOT_FOUND, message: "no reply" };

export class RoomCore {
  private inflight: Promise<unknown> | null = null;
  private recovering: Promise<void> | null = null;
  private readonly sendsInFlight = new Map<string, Promise<Reply>>();
  private readonly outbox: RoomOutbox;

  constructor(
    private readonly store: RoomStore,
    private readonly port: RoomPort,
  ) {
    this.outbox = new RoomOutbox(store, port);
  }

  // ================================================================ from the Worker

  /** Creates the session (idempotent) and asks the machine to open it. */
  async init(meta: SessionMeta, start?: RoomStart): Promise<void> {
    if (this.store.state()) return;
    // Issue 26: bound to an existing agent session (import / fork; room-start.ts).
    this.store.save(initialRoomState(meta, start));
    if (start) {
      this.outbox.beginRun(); // the copied rows: one log row, written in this step
      const seed = readSeed(start.seedJson) ?? [{ kind: "notice", level: "warn", text: "The original session's rows could not be copied." } satisfies SessionEvent];
      for (const event of seed) this.outbox.emit(event);
      this.outbox.endRun();
    }
    await this.input(openAgentSession);
  }

  /** Issue 26: this room's transcript for a fork (room-start.ts `forkableEvents`); the room is not changed. */
  forkSource(maxBytes: number): { eventsJson: string; truncated: boolean; agentSessionId: string | null } {
    const { events, truncated } = forkableEvents(this.store.allEvents(), maxBytes);
    const s = this.store.state();
    return { eventsJson: JSON.stringify(events), truncated, agentSessionId: s && agentSessionOf(s) };
  }

  info(): { exists: boolean; status: SessionStatusEvent; queueLength: number; headSeq: number } {
    const s = this.store.state();
    return { exists: s !== null, status: statusOf(s), queueLength: s?.queue.length ?? 0, headSeq: this.store.headSeq() };
  }

  /** Replays state to a joining viewer; the caller adds its socket to the live set in the same step. */
  replay(viewer: Viewer, after: number, send: (text: string) => void): void {
    const s = this.store.state();
    replay(this.store, viewer, after, { sessionId: s?.session.sessionId ?? "", config: configStateOf(s), status: statusOf(s) }, send);
  }

  // ================================================================ inputs

  async handleOp(viewer: Viewer, op: ClientOp, reply: Replier): Promise<void> {
    // Reading older rows is for everyone; every other op acts on the session.
    if (op.op === "history.page") return reply.ack(op, historyPage(this.store, op.before, op.limit));
    if (op.op === "history.search") return reply.ack(op, searchHistory(this.store, op.query, op));
    if (viewer.role === "viewer") return reply.error(op.rid, ErrorCode.FORBIDDEN, "viewers are read-only in this session");
    await this.recover();
    const send = (r: Reply) => (r.ok ? answer(reply, op.rid, r) : reply.error(op.rid, r.code, r.message));
    if (!this.store.state()) return send({ ok: false, code: ErrorCode.NOT_FOUND, message: "no such session" });
    if (op.op !== "message.send") return send(await this.input((out) => onViewerOp(out, viewer, op)));
    // A duplicate of a send being forwarded gets the same answer.
    const running = this.store.settled(op.id) ? undefined : this.sendsInFlight.get(op.id);
    if (running) return send(dup(await running));
    const p = this.input((out) => onViewerOp(out, viewer, op));
    this.sendsInFlight.set(op.id, p);
    try {
      send(await p);
    } finally {
      this.sendsInFlight.delete(op.id);
    }
  }

  /** A permission answered from a notification: the card's rules (members only, first valid answer wins). */
  async answerPermissionRemotely(viewer: Viewer, requestId: string, optionId: string): Promise<RemoteAnswer> {
    if (viewer.role === "viewer") return { ok: false, error: "FORBIDDEN", message: "viewers are read-only in this session" };
    if (!this.store.state()) return { ok: false, error: "NOT_FOUND", message: "no such session" };
    const { result, effects } = this.transition((out) => answerPermission(out, { id: viewer.id, name: viewer.name }, { requestId, optionId }));
    await this.run(effects);
    return remoteAnswer(result, () => this.store.permissionAnsweredBy(requestId));
  }

  async onDaemonEvents(epoch: string, batch: { n: number; event: DaemonEvent }[]): Promise<void> {
    while (this.inflight) await this.inflight;
    let i = 0;
    while (i < batch.length && this.store.state()) {
      // One synchronous run of events, up to one that flushes (it awaits): the cursor is saved in the same
      // step as the run's effects (they commit together), and viewers get the run's frames as one message.
      let flushing: Promise<void> | null = null;
      const cursor = this.state().daemonCursor;
      this.outbox.beginRun();
      try {
        while (i < batch.length && !flushing) {
          const { n, event } = batch[i++]!;
          if (cursor && cursor.epoch === epoch && n <= cursor.n) continue;
          const step = this.transition((out) => {
            onDaemonEvent(out, event);
            out.set({ daemonCursor: { epoch, n } });
          });
          flushing = this.runSync(step.effects);
        }
      } finally {
        this.store.commit();
        this.outbox.endRun();
      }
      if (flushing) await flushing;
    }
  }

  async onMachineStatus(status: MachineStatus): Promise<void> {
    if (this.store.state()) await this.input((out) => onMachineStatus(out, status));
  }

  // ================================================================ running a transition

  private state(): RoomState {
    return this.store.state()!;
  }

  /** Runs a transition over the current state and saves its result (once). */
  private transition<T>(fn: Transition<T>): { result: T; effects: Effect[] } {
    const store = this.store;
    const reads: RoomReads = {
      now: this.port.now(),
      newId: () => this.port.newId(),
      settled: (id) => store.settled(id),
      permission: (id) => store.permission(id),
      permissionOpen: (id) => store.permissionOpen(id),
      openPermissionIds: () => store.pendingPermissionIds(),
    };
    const out = new Out(this.state(), reads);
    const result = fn(out);
    // A run of daemon events is saved once, at its end (onDaemonEvents); any other input now.
    if (out.state !== this.state()) store.stage(out.state);
    if (!store.inRun) store.commit();
    return { result, effects: out.effects };
  }

  /** One input: transition, effects, then the flushes it asked for (after its reply is decided). */
  private async input(fn: Transition<Reply | null | void>): Promise<Reply> {
    const { result, effects } = this.transition(fn);
    const decided = (await this.run(effects)) ?? result;
    return decided ?? NO_REPLY;
  }

  /** Runs effects in order; a dispatch is awaited and its answer applied. Returns a reply an answer decided. */
  private async run(effects: Effect[]): Promise<Reply | null> {
    let reply: Reply | null = null;
    const later: Effect[] = [];
    for (const e of effects) {
      if (e.t === "flush" || e.t === "recover") later.push(e);
      else if (e.t === "dispatch") reply = (await this.dispatch(e)) ?? reply;
      else this.apply(e);
    }
    for (const e of later) await (e.t === "flush" ? this.flush(e.actorId) : this.recover());
    return reply;
  }

  /** During a run of daemon events: every effect now; a flush (there is at most one, last) returns its promise. */
  private runSync(effects: Effect[]): Promise<void> | null {
    let flushing: Promise<void> | null = null;
    for (const e of effects) {
      if (e.t === "flush") flushing = this.flush(e.actorId);
      else if (e.t === "dispatch" || e.t === "recover") throw new Error(`a daemon event cannot ${e.t}`);
      else this.apply(e);
    }
    return flushing;
  }

  private apply(e: Exclude<Effect, { t: "dispatch" | "flush" | "recover" }>): void {
    const sessionId = this.state().session.sessionId;
    switch (e.t) {
      case "emit":
        return this.outbox.emit(e.event);
      case "settle":
        return this.store.settle(e.id, e.fate, e.ack);
      case "permission.add":
        return this.store.addPermission(e.request);
      case "permission.resolve":
        return void this.store.resolvePermission(e.requestId, e.by);
      case "push":
        return this.outbox.notify(() => e.push);
      case "push.turnEnded":
        return this.outbox.turnEnded(e.actorId, e.stoppedBy);
      case "directory.status":
        return this.port.directoryStatus(sessionId, e.state);
      case "directory.activity":
        return this.port.directoryActivity(sessionId, e.at);
      case "directory.title":
        return this.port.directoryTitle(sessionId, e.title);
    }
  }

  private async dispatch(e: Extract<Effect, { t: "dispatch" }>): Promise<Reply | null> {
    const { machineId, sessionId } = this.state().session;
    const p = this.port.dispatch(machineId, sessionId, e.command, e.opts);
    if (e.about.kind === "prompt") this.inflight = p;
    let res: DispatchResult;
    try {
      res = await p;
    } finally {
      if (this.inflight === p) this.inflight = null;
    }
    if (!this.store.state()) return null;
    const { result, effects } = this.transition((out) => onDispatchAnswer(out, e.about, res));
    return (await this.run(effects)) ?? result;
  }

  private async flush(actorId: string | null): Promise<void> {
    await this.input((out) => flush(out, actorId));
  }

  /**
   * A reservation left by an instance that was reset mid-forward (none of this instance's forwards is in
   * flight): the Machine may or may not have the prompt, so it is forwarded again with the same turnId (the
   * daemon ignores a turn it already has). Refused → its messages go back to the head of the queue, none lost.
   */
  private recover(): Promise<void> | void {
    if (this.recovering) return this.recovering;
    const s = this.store.state();
    const pending = s && reservationOf(s.turn);
    if (!pending || this.inflight) return;
    this.recovering = this.input((out) => forward(out, pending, "recover"))
      .then(() => undefined)
      .finally(() => (this.recovering = null));
    return this.recovering;
  }
}

/** Sends an ack whose type its op's name gives. */
function answer(reply: Replier, rid: string, r: Extract<Reply, { ok: true }>): void {
  reply.ack({ op: r.op, rid }, r.ack);
}

/** The same answer, for a duplicate (a send's ack says so). */
function dup(r: Reply): Reply {
  return r.ok && r.op === "message.send" ? { ...r, ack: { ...r.ack, duplicate: true } } : r;
}
