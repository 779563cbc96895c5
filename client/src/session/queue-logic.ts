/** Queue chip decisions (labels, notes, reorder targets), kept out of the .tsx. Plain. */
import type { QueueEntry, SteerOutcome } from "../../../shared/viewer-protocol";

/** "Queued" for a single entry; "Queued · 2" (its position) in a stack. */
export function chipLabel(e: Pick<QueueEntry, "state">, index: number, depth: number): string {
  const base = e.state === "steering" ? "Steering…" : e.state === "indeterminate" ? "Unconfirmed" : "Queued";
  return depth > 1 ? `${base} · ${index + 1}` : base;
}

/** A short note when a steer attempt did not land. */
export function chipNote(e: Pick<QueueEntry, "state">, outcome: SteerOutcome | undefined): string | null {
  if (e.state === "indeterminate") return "may have reached the agent";
  if (e.state === "steering") return null;
  if (outcome === "failed") return "steer failed — still queued";
  if (outcome === "promptRequired") return "runs as the next turn";
  return null;
}

/**
 * Where `id` goes when moved one step (`delta` −1 earlier, +1 later), as the `before` argument of
 * `queue.move` (null = to the end). Null when it cannot move.
 */
export function moveTarget(ids: readonly string[], id: string, delta: -1 | 1): { before: string | null } | null {
  const i = ids.indexOf(id);
  if (i < 0) return null;
  const j = i + delta;
  if (j < 0 || j >= ids.length) return null;
  const rest = ids.filter((x) => x !== id);
  return { before: rest[j] ?? null };
}
