/**
 * Applies a new fold state to the Solid store by reference diff: the fold shares untouched
 * structure, so a streamed chunk touches one row (one reconcile), not the whole transcript.
 * Plain (`make*`-style helper, no reactive ownership).
 */
import { batch } from "solid-js";
import { reconcile, type SetStoreFunction } from "solid-js/store";
import type { FoldState, Row } from "../../../shared/fold";

/** What the view reads: the fold state minus its internal bookkeeping. */
export type FoldView = Omit<FoldState, "rowIndex" | "nextRow" | "open">;
const INTERNAL = new Set<string>(["rowIndex", "nextRow", "open"]);

export function viewOf(s: FoldState): FoldView {
  const { rowIndex: _i, nextRow: _n, open: _o, ...view } = s;
  return view;
}

export function syncFold<T extends FoldView>(setStore: SetStoreFunction<T>, prev: FoldState, next: FoldState): void {
  if (prev === next) return;
  const set = setStore as unknown as (...args: unknown[]) => void;
  batch(() => {
    for (const key of Object.keys(next) as (keyof FoldState)[]) {
      if (INTERNAL.has(key) || prev[key] === next[key]) continue;
      if (key === "rows") syncRows(set, prev.rows, next.rows);
      else {
        const v = next[key];
        set(key, v !== null && typeof v === "object" ? reconcile(v as object, { key: "id" }) : v);
      }
    }
  });
}

function syncRows(set: (...args: unknown[]) => void, prev: Row[], next: Row[]): void {
  // Rows only grow or change in place, except on a snapshot reset: then replace wholesale.
  const inPlace = next.length >= prev.length && prev.every((r, i) => r === next[i] || r.id === next[i]!.id);
  if (!inPlace) {
    set("rows", reconcile(next, { key: "id" }));
    return;
  }
  for (let i = 0; i < next.length; i++) {
    if (prev[i] === next[i]) continue;
    // A shallow copy on append: the store never aliases a fold row it may later reconcile into.
    set("rows", i, i < prev.length ? reconcile(next[i]!, { key: "id" }) : { ...next[i]! });
  }
}
