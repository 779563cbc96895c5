/**
 * What a Stop dropped is offered to every viewer — "Re-queue" (sent again as `rq:<id>`) or "Restore
 * to draft" — and each entry goes one way, once:
 * - a restore claims the entry: its re-queue id is settled as `taken`, so a later Re-queue of it
 *   runs nothing (the send answers `taken`), and a second restore gets nothing;
 * - a restore of an entry already re-queued gets nothing (it runs, or ran, from the queue);
 * - the offer every viewer sees shrinks as entries are claimed or re-queued, and a new turn
 *   clears it (what is still offered then stays claimable by a viewer that pressed in time).
 */
import { requeueId } from "../../shared/requeue-id";
import type { QueueEntry } from "../../shared/viewer-protocol";
import { Fate, type RoomStore } from "./room-store";

/** The current offer (what viewers see). */
export function currentOffer(store: RoomStore): QueueEntry[] {
  return store.state()?.droppedOffer ?? [];
}

/** Stop dropped `entries`: they become the offer (a Stop that dropped nothing leaves it as it is). */
export function offerDropped(store: RoomStore, entries: QueueEntry[]): void {
  if (entries.length) store.update((s) => ({ ...s, droppedOffer: entries }));
}

/**
 * "Restore to draft" of `ids`: the ones this viewer gets (dropped by a Stop, not yet re-queued or
 * claimed). Returns them in the order asked, and whether the offer changed.
 */
export function claimDropped(store: RoomStore, ids: readonly string[]): { claimed: string[]; offerChanged: boolean } {
  const claimed: string[] = [];
  for (const id of new Set(ids)) {
    if (store.settled(id)?.fate !== Fate.dropped) continue;
    const rq = requeueId(id);
    if (store.settled(rq)) continue; // re-queued, or already claimed by someone
    store.settle(rq, Fate.taken, { queued: false, taken: true });
    claimed.push(id);
  }
  return { claimed, offerChanged: removeFromOffer(store, (e) => ids.includes(e.id)) };
}

/** A send was admitted: when it is the re-queue of an offered entry, that entry leaves the offer. */
export function requeueAdmitted(store: RoomStore, messageId: string): boolean {
  return removeFromOffer(store, (e) => requeueId(e.id) === messageId);
}

/** A new turn started: the offer goes for everyone. */
export function clearOffer(store: RoomStore): boolean {
  return removeFromOffer(store, () => true);
}

function removeFromOffer(store: RoomStore, leaves: (e: QueueEntry) => boolean): boolean {
  const offer = currentOffer(store);
  const rest = offer.filter((e) => !leaves(e));
  if (rest.length === offer.length) return false;
  store.update((s) => ({ ...s, droppedOffer: rest }));
  return true;
}
