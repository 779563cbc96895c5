/** Queue chip decisions (labels, notes, reorder targets, edit and re-queue rules), kept out of the .tsx. Plain. */
import type { PromptBlock } from "../../../shared/blocks";
import { MAX_ID_LENGTH } from "../../../shared/limits";
import type { QueueEntry, SteerOutcome } from "../../../shared/viewer-protocol";
import { blocksToDraft, draftBlocks } from "./composer-logic";

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
 * The explicit retry an unconfirmed (indeterminate) entry offers: steer again while a turn runs,
 * or run it as the next turn when idle. Never automatic — the first attempt may have landed.
 */
export function retryAction(turnActive: boolean): { label: string; title: string } {
  return turnActive
    ? { label: "Retry", title: "Steer it into the running turn again (the first attempt may have landed)" }
    : { label: "Send", title: "Run it as the next turn (the first attempt may have landed)" };
}

// ---------------------------------------------------------------- reorder

/**
 * The `before` argument of `queue.move` that puts `id` at index `to` of the final order
 * (null = to the end). Null when nothing would move.
 */
export function moveTo(ids: readonly string[], id: string, to: number): { before: string | null } | null {
  const from = ids.indexOf(id);
  if (from < 0 || to === from || to < 0 || to >= ids.length) return null;
  const rest = ids.filter((x) => x !== id);
  return { before: rest[to] ?? null };
}

/** One step earlier (−1) or later (+1), as `moveTo`. Null when it cannot move. */
export function moveTarget(ids: readonly string[], id: string, delta: -1 | 1): { before: string | null } | null {
  const i = ids.indexOf(id);
  return i < 0 ? null : moveTo(ids, id, i + delta);
}

/** The order the room will answer after `queue.move {id, before}` (shown until it does). */
export function applyMove(ids: readonly string[], id: string, before: string | null): string[] {
  if (!ids.includes(id)) return [...ids];
  const rest = ids.filter((x) => x !== id);
  const at = before && before !== id ? rest.indexOf(before) : -1;
  if (at >= 0) rest.splice(at, 0, id);
  else rest.push(id);
  return rest;
}

/**
 * Where a dragged chip lands: the number of other chips whose vertical midpoint is above the
 * pointer. `mids` are the chips' midpoints in their current order, measured when the drag began.
 */
export function dropIndex(y: number, mids: readonly number[], from: number): number {
  let to = 0;
  mids.forEach((m, i) => {
    if (i !== from && y > m) to++;
  });
  return to;
}

/** How far chip `index` slides (in pitches) to open the gap while chip `from` is dragged to `to`. */
export function dragShift(index: number, from: number, to: number): -1 | 0 | 1 {
  if (index === from) return 0;
  if (to < from && index >= to && index < from) return 1;
  if (to > from && index > from && index <= to) return -1;
  return 0;
}

/** Orders `entries` by `ids` (a pending local order); entries not in `ids` keep their place at the end. */
export function orderBy<T extends { id: string }>(entries: readonly T[], ids: readonly string[] | null): T[] {
  if (!ids) return [...entries];
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  for (const e of entries) if (!ids.includes(e.id)) out.push(e);
  return out;
}

// ---------------------------------------------------------------- edit

/**
 * What ✎ does. With a one-slot queue it takes the entry back to the draft (the spec's chip); with a
 * stack (depth > 1) it edits in place — id and position kept — and the editor offers "To draft".
 */
export type ChipEditMode = "takeBack" | "inline";
export function editMode(queueDepth: number): ChipEditMode {
  return queueDepth > 1 ? "inline" : "takeBack";
}

export function entryText(blocks: readonly PromptBlock[]): string {
  return blocksToDraft(blocks).text;
}

/** The blocks an in-place edit saves: the new text plus the entry's non-text blocks. Null if empty. */
export function editedBlocks(original: readonly PromptBlock[], text: string): PromptBlock[] | null {
  return draftBlocks({ text, attachments: blocksToDraft(original).attachments });
}

/** The editor has something worth keeping if the entry goes away under it. */
export function isEditDirty(originalText: string, text: string): boolean {
  return text.trim() !== "" && text.trim() !== originalText.trim();
}

// ---------------------------------------------------------------- re-queue after Stop

export { requeueId } from "../../../shared/requeue-id";
