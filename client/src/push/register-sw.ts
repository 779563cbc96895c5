/** Registers the service worker (client/src/sw.ts, built by vite-plugin-pwa) in a build; none under `vite` dev. */
import { contentShown } from "../lib/content-shown";
import { whenIdle } from "../lib/idle";

export const SERVICE_WORKER_URL = "/sw.js";

/** A page that never says its content is shown (an error, the team page) registers this long after load. */
const LATEST_AFTER_LOAD_MS = 10_000;

export function registerServiceWorker(): void {
  // `import.meta.hot` exists only under the dev server; not `env.PROD`, which follows NODE_ENV (a build
  // started from a test runner has NODE_ENV=test).
  if (import.meta.hot || !("serviceWorker" in navigator)) return;
  // Once the page has shown its content, when the browser is idle: installing, the worker precaches every asset
  // (~100 files), which at `load` competed with the session's join, its chunks and its first render (the phone
  // profile over slow 4G: the session page's blocking time 667–740 → 387–452 ms without it, LCP ≈ 0.4 s earlier).
  // workbox-window is loaded then too, so it stays out of the first paint's JS budget.
  const start = () =>
    void import("workbox-window")
      .then(({ Workbox }) => new Workbox(SERVICE_WORKER_URL, { scope: "/" }).register())
      .catch(() => {
        /* refused (private mode, blocked by policy): the app works without it, only offline and push do not */
      });
  const loaded = new Promise<void>((resolve) => (document.readyState === "complete" ? resolve() : addEventListener("load", () => resolve(), { once: true })));
  const latest = loaded.then(() => new Promise<void>((resolve) => setTimeout(resolve, LATEST_AFTER_LOAD_MS)));
  void Promise.race([Promise.all([loaded, contentShown]), latest]).then(() => whenIdle(start));
}
