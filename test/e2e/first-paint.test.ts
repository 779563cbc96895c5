// Issue 20, the phone-class client: a page paints with its own chunk only — the markdown renderer and
// the sanitiser come after, and until then an answer shows as plain text in the same blocks, so the
// swap barely moves it. No chunk load trips the CSP (script-src 'self', no inline script).
import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE, launch, shot } from "./browser";
import { type Stack, createSession, NodeViewer, startTestStack, waitFor } from "./support";

let stack: Stack;
let browser: Browser;
let sessionId: string;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack(), launch()]);
  sessionId = await createSession(stack.url);
  const v = await new NodeViewer(stack.url, sessionId).open();
  await waitFor(() => v.status() === "idle", "ready");
  await v.op({ op: "message.send", id: "md", blocks: [{ type: "text", text: "show me some markdown" }] });
  await waitFor(() => v.ofKind("session_status").some((s) => s.state === "idle" && s.stopReason), "the answer", 30_000);
  v.close();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Console messages that are CSP refusals or failed loads. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

const height = async (page: Page) => (await page.getByTestId("row-agent").last().boundingBox())!.height;

describe("first paint without the markdown renderer", () => {
  for (const [name, profile] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: the answer shows as plain text first, then rendered, at about the same height`, async () => {
      const ctx = await browser.newContext(profile);
      const page = await ctx.newPage();
      const errors = watchErrors(page);
      // Hold the renderer's chunk until the plain page has been looked at.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const requested: string[] = [];
      page.on("request", (r) => requested.push(new URL(r.url()).pathname));
      await page.route(/\/assets\/markdown-[^/]*\.js$/, async (route: Route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${stack.url}/s/${sessionId}`);
      const agent = page.getByTestId("row-agent").last();
      await agent.filter({ hasText: "Demo reply" }).waitFor();
      // Plain: the text, escaped, in the renderer's blocks — no markup rendered from the source.
      expect(await agent.locator("h2").innerText()).toBe("Demo reply");
      expect(await agent.locator("strong").count()).toBe(0);
      expect(await agent.innerText()).toContain("**Baton demo agent**");
      const plain = await height(page);
      await shot(page, `${name}-first-paint-plain`);

      release();
      await agent.locator("strong").filter({ hasText: "Baton demo agent" }).waitFor();
      const rendered = await height(page);
      await shot(page, `${name}-first-paint-rendered`);
      // The swap moves less than two lines of text (inline code, link, bold are all that differ).
      expect(Math.abs(rendered - plain)).toBeLessThan(48);
      expect(requested.some((p) => /\/assets\/markdown-/.test(p))).toBe(true);
      expect(errors).toEqual([]);
      await ctx.close();
    });
  }

  it("the home page paints without the markdown renderer, the schemas or the ack check (the session page's chunk may come ahead, at idle)", async () => {
    const ctx = await browser.newContext(PHONE);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    const before: string[] = [];
    let painted = false;
    page.on("request", (r) => {
      // The service worker's precache (after load) fetches every chunk; only the page's own requests count.
      if (!painted && !r.serviceWorker()) before.push(new URL(r.url()).pathname);
    });
    await page.goto(stack.url);
    await page.getByTestId("session-title").first().waitFor();
    painted = true;
    expect(before.filter((p) => /\/assets\/(markdown|schemas|ack-check)-/.test(p))).toEqual([]);
    await shot(page, "phone-home-first-paint");
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
