/** Debian Chromium driven by playwright-core (no downloaded browser). */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, devices, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
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

export async function launch(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** A profile on disk (not incognito): what installability checks need. */
export async function launchPersistent(userDataDir: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launchPersistentContext(userDataDir, { ...options, executablePath: CHROMIUM, args: ARGS });
}

export const DESKTOP = { viewport: { width: 1280, height: 800 } };
export const PHONE = { ...devices["iPhone 13"], viewport: { width: 390, height: 844 } };

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}
