/**
 * What a Stop dropped is offered to every viewer — "Re-queue" (sent again as `rq:<id>`) or "Restore
 * to draft" — and each entry goes one way, once:
 * - a restore claims the entry: its re-queue id is settled as `taken`, so a later Re-queue of it
 *   runs nothing (the send answers `taken`), and a second restore gets nothing;
 * - a restore of an entry already re-queued gets nothing (it runs, or ran, from the queue);
 * - the offer every viewer sees shrinks as entries are claimed or re-queued, and a new turn
 *   clears it (turn-rules.ts `confirm`; what is still offered then stays claimable by a viewer that pressed in time).
 */
import { requeueId } from "../../shared/requeue-id";
import type { QueueEntry } from "../../shared/viewer-protocol";
import type { Out } from "./room-effects";
import { Fate } from "./room-state";

/** Stop dropped `entries`: they become the offer (a Stop that dropped nothing leaves it as it is). */
export function offerDropped(out: Out, entries: QueueEntry[]): void {
  if (entries.length) out.set({ droppedOffer: entries });
}

/**
 * "Restore to draft" of `ids`: the ones this viewer gets (dropped by a Stop, not yet re-queued or
 * claimed), in the order asked; the offer shrinks for everyone.
 */
export function claimDropped(out: Out, ids: readonly string[]): string[] {
  const claimed: string[] = [];
  for (const id of new Set(ids)) {
    if (out.reads.settled(id)?.fate !== Fate.dropped) continue;
    const rq = requeueId(id);
    if (out.reads.settled(rq)) continue; // re-queued, or already claimed by someone
    out.settle(rq, Fate.taken, { queued: false, taken: true });
    claimed.push(id);
  }
  removeFromOffer(out, (e) => ids.includes(e.id));
  return claimed;
}

/** A send was admitted: when it is the re-queue of an offered entry, that entry leaves the offer. */
export function requeueAdmitted(out: Out, messageId: string): void {
  removeFromOffer(out, (e) => requeueId(e.id) === messageId);
}

function removeFromOffer(out: Out, leaves: (e: QueueEntry) => boolean): void {
  const offer = out.state.droppedOffer;
  const rest = offer.filter((e) => !leaves(e));
  if (rest.length === offer.length) return;
  out.set({ droppedOffer: rest });
  out.emitOffer();
}
