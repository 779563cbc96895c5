// Read-only share links (issue 30 #3) in Chromium against the real stack, desktop and phone: the owner
// creates an "anyone with the link" link in the Members panel; a fresh browser context (no cookies, no
// storage) opens it, follows a turn live (the owner's message, the queue chip, the status, the answer),
// has no composer; the owner revokes the link and the spectator's page says so.
import type { BrowserContextOptions, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { idle, openViewer, say, tid, userRows } from "./session-page";
import { createSession, waitFor } from "./support";

const e2e = useStackAndBrowser({ shared: true });

const snap = (page: Page, name: string) => shot(page, `share-${name}`);

async function run(profile: BrowserContextOptions, label: "desktop" | "phone") {
  const sessionId = await createSession(e2e.stack.url);
  const owner = await openViewer(e2e, profile, sessionId);
  const o = owner.page;
  await idle(o);

  // The owner opens the Members panel and creates a 7-day link for anyone with it.
  await o.getByRole("button", { name: "Members" }).click();
  const panel = o.getByRole("dialog", { name: "Members" });
  const links = panel.getByRole("region", { name: "Read-only links" });
  await links.getByText("No active links.").waitFor();
  await links.getByRole("combobox", { name: "Link expires after" }).selectOption({ label: "7 days" });
  await links.getByRole("combobox", { name: "Who can open the link" }).selectOption({ label: "Anyone with the link" });
  await links.getByText(/No sign-in needed/).waitFor();
  await links.getByRole("button", { name: "Create link" }).click();
  const url = await links.getByRole("textbox", { name: "New link" }).inputValue();
  expect(url).toMatch(new RegExp(`^${e2e.stack.url}/share#[A-Za-z0-9_-]{43}$`));
  const revoke = links.getByRole("button", { name: /^Revoke link: Anyone with the link, expires in 7 days$/ });
  await revoke.waitFor();
  await snap(o, `members-links-${label}`);
  await o.keyboard.press("Escape");

  // A fresh context opens the link: the session's title, a read-only banner, no composer.
  const spectatorCtx = await e2e.browser.newContext(profile);
  const s = await spectatorCtx.newPage();
  await s.goto(url);
  await tid(s, "connection-state").filter({ hasText: /live/i }).waitFor({ timeout: 20_000 });
  await s.getByText("You are watching this session through a read-only link.").waitFor();
  await s.getByRole("note").filter({ hasText: "Read-only: you can follow this session, not send to it." }).waitFor();
  expect(await s.getByRole("textbox", { name: "Message" }).count()).toBe(0);
  expect(await s.getByRole("button", { name: /send|stop/i }).count()).toBe(0);

  // The owner's turn, followed live: the message, the running status, a queued chip, the answers, idle again.
  const agentRowsBefore = await tid(s, "row-agent").count();
  // 10 s (the demo's sleep unit is 250 ms): the turn still runs when the next message goes, on a loaded machine.
  await say(o, "sleep 40");
  await tid(s, "session-status").filter({ hasText: /working|active|running/i }).waitFor({ timeout: 15_000 });
  await say(o, "queued while you watch");
  await tid(s, "queue-chip").filter({ hasText: "queued while you watch" }).waitFor({ timeout: 15_000 });
  // The spectator's chip has no controls.
  expect(await tid(s, "queue-chip").getByRole("button").count()).toBe(0);
  await snap(s, `spectator-live-${label}`);
  await idle(s, 60_000);
  await waitFor(async () => (await userRows(s)).includes("queued while you watch"), "the queued message ran, seen by the spectator");
  expect(await userRows(s)).toContain("sleep 40");
  await waitFor(async () => (await tid(s, "row-agent").count()) > agentRowsBefore, "the agent's answer reached the spectator");
  await snap(s, `spectator-${label}`);
  // Search works for a spectator (the room answers history.search to every role); the export is for members.
  await s.getByRole("button", { name: "Search this session" }).click();
  const search = s.getByRole("dialog", { name: "Search this session" });
  await search.getByRole("searchbox", { name: "Search this session" }).fill("queued");
  await search.getByRole("searchbox", { name: "Search this session" }).press("Enter");
  await search.getByTestId("search-hit").first().waitFor({ timeout: 15_000 });
  expect(await s.getByRole("link", { name: "Export as Markdown" }).count()).toBe(0);
  await s.keyboard.press("Escape");

  // The owner revokes: the spectator is cut off and the page says why.
  await o.getByRole("button", { name: "Members" }).click();
  await o.getByRole("dialog", { name: "Members" }).getByRole("button", { name: /^Revoke link: / }).click();
  await o.getByRole("dialog", { name: "Members" }).getByText("No active links.").waitFor();
  await s.getByRole("heading", { name: "This link was revoked" }).waitFor({ timeout: 15_000 });
  await s.getByText("This share link was revoked by the session's owner.").waitFor();
  await snap(s, `spectator-revoked-${label}`);

  // Opening it again: the same page, nothing else.
  const again = await spectatorCtx.newPage();
  await again.goto(url);
  await again.getByRole("heading", { name: "This link was revoked" }).waitFor();
  await again.goto(`${e2e.stack.url}/share#not-a-real-token`);
  await again.reload();
  await again.getByRole("heading", { name: "This link is not valid" }).waitFor();

  await spectatorCtx.close();
  await owner.ctx.close();
}

describe("read-only share links in Chromium", () => {
  it("desktop: create in the Members panel, follow live from a fresh context, cut off on revoke", () => run(DESKTOP, "desktop"), 120_000);
  it("phone: the same at 390 px", () => run(PHONE, "phone"), 120_000);
});
