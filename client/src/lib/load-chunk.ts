/**
 * A part of the page in its own chunk (a header panel, the queue's chips, a whole page) loads with
 * `lazyChunk` instead of Solid's `lazy`: a chunk that fails to load (the phone went offline while it was on
 * its way, a flaky network) is tried again, when the network is back or after a growing wait, rather than
 * thrown into the root error boundary, which would replace the whole page with the crash screen. Until it
 * loads, the part shows what it shows while loading (its Suspense fallback, or nothing).
 */
import { type Component, lazy } from "solid-js";

/** Waits between tries while the browser says it is online: a flaky network usually answers within seconds; never more than the last step (a chunk a deploy removed never comes, and a wait must not pile up). */
export const CHUNK_RETRY_MS = [1_000, 3_000, 8_000, 30_000] as const;

export type ChunkNetwork = {
  /** False when the browser knows it has no network (`navigator.onLine`). */
  online(): boolean;
  /** Resolves on the next `online` event, or after `ms`, whichever is first. */
  wake(ms: number | null): Promise<void>;
};

const browserNetwork: ChunkNetwork = {
  online: () => typeof navigator === "undefined" || navigator.onLine !== false,
  wake: (ms) =>
    new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        window.removeEventListener("online", done);
        resolve();
      };
      const timer = ms === null ? undefined : setTimeout(done, ms);
      window.addEventListener("online", done);
    }),
};

/** `load()`, tried again until it succeeds: at once when the network returns, else after CHUNK_RETRY_MS. Never rejects. */
export function loadChunk<T>(load: () => Promise<T>, net: ChunkNetwork = browserNetwork): Promise<T> {
  let failures = 0;
  const attempt = (): Promise<T> =>
    load().catch(async () => {
      // Offline: nothing to try until the network is back; the wait does not count as a failure.
      if (!net.online()) await net.wake(null);
      else await net.wake(CHUNK_RETRY_MS[Math.min(failures++, CHUNK_RETRY_MS.length - 1)]!);
      return attempt();
    });
  return attempt();
}

/** Solid's `lazy` over `loadChunk`: the component's chunk is retried, never a crash of the page around it. */
// `any`: the same bound as Solid's `lazy`, whose props type it passes on.
export function lazyChunk<T extends Component<any>>(load: () => Promise<{ default: T }>) {
  return lazy(() => loadChunk(load));
}
