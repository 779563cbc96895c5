/** Registers the service worker (client/src/sw.ts, built by vite-plugin-pwa) in a build; none under `vite` dev. */
export const SERVICE_WORKER_URL = "/sw.js";

export function registerServiceWorker(): void {
  // `import.meta.hot` exists only under the dev server; not `env.PROD`, which follows NODE_ENV (a build
  // started from a test runner has NODE_ENV=test).
  if (import.meta.hot || !("serviceWorker" in navigator)) return;
  // After load: the worker's precache downloads must not compete with the first render.
  // workbox-window is loaded then too, so it stays out of the first paint's JS budget.
  const start = () =>
    void import("workbox-window")
      .then(({ Workbox }) => new Workbox(SERVICE_WORKER_URL, { scope: "/" }).register())
      .catch(() => {
        /* refused (private mode, blocked by policy): the app works without it, only offline and push do not */
      });
  if (document.readyState === "complete") start();
  else addEventListener("load", start, { once: true });
}
