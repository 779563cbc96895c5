/// <reference lib="dom" />
// Issue 26, parts 5–6: search inside a session finds a message of its first turn, far above the rows on
// screen (the room searches its whole log); choosing it pages the transcript down to it, shows it
// highlighted and focused — desktop and phone. "Export as Markdown" downloads the transcript with every turn.
// The session is made through the product path (real demo agent): ~0.3 s a turn here, so 2,000 turns
// (>10 min) is too slow for the suite — the 100,000-event scale is test/worker/session-search.test.ts.
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { idle, openViewer } from "./session-page";
import { createSession, NodeViewer, waitFor } from "./support";

/** Turns in the session: the searched word is in the first, several history pages above the join window. */
const TURNS = 150;
/** Sockets the turns are sent on: each has its own rate budget, the room runs the queue back to back. */
const SENDERS = 4;
const WORD = "zanzibar";

let sessionId: string;

/** Turns ended (`session_status` idle with a stop reason) seen by `v`, counted as frames arrive. */
function turnEnds(v: NodeViewer): () => number {
  let seen = 0;
  let ends = 0;
  return () => {
    for (; seen < v.frames.length; seen++) {
      const f = v.frames[seen]!;
      const events = f.type === "event" || f.type === "state" ? [f.event] : f.type === "snapshot" ? f.events : [];
      for (const e of events) if (e.kind === "session_status" && e.state === "idle" && e.stopReason) ends++;
    }
    return ends;
  };
}

const e2e = useStackAndBrowser({
  shared: true,
  timeout: 240_000,
  async setup() {
    sessionId = await createSession(e2e.stack.url);
    const viewers = await Promise.all(Array.from({ length: SENDERS }, () => new NodeViewer(e2e.stack.url, sessionId).open()));
    const watch = viewers[0]!;
    await waitFor(() => watch.status() === "idle", "ready", 30_000);
    const ended = turnEnds(watch);
    // The queue holds 8: sends keep it full, so the room starts each turn as the last one ends.
    expect(await watch.op({ op: "settings.set", queueDepth: 8 })).toMatchObject({ type: "ack" });
    // `config` turns: the demo agent answers with one line at once.
    for (let i = 0; i < TURNS; i++) {
      const text = i === 0 ? `config ${WORD} is where it began` : `config turn-${i}`;
      for (;;) {
        const r = await viewers[i % SENDERS]!.op({ op: "message.send", id: `t${i}`, blocks: [{ type: "text", text }] });
        if (r.type === "ack") break;
        if (r.code !== "QUEUE_FULL" && r.code !== "RATE_LIMITED") throw new Error(`send ${i}: ${r.code} ${r.message}`);
        const now = ended();
        await waitFor(() => ended() > now, "a turn to end", 30_000);
      }
    }
    await waitFor(() => ended() >= TURNS, "every turn answered", 180_000);
    for (const v of viewers) v.close();
  },
});

async function searchFor(page: Page, word: string) {
  await page.getByRole("button", { name: "Search this session" }).click();
  const box = page.getByRole("searchbox", { name: "Search this session" });
  await box.fill(word);
  await box.press("Enter");
  const panel = page.getByRole("dialog", { name: "Search this session" });
  await panel.getByTestId("search-status").filter({ hasText: /match(es)? in the whole session/ }).waitFor({ timeout: 30_000 });
  return panel;
}

describe("search inside a session and export", () => {
  for (const [name, profile] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: searching a word of the first turn (150 turns back) and choosing it shows that message, highlighted`, async () => {
      const { ctx, page } = await openViewer(e2e, profile, sessionId, "idle");
      await page.getByTestId("row-user").filter({ hasText: `turn-${TURNS - 1}` }).waitFor();
      // Not on screen, nor anywhere in the page: only the server's search can find it.
      expect(await page.getByText(WORD).count()).toBe(0);

      const panel = await searchFor(page, WORD);
      const hits = panel.getByTestId("search-hit");
      // The user's message and the agent's answer that does not echo it: one hit, the user's.
      await expect.poll(() => hits.count()).toBe(1);
      expect(await hits.first().innerText()).toContain(WORD);
      expect(await hits.first().locator("mark").innerText()).toBe(WORD);
      await shot(page, `${name}-search-results`);

      await hits.first().click();
      const row = page.getByTestId("row-user").filter({ hasText: WORD });
      await row.waitFor({ timeout: 60_000 });
      await expect.poll(() => row.evaluate((el) => el.classList.contains("row-found")), { timeout: 30_000 }).toBe(true);
      // In view, focused, and the panel stepped aside.
      await expect.poll(() => row.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && document.activeElement === el;
      })).toBe(true);
      expect(await panel.isVisible()).toBe(false);
      await shot(page, `${name}-search-jumped`);
      // The rows between it and the end are the session's, in order (nothing skipped by the jump).
      const next = page.getByTestId("row-user").filter({ hasText: "turn-1" }).first();
      expect(await next.count()).toBe(1);
      // Escape closes a reopened panel and gives the focus back to its button.
      await page.getByRole("button", { name: "Search this session" }).click();
      expect(await panel.getByTestId("search-hit").count()).toBe(1);
      await page.keyboard.press("Escape");
      expect(await panel.isVisible()).toBe(false);
      await ctx.close();
    }, 180_000);
  }

  it("desktop: Export as Markdown downloads the transcript with every turn", async () => {
    const { ctx, page } = await openViewer(e2e, DESKTOP, sessionId, "idle");
    await idle(page);
    await page.getByRole("button", { name: "Search this session" }).click();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export as Markdown" }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.md$/);
    const md = await readFile((await download.path())!, "utf8");
    expect(md.startsWith("# ")).toBe(true);
    expect(md).toContain(`config ${WORD} is where it began`);
    for (const i of [1, 75, TURNS - 1]) expect(md).toContain(`\nconfig turn-${i}\n`);
    expect(md.match(/^## /gm)!.length).toBe(TURNS);
    expect(md).toContain("**Agent:**\n\nConfig for this turn:");
    await ctx.close();
  }, 120_000);
});
