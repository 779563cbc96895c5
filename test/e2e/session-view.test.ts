// The session view as a new user meets it, desktop and phone: sending a message always brings the
// sender to it (after `config`'s short reply, "hello again" and its answer once stayed ~410 px below the
// fold behind a ↓ button); header popovers fit a 390 px screen.
import type { BrowserContextOptions, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { createSession, NodeViewer, openIdleSession, waitFor } from "./support";
import { MIN_TOUCH_PX } from "./session-page";

const e2e = useStackAndBrowser({ shared: true });

/** A new session, a Node viewer on it once the agent is idle, and a `profile` page showing it. */
async function openWithViewer(profile: BrowserContextOptions) {
  const { sessionId, v } = await openIdleSession(e2e.stack.url);
  const ctx = await e2e.browser.newContext(profile);
  const page = await ctx.newPage();
  await page.goto(`${e2e.stack.url}/s/${sessionId}`);
  return { v, ctx, page };
}

async function send(page: Page, v: NodeViewer, text: string) {
  const before = v.ofKind("session_status").filter((s) => s.state === "idle" && s.stopReason).length;
  await page.getByTestId("composer-input").fill(text);
  await page.getByTestId("send-button").click();
  await waitFor(() => v.ofKind("session_status").filter((s) => s.state === "idle" && s.stopReason).length > before, `"${text}" answered`, 30_000);
}

/** How far the newest user row with `text` reaches below the transcript's visible end, the composer's top (≤ 0: on screen). */
async function belowFold(page: Page, text: string): Promise<number> {
  const row = page.getByTestId("row-user").filter({ hasText: text }).last();
  await row.waitFor();
  const box = (await row.boundingBox())!;
  const composer = (await page.getByTestId("composer-input").boundingBox())!;
  return box.y + box.height - composer.y;
}

describe("the transcript follows your own message", () => {
  for (const [name, profile] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: hello, config, hello again — each sent message and its answer end on screen`, async () => {
      const { v, ctx, page } = await openWithViewer(profile);
      // Long enough to scroll several screens.
      for (let i = 0; i < 3; i++) await send(page, v, `filler ${i}`);
      await send(page, v, "hello");
      await send(page, v, "config");
      await send(page, v, "hello again");
      await page.getByTestId("row-agent").last().waitFor();
      // Let the last frames land (streaming, row mounting, the smooth scroll).
      await page.waitForTimeout(800);
      expect(await belowFold(page, "hello again")).toBeLessThanOrEqual(0);
      expect(await page.getByRole("button", { name: "Jump to latest" }).isVisible()).toBe(false);
      await shot(page, `${name}-follow-own-message`);
      v.close();
      await ctx.close();
    });
  }
});

describe("the ↓ Jump to latest button", () => {
  for (const [name, profile] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: covers no transcript text (it sits beside or above the composer, not over the transcript)`, async () => {
      const { v, ctx, page } = await openWithViewer(profile);
      for (let i = 0; i < 3; i++) await send(page, v, `filler ${i}`);
      await page.locator("main.scroll").evaluate((el) => (el.scrollTop = 0));
      const jump = page.getByRole("button", { name: "Jump to latest" });
      await jump.waitFor();
      // The transcript's text column, as far as it is on screen (inside the scroller).
      const [j, scroll, column] = [
        (await jump.boundingBox())!,
        (await page.locator("main.scroll").boundingBox())!,
        (await page.locator(".transcript").boundingBox())!,
      ];
      const overX = j.x < column.x + column.width && j.x + j.width > column.x;
      const overY = j.y < scroll.y + scroll.height && j.y + j.height > scroll.y;
      expect(overX && overY).toBe(false);
      expect(j.width).toBeGreaterThanOrEqual(MIN_TOUCH_PX);
      await shot(page, `${name}-jump-to-latest`);
      await jump.click();
      await waitFor(async () => !(await jump.isVisible()), "back at the bottom");
      v.close();
      await ctx.close();
    });
  }
});

describe("the session list tells sessions apart", () => {
  it("each session is titled by its first prompt (desktop and phone)", async () => {
    const texts = ["fix the flaky login test", "write the README's first lines"];
    for (const text of texts) {
      const { v } = await openIdleSession(e2e.stack.url);
      await v.op({ op: "message.send", id: `first-${texts.indexOf(text)}`, blocks: [{ type: "text", text }] });
      await waitFor(() => v.ofKind("session_status").some((s) => s.state === "idle" && s.stopReason), `"${text}" answered`, 30_000);
      v.close();
    }
    for (const [name, profile] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      const ctx = await e2e.browser.newContext(profile);
      const page = await ctx.newPage();
      await page.goto(e2e.stack.url);
      for (const text of texts) await page.getByTestId("session-title").filter({ hasText: text }).first().waitFor({ timeout: 20_000 });
      await shot(page, `${name}-session-list-titles`);
      await ctx.close();
    }
  });
});

describe("header popovers on a phone", () => {
  it("Session settings and Members open fully on screen at 390 px", async () => {
    const sessionId = await createSession(e2e.stack.url);
    const ctx = await e2e.browser.newContext(PHONE);
    const page = await ctx.newPage();
    await page.goto(`${e2e.stack.url}/s/${sessionId}`);
    for (const [button, panel] of [
      ["settings-button", "settings-panel"],
      ["members-button", "members-panel"],
    ] as const) {
      await page.getByTestId(button).click();
      const box = (await page.getByTestId(panel).boundingBox())!;
      expect(box.x, `${panel} left edge`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${panel} right edge`).toBeLessThanOrEqual(390);
      await shot(page, `phone-${panel}`);
      await page.keyboard.press("Escape");
      await page.getByTestId(panel).waitFor({ state: "hidden" });
    }
    await ctx.close();
  });
});
