/** The session page as e2e tests drive it in Chromium: open it, type and send, wait for idle, read the user rows. */
import type { BrowserContextOptions, Locator, Page } from "playwright-core";
import { expect } from "vitest";
import type { FileStackAndBrowser } from "./file-stack";
import { waitFor } from "./support";

export const tid = (page: Page, id: string) => page.getByTestId(id);

/** A touch target's least size in CSS px (Apple's and WCAG 2.5.5's). */
export const MIN_TOUCH_PX = 44;

/**
 * Expects `l` to be at least MIN_TOUCH_PX each way, measured once its own and its holders' animations have ended: a chip
 * still sliding in (translateY) reads 43.99993 px tall, its edges fractional mid-animation.
 */
export async function expectTouchTarget(l: Locator, what = "touch target") {
  // Only the finite animations of the target and what holds it: a spinner or pulse elsewhere never finishes.
  await l.evaluate((el) => {
    const moving = document.getAnimations().filter((a) => {
      const target = a.effect instanceof KeyframeEffect ? a.effect.target : null;
      return target !== null && target.contains(el) && a.effect?.getComputedTiming().endTime !== Infinity;
    });
    return Promise.all(moving.map((a) => a.finished.catch(() => undefined)));
  });
  const box = await l.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.width, `${what} width`).toBeGreaterThanOrEqual(MIN_TOUCH_PX);
  expect(box!.height, `${what} height`).toBeGreaterThanOrEqual(MIN_TOUCH_PX);
}

/**
 * Opens `/s/<sessionId>` and waits for the live connection, then for `ready`: the composer (it can take a
 * message) or the "idle" status (the agent is up and not in a turn).
 */
export async function openSession(page: Page, url: string, sessionId: string, ready: "composer" | "idle" = "composer") {
  await page.goto(`${url}/s/${sessionId}`);
  await tid(page, "connection-state").filter({ hasText: /live/i }).waitFor({ timeout: 20_000 });
  if (ready === "idle") await idle(page, 20_000);
  else await tid(page, "composer-input").waitFor();
}

/** A viewer of its own (a fresh browser context in `profile`: its own cookies and storage) with the session open. */
export async function openViewer(e2e: FileStackAndBrowser, profile: BrowserContextOptions, sessionId: string, ready: "composer" | "idle" = "composer") {
  const ctx = await e2e.browser.newContext(profile);
  const page = await ctx.newPage();
  await openSession(page, e2e.stack.url, sessionId, ready);
  return { ctx, page };
}

export async function idle(page: Page, timeout = 30_000) {
  await tid(page, "session-status").filter({ hasText: /idle/i }).waitFor({ timeout });
}

/** Types into the composer (tapping it first on a touch profile when `tap`) and presses Enter: sends when idle, queues mid-turn. */
export async function say(page: Page, text: string, tap = false) {
  const input = tid(page, "composer-input");
  if (tap) await input.tap();
  await input.fill(text);
  await input.press("Enter");
  await waitFor(async () => (await input.inputValue()) === "", "composer cleared");
}

/** The texts of the user rows shown (the message text only, not the row's sender line). */
export async function userRows(page: Page): Promise<string[]> {
  return page.locator("[data-testid=row-user] .user-text").allInnerTexts();
}
