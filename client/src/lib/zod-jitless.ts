/**
 * The app's CSP has no 'unsafe-eval', and zod 4 probes for it once with `new Function("")` (caught, but
 * Chromium still reports it as a CSP violation in its Issues panel). Zod reads `globalThis.__zod_globalConfig`
 * when it first loads, so the page's entry and the service worker set `jitless` here, before any chunk
 * imports zod — without importing zod themselves (it stays out of the initial JS).
 */
declare global {
  // eslint-disable-next-line no-var
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };
export {};
