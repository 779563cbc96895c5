/**
 * The queue's rules that need no turn or Machine: admission limits, and the in-place ops (cancel, edit,
 * move) with their outcomes. Session-wide: any member may act on any entry. An op on an entry that left
 * the queue answers from the settled ring (`already_sent` / `cancelled`), never a silent no-op. An entry
 * out for steering may land in the running turn, so it cannot be cancelled or edited meanwhile.
 */
import { assertNever } from "../../shared/assert-never";
import type { PromptBlock } from "../../shared/blocks";
import { MAX_QUEUE_BYTES } from "../../shared/limits";
import type { QueueEntry, QueueOpAck } from "../../shared/viewer-protocol";
import { Fate, type RoomStore } from "./room-store";

/** What the queue ops need: the store, and a way to publish the queue after a change. */
export type QueueCtx = { store: RoomStore; emitQueue(flushed: boolean): void };

const encoder = new TextEncoder();
const utf8Bytes = (blocks: PromptBlock[]) => encoder.encode(JSON.stringify(blocks)).byteLength;

/** Why the queue (at `depth`) cannot take one more entry, or null when it can. */
export function queueFullReason(store: RoomStore, depth: number): string | null {
  if (store.queueLength() < depth) return null;
  return depth === 1 ? "a message is already queued" : `the queue is full (${depth})`;
}

/** Why the queue cannot hold `blocks` as entry `id` (added, or replacing its blocks), or null when it can. */
export function queueBytesExceeded(queue: readonly QueueEntry[], id: string, blocks: PromptBlock[]): string | null {
  let bytes = utf8Bytes(blocks);
  for (const e of queue) if (e.id !== id) bytes += utf8Bytes(e.blocks);
  return bytes > MAX_QUEUE_BYTES ? `the queue is full (queued messages are limited to ${MAX_QUEUE_BYTES / 1024} KB in total)` : null;
}

/** The answer for an id no longer (or never) in the queue. */
export function fateOutcome(store: RoomStore, id: string): QueueOpAck {
  const s = store.settled(id);
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

export function cancelEntry({ store, emitQueue }: QueueCtx, id: string): QueueOpAck {
  const entry = store.queue().find((e) => e.id === id);
  if (!entry) return fateOutcome(store, id);
  // Out for steering: it may land in the turn; cancelling now would hide a delivered message.
  if (entry.state === "steering") return { outcome: "steering" };
  store.removeFromQueue(id);
  store.settle(id, Fate.cancelled, { queued: true });
  emitQueue(false);
  return { outcome: "cancelled", entry };
}

/** Edits in place (id and position kept); the caller checked the byte limit. */
export function editEntry({ store, emitQueue }: QueueCtx, id: string, blocks: PromptBlock[]): QueueOpAck {
  const entry = store.queue().find((e) => e.id === id);
  if (!entry) return fateOutcome(store, id);
  if (entry.state === "steering") return { outcome: "already_sent" };
  store.editQueued(id, blocks);
  emitQueue(false);
  return { outcome: "edited", entry: { ...entry, blocks } };
}

/** Moves `id` before `before` (to the end when `before` is null or not queued). */
export function moveEntry({ store, emitQueue }: QueueCtx, id: string, before: string | null): QueueOpAck {
  const ids = store.queue().map((e) => e.id);
  if (!ids.includes(id)) return fateOutcome(store, id);
  const rest = ids.filter((x) => x !== id);
  const at = before && before !== id ? rest.indexOf(before) : -1;
  if (at >= 0) rest.splice(at, 0, id);
  else rest.push(id);
  store.reorder(rest);
  emitQueue(false);
  return { outcome: "moved" };
}

/** Stop's half on the queue: every entry leaves (returned, so any viewer can restore them). */
export function dropAll(store: RoomStore): QueueEntry[] {
  const dropped = store.queue();
  store.clearQueue();
  for (const e of dropped) store.settle(e.id, Fate.dropped, { queued: true });
  return dropped;
}
