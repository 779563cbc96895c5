/// <reference lib="dom" />
// Issue 20: a long session joins with its last window of rows; scrolling up pages older rows in from the
// server (history.page) without moving what the reader looks at, on desktop and phone, up to the
// session's first message — every message exactly once.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { createSession, NodeViewer, waitFor } from "./support";

/** Turns in the session: several join windows' worth of rows. */
const TURNS = 70;

let sessionId: string;

const e2e = useStackAndBrowser({
  shared: true,
  timeout: 240_000,
  async setup() {
    sessionId = await createSession(e2e.stack.url);
    const v = await new NodeViewer(e2e.stack.url, sessionId).open();
    await waitFor(() => v.status() === "idle", "ready");
    const answered = () => v.ofKind("session_status").filter((s) => s.state === "idle" && s.stopReason).length;
    for (let i = 0; i < TURNS; i++) {
      // Some turns run a tool: rows of different kinds and heights.
      const text = i % 3 === 2 ? `tool turn-${i}` : `message turn-${i}`;
      await v.op({ op: "message.send", id: `m${i}`, blocks: [{ type: "text", text }] });
      await waitFor(() => answered() > i, `turn ${i} answered`, 30_000);
    }
    v.close();
  },
});

/** The oldest user row mounted: its text and its top relative to the scroller's top. */
async function oldestUserRow(page: Page): Promise<{ text: string; top: number; count: number }> {
  return page.evaluate(() => {
    const scroller = document.querySelector("main.scroll")!;
    const rows = Array.from(document.querySelectorAll<HTMLElement>('[data-testid="row-user"]'));
    const first = rows[0]!;
    return {
      text: first.textContent!.match(/turn-\d+/)![0],
      top: first.getBoundingClientRect().top - scroller.getBoundingClientRect().top,
      count: rows.length,
    };
  });
}

async function topOf(page: Page, turn: string): Promise<number> {
  return page.evaluate((t) => {
    const scroller = document.querySelector("main.scroll")!;
    const row = Array.from(document.querySelectorAll<HTMLElement>('[data-testid="row-user"]')).find((r) => r.textContent!.match(/turn-\d+/)?.[0] === t)!;
    return row.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
  }, turn);
}

describe("scrolling up pages older rows in from the server", () => {
  for (const [name, profile] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: the join holds the last window; each older page lands above without a jump, up to the first message`, async () => {
      const ctx = await e2e.browser.newContext(profile);
      const page = await ctx.newPage();
      const pages: number[] = [];
      let sockets = 0;
      page.on("websocket", (ws) => {
        sockets++;
        ws.on("framesent", (f) => {
          if (typeof f.payload === "string" && f.payload.includes('"history.page"')) pages.push(Date.now());
        });
      });
      await page.goto(`${e2e.stack.url}/s/${sessionId}`);
      await page.getByTestId("row-user").filter({ hasText: `turn-${TURNS - 1}` }).waitFor();
      // The join brought the end of the session, not its beginning.
      expect(await page.getByTestId("row-user").filter({ hasText: "turn-0" }).count()).toBe(0);
      await page.waitForTimeout(300);
      const moves: { step: number; turn: string; moved: number; scrollTop: number; sockets: number }[] = [];
      for (let step = 0; step < 40; step++) {
        if (await page.getByTestId("session-start").isVisible()) break;
        const oldest = await oldestUserRow(page);
        // Bring the oldest mounted message to the top of the screen: the rows above it come in.
        await page.evaluate((t) => {
          const row = Array.from(document.querySelectorAll<HTMLElement>('[data-testid="row-user"]')).find((r) => r.textContent!.match(/turn-\d+/)?.[0] === t)!;
          row.scrollIntoView({ block: "start" });
        }, oldest.text);
        const before = await topOf(page, oldest.text);
        await waitFor(async () => (await oldestUserRow(page)).text !== oldest.text || (await page.getByTestId("session-start").isVisible()), "older rows", 20_000);
        await page.waitForTimeout(150);
        const scrollTop = await page.evaluate(() => document.querySelector("main.scroll")!.scrollTop);
        moves.push({ step, turn: oldest.text, moved: Math.abs((await topOf(page, oldest.text)) - before), scrollTop, sockets });
        if (step === 1) await shot(page, `${name}-history-paging`);
      }
      await page.getByTestId("session-start").waitFor();
      // No jump: the message the reader looked at stayed where it was as each page landed above it.
      // (On failure: each step's row, move and scroll position, and the sockets the page had opened by then.)
      expect(Math.max(...moves.map((m) => m.moved)), JSON.stringify(moves)).toBeLessThanOrEqual(3);
      // Older rows came from the server, in pages.
      expect(pages.length).toBeGreaterThanOrEqual(2);
      // Every message is there once, in order, from the first.
      const texts = await page.getByTestId("row-user").evaluateAll((els) => els.map((e) => e.textContent!.match(/turn-\d+/)![0]));
      expect(texts).toEqual(Array.from({ length: TURNS }, (_, i) => `turn-${i}`));
      await page.evaluate(() => document.querySelector("main.scroll")!.scrollTo({ top: 0 }));
      await page.waitForTimeout(200);
      await shot(page, `${name}-history-beginning`);
      await ctx.close();
    }, 120_000);
  }
});
