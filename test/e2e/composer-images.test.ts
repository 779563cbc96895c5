// Issue 29 #1, #4: images into the composer in Chromium against the real stack (demo agent: it says what it
// received, with the size read from the image's own header). A pasted 4000 × 3000 picture is fitted in the
// browser (canvas) and reaches the agent as an image block; both viewers see it in the user's row and can open it
// full size. The phone attaches from the file input, queued with its image (a thumbnail on the chip for both).
// The phone keyboard (simulated through the visualViewport API) leaves the composer, Send and the pills visible.
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { MAX_IMAGE_LONG_SIDE_PX } from "../../shared/limits";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { idle, openViewer, say, tid } from "./session-page";
import { createSession, waitFor } from "./support";

const e2e = useStackAndBrowser({ shared: true });

/** A whiteboard-like picture (shapes and writing), as a phone camera or a screenshot would give. */
async function picture(width: number, height: number, format: "png" | "jpeg", words: string): Promise<Buffer> {
  const s = Math.min(width, height) / 300;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#f6f5f0"/>
    <rect x="${20 * s}" y="${20 * s}" width="${120 * s}" height="${70 * s}" rx="${8 * s}" fill="none" stroke="#2d5bd7" stroke-width="${3 * s}"/>
    <circle cx="${220 * s}" cy="${80 * s}" r="${40 * s}" fill="#e8a33d"/>
    <path d="M ${40 * s} ${200 * s} C ${120 * s} ${120 * s}, ${200 * s} ${260 * s}, ${300 * s} ${170 * s}" stroke="#c0392b" stroke-width="${4 * s}" fill="none"/>
    <text x="${30 * s}" y="${150 * s}" font-family="sans-serif" font-size="${26 * s}" fill="#222">${words}</text>
  </svg>`;
  const img = sharp(Buffer.from(svg));
  return format === "png" ? img.png().toBuffer() : img.jpeg({ quality: 90 }).toBuffer();
}

/** A paste of an image file into the composer (the clipboard's files, as Chromium hands them to the page). */
async function pasteImage(page: Page, png: Buffer, name: string) {
  await tid(page, "composer-input").evaluate(
    (el, { b64, name }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    { b64: png.toString("base64"), name },
  );
}

const naturalSize = (page: Page, selector: string) =>
  page.locator(selector).evaluate((img: HTMLImageElement) => img.decode().then(() => ({ width: img.naturalWidth, height: img.naturalHeight })));

describe("images in the composer", () => {
  it("a pasted 4000 × 3000 picture: a thumbnail in the Sender, fitted in the browser, reaches the agent as an image block and shows for both viewers", async () => {
    const sessionId = await createSession(e2e.stack.url);
    const { ctx: ctxA, page: a } = await openViewer(e2e, DESKTOP, sessionId, "idle");
    const { ctx: ctxB, page: b } = await openViewer(e2e, PHONE, sessionId);

    await tid(a, "composer-input").fill("what is on this whiteboard?");
    await pasteImage(a, await picture(4000, 3000, "png", "ship friday?"), "whiteboard.png");
    const thumb = tid(a, "attachments").getByRole("button", { name: "Image 1 — show full size" });
    await thumb.waitFor({ timeout: 20_000 });
    const fitted = await naturalSize(a, "[data-testid=attachments] img");
    expect(Math.max(fitted.width, fitted.height)).toBe(MAX_IMAGE_LONG_SIDE_PX);
    await shot(a, "images-sender-desktop");

    await tid(a, "send-button").click();
    const reply = `I received 1 image (image/jpeg, ${fitted.width}×${fitted.height}).`;
    await tid(a, "row-agent").filter({ hasText: reply }).first().waitFor({ timeout: 30_000 });
    await waitFor(async () => (await tid(a, "attachments").count()) === 0, "the draft's image went with the send");
    for (const page of [a, b]) {
      const row = tid(page, "row-user").filter({ hasText: "what is on this whiteboard?" });
      await row.getByRole("button", { name: "Image 1 — show full size" }).waitFor({ timeout: 20_000 });
    }
    await idle(a);
    // B (the phone) taps the picture: full size in a dialog.
    await tid(b, "row-user").getByRole("button", { name: "Image 1 — show full size" }).tap();
    const dialog = b.getByRole("dialog", { name: "Image 1" });
    await dialog.waitFor();
    expect(await naturalSize(b, "[data-testid=image-full] img")).toEqual(fitted);
    await shot(b, "images-full-size-phone");
    await dialog.getByRole("button", { name: "Close" }).tap();
    await dialog.waitFor({ state: "detached" });
    await shot(a, "images-transcript-desktop");
    await shot(b, "images-transcript-phone");
    await Promise.all([ctxA.close(), ctxB.close()]);
  });

  it("the phone attaches from the file input; queued mid-turn, the chip shows the image for both; it runs with it", async () => {
    const sessionId = await createSession(e2e.stack.url);
    const { ctx: ctxA, page: a } = await openViewer(e2e, DESKTOP, sessionId, "idle");
    const { ctx: ctxB, page: b } = await openViewer(e2e, PHONE, sessionId);
    await say(b, "sleep 60", true);
    await tid(b, "stop-button").waitFor();
    await tid(b, "attach-input").setInputFiles({ name: "screenshot.png", mimeType: "image/png", buffer: await picture(1200, 900, "png", "error 42") });
    await tid(b, "attachments").getByRole("button", { name: "Image 1 — show full size" }).waitFor({ timeout: 20_000 });
    await tid(b, "composer-input").tap();
    await tid(b, "composer-input").fill("and this error");
    await shot(b, "images-sender-phone");
    await tid(b, "send-button").tap();
    for (const page of [a, b]) await tid(page, "queue-chip").getByRole("button", { name: "Queued image 1 — show full size" }).waitFor({ timeout: 20_000 });
    // The thumbnail stands for the image: no "[image]" text beside it.
    for (const page of [a, b]) await expect(tid(page, "queue-chip").locator(".chip-preview").innerText()).resolves.toBe("and this error");
    await shot(a, "images-queued-desktop");
    await shot(b, "images-queued-phone");
    // Within the bounds already: it goes as it is (PNG, its own size).
    await tid(a, "row-agent").filter({ hasText: "I received 1 image (image/png, 1200×900)." }).first().waitFor({ timeout: 40_000 });
    await Promise.all([ctxA.close(), ctxB.close()]);
  });
});

/** Simulates the on-screen keyboard: the visual viewport shrinks by `px` (0: closed) as Safari's does. */
async function keyboard(page: Page, px: number) {
  await page.evaluate((px) => {
    const vv = window.visualViewport!;
    Object.defineProperty(vv, "height", { configurable: true, get: () => window.innerHeight - px });
    vv.dispatchEvent(new Event("resize"));
  }, px);
}

/** Every point of `selector`'s box lies within the visible part of the page (above the keyboard). */
async function visible(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    const h = window.visualViewport!.height;
    return r.width > 0 && r.top >= 0 && r.bottom <= h + 0.5;
  });
}

describe("the phone keyboard never hides the composer", () => {
  for (const [width, height, kb] of [
    [390, 844, 336],
    [360, 640, 260],
  ] as const) {
    it(`${width} × ${height}: composer, Send and the pills stay above a ${kb} px keyboard; the transcript does not jump; a tap outside dismisses it`, async () => {
      const sessionId = await createSession(e2e.stack.url);
      const { ctx, page } = await openViewer(e2e, { ...PHONE, viewport: { width, height } }, sessionId, "idle");
      for (const words of ["first question", "second question", "third question"]) {
        await say(page, words, true);
        await idle(page);
      }
      const scroller = page.locator("main.scroll");
      const dockTop = async () => (await page.locator("footer.dock").boundingBox())!.y;
      // Following the bottom: the keyboard opens, the latest reply's end stays in sight above the composer.
      await tid(page, "composer-input").tap();
      await keyboard(page, kb);
      await waitFor(async () => (await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--keyboard-inset"))) === `${kb}px`, "inset applied");
      const lastReply = tid(page, "row-agent").last();
      await waitFor(async () => {
        const box = (await lastReply.boundingBox())!;
        return box.y + box.height <= (await dockTop()) + 1;
      }, "the latest reply's end above the composer");
      await keyboard(page, 0);
      await tid(page, "transcript").tap({ position: { x: 20, y: 20 } });
      // Reading further up (not following): the keyboard opening moves nothing of what is read.
      await scroller.evaluate((el) => (el.scrollTop = Math.max(0, el.scrollHeight - el.clientHeight - 600)));
      await page.waitForTimeout(150);
      expect(await scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeGreaterThan(300);
      const anchor = tid(page, "row-user").last();
      const before = { y: (await anchor.boundingBox())!.y, top: await scroller.evaluate((el) => el.scrollTop) };
      await tid(page, "composer-input").tap();
      await tid(page, "composer-input").fill("typing on the phone");
      await keyboard(page, kb);
      await waitFor(async () => (await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--keyboard-inset"))) === `${kb}px`, "inset applied");
      await page.waitForTimeout(150);
      for (const sel of ["[data-testid=composer-input]", "[data-testid=send-button]", "[data-testid=options-button]", "[data-testid=attach-button]"])
        expect(await visible(page, sel), `${sel} above the keyboard`).toBe(true);
      if (await page.locator(".select-pill").count()) expect(await visible(page, ".select-pill"), "a pill above the keyboard").toBe(true);
      expect(await scroller.evaluate((el) => el.scrollTop)).toBe(before.top);
      expect(Math.abs((await anchor.boundingBox())!.y - before.y)).toBeLessThanOrEqual(1);
      await shot(page, `keyboard-open-${width}x${height}`);
      // The options sheet opens above the composer, within what the keyboard leaves.
      await tid(page, "options-button").tap();
      await tid(page, "options-sheet").waitFor();
      expect(await visible(page, "[data-testid=options-sheet]")).toBe(true);
      await page.keyboard.press("Escape");
      // A tap on the transcript dismisses the keyboard (the field loses focus); the draft stays.
      await tid(page, "composer-input").tap();
      await tid(page, "transcript").tap({ position: { x: 20, y: 20 } });
      expect(await tid(page, "composer-input").evaluate((el) => document.activeElement === el)).toBe(false);
      expect(await tid(page, "composer-input").inputValue()).toBe("typing on the phone");
      await keyboard(page, 0);
      await waitFor(async () => (await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--keyboard-inset"))) === "", "inset gone");
      await ctx.close();
    });
  }
});
