/**
 * The queue's rules that need no turn or Machine: admission limits, and the in-place ops (cancel, edit,
 * move) with their outcomes — pure over the queue (the room's state) and a look-up of settled ids. Session-wide:
 * any member may act on any entry. An op on an entry that left the queue answers from the settled ring
 * (`already_sent` / `cancelled`), never a silent no-op. An entry out for steering may land in the running
 * turn, so it cannot be cancelled or edited meanwhile.
 */
import { assertNever } from "../../shared/assert-never";
import type { PromptBlock } from "../../shared/blocks";
import { MAX_QUEUE_BYTES } from "../../shared/limits";
import type { QueueEntry, QueueOpAck } from "../../shared/viewer-protocol";
import { Fate, type SettledOf } from "./room-state";

const encoder = new TextEncoder();
const utf8Bytes = (blocks: PromptBlock[]) => encoder.encode(JSON.stringify(blocks)).byteLength;

/** Why the queue (at `depth`) cannot take one more entry, or null when it can. */
export function queueFullReason(queue: readonly QueueEntry[], depth: number): string | null {
  if (queue.length < depth) return null;
  return depth === 1 ? "a message is already queued" : `the queue is full (${depth})`;
}

/** Why the queue cannot hold `blocks` as entry `id` (added, or replacing its blocks), or null when it can. */
export function queueBytesExceeded(queue: readonly QueueEntry[], id: string, blocks: PromptBlock[]): string | null {
  let bytes = utf8Bytes(blocks);
  for (const e of queue) if (e.id !== id) bytes += utf8Bytes(e.blocks);
  return bytes > MAX_QUEUE_BYTES ? `the queue is full (queued messages are limited to ${MAX_QUEUE_BYTES / 1024} KB in total)` : null;
}

/** The answer for an id no longer (or never) in the queue. */
export function fateOutcome(settled: SettledOf, id: string): QueueOpAck {
  const s = settled(id);
  if (!s) return { outcome: "not_found" };
  switch (s.fate) {
    case Fate.sent:
      return { outcome: "already_sent" };
    case Fate.cancelled:
    case Fate.dropped:
    case Fate.taken:
      return { outcome: "cancelled" };
    case Fate.queued:
      return { outcome: "not_found" };
    default:
      return assertNever(s.fate);
  }
}

/** An op's outcome: the ack, and the queue after it (null: unchanged). */
export type QueueOpResult = { ack: QueueOpAck; queue: QueueEntry[] | null };

export function cancelEntry(queue: readonly QueueEntry[], settled: SettledOf, id: string): QueueOpResult {
  const entry = queue.find((e) => e.id === id);
  if (!entry) return { ack: fateOutcome(settled, id), queue: null };
  // Out for steering: it may land in the turn; cancelling now would hide a delivered message.
  if (entry.state === "steering") return { ack: { outcome: "steering" }, queue: null };
  return { ack: { outcome: "cancelled", entry }, queue: queue.filter((e) => e.id !== id) };
}

/** Edits in place (id and position kept); the caller checked the byte limit. */
export function editEntry(queue: readonly QueueEntry[], settled: SettledOf, id: string, blocks: PromptBlock[]): QueueOpResult {
  const entry = queue.find((e) => e.id === id);
  if (!entry) return { ack: fateOutcome(settled, id), queue: null };
  if (entry.state === "steering") return { ack: { outcome: "already_sent" }, queue: null };
  return { ack: { outcome: "edited", entry: { ...entry, blocks } }, queue: queue.map((e) => (e.id === id ? { ...e, blocks } : e)) };
}

/** Moves `id` before `before` (to the end when `before` is null or not queued). */
export function moveEntry(queue: readonly QueueEntry[], settled: SettledOf, id: string, before: string | null): QueueOpResult {
  const entry = queue.find((e) => e.id === id);
  if (!entry) return { ack: fateOutcome(settled, id), queue: null };
  const rest = queue.filter((e) => e.id !== id);
  const at = before && before !== id ? rest.findIndex((e) => e.id === before) : -1;
  if (at >= 0) rest.splice(at, 0, entry);
  else rest.push(entry);
  return { ack: { outcome: "moved" }, queue: rest };
}

/** Entries put back at the head, in order, as queued (a turn that never ran; a flush whose forward failed). */
export function atHead(queue: readonly QueueEntry[], entries: readonly QueueEntry[]): QueueEntry[] {
  const ids = new Set(entries.map((e) => e.id));
  return [...entries.map((e) => ({ ...e, state: "queued" as const })), ...queue.filter((e) => !ids.has(e.id))];
}

export function withEntryState(queue: readonly QueueEntry[], id: string, state: QueueEntry["state"]): QueueEntry[] {
  return queue.map((e) => (e.id === id ? { ...e, state } : e));
}
