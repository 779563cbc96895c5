// Two browsers on one session, desktop and phone: echo, queue chip, cancel from the other viewer,
// refresh mid-turn restores chip + Stop, flush runs once, Stop drops the queue.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { expectTouchTarget, idle, openViewer, tid } from "./session-page";
import { createSession, waitFor } from "./support";

const e2e = useStackAndBrowser({ shared: true });

async function type(page: Page, text: string, tap = false) {
  const input = tid(page, "composer-input");
  if (tap) await input.tap();
  await input.fill(text);
}

/** Whole user rows (sender line and all), unlike session-page's userRows: this file matches by `includes`. */
async function userRows(page: Page) {
  return tid(page, "row-user").allInnerTexts();
}

describe("live Sender in Chromium", () => {
  it("two viewers: echo, queue, cancel by the other, refresh restores chip and Stop, flush once, Stop drops", async () => {
    const sessionId = await createSession(e2e.stack.url);
    const { ctx: ctxA, page: a } = await openViewer(e2e, DESKTOP, sessionId);
    const { ctx: ctxB, page: b } = await openViewer(e2e, DESKTOP, sessionId);
    await idle(a, 20_000);

    // A sends; both see the echo.
    await type(a, "hello from A");
    await tid(a, "send-button").click();
    await tid(b, "row-user").filter({ hasText: "hello from A" }).waitFor();
    await tid(a, "row-agent").filter({ hasText: "hello from A" }).first().waitFor();
    await idle(a, 20_000);

    // A starts a long turn and queues mid-turn; B sees the chip.
    // Long enough to queue, cancel from B, queue again and reload on a loaded machine (FAST_DEMO: 10 s).
    await type(a, "sleep 40");
    await a.keyboard.press("Enter");
    await tid(a, "stop-button").waitFor();
    await type(a, "queued by A");
    await expect(tid(a, "send-button").getAttribute("title")).resolves.toMatch(/queue message/i);
    await tid(a, "send-button").click();
    await tid(a, "queue-chip").filter({ hasText: "queued by A" }).waitFor();
    await tid(b, "queue-chip").filter({ hasText: "queued by A" }).waitFor();
    await shot(a, "desktop-queued-A");
    await shot(b, "desktop-queued-B");
    // Selects stay writable mid-turn.
    const model = tid(a, "model-select");
    expect(await model.isDisabled()).toBe(false);

    // B cancels it; A's chip goes.
    await tid(b, "chip-cancel").click();
    await waitFor(async () => (await tid(a, "queue-chip").count()) === 0, "A's chip gone");

    // A queues again and refreshes mid-turn: chip and Stop are back.
    await type(a, "survives refresh");
    await tid(a, "send-button").click();
    await tid(a, "queue-chip").filter({ hasText: "survives refresh" }).waitFor();
    await a.reload();
    await tid(a, "queue-chip").filter({ hasText: "survives refresh" }).waitFor({ timeout: 20_000 });
    await tid(a, "stop-button").waitFor();
    await shot(a, "desktop-after-refresh");

    // The turn ends; the queued prompt runs once for everyone.
    await tid(b, "row-user").filter({ hasText: "survives refresh" }).waitFor({ timeout: 30_000 });
    await tid(a, "row-agent").filter({ hasText: "survives refresh" }).first().waitFor({ timeout: 30_000 });
    await idle(a, 30_000);
    expect((await userRows(a)).filter((t) => t.includes("survives refresh"))).toHaveLength(1);
    expect((await userRows(a)).filter((t) => t.includes("queued by A"))).toHaveLength(0);

    // Stop drops the queue; the dropped text can be restored to the draft.
    await type(a, "sleep 30");
    await tid(a, "send-button").click();
    await tid(a, "stop-button").waitFor();
    await type(b, "dropped by stop");
    await tid(b, "send-button").click();
    await tid(a, "queue-chip").waitFor();
    await tid(a, "stop-button").click();
    await idle(a, 15_000);
    await waitFor(async () => (await tid(a, "queue-chip").count()) === 0, "queue dropped");
    await tid(b, "restore-dropped").click();
    await waitFor(async () => (await tid(b, "composer-input").inputValue()).includes("dropped by stop"), "restored to B's draft");
    await new Promise((r) => setTimeout(r, 800));
    expect((await userRows(a)).filter((t) => t.includes("dropped by stop"))).toHaveLength(0);
    await shot(b, "desktop-restored-draft");
    await ctxA.close();
    await ctxB.close();
  });

  it("phone profile: send, queue and cancel with taps", async () => {
    const sessionId = await createSession(e2e.stack.url);
    const { ctx, page: p } = await openViewer(e2e, PHONE, sessionId);
    await idle(p, 20_000);
    // 100 s (the demo's sleep unit is 250 ms here): the turn must still run when the queued message is cancelled
    // on a loaded machine (an 8-unit one ended first and flushed the chip); Stop ends it below.
    await type(p, "sleep 400", true);
    await tid(p, "send-button").tap();
    await tid(p, "stop-button").waitFor();
    await type(p, "from the phone", true);
    await tid(p, "send-button").tap();
    await tid(p, "queue-chip").filter({ hasText: "from the phone" }).waitFor();
    await expectTouchTarget(tid(p, "chip-cancel"), "the chip's ×");
    await shot(p, "phone-queued");
    await tid(p, "chip-cancel").tap();
    await waitFor(async () => (await tid(p, "queue-chip").count()) === 0, "chip gone");
    await tid(p, "stop-button").tap();
    await idle(p, 15_000);
    await shot(p, "phone-idle");
    await ctx.close();
  });

  it("new session from the list (machine → agent → directory); agent output with <script> / onerror renders inert", async () => {
    const ctx = await e2e.browser.newContext(DESKTOP);
    const p = await ctx.newPage();
    let alerted = false;
    p.on("dialog", (d) => {
      alerted = true;
      void d.dismiss();
    });
    await p.goto(e2e.stack.url);
    await tid(p, "agent-select").locator("option", { hasText: "Demo" }).waitFor({ state: "attached" });
    await tid(p, "create-session").click();
    await p.waitForURL(/\/s\//);
    await tid(p, "connection-state").filter({ hasText: /live/i }).waitFor({ timeout: 20_000 });
    await idle(p, 20_000);
    // The demo agent echoes the prompt inside its markdown reply.
    await type(p, `<img src=x onerror="alert(1)"> <script>alert(2)</script> **bold**`);
    await tid(p, "send-button").click();
    await idle(p, 20_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(alerted).toBe(false);
    expect(await p.locator("[data-testid=transcript] script").count()).toBe(0);
    expect(await p.locator("[data-testid=transcript] [onerror]").count()).toBe(0);
    await ctx.close();
  });
});
