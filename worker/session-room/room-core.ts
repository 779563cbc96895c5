/**
 * The SessionRoom's loader, saver and effect runner (no Workers runtime). Each input — a viewer's op, a run of
 * daemon events, the machine's status, a dispatch's answer — goes through a pure transition (on-*.ts); the
 * state is saved once per input, then its effects run (room-effects.ts). This instance's memory, not the
 * room's state: a prompt forward in flight (daemon events wait for it: the echo precedes the agent's output),
 * a reservation a reset instance left (forwarded again once, `recover`), sends being forwarded (a duplicate
 * gets the same answer). Daemon events apply once: a cursor of the daemon's `n`, saved with the run.
 */
import type { DaemonEvent } from "../../shared/tunnel-protocol";
import { type ClientOp, ErrorCode, type SessionEvent, type Viewer } from "../../shared/viewer-protocol";
import type { DispatchResult, MachineStatus } from "../machine/dispatch-result";
import { onDaemonEvent } from "./on-daemon-event";
import { onDispatchAnswer } from "./on-dispatch-answer";
import { canWake, onMachineStatus, openAgentSession, wakeAgent } from "./on-machine-status";
import { onViewerOp } from "./on-viewer-op";
import { answerPermission, type RemoteAnswer, remoteAnswer } from "./permissions";
import { asDuplicate as dup, type Effect, NO_REPLY, Out, type Reply, type RoomReads } from "./room-effects";
import { RoomOutbox } from "./room-outbox";
import { type Replier, type RoomPort, sendReply } from "./room-port";
import { type ForkSource, forkSource, type RoomInfo, roomInfo, roomReads, replayTo } from "./room-reads";
import { historyPage } from "./room-replay";
import { searchHistory } from "./room-search";
import { readSeed, type RoomStart } from "./room-start";
import { initialRoomState, type RoomState } from "./room-state";
import type { RoomStore, SessionMeta } from "./room-store";
import { flush, forward, reservationOf } from "./turn-rules";

export type { Replier, RoomPort };

export class RoomCore {
  private inflight: Promise<unknown> | null = null;
  private recovering: Promise<void> | null = null;
  private readonly sendsInFlight = new Map<string, Promise<Reply>>();
  private readonly outbox: RoomOutbox;
  /** Whether this instance (one wake of the room) has asked the Machine about its daemon: see confirmPresence. */
  private presenceAsked = false;

  constructor(
    private readonly store: RoomStore,
    private readonly port: RoomPort,
  ) {
    this.outbox = new RoomOutbox(store, port);
  }

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

  // Reads (room-reads.ts); replay: the caller adds the joining socket to the live set in the same step.
  forkSource = (maxBytes: number): ForkSource => forkSource(this.store, maxBytes);
  info = (): RoomInfo => roomInfo(this.store);
  replay = (viewer: Viewer, after: number, send: (text: string) => void): void => replayTo(this.store, viewer, after, send);

  /**
   * On a join: once per wake of the room, while it believes its machine online, the Machine confirms it. A
   * Machine reset while its daemon stayed away hears no close and tells no one; asked, it says offline to all.
   * Null when there is nothing to ask (the caller keeps the promise alive past the join).
   */
  confirmPresence(): Promise<void> | null {
    const s = this.store.state();
    if (this.presenceAsked || !s?.machineOnline) return null;
    this.presenceAsked = true;
    return this.port.checkMachinePresence(s.session.machineId);
  }

  /** Someone joins: a dormant agent (its daemon restarted while no one was here) is opened; any other room is left as it is, without an input step. */
  async wake(): Promise<void> {
    const s = this.store.state();
    if (s && canWake(s)) await this.input(wakeAgent);
  }

  // ================================================================ inputs

  async handleOp(viewer: Viewer, op: ClientOp, reply: Replier): Promise<void> {
    // Reading older rows is for everyone; every other op acts on the session.
    if (op.op === "history.page") return reply.ack(op, historyPage(this.store, op.before, op.limit));
    if (op.op === "history.search") return reply.ack(op, searchHistory(this.store, op.query, op));
    if (viewer.role === "viewer") return reply.error(op.rid, ErrorCode.FORBIDDEN, "viewers are read-only in this session");
    await this.recover();
    const send = (r: Reply) => sendReply(reply, op.rid, r);
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
    return remoteAnswer(result, () => this.store.request(requestId)?.answeredBy ?? null);
  }

  async onDaemonEvents(epoch: string, batch: { n: number; event: DaemonEvent }[]): Promise<void> {
    while (this.inflight) await this.inflight;
    let i = 0;
    while (i < batch.length && this.store.state()) {
      // One synchronous run of events, up to one that flushes (it awaits): the cursor is saved in the same
      // step as the run's effects (they commit together), and viewers get the run's frames as one message.
      let flushing: Promise<unknown> | null = null;
      const cursor = this.state().daemonCursor;
      // A run is one step: one clock reading, and the cursor set once, to the last event applied.
      const reads = roomReads(this.store, this.port);
      let applied: number | null = null;
      this.outbox.beginRun();
      try {
        while (i < batch.length && !flushing) {
          const { n, event } = batch[i++]!;
          if (cursor && cursor.epoch === epoch && n <= cursor.n) continue;
          const step = this.transition((out) => onDaemonEvent(out, event), reads);
          applied = n;
          flushing = this.runSync(step.effects);
        }
      } finally {
        // Also when an event threw: what was applied before it commits with its cursor (it is not applied twice).
        if (applied !== null) this.store.stage({ ...this.state(), daemonCursor: { epoch, n: applied } });
        this.store.commit();
        this.outbox.endRun();
      }
      if (flushing) await flushing;
    }
  }

  onMachineStatus = async (status: MachineStatus): Promise<void> => void (this.store.state() && (await this.input((out) => onMachineStatus(out, status))));

  // ================================================================ running a transition

  private state = (): RoomState => this.store.state()!;

  /** Runs a transition over the current state and saves its result (once). */
  private transition<T>(fn: (out: Out) => T, reads: RoomReads = roomReads(this.store, this.port)): { result: T; effects: Effect[] } {
    const store = this.store;
    const out = new Out(this.state(), reads);
    const result = fn(out);
    // A run of daemon events is saved once, at its end (onDaemonEvents); any other input now.
    if (out.state !== this.state()) store.stage(out.state);
    if (!store.inRun) store.commit();
    return { result, effects: out.effects };
  }

  /** One input: transition, effects, then the flushes it asked for (after its reply is decided). */
  private async input(fn: (out: Out) => Reply | null | void): Promise<Reply> {
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
      else this.outbox.apply(e);
    }
    for (const e of later) await (e.t === "flush" ? this.flush(e.actorId) : this.recover());
    return reply;
  }

  /** During a run of daemon events: every effect now; a flush (there is at most one, last) returns its promise. */
  private runSync(effects: Effect[]): Promise<unknown> | null {
    let flushing: Promise<unknown> | null = null;
    for (const e of effects) {
      if (e.t === "flush") flushing = this.flush(e.actorId);
      else if (e.t === "dispatch" || e.t === "recover") throw new Error(`a daemon event cannot ${e.t}`);
      else this.outbox.apply(e);
    }
    return flushing;
  }

  private async dispatch(e: Extract<Effect, { t: "dispatch" }>): Promise<Reply | null> {
    const { machineId, sessionId } = this.state().session;
    const p = this.port.dispatch(machineId, sessionId, e.command, e.opts);
    if (e.about.kind === "prompt") this.inflight = p;
    let res: DispatchResult;
    try {
      res = await p; // first to hear the answer: the turn is confirmed before waiting daemon events run
    } finally {
      if (this.inflight === p) this.inflight = null;
    }
    if (!this.store.state()) return null;
    const { result, effects } = this.transition((out) => onDispatchAnswer(out, e.about, res));
    return (await this.run(effects)) ?? result;
  }

  private flush = (actorId: string | null): Promise<unknown> => this.input((out) => flush(out, actorId));

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
    const done = () => void (this.recovering = null);
    this.recovering = this.input((out) => forward(out, pending, "recover")).then(done, (err: unknown) => (done(), Promise.reject(err)));
    return this.recovering;
  }
}
