// The panels opened from a button (issue 32 #5), desktop and phone, by accessible names: the session's
// settings, members and agent options, the home page's notifications. Each opens with the focus inside,
// lies inside the viewport by what opened it (a popover in the top layer is not placed by its parent),
// closes on Escape with the focus back on its button, and closes on a press outside. The Archive idle
// dialog (a modal) keeps Tab inside and gives the focus back. A hovered toast stays.
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { openViewer, tid } from "./session-page";
import { createSession, FAST_DEMO, waitFor } from "./support";

// Extra agent options: the options button shows on desktop too (on phones it shows for the pills alone).
const e2e = useStackAndBrowser({ daemonEnv: { ...FAST_DEMO, DEMO_EXTRA_OPTIONS: "1" }, timeout: 240_000 });

/** Longer than an info toast's 4 s: a toast still there after it was held. */
const HELD_MS = 5_500;

const focusInside = (dialog: Locator) => dialog.evaluate((el) => el.contains(document.activeElement));
const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent?.trim() ?? "");

async function press(button: Locator, touch: boolean) {
  if (touch) await button.tap();
  else await button.click();
}

/** Opens the panel; checks the focus moved in and where it lies; returns it open. */
async function open(page: Page, button: Locator, name: string, touch: boolean, below: Locator) {
  await press(button, touch);
  const dialog = page.getByRole("dialog", { name });
  await dialog.waitFor({ state: "visible" });
  await waitFor(() => focusInside(dialog), `the focus moves into ${name}`, 10_000);
  const box = (await dialog.boundingBox())!;
  const view = page.viewportSize()!;
  expect(box.x, `${name} left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${name} right edge`).toBeLessThanOrEqual(view.width);
  expect(box.y, `${name} top`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${name} bottom`).toBeLessThanOrEqual(view.height);
  const anchor = (await below.boundingBox())!;
  return { dialog, box, anchor };
}

/**
 * Escape closes it, the focus back on its button; opened again, a press at `outside` (nothing there to act on) closes it.
 * `loaded`: what the panel shows once loaded, waited for after it opens again (the Members panel asks for its list again
 * and grows when it lands: measured before that, the press could land on the grown panel).
 */
async function escapeAndOutside(page: Page, button: Locator, name: string, label: string, touch: boolean, outside: { x: number; y: number }, loaded?: (dialog: Locator) => Locator) {
  const dialog = page.getByRole("dialog", { name });
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  expect(await focusedLabel(page)).toBe(label);
  await press(button, touch);
  await dialog.waitFor({ state: "visible" });
  if (loaded) await loaded(dialog).waitFor();
  // A panel grows as its parts load (the settings' notification part on a slow machine): press below it then.
  const box = (await dialog.boundingBox())!;
  const y = outside.y > box.y && outside.y < box.y + box.height ? box.y + box.height + OUTSIDE_GAP_PX : outside.y;
  if (touch) await page.touchscreen.tap(outside.x, y);
  else await page.mouse.click(outside.x, y);
  await dialog.waitFor({ state: "hidden" });
}

/** How far below a panel a press lands when the usual spot is covered by it. */
const OUTSIDE_GAP_PX = 24;

describe("panels and dialogs", () => {
  for (const [name, profile, touch] of [
    ["desktop", DESKTOP, false],
    ["phone", PHONE, true],
  ] as const) {
    it(`${name}: each panel takes the focus in, Escape and a press outside close it, the focus goes back to its button`, async () => {
      const sessionId = await createSession(e2e.stack.url);
      const { ctx, page } = await openViewer(e2e, profile, sessionId, "idle");
      const view = page.viewportSize()!;
      // The empty transcript, below every panel and above the composer.
      const inTranscript = { x: view.width / 2, y: view.height * 0.45 };

      // The header's panels, under their button.
      for (const label of ["Session settings", "Members"]) {
        const button = page.getByRole("button", { name: label, exact: true });
        const { dialog, box, anchor } = await open(page, button, label, touch, button);
        // What each shows once loaded (the screenshot is of that).
        const loaded = (d: Locator) => (label === "Members" ? d.getByText("dev@localhost") : d.getByRole("combobox", { name: /depth/i }));
        await loaded(dialog).waitFor();
        expect(box.y, `${label} opens below its button`).toBeGreaterThanOrEqual(anchor.y + anchor.height);
        await shot(page, `panel-${label.toLowerCase().replace(/ /g, "-")}-${name}`);
        await escapeAndOutside(page, button, label, label, touch, inTranscript, loaded);
      }

      // The agent options, above the composer card and its width.
      const options = page.getByRole("button", { name: "More options" });
      const composer = page.locator(".composer");
      const { box, anchor } = await open(page, options, "Agent options", touch, composer);
      expect(box.y + box.height, "the options sheet ends above the composer").toBeLessThanOrEqual(anchor.y);
      expect(Math.abs(box.width - anchor.width), "the options sheet is the composer's width").toBeLessThan(2);
      await page.getByRole("dialog", { name: "Agent options" }).getByRole("switch", { name: "Fast mode" }).waitFor();
      await shot(page, `panel-agent-options-${name}`);
      await escapeAndOutside(page, options, "Agent options", "More options", touch, inTranscript);

      // The home page: notifications under the bell.
      await page.goto(e2e.stack.url);
      await tid(page, "session-link").first().waitFor({ timeout: 20_000 });
      const bell = page.getByRole("button", { name: "Notifications", exact: true });
      const bellPanel = await open(page, bell, "Notifications", touch, bell);
      expect(bellPanel.box.y).toBeGreaterThanOrEqual(bellPanel.anchor.y + bellPanel.anchor.height);
      await shot(page, `panel-notifications-${name}`);
      // The page's title: a press there acts on nothing (the middle of the page is a session row or the form).
      const title = (await page.getByRole("heading", { name: "Baton", exact: true }).boundingBox())!;
      await escapeAndOutside(page, bell, "Notifications", "Notifications", touch, { x: title.x + title.width / 2, y: title.y + title.height / 2 });

      // A modal dialog: Tab stays inside; Escape gives the focus back to what opened it.
      await press(page.getByRole("button", { name: "Select", exact: true }), touch);
      const archiveIdle = page.getByRole("button", { name: "Archive idle…" });
      await press(archiveIdle, touch);
      const dialog = page.getByRole("dialog", { name: "Archive idle sessions" });
      await dialog.waitFor();
      await shot(page, `dialog-archive-idle-${name}`);
      for (const key of ["Tab", "Tab", "Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
        await page.keyboard.press(key);
        expect(await focusInside(dialog), `${key} stays in the dialog`).toBe(true);
      }
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      expect(await focusedLabel(page)).toBe("Archive idle…");

      if (!touch) {
        // A toast under the pointer stays past its time, and goes once the pointer leaves.
        await archiveIdle.click();
        await dialog.getByRole("button", { name: "Archive", exact: true }).click();
        const toast = tid(page, "toast").first();
        await toast.waitFor();
        await toast.hover();
        await page.waitForTimeout(HELD_MS); // nothing to wait for: the toast must still be there after it
        expect(await toast.isVisible()).toBe(true);
        await shot(page, `toast-held-${name}`);
        await page.mouse.move(2, 2);
        await toast.waitFor({ state: "hidden", timeout: 10_000 });
      }
      await ctx.close();
    });
  }
});
