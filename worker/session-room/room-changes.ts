/**
 * The changes view's offline source (issue 28 #2): the room's compacted log read a step at a time into
 * shared/changes-from-log.ts's collector. Memory is one step plus the texts kept (bounded).
 */
import { collectChanges, type LoggedChanges } from "../../shared/changes-from-log";
import type { RoomStore } from "./room-store";

/** Compacted items read per step. */
const CHANGES_STEP_ITEMS = 256;
/** File texts kept: the answer stays far under a Worker response's comfortable size. */
export const MAX_LOGGED_CHANGE_CHARS = 512 * 1024;

export function loggedChanges(store: RoomStore): LoggedChanges | null {
  const state = store.state();
  if (!state) return null;
  store.compact();
  const c = collectChanges(state.session.cwd, MAX_LOGGED_CHANGE_CHARS, store.turnTrees());
  let after = 0;
  for (;;) {
    const items = store.compactedAfter(after, CHANGES_STEP_ITEMS);
    if (!items.length) break;
    after = items[items.length - 1]!.pos;
    c.add(items.flatMap((it) => it.events));
  }
  return c.result();
}
