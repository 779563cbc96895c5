/**
 * A module kept off the first paint's path (its own chunk): `current()` is null until it has loaded,
 * `warm()` loads it once the page has painted, `load()` at once. Reactive: views read `current()` and
 * show a plain version until it arrives. A failed load (offline, a chunk replaced by a deploy) is
 * retried by the next `warm()` / `load()`.
 */
import { type Accessor, createSignal } from "solid-js";
import { whenIdle } from "./idle";

export type OnDemand<T> = { current: Accessor<T | null>; load(): Promise<T>; warm(): void };

export function onDemand<T>(importer: () => Promise<T>): OnDemand<T> {
  const [current, setCurrent] = createSignal<T | null>(null);
  let loading: Promise<T> | null = null;
  let scheduled = false;
  const load = () =>
    (loading ??= importer().then(
      (m) => {
        setCurrent(() => m);
        return m;
      },
      (err: unknown) => {
        loading = null;
        throw err;
      },
    ));
  return {
    current,
    load,
    warm() {
      if (scheduled || current()) return;
      scheduled = true;
      whenIdle(() =>
        void load().catch(() => {
          scheduled = false;
        }),
      );
    },
  };
}
