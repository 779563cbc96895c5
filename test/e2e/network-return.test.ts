// Back within a second (issue 31 #6): a phone whose connection dies and whose network then comes back
// (Chromium's network emulation fires the page's `offline` / `online` events) dials at once when it returns
// and shows what happened meanwhile, instead of waiting out the backoff it reached while the network was gone.
// The socket's death and the failing dials are real: the session socket is routed through the test
// (`routeWebSocket`), which drops it and refuses every dial for the cut. The "at once" is pinned with a clock
// in client/src/connection/session-socket.test.ts; the time it took here is printed as a FIGURE.
import type { WebSocketRoute } from "playwright-core";
import { describe, expect, it } from "vitest";
import { figure } from "../figure";
import { PHONE } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { openSession, tid } from "./session-page";
import { openIdleSession, waitFor } from "./support";

const e2e = useStackAndBrowser({ shared: true });

/** Long enough for the retries to back off well past their first steps (0.25–0.75 s, ×1.6: ~3 s steps by then). */
const CUT_MS = 8_000;

describe("the network comes back", () => {
  it("phone: the page dials on `online` and shows the turn another viewer ran meanwhile", async () => {
    const { sessionId, v } = await openIdleSession(e2e.stack.url);
    let cutAt = 0;
    const ctx = await e2e.browser.newContext(PHONE);
    const page = await ctx.newPage();
    let cut = false;
    let dials = 0;
    const live: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/api\/sessions\/[^/]+\/ws/, (ws) => {
      dials++;
      if (cut) return ws.close({ code: 1006 });
      live.push(ws);
      ws.connectToServer();
    });
    await openSession(page, e2e.stack.url, sessionId, "idle");

    cut = true;
    cutAt = Date.now();
    await ctx.setOffline(true);
    for (const ws of live.splice(0)) await ws.close({ code: 1006 });
    await tid(page, "connection-state").filter({ hasText: /offline|reconnecting/i }).waitFor();
    const sent = await v.op({ op: "message.send", id: "from-the-desk", blocks: [{ type: "text", text: "sent from the desk" }] });
    expect(sent.type).toBe("ack");
    await waitFor(() => v.ofKind("session_status").some((s) => s.state === "idle" && s.stopReason), "the desk's turn ended", 30_000);
    await page.waitForTimeout(Math.max(0, CUT_MS - (Date.now() - cutAt)));
    const refused = dials;
    expect(refused, "the page kept dialling, backing off").toBeGreaterThan(2);
    expect(await page.getByText("sent from the desk").count()).toBe(0);

    cut = false;
    const back = Date.now();
    await ctx.setOffline(false);
    await page.getByTestId("row-user").filter({ hasText: "sent from the desk" }).waitFor({ timeout: 15_000 });
    figure("network back after an 8 s cut → the newest turn on the phone", `${refused} dials refused`, "shown", Date.now() - back);
    await tid(page, "connection-state").filter({ hasText: /live/i }).waitFor();
    v.close();
    await ctx.close();
  });

  it("phone: a part of the page whose code cannot load (the network went) leaves the page up, and comes when it can", async () => {
    const { sessionId, v } = await openIdleSession(e2e.stack.url);
    const ctx = await e2e.browser.newContext(PHONE);
    const page = await ctx.newPage();
    // The Members panel's chunk loads after the join; the network is gone when it is asked for.
    let blocked = true;
    let refused = 0;
    await page.route(/\/assets\/MembersPanel-[^/]*\.js$/, (route) => {
      if (!blocked) return route.continue();
      refused++;
      return route.abort("internetdisconnected");
    });
    await openSession(page, e2e.stack.url, sessionId, "idle");
    await waitFor(() => refused > 0, "the chunk was asked for and refused");
    // The page is still there: its status, its connection, its composer; no crash page.
    await page.waitForTimeout(500);
    expect(await page.getByRole("heading", { name: "Something went wrong" }).count()).toBe(0);
    await tid(page, "connection-state").filter({ hasText: /live/i }).waitFor();
    await tid(page, "composer-input").waitFor();
    expect(await page.getByRole("button", { name: "Members", disabled: false }).count()).toBe(0);

    // The network is back (`online`): the part loads and works.
    blocked = false;
    await ctx.setOffline(true);
    await ctx.setOffline(false);
    const members = page.getByRole("button", { name: "Members", disabled: false });
    await members.waitFor({ timeout: 15_000 });
    await members.tap();
    await page.getByRole("dialog", { name: "Members" }).waitFor();
    v.close();
    await ctx.close();
  });
});
