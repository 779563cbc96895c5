import { MAX_ID_LENGTH } from "./limits";

const REQUEUE_PREFIX = "rq:";

/**
 * The message id a re-queued dropped entry is sent with. Deterministic, so two viewers pressing
 * "Re-queue" for the same Stop send the same ids and the room runs each once (sends are idempotent),
 * and the room can refuse the Re-queue of an entry a viewer already restored to its draft.
 */
export function requeueId(entryId: string): string {
  const id = `${REQUEUE_PREFIX}${entryId}`;
  return id.length <= MAX_ID_LENGTH ? id : `${REQUEUE_PREFIX}${entryId.slice(-(MAX_ID_LENGTH - REQUEUE_PREFIX.length))}`;
}
