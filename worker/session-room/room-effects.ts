/**
 * What a room transition returns besides its new state: effects as data, run in order by RoomCore
 * (room-core.ts). `Out` is the transitions' builder: a fresh state value per change, effects appended.
 */
import type { MachineCommand } from "../../shared/tunnel-protocol";
import { type AckOf, type ClientOpName, ErrorCode, type QueueEntry, type SendAck, type SessionEvent, type SessionState } from "../../shared/viewer-protocol";
import type { DispatchOptions } from "../machine/dispatch-result";
import type { PushEvent } from "../push/notify-rules";
import type { Fate, PendingRequest, RoomState, SettledOf, StoredRequest } from "./room-state";
import { statusKey, statusOf } from "./room-status";

/** A push without what the runner adds (the session's id and title, read when it is raised). */
export type PushDetail = PushEvent extends infer E ? (E extends PushEvent ? Omit<E, "sessionId" | "sessionTitle"> : never) : never;


/** Why a command was dispatched: its answer goes to on-dispatch-answer.ts with this. */
export type About =
  /** The answer changes nothing (cancel, a permission / form answer, a config write's is the op's reply). */
  | { kind: "plain" }
  /** The reserved turn's prompt: sent now by a viewer (`send`), flushed from the queue, or forwarded again after a reset. */
  | { kind: "prompt"; turnId: string; then: "send" | "flush" | "recover"; entries: QueueEntry[] }
  | { kind: "steer"; entryId: string; was: QueueEntry["state"] }
  /** `op`: the viewer op it answers (mode / model / config writes share the ack shape, not the name). */
  | { kind: "config"; op: "config.set" | "mode.set" | "model.set" }
  | { kind: "open" };

export type Effect =
  /** Logged (when a logged kind) and sent to every viewer. */
  | { t: "emit"; event: SessionEvent }
  | { t: "settle"; id: string; fate: Fate; ack: SendAck }
  | { t: "request.add"; request: PendingRequest }
  | { t: "request.resolve"; requestId: string; by: string | null }
  | { t: "dispatch"; command: MachineCommand; opts: DispatchOptions; about: About }
  | { t: "push"; push: PushDetail }
  /** A turn's end for its push, with the agent's last words read from the log's tail when raised. */
  | { t: "push.turnEnded"; actorId: string | null; stoppedBy: string | null }
  | { t: "directory.status"; state: SessionState }
  | { t: "directory.activity"; at: number }
  | { t: "directory.title"; title: { firstPrompt?: string; agentTitle?: string } }
  /** Issue 28 #2: one edge of a turn's worktree snapshots, kept for the changes view's per-turn diff from git. */
  | { t: "turn.tree"; turnId: string; messageId: string | null; edge: "start" | "end"; tree: string }
  /** Forward again a reservation a reset instance left (RoomCore; none of this instance's is in flight). */
  | { t: "recover" }
  /** Then: forward the queue's head if the room is idle (turn-rules.ts `flush`). */
  | { t: "flush"; actorId: string | null };

/** What a transition may read besides the state: the clock, ids, the settled ring and the requests table. */
export type RoomReads = {
  now: number;
  newId(): string;
  settled: SettledOf;
  request(requestId: string): StoredRequest | null;
  openRequests(): StoredRequest[];
  /** Someone has the session open (a viewer's socket, a share link's, an editor's). */
  watched: boolean;
};

export type Step = { state: RoomState; effects: Effect[] };

/** The answer to a viewer's op: its ack, or an error. */
export type OpReply<K extends ClientOpName> = { ok: true; ack: AckOf<K> } | Refusal;
export type Refusal = { ok: false; code: ErrorCode; message: string };
/** An answer to any op, as data (the op's name ties the ack to its type). */
export type Reply = { [K in ClientOpName]: { ok: true; op: K; ack: AckOf<K> } }[ClientOpName] | Refusal;
export const ackOf = <K extends ClientOpName>(op: K, ack: AckOf<K>): Reply => ({ ok: true, op, ack }) as Reply;
export const refuse = (code: ErrorCode, message: string): Refusal => ({ ok: false, code, message });
/** An input that is not an op (a flush, the machine's status): no one to answer. */
export const NO_REPLY: Reply = { ok: false, code: ErrorCode.NOT_FOUND, message: "no reply" };
/** The same answer, for a duplicate of a send (its ack says so). */
export const asDuplicate = (r: Reply): Reply => (r.ok && r.op === "message.send" ? { ...r, ack: { ...r.ack, duplicate: true } } : r);
/** An op's own answer as a Reply. */
export const replyOf = <K extends ClientOpName>(op: K, r: OpReply<K>): Reply => (r.ok ? ackOf(op, r.ack) : r);

export class Out {
  readonly effects: Effect[] = [];
  constructor(
    public state: RoomState,
    readonly reads: RoomReads,
  ) {}
  set(patch: Partial<RoomState>): void {
    this.state = { ...this.state, ...patch };
  }
  emit(event: SessionEvent): void {
    this.effects.push({ t: "emit", event });
  }
  emitQueue(flushed: boolean): void {
    this.emit({ kind: "queue_state", entries: this.state.queue, flushed });
  }
  emitOffer(): void {
    this.emit({ kind: "dropped_offer", entries: this.state.droppedOffer });
  }
  settle(id: string, fate: Fate, ack: SendAck): void {
    this.effects.push({ t: "settle", id, fate, ack });
  }
  dispatch(command: MachineCommand, opts: DispatchOptions, about: About = { kind: "plain" }): void {
    this.effects.push({ t: "dispatch", command, opts, about });
  }
  push(push: PushDetail): void {
    this.effects.push({ t: "push", push });
  }
  add(effect: Effect): void {
    this.effects.push(effect);
  }
  /** Logs a session_status when the state changed (or a turn ended with a stop reason), and tells the directory. */
  status(stopReason?: string): void {
    const status = statusOf(this.state);
    const key = statusKey(status);
    if (!stopReason && this.state.statusKey === key) return;
    this.set({ statusKey: key });
    this.emit(stopReason ? { ...status, stopReason } : status);
    this.effects.push({ t: "directory.status", state: status.state });
  }
  done(): Step {
    return { state: this.state, effects: this.effects };
  }
}
