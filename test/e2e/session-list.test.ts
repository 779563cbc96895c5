// The live session list (issue 26), two tabs of one user in Chromium, desktop and phone: a rename in one
// tab shows in the other's list live; archive hides a row, the Archived filter shows it, unarchive brings it
// back; markers (running, needs you); bulk archive of the selected; delete while a second viewer watches
// the session (it is told and lands on the list).
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { tid } from "./session-page";
import { createSession, NodeViewer, text, waitFor } from "./support";

const e2e = useStackAndBrowser({ shared: true });
const LIVE_MS = 10_000;

const row = (page: Page, title: string) => tid(page, "session-row").filter({ has: page.getByTestId("session-title").getByText(title, { exact: true }) });
const titles = (page: Page) => tid(page, "session-title").allInnerTexts();

async function rename(url: string, id: string, title: string) {
  const r = await fetch(`${url}/api/sessions/${id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ title }) });
  expect(r.status).toBe(200);
}

/** A tab with the list page, narrowed to this test's sessions by the search box (the shared stack holds other files' sessions). */
async function openList(ctx: BrowserContext, tag: string, count: number) {
  const page = await ctx.newPage();
  await page.goto(`${e2e.stack.url}/`);
  await page.getByRole("searchbox", { name: "Search sessions" }).fill(tag);
  await waitFor(async () => (await titles(page)).length === count && (await titles(page)).every((t) => t.startsWith(tag)), `${count} rows for ${tag}`, LIVE_MS);
  return page;
}

async function menu(page: Page, title: string, item: string) {
  await page.getByRole("button", { name: `Actions for ${title}` }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

describe("session list", () => {
  for (const [name, profile] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: rename shows live in another tab; archive, the Archived filter, unarchive; markers; bulk archive; delete while watched`, async () => {
      const url = e2e.stack.url;
      const tag = `lst${name}${Date.now().toString(36)}`;
      const [alpha, beta, gamma] = await Promise.all([createSession(url), createSession(url), createSession(url)]);
      await Promise.all([rename(url, alpha, `${tag} alpha`), rename(url, beta, `${tag} beta`), rename(url, gamma, `${tag} gamma`)]);
      // Markers: beta runs a long turn, gamma waits for a permission answer.
      const [vb, vg] = await Promise.all([new NodeViewer(url, beta).open(), new NodeViewer(url, gamma).open()]);
      await waitFor(() => vb.status() === "idle" && vg.status() === "idle", "agents up", 20_000);
      await vb.op({ op: "message.send", id: "b1", blocks: text("sleep 400") });
      await vg.op({ op: "message.send", id: "g1", blocks: text("permission") });

      // Two tabs of one user.
      const ctx = await e2e.browser.newContext(profile);
      const a = await openList(ctx, tag, 3);
      const b = await openList(ctx, tag, 3);
      // The person works in A; B, the tab behind, is only watched (browser.ts: the tab behind is slow to act on).
      await a.bringToFront();
      await row(a, `${tag} beta`).getByTestId("marker-running").waitFor({ timeout: LIVE_MS });
      await row(a, `${tag} gamma`).getByTestId("marker-needs-you").waitFor({ timeout: LIVE_MS });
      await shot(a, `session-list-markers-${name}`);

      // Rename in A → B's list shows it without a reload.
      await a.getByRole("button", { name: `Actions for ${tag} alpha` }).click();
      await a.getByRole("menu").waitFor();
      await shot(a, `session-list-menu-${name}`);
      await a.getByRole("menuitem", { name: "Rename" }).click();
      const title = a.getByRole("dialog", { name: "Rename session" }).getByRole("textbox", { name: "Title" });
      await title.fill("   ");
      await a.getByRole("button", { name: "Save" }).click();
      await a.getByRole("alert").filter({ hasText: "A title cannot be empty." }).waitFor();
      await title.fill(`${tag} renamed`);
      await a.getByRole("button", { name: "Save" }).click();
      await row(b, `${tag} renamed`).waitFor({ timeout: LIVE_MS });
      expect(await row(b, `${tag} alpha`).count()).toBe(0);

      // A running session asks before it is archived (cancelled here).
      await menu(a, `${tag} beta`, "Archive");
      const ask = a.getByRole("dialog", { name: "Archive a running session?" });
      await ask.waitFor();
      await ask.getByRole("button", { name: "Cancel" }).click();
      await ask.waitFor({ state: "detached" });

      // Archive: gone from both lists; the Archived filter shows it; unarchive brings it back to B live.
      await menu(a, `${tag} renamed`, "Archive");
      await row(b, `${tag} renamed`).waitFor({ state: "detached", timeout: LIVE_MS });
      await row(a, `${tag} renamed`).waitFor({ state: "detached", timeout: LIVE_MS });
      await a.getByRole("combobox", { name: "Archived" }).selectOption("only");
      await row(a, `${tag} renamed`).getByTestId("marker-archived").waitFor({ timeout: LIVE_MS });
      expect(await titles(a)).toEqual([`${tag} renamed`]);
      await shot(a, `session-list-archived-filter-${name}`);
      await menu(a, `${tag} renamed`, "Unarchive");
      await row(a, `${tag} renamed`).waitFor({ state: "detached", timeout: LIVE_MS });
      await row(b, `${tag} renamed`).waitFor({ timeout: LIVE_MS });
      await a.getByRole("combobox", { name: "Archived" }).selectOption("hide");
      await row(a, `${tag} renamed`).waitFor({ timeout: LIVE_MS });

      // Bulk: select one row, archive the selection.
      await a.getByRole("button", { name: "Select", exact: true }).click();
      await a.getByRole("checkbox", { name: `Select ${tag} renamed` }).check();
      await a.getByRole("toolbar", { name: "Bulk actions" }).getByText("1 selected").waitFor();
      await shot(a, `session-list-bulk-${name}`);
      await a.getByRole("button", { name: "Archive selected" }).click();
      await row(b, `${tag} renamed`).waitFor({ state: "detached", timeout: LIVE_MS });
      // A successful archive ends selection mode by itself (the bar goes, the toggle reads "Select" again).
      await a.getByRole("toolbar", { name: "Bulk actions" }).waitFor({ state: "detached" });
      await a.getByRole("button", { name: "Select", exact: true }).waitFor();

      // Delete while B watches the session: B is told and lands on the list.
      await b.goto(`${url}/s/${gamma}`);
      await tid(b, "connection-state").filter({ hasText: /live/i }).waitFor({ timeout: 20_000 });
      await menu(a, `${tag} gamma`, "Delete…");
      const dialog = a.getByRole("dialog", { name: "Delete session?" });
      await dialog.getByText(`${tag} gamma`).waitFor();
      // The demo agent advertises session/delete (its machine's agents say so): the opt-in is offered, and
      // ticked, the agent's own session goes too (through the tunnel to the daemon and the agent).
      const alsoAgent = dialog.getByRole("checkbox", { name: /Also delete the agent's own session/ });
      await alsoAgent.check();
      await shot(a, `session-list-delete-${name}`);
      const deleted = a.waitForResponse((r) => r.request().method() === "DELETE" && r.url().endsWith(`/api/sessions/${gamma}`));
      await dialog.getByRole("button", { name: "Delete" }).click();
      expect(await (await deleted).json()).toMatchObject({ ok: true, agentSessionDeleted: true });
      await row(a, `${tag} gamma`).waitFor({ state: "detached", timeout: LIVE_MS });
      await b.getByText("This session was deleted").waitFor({ timeout: LIVE_MS });
      await waitFor(() => new URL(b.url()).pathname === "/", "B back on the list", LIVE_MS);
      await b.getByRole("heading", { name: "Sessions" }).waitFor();
      expect(await (await fetch(`${url}/api/sessions/${gamma}`)).status).toBe(404);

      await vb.op({ op: "turn.cancel" });
      vb.close();
      vg.close();
      await ctx.close();
    }, 180_000);
  }
});
