/**
 * What a browser keeps of a person between visits: composer drafts and the outbox of unacknowledged
 * sends (`baton:draft:*`, `baton:outbox:*` in localStorage). Signing out clears them, so the next person
 * on a shared device finds nothing of the last one's.
 */
export const DEVICE_STATE_PREFIX = "baton:";

export function clearDeviceState(storage: Pick<Storage, "length" | "key" | "removeItem">): number {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const k = storage.key(i);
    if (k?.startsWith(DEVICE_STATE_PREFIX)) keys.push(k);
  }
  for (const k of keys) storage.removeItem(k);
  return keys.length;
}
