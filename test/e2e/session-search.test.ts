/// <reference lib="dom" />
// Issue 26, parts 5–6: search inside a session finds a message 2,000 turns back, far above the rows on screen
// (the room searches its whole log); choosing it pages the transcript down to it, shows it highlighted and
// focused — desktop and phone. "Export as Markdown" downloads the transcript with every turn.
// The long session is made through a product path that is fast at this size: the demo agent's own stored
// session (in the stack's folder for it, `Stack.demoSessions`) with 2,000 turns, imported with
// "Continue a past session" (the daemon relays its history once, as ordinary rows).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { idle, openViewer } from "./session-page";
import { NodeViewer, waitFor } from "./support";

/** Turns in the session: the searched word is in the first. */
const TURNS = 2_000;
const WORD = "zanzibar";
const userText = (i: number) => (i === 0 ? `config ${WORD} is where it began` : `config turn-${i}`);
const agentText = (i: number) => `Config for this turn: answer ${i}.`;

let sessionId: string;

const e2e = useStackAndBrowser({
  shared: true,
  timeout: 240_000,
  async setup() {
    const cwd = mkdtempSync(join(tmpdir(), "baton-search-"));
    const agentSessionId = `search${Date.now()}`;
    const history = Array.from({ length: TURNS }, (_, i) => [
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: userText(i) } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: agentText(i) } },
    ]).flat();
    // The demo agent's store (daemon/demo-agent/demo-store.ts), in the stack's state folder for it.
    mkdirSync(e2e.stack.demoSessions, { recursive: true });
    writeFileSync(
      join(e2e.stack.demoSessions, `baton-demo-session-${agentSessionId}.json`),
      JSON.stringify({ sessionId: agentSessionId, cwd, modeId: "code", config: {}, history, title: userText(0), updatedAt: new Date().toISOString() }),
    );
    const machines = (await (await fetch(`${e2e.stack.url}/api/machines`)).json()) as { machines: { id: string; online: boolean }[] };
    const machineId = machines.machines.find((m) => m.online)!.id;
    const r = await fetch(`${e2e.stack.url}/api/sessions/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ machineId, agentId: "demo", cwd, agentSessionId }),
    });
    expect(r.status, await r.clone().text()).toBe(201);
    sessionId = ((await r.json()) as { session: { id: string } }).session.id;
    const v = await new NodeViewer(e2e.stack.url, sessionId).open();
    await waitFor(() => v.status() === "idle", "the import relayed and the agent ready", 180_000);
    v.close();
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
    it(`${name}: searching a word of the first turn (2,000 turns back) and choosing it shows that message, highlighted`, async () => {
      const { ctx, page } = await openViewer(e2e, profile, sessionId, "idle");
      await page.getByTestId("row-user").filter({ hasText: `turn-${TURNS - 1}` }).waitFor();
      // Not on screen, nor anywhere in the page: only the server's search can find it.
      // (The session's title is the agent's — its first prompt — so the header may show the word: rows may not.)
      expect(await page.getByTestId("row-user").filter({ hasText: WORD }).count()).toBe(0);

      const panel = await searchFor(page, WORD);
      const hits = panel.getByTestId("search-hit");
      // The user's message and the agent's answer that does not echo it: one hit, the user's.
      await expect.poll(() => hits.count()).toBe(1);
      expect(await hits.first().innerText()).toContain(WORD);
      expect(await hits.first().locator("mark").innerText()).toBe(WORD);
      await shot(page, `${name}-search-results`);

      // The highlight lasts 2.5 s: recorded as it is given (a loaded machine read it after it had gone).
      await page.evaluate(() => {
        const w = window as unknown as { highlighted: string[] };
        w.highlighted = [];
        new MutationObserver((records) => {
          for (const r of records) if (r.target instanceof HTMLElement && r.target.classList.contains("row-found")) w.highlighted.push(r.target.innerText);
        }).observe(document.body, { subtree: true, attributeFilter: ["class"] });
      });
      await hits.first().click();
      const row = page.getByTestId("row-user").filter({ hasText: WORD });
      await row.waitFor({ timeout: 60_000 });
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { highlighted: string[] }).highlighted), { timeout: 30_000 })
        .toContainEqual(expect.stringContaining(WORD));
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
    // The browser is shared over a connection (test/e2e/global-setup.ts): the file is saved here, not read in place.
    const file = join(mkdtempSync(join(tmpdir(), "baton-export-")), "export.md");
    await download.saveAs(file);
    const md = await readFile(file, "utf8");
    expect(md.startsWith("# ")).toBe(true);
    expect(md).toContain(`config ${WORD} is where it began`);
    for (const i of [1, 1_000, TURNS - 1]) {
      expect(md).toContain(`\nconfig turn-${i}\n`);
      expect(md).toContain(agentText(i));
    }
    expect(md.match(/^## /gm)!.length).toBe(TURNS);
    await ctx.close();
  }, 120_000);
});
