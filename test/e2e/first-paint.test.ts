// Issue 20, the phone-class client: a page paints with its own chunk only — the markdown renderer and
// the sanitiser come after, and until then an answer shows as escaped text in the same blocks and inline
// markup, so the swap moves nothing. No chunk load trips the CSP (script-src 'self', no inline script).
import type { Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot, withServiceWorker } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { createSession, NodeViewer, waitFor } from "./support";

let sessionId: string;

const e2e = useStackAndBrowser({
  shared: true,
  async setup() {
    sessionId = await createSession(e2e.stack.url);
    const v = await new NodeViewer(e2e.stack.url, sessionId).open();
    await waitFor(() => v.status() === "idle", "ready");
    await v.op({ op: "message.send", id: "md", blocks: [{ type: "text", text: "show me some markdown" }] });
    await waitFor(() => v.ofKind("session_status").some((s) => s.state === "idle" && s.stopReason), "the answer", 30_000);
    v.close();
  },
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

/**
 * Opens the session page with its socket held at the server's door: the page boots (its composer shown) with no
 * join yet; the returned function lets the socket through.
 */
async function openWithJoinHeld(page: Page): Promise<() => void> {
  let letIn!: () => void;
  const door = new Promise<void>((r) => (letIn = r));
  await page.routeWebSocket(/\/api\/sessions\/[^/]+\/ws/, async (ws) => {
    await door;
    ws.connectToServer();
  });
  await page.goto(`${e2e.stack.url}/s/${sessionId}`);
  await page.getByTestId("composer-input").waitFor();
  return letIn;
}

/** Resolves once the page has drawn two more frames: what changed before it is on screen. */
const painted = (page: Page) => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

/** A layout-shift entry: its score, whether a moved node is in the composer, and what moved (for the failure message). */
type Shift = { value: number; composer: boolean; moved: string[] };

/** The newest answer's blocks (paragraphs, headings, list items, quotes, code) with their boxes. */
const blocks = (page: Page) =>
  page
    .getByTestId("row-agent")
    .last()
    .evaluate((row) =>
      [...row.querySelectorAll("p, h1, h2, h3, li, blockquote, pre")].map((el) => {
        const r = el.getBoundingClientRect();
        return { what: `${el.tagName.toLowerCase()} "${(el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 24)}"`, top: r.top, width: r.width, height: r.height };
      }),
    );

describe("first paint without the markdown renderer", () => {
  for (const [name, profile] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: the answer's first paint, before the renderer, is laid out as rendered: the swap moves nothing`, async () => {
      const ctx = await e2e.browser.newContext(profile);
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
      await page.goto(`${e2e.stack.url}/s/${sessionId}`);
      const agent = page.getByTestId("row-agent").last();
      await agent.filter({ hasText: "Demo reply" }).waitFor();
      // Plain: the renderer's blocks and inline markup drawn from escaped text; the link is only its text until then.
      expect(await agent.locator("h2").innerText()).toBe("Demo reply");
      expect(await agent.locator("strong").allInnerTexts()).toEqual(["Baton demo agent"]);
      expect(await agent.locator("code").filter({ hasText: "sleep 30" }).count()).toBe(1);
      expect(await agent.locator("a").count()).toBe(0);
      expect(await agent.innerText()).not.toContain("**");
      const plain = await blocks(page);
      await shot(page, `${name}-first-paint-plain`);

      release();
      await agent.getByRole("link", { name: "link" }).waitFor();
      await painted(page);
      const rendered = await blocks(page);
      await shot(page, `${name}-first-paint-rendered`);
      // Every block keeps its box (to a pixel's rounding): nothing moves, and no block is drawn larger (which
      // would be a new largest contentful paint, as it was when inline markup showed as typed).
      expect(rendered.map((b) => b.what)).toEqual(plain.map((b) => b.what));
      for (const [i, b] of rendered.entries()) {
        const before = plain[i]!;
        expect(Math.abs(b.top - before.top) + Math.abs(b.width - before.width) + Math.abs(b.height - before.height), `${b.what}: ${JSON.stringify(before)} -> ${JSON.stringify(b)}`).toBeLessThan(1);
      }
      expect(requested.some((p) => /\/assets\/markdown-/.test(p))).toBe(true);
      expect(errors).toEqual([]);
      await ctx.close();
    });
  }

  it("the session page asks for the ack check and the push prompt (zod's schemas) only once its join has landed, not while the join's frames arrive", async () => {
    const ctx = await e2e.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    const ackCheck: string[] = [];
    const schemas: string[] = [];
    page.on("request", (r) => {
      if (/\/assets\/ack-check-[^/]*\.js$/.test(new URL(r.url()).pathname)) ackCheck.push(r.url());
      if (/\/assets\/schemas-[^/]*\.js$/.test(new URL(r.url()).pathname)) schemas.push(r.url());
    });
    // The page boots and goes idle with no join yet.
    const letIn = await openWithJoinHeld(page);
    // Two idle periods and a quiet network: idle work scheduled at boot has run and fetched what it wanted.
    for (let i = 0; i < 2; i++) await page.evaluate(() => new Promise<void>((r) => requestIdleCallback(() => r())));
    await page.waitForLoadState("networkidle");
    expect(ackCheck, "the ack check was fetched before the join").toEqual([]);
    expect(schemas, "zod's schemas (the push prompt's) were fetched before the join").toEqual([]);
    letIn();
    await page.getByTestId("row-agent").last().filter({ hasText: "Demo reply" }).waitFor();
    await waitFor(() => ackCheck.length > 0, "the ack check, fetched once the join has landed", 15_000);
    await waitFor(() => schemas.length > 0, "the push prompt's schemas, fetched once the join has landed", 15_000);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  // Both orders happen on a phone: the composer's tools (attach, camera, dictation) are a chunk of their own, and a slow
  // phone can get the join (with the agent's settings and the options button) before it.
  for (const order of ["the tools' code, then the join", "the join, then the tools' code"] as const) {
    it(`phone: the composer keeps its place as ${order} arrive (no layout shift; issue 31 #1)`, async () => {
      const ctx = await e2e.browser.newContext(PHONE);
      const page = await ctx.newPage();
      // Chromium's own layout-shift entries, with the nodes that moved.
      await page.addInitScript(() => {
        const w = window as unknown as { shifts: Shift[] };
        w.shifts = [];
        type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Source[] })[]) {
            if (e.hadRecentInput) continue;
            const sources = e.sources ?? [];
            const composer = sources.some((s) => s.node instanceof Element && s.node.closest("[data-testid=composer]") !== null);
            const name = (n: Node | null | undefined) =>
              n instanceof Element ? `${n.tagName.toLowerCase()}.${[...n.classList].join(".")}[${n.getAttribute("data-testid") ?? ""}]` : String(n?.nodeName);
            const rect = (r: DOMRectReadOnly) => `${r.x},${r.y} ${r.width}x${r.height}`;
            w.shifts.push({ value: e.value, composer, moved: sources.map((s) => `${name(s.node)} ${rect(s.previousRect)} -> ${rect(s.currentRect)}`) });
          }
        }).observe({ type: "layout-shift", buffered: true });
      });
      let letToolsIn = () => {};
      if (order === "the join, then the tools' code") {
        const gate = new Promise<void>((r) => (letToolsIn = r));
        await page.route(/\/assets\/ComposerTools-[^/]*\.js$/, async (route) => {
          await gate;
          await route.continue();
        });
      }
      // The join waits until the page has painted its composer (a slow network does this on its own).
      const letIn = await openWithJoinHeld(page);
      if (order === "the tools' code, then the join") await page.getByTestId("attach-button").waitFor();
      await painted(page);
      const before = (await page.getByTestId("composer-input").boundingBox())!.y;
      letIn();
      await page.getByTestId("row-agent").last().filter({ hasText: "Demo reply" }).waitFor();
      await page.getByTestId("model-select").waitFor();
      await painted(page);
      letToolsIn();
      await page.getByTestId("attach-button").waitFor();
      await page.getByTestId("options-button").waitFor();
      await painted(page);
      expect((await page.getByTestId("composer-input").boundingBox())!.y, "the message box stays where it was painted").toBe(before);
      const shifts = await page.evaluate(() => (window as unknown as { shifts: Shift[] }).shifts);
      expect(shifts.filter((s) => s.composer), "layout shifts of the composer").toEqual([]);
      // The page's cumulative layout shift (one session window here) within issue 31's target.
      expect(shifts.reduce((a, s) => a + s.value, 0)).toBeLessThan(0.02);
      await ctx.close();
    });
  }

  it("the service worker (its precache of every asset) is registered once the session's join is shown, not at load (issue 31 #1)", async () => {
    const ctx = await e2e.browser.newContext(withServiceWorker(PHONE));
    const page = await ctx.newPage();
    const registered = () => page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r !== undefined));
    const letIn = await openWithJoinHeld(page);
    // Loaded, idle and quiet, the join still held: the page has shown nothing of the session yet.
    await page.waitForLoadState("load");
    for (let i = 0; i < 2; i++) await page.evaluate(() => new Promise<void>((r) => requestIdleCallback(() => r())));
    await page.waitForLoadState("networkidle");
    expect(await registered(), "the service worker was registered before the join was shown").toBe(false);
    letIn();
    await page.getByTestId("row-agent").last().filter({ hasText: "Demo reply" }).waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    expect(await registered()).toBe(true);
    await ctx.close();
  });

  it("a session page dials its socket while its chunk still loads, and the page uses that socket (issue 31 #1)", async () => {
    const ctx = await e2e.browser.newContext(PHONE);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    const sockets: string[] = [];
    page.on("websocket", (ws) => {
      if (ws.url().includes(`/api/sessions/${sessionId}/ws`)) sockets.push(ws.url());
    });
    // Hold the session page's chunk: the join can only be under way if the entry dialled it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let chunkAsked = false;
    await page.route(/\/assets\/SessionView-[^/]*\.js$/, async (route: Route) => {
      chunkAsked = true;
      await held;
      await route.continue();
    });
    await page.goto(`${e2e.stack.url}/s/${sessionId}`);
    await waitFor(() => chunkAsked && sockets.length > 0, "the socket, dialled while the session chunk is held", 15_000);
    release();
    await page.getByTestId("row-agent").last().filter({ hasText: "Demo reply" }).waitFor();
    await page.getByTestId("composer-input").waitFor();
    expect(sockets, "one socket: the dialled one was adopted").toHaveLength(1);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("the home page paints while the markdown renderer, the schemas and the ack check are held back (idle work may ask for them)", async () => {
    const ctx = await e2e.browser.newContext(PHONE);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    // Hold the heavy chunks until the home page has painted: if the paint needed one, it would never come.
    // (Idle work — the session page's chunk, the bell — may ask for them early on a slow machine: that is fine.)
    const held: string[] = [];
    let painted!: () => void;
    const paint = new Promise<void>((r) => (painted = r));
    await ctx.route(/\/assets\/(markdown|schemas|ack-check)-[^/]*\.js$/, async (route: Route) => {
      held.push(new URL(route.request().url()).pathname);
      await paint;
      await route.continue();
    });
    await page.goto(e2e.stack.url);
    await page.getByTestId("session-title").first().waitFor({ timeout: 15_000 });
    await shot(page, "phone-home-first-paint");
    painted();
    console.log(`first paint: chunks held back until after the paint: ${JSON.stringify(held)}`);
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
