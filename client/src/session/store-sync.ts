/**
 * Applies a new fold state to the Solid store by reference diff: the fold shares untouched
 * structure, so a streamed chunk touches one row (one reconcile), not the whole transcript.
 * Plain (`make*`-style helper, no reactive ownership).
 */
import { batch } from "solid-js";
import { reconcile, type SetStoreFunction } from "solid-js/store";
import { fold, type FoldState, type Row } from "../../../shared/fold";
import type { ServerFrame } from "../../../shared/viewer-protocol";

/** What the view reads: the fold state minus its internal bookkeeping. */
export type FoldView = Omit<FoldState, "rowIndex" | "nextRow" | "open" | "openFrom">;
const INTERNAL = new Set<string>(["rowIndex", "nextRow", "open", "openFrom"]);

export function viewOf(s: FoldState): FoldView {
  const { rowIndex: _i, nextRow: _n, open: _o, openFrom: _f, ...view } = s;
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

/** Appending this many rows at once (a replay) sets the array once: one store write per row cost ~90 ms for 5,000. */
const BULK_APPEND_ROWS = 32;

function syncRows(set: (...args: unknown[]) => void, prev: Row[], next: Row[]): void {
  // Rows only grow or change in place, except on a snapshot reset: then replace wholesale.
  const inPlace = next.length >= prev.length && prev.every((r, i) => r === next[i] || r.id === next[i]!.id);
  if (!inPlace) {
    set("rows", reconcile(next, { key: "id" }));
    return;
  }
  for (let i = 0; i < prev.length; i++) if (prev[i] !== next[i]) set("rows", i, reconcile(next[i]!, { key: "id" }));
  if (next.length === prev.length) return;
  // A shallow copy on append: the store never aliases a fold row it may later reconcile into.
  const added = next.slice(prev.length).map((r) => ({ ...r }));
  if (added.length < BULK_APPEND_ROWS) added.forEach((r, k) => set("rows", prev.length + k, r));
  else set("rows", (rows: Row[]) => [...rows, ...added]);
}

/**
 * Folds server frames and mirrors the result into a Solid store. Between `welcome` and `ready` frames
 * are folded but not shown: a join replays snapshot pages and a tail, and rendering each page would
 * mount the transcript window once per page only to replace it with the next. The fold is pure, so
 * diffing the store once at `ready` gives the same store. `settle` shows a replay cut off early.
 */
export function makeFoldSync<T extends FoldView>(setStore: SetStoreFunction<T>, initial: FoldState) {
  let current = initial;
  /** What the store shows; behind `current` only while a replay is being folded. */
  let shown = initial;
  let replaying = false;
  const show = () => {
    const prev = shown;
    shown = current;
    syncFold(setStore, prev, current);
  };
  return {
    get current(): FoldState {
      return current;
    },
    get replaying(): boolean {
      return replaying;
    },
    apply(f: ServerFrame): void {
      current = fold(current, f);
      if (f.type === "welcome") replaying = true;
      else if (f.type === "ready") replaying = false;
      if (!replaying) show();
    },
    /** A local change (not a server frame), shown with everything folded so far unless a replay runs. */
    update(change: (s: FoldState) => FoldState): void {
      current = change(current);
      if (!replaying) show();
    },
    /** The replay will not finish on this connection (it dropped): show what was folded. */
    settle(): void {
      if (!replaying) return;
      replaying = false;
      show();
    },
  };
}
