/** Debian Chromium driven by playwright-core (no downloaded browser). */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, type BrowserContextOptions, type BrowserServer, chromium, devices, type Page } from "playwright-core";
import { inject } from "vitest";
import { chromiumPath } from "../../scripts/chromium-check.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** The e2e project's Chromium: its WebSocket endpoint (playwright's browser server, test/e2e/global-setup.ts). */
    sharedBrowser: string;
  }
}

export const CHROMIUM = chromiumPath();
export const SHOTS = join(process.cwd(), "test", "e2e", "__screenshots__");

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** A Chromium for this file: a connection to the e2e project's shared one (test/e2e/global-setup.ts), else its own. */
export async function launch(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  const shared = inject("sharedBrowser");
  // Closing a connected Browser closes its contexts and the connection, not the shared browser.
  return shared ? chromium.connect(shared) : chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** The e2e project's one Chromium, for its files to connect to. */
export async function launchServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: CHROMIUM, args: ARGS });
}

/** A profile on disk (not incognito): what installability checks need. */
export async function launchPersistent(userDataDir: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launchPersistentContext(userDataDir, { ...options, executablePath: CHROMIUM, args: ARGS });
}

/**
 * What the tests' pages leave out, measured per page in a session-page load (Chromium's CPU):
 * - the service worker: each fresh context installed it and precached every asset, 0.4 s of CPU during the load and
 *   ~1 s in the seconds after it (0.95 → 0.54 s, then 0.116 → 0.009 of a core). Only the PWA / push tests need it
 *   (`withServiceWorker`).
 * - motion (`prefers-reduced-motion`, which the app honours): an endless CSS animation (the pulsing dot of a running
 *   turn, a spinner) has a software-compositing Chromium draw every frame, 0.1–0.15 of a core per page.
 * The bench measures what people get: `asPeopleHaveIt` puts both back.
 */
const TEST_PAGE = { reducedMotion: "reduce", serviceWorkers: "block" } as const;
// Two people are two contexts, not two pages of one: a context's pages are tabs of one window, and the tab behind
// gets ~2 animation frames a second, so every Playwright action on it waits ~2 s for its element to be "stable"
// (worktree-session's two-page test took 72 s alone, 21 s with a context each).
export const DESKTOP = { viewport: { width: 1280, height: 800 }, ...TEST_PAGE };
export const PHONE = { ...devices["iPhone 13"], viewport: { width: 390, height: 844 }, ...TEST_PAGE };
/** A profile whose pages install the service worker (installability, push). */
export const withServiceWorker = <T extends BrowserContextOptions>(profile: T): T => ({ ...profile, serviceWorkers: "allow" });
/** A profile as people have it: the service worker and animations on. */
export const asPeopleHaveIt = <T extends BrowserContextOptions>(profile: T): T => ({ ...withServiceWorker(profile), reducedMotion: "no-preference" });

/**
 * Screenshots for a person to look at (README: "Look at what you changed"): written to test/e2e/__screenshots__
 * when BATON_SHOTS is set (`BATON_SHOTS=1 npx vitest run --project e2e <file>`), skipped otherwise — nothing
 * reads them in a run, and capturing and encoding ~90 of them took a few minutes of npm test on 2 cores.
 */
export async function shot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  if (!process.env["BATON_SHOTS"]) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: opts.fullPage ?? false });
}
