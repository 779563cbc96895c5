/**
 * The turn's rules, pure over the room's state: reserve a turn and forward its prompt, confirm it once
 * (the Machine took the prompt or the daemon's turn.started, whichever is heard first), release a refused
 * one, flush the queue when idle, Stop.
 *
 * - At most one turn: a prompt is forwarded only from `idle`, and the reservation is in the state before
 *   the forward is awaited, so a concurrent send parks instead.
 * - A reservation keeps its messages until confirmed: an instance reset mid-forward neither loses nor repeats
 *   them — the next forwards the prompt again with the same turnId (the daemon runs a turn id once) or,
 *   refused, puts them back at the head of the queue.
 * - Confirmation order: queue_state{flushed:true} → user_message echoes → session_status.
 */
import { assertNever } from "../../shared/assert-never";
import { mergePrompts } from "../../shared/blocks";
import { promptPreview } from "../../shared/prompt-preview";
import type { QueueEntry } from "../../shared/viewer-protocol";
import type { About, Out } from "./room-effects";
import { atHead } from "./queue-rules";
import { type Canceller, Fate, type TurnPhase } from "./room-state";
import { firstPromptLine } from "./session-title";

/** Longest prompt text carried into a push's preview (the payload cuts it further). */
const PUSH_PROMPT_PREVIEW_CHARS = 300;

type Reserved = Extract<TurnPhase, { phase: "reserved" }>;

/** The reserved turn (of `turnId` when given), or null. */
export function reservationOf(turn: TurnPhase, turnId?: string): Reserved | null {
  return turn.phase === "reserved" && (turnId === undefined || turn.turnId === turnId) ? turn : null;
}

/** Reserves the turn for `entries` and forwards their prompt (one, or merged). */
export function reserve(out: Out, entries: QueueEntry[], fromQueue: boolean, actorId: string | null, then: "send" | "flush"): string {
  const turnId = out.reads.newId();
  out.set({ turn: { phase: "reserved", turnId, messageId: entries[0]!.id, startedAt: out.reads.now, entries, fromQueue, actorId, cancelledBy: null } });
  forward(out, out.state.turn as Reserved, then);
  return turnId;
}

/** Forwards the reserved turn's prompt (again, after a reset: same turnId, the daemon runs it once). */
export function forward(out: Out, r: Reserved, then: Extract<About, { kind: "prompt" }>["then"]): void {
  const first = r.entries[0]!;
  const blocks = r.entries.length === 1 ? first.blocks : mergePrompts(r.entries.map((m) => m.blocks));
  out.dispatch(
    { t: "prompt", sessionId: out.state.session.sessionId, turnId: r.turnId, messageId: first.id, blocks },
    { startsTurn: true, fromQueue: r.fromQueue },
    { kind: "prompt", turnId: r.turnId, then, entries: r.entries },
  );
}

/** The reserved turn runs: its messages are settled and echoed, once. False if `turnId` is not the one awaiting this. */
export function confirm(out: Out, turnId: string): boolean {
  const r = reservationOf(out.state.turn, turnId);
  if (!r) return false;
  const { cancelledBy, entries, fromQueue, actorId } = r;
  const facts = { turnId: r.turnId, messageId: r.messageId, startedAt: r.startedAt };
  out.set({ turn: cancelledBy ? { ...facts, phase: "cancelling", cancelledBy } : { ...facts, phase: "running" } });
  for (const e of entries) out.settle(e.id, Fate.sent, { queued: fromQueue });
  if (fromQueue) out.emitQueue(true);
  if (out.state.droppedOffer.length) {
    out.set({ droppedOffer: [] });
    out.emitOffer();
  }
  const at = out.reads.now;
  for (const m of entries) out.emit({ kind: "user_message", id: m.id, blocks: m.blocks, author: m.author, at });
  out.status();
  out.add({ t: "directory.activity", at });
  if (out.state.firstPrompt === null) {
    const line = firstPromptLine(entries[0]!.blocks);
    if (line) {
      out.set({ firstPrompt: line });
      out.add({ t: "directory.title", title: { firstPrompt: line } });
    }
  }
  if (fromQueue)
    for (const e of entries) out.push({ kind: "queued_started", actorId, authorId: e.author.id, preview: promptPreview(e.blocks, PUSH_PROMPT_PREVIEW_CHARS) });
  return true;
}

/** A refused forward: the reservation goes (when it is still this one). */
export function release(out: Out, turnId: string): void {
  const t = out.state.turn;
  if (t.phase !== "idle" && t.turnId === turnId) out.set({ turn: { phase: "idle" } });
}

/** Messages of a turn that never ran go back to the head of the queue, in order, and are answered as queued. */
export function requeue(out: Out, entries: QueueEntry[]): void {
  out.set({ queue: atHead(out.state.queue, entries) });
  for (const e of entries) out.settle(e.id, Fate.queued, { queued: true });
  out.emitQueue(false);
}

/** On busy→idle: forward the head of the queue (or all of it, merged); `actorId`: who caused the flush, if a person did. */
export function flush(out: Out, actorId: string | null): void {
  const s = out.state;
  if (s.turn.phase !== "idle" || !s.machineOnline || s.agent.phase !== "ready") return;
  const ready = s.queue.filter((e) => e.state === "queued");
  if (!ready.length) return;
  const take = s.settings.mergeQueued ? ready : [ready[0]!];
  const taken = new Set(take.map((e) => e.id));
  out.set({ queue: s.queue.filter((e) => !taken.has(e.id)) });
  reserve(out, take, true, actorId, "flush");
}

/** Stop pressed: a reservation is marked (it becomes `cancelling` when confirmed), a running turn is cancelling. */
export function cancelRequested(turn: TurnPhase, by: Canceller): TurnPhase {
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
