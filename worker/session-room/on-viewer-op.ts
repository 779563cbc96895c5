/**
 * Transition: a member's op on the session (history reads and the read-only check are RoomCore's). Returns
 * the reply, or null when the answer to a dispatch decides it (on-dispatch-answer.ts).
 * - Idle → a message is forwarded now; busy (or the agent not ready yet) → parked in the queue; full → refused.
 * - Stop drops the queue (returned in `dropped`) and never auto-sends it; dropped entries are offered back once.
 * - Config writes are never busy-gated: forwarded now, labelled "applies from the next turn" mid-turn.
 */
import { assertNever } from "../../shared/assert-never";
import { type Author, type ClientOp, ErrorCode, type Viewer } from "../../shared/viewer-protocol";
import { configCommand, settingsAfter } from "./config-rules";
import { claimDropped, offerDropped, requeueAdmitted } from "./dropped-offer";
import { answerElicitation } from "./elicitations";
import { emitConfig } from "./on-daemon-event";
import { wakeAgent } from "./on-machine-status";
import { answerPermission } from "./permissions";
import { cancelEntry, editEntry, fateOutcome, moveEntry, queueBytesExceeded, queueFullReason, type QueueOpResult, withEntryState } from "./queue-rules";
import { ackOf, type Out, refuse, type Reply, replyOf } from "./room-effects";
import { agentConfigOf, Fate, turnOf } from "./room-state";
import { cancelRequested, reserve } from "./turn-rules";

type MemberOp = Exclude<ClientOp, { op: "history.page" | "history.search" }>;
type OpOf<K extends ClientOp["op"]> = Extract<ClientOp, { op: K }>;

export function onViewerOp(out: Out, viewer: Viewer, op: MemberOp): Reply | null {
  const by: Author = { id: viewer.id, name: viewer.name };
  switch (op.op) {
    case "message.send":
      return onSend(out, by, op);
    case "queue.cancel":
      return ackOf(op.op, queueOp(out, cancelEntry(out.state.queue, out.reads.settled, op.id), op.id));
    case "queue.edit": {
      const queue = out.state.queue;
      const full = queue.some((e) => e.id === op.id) ? queueBytesExceeded(queue, op.id, op.blocks) : null;
      if (full) return refuse(ErrorCode.QUEUE_FULL, full);
      return ackOf(op.op, queueOp(out, editEntry(queue, out.reads.settled, op.id, op.blocks)));
    }
    case "queue.move":
      return ackOf(op.op, queueOp(out, moveEntry(out.state.queue, out.reads.settled, op.id, op.before ?? null)));
    case "queue.steer":
      return onSteer(out, viewer, op);
    case "turn.cancel":
      return onStop(out, by);
    case "queue.claimDropped":
      return ackOf(op.op, { claimed: claimDropped(out, op.ids) });
    case "config.set":
    case "mode.set":
    case "model.set": {
      const c = configCommand(agentConfigOf(out.state), op, out.state.session.sessionId);
      if (!c.ok) return refuse(ErrorCode.NOT_SUPPORTED, c.message);
      out.dispatch(c.command, {}, { kind: "config", op: op.op });
      return null;
    }
    case "permission.respond":
      return replyOf(op.op, answerPermission(out, by, op));
    case "elicitation.respond":
      return replyOf(op.op, answerElicitation(out, by, op));
    case "settings.set": {
      const settings = settingsAfter(out.state.settings, op);
      out.set({ settings });
      emitConfig(out);
      return ackOf(op.op, { outcome: "saved", settings });
    }
    default:
      return assertNever(op);
  }
}

/** Applies a queue op's new queue (a cancel settles the entry) and publishes it. */
function queueOp(out: Out, r: QueueOpResult, cancelled?: string) {
  if (r.queue) {
    out.set({ queue: r.queue });
    if (cancelled !== undefined) out.settle(cancelled, Fate.cancelled, { queued: true });
    out.emitQueue(false);
  }
  return r.ack;
}

/** A send not settled yet (RoomCore answers duplicates): refused, parked in the queue, or its turn reserved and forwarded. */
function onSend(out: Out, author: Author, op: OpOf<"message.send">): Reply | null {
  const settled = out.reads.settled(op.id);
  if (settled) return ackOf(op.op, { ...settled.ack, duplicate: true });
  const s = out.state;
  if (s.agent.phase === "failed") return refuse(ErrorCode.SESSION_NOT_READY, `the agent session failed: ${s.agent.message}`);
  const busy = s.turn.phase !== "idle";
  if (!s.machineOnline && !busy) return refuse(ErrorCode.MACHINE_OFFLINE, "the machine is offline; the message was not sent");
  const entry = { id: op.id, blocks: op.blocks, author, createdAt: out.reads.now, state: "queued" as const };
  if (!busy && s.agent.phase === "ready") {
    reserve(out, [entry], false, null, "send");
    return null;
  }
  const full = queueFullReason(s.queue, s.settings.queueDepth) ?? queueBytesExceeded(s.queue, op.id, op.blocks);
  if (full) return refuse(ErrorCode.QUEUE_FULL, full);
  out.set({ queue: [...s.queue, entry] });
  out.settle(op.id, Fate.queued, { queued: true });
  out.emitQueue(false);
  requeueAdmitted(out, op.id);
  // Sent to a dormant agent (no one had joined since its daemon restarted): it opens, then the queue flushes.
  wakeAgent(out);
  return ackOf(op.op, { queued: true, position: out.state.queue.length });
}

function onSteer(out: Out, viewer: Viewer, op: OpOf<"queue.steer">): Reply | null {
  if (!agentConfigOf(out.state).steering) return refuse(ErrorCode.NOT_SUPPORTED, "this agent does not support steering");
  const entry = out.state.queue.find((e) => e.id === op.id);
  if (!entry) return ackOf(op.op, fateOutcome(out.reads.settled, op.id));
  if (entry.state === "steering") return ackOf(op.op, { outcome: "steering" });
  if (out.state.turn.phase === "idle") {
    // Idle: an unconfirmed entry's explicit retry runs it as the next turn (never automatic).
    if (entry.state !== "indeterminate") return refuse(ErrorCode.NOT_SUPPORTED, "no running turn to steer into");
    const queue = withEntryState(out.state.queue, op.id, "queued");
    out.set({ queue: [queue.find((e) => e.id === op.id)!, ...queue.filter((e) => e.id !== op.id)] });
    out.emitQueue(false);
    out.add({ t: "flush", actorId: viewer.id });
    return ackOf(op.op, { outcome: "requeued" });
  }
  out.set({ queue: withEntryState(out.state.queue, op.id, "steering") });
  out.emitQueue(false);
  out.dispatch({ t: "steer", sessionId: out.state.session.sessionId, entryId: op.id, blocks: entry.blocks }, {}, { kind: "steer", entryId: op.id, was: entry.state });
  return null;
}

/** Stop: drop the queue (returned to viewers and offered back), then cancel the running turn. */
function onStop(out: Out, by: Author): Reply {
  const dropped = out.state.queue;
  out.set({ queue: [] });
  for (const e of dropped) out.settle(e.id, Fate.dropped, { queued: true });
  offerDropped(out, dropped);
  const turn = turnOf(out.state);
  if (dropped.length || turn) out.emit({ kind: "queue_state", entries: [], flushed: false, dropped });
  if (!turn) return ackOf("turn.cancel", { outcome: "idle", dropped });
  out.set({ turn: cancelRequested(out.state.turn, by) });
  out.dispatch({ t: "cancel", sessionId: out.state.session.sessionId }, { deliverWhenOnline: true });
  return ackOf("turn.cancel", { outcome: "cancelled", dropped });
}
