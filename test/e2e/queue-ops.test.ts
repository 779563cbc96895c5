// Queue beyond one slot in Chromium against the real stack (demo agent, steering on): depth setting,
// edit in place, reorder by keyboard / pointer / touch, cancel, take back, steer, Stop → re-queue or
// restore; races (cancel vs flush, edit vs flush, two viewers reordering / re-queueing at once).
// Turns are held with `sleep N` (FAST_DEMO: one unit = 250 ms).
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { expectTouchTarget, idle, openSession, openViewer, say, tid, userRows } from "./session-page";
import { createSession, waitFor } from "./support";

const e2e = useStackAndBrowser({ shared: true });

const chip = (page: Page, text: string) => tid(page, "queue-chip").filter({ hasText: text });

async function chipTexts(page: Page): Promise<string[]> {
  return page.locator("[data-testid=queue-chip] .chip-preview").allInnerTexts();
}
async function chipIds(page: Page): Promise<string[]> {
  return page.locator("[data-testid=queue-chip]").evaluateAll((els) => els.map((e) => e.getAttribute("data-entry-id") ?? ""));
}
async function waitChips(page: Page, texts: string[], what: string) {
  await waitFor(async () => JSON.stringify(await chipTexts(page)) === JSON.stringify(texts), `${what}: ${texts.join(" | ")}`, 20_000);
}
const count = (rows: string[], text: string) => rows.filter((r) => r === text).length;

async function setDepth(page: Page, depth: number) {
  await tid(page, "settings-button").click();
  await tid(page, "queue-depth").selectOption(String(depth));
  await page.keyboard.press("Escape");
}

/** A real finger drag on a chip's grip (CDP touch events → Chromium's pointer events, touch-action: none). */
async function touchDrag(ctx: BrowserContext, page: Page, grip: Locator, dy: number) {
  const cdp = await ctx.newCDPSession(page);
  const box = (await grip.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  for (let i = 1; i <= 8; i++) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y: y + (dy * i) / 8 }] });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

/** A mouse drag on a chip's grip. */
async function mouseDrag(page: Page, grip: Locator, dy: number) {
  const box = (await grip.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + dy, { steps: 6 });
  await page.mouse.up();
}

/**
 * Opens a chip's ⋯ menu by tap. Right after a CDP touch sequence Chromium's gesture detector can
 * swallow the next tap (no click); a user taps again, and so do we, once.
 */
async function openMenu(c: Locator) {
  const more = c.getByTestId("chip-more");
  for (let i = 0; i < 2; i++) {
    await more.tap();
    if (await waitFor(async () => (await more.getAttribute("aria-expanded")) === "true", "menu open", 1_500).catch(() => false)) return;
  }
  throw new Error("the ⋯ menu did not open");
}

/** The page's scroll width (no horizontal overflow when ≤ the viewport). Run in the page. */
async function pageWidth(page: Page): Promise<number> {
  return page.evaluate<number>("document.documentElement.scrollWidth");
}

describe("queue ops in Chromium", () => {
  describe("two desktop viewers on one session", () => {
    let ctxA: BrowserContext;
    let ctxB: BrowserContext;
    let a: Page;
    let b: Page;
    // B's room frames can be held back so its UI is stale (the chip still shows after the flush);
    // acks, errors and pongs still pass, so B's own ops are answered.
    let holdB = false;
    const heldB: (string | Buffer)[] = [];
    let toPageB: ((m: string | Buffer) => void) | null = null;
    const releaseB = () => {
      holdB = false;
      for (const m of heldB.splice(0)) toPageB!(m);
    };
    beforeAll(async () => {
      const sessionId = await createSession(e2e.stack.url);
      [ctxA, ctxB] = await Promise.all([e2e.browser.newContext(DESKTOP), e2e.browser.newContext(DESKTOP)]);
      await ctxB.routeWebSocket(/\/api\/sessions\/[^/]+\/ws/, (ws) => {
        const server = ws.connectToServer();
        toPageB = (m) => ws.send(m);
        ws.onMessage((m) => server.send(m));
        server.onMessage((m) => {
          if (holdB && typeof m === "string" && /^\{"type":"(event|state|snapshot|batch)"/.test(m)) heldB.push(m);
          else ws.send(m);
        });
      });
      [a, b] = await Promise.all([ctxA.newPage(), ctxB.newPage()]);
      await Promise.all([openSession(a, e2e.stack.url, sessionId), openSession(b, e2e.stack.url, sessionId)]);
      await idle(a);
    });
    afterAll(async () => {
      await ctxA?.close();
      await ctxB?.close();
    });

    it("depth 3, edit in place, keyboard and pointer reorder, steer, cancel, take back, Stop → re-queue / restore", async () => {
      // Settings: depth 3 and merge mode, seen by the other viewer; merge back off.
      await setDepth(a, 3);
      await tid(a, "settings-button").click();
      await tid(a, "merge-queued").check();
      await a.keyboard.press("Escape");
      await tid(b, "settings-button").click();
      await waitFor(async () => (await tid(b, "queue-depth").inputValue()) === "3", "B sees depth 3");
      await waitFor(() => tid(b, "merge-queued").isChecked(), "B sees merge on");
      await b.keyboard.press("Escape");
      await tid(a, "settings-button").click();
      await tid(a, "merge-queued").uncheck();
      await a.keyboard.press("Escape");

      // A long turn; three queued, a fourth refused with the draft kept.
      await say(a, "sleep 400"); // ended by Stop below
      await tid(a, "stop-button").waitFor();
      for (const t of ["q one", "q two", "q three"]) await say(a, t);
      await waitChips(b, ["q one", "q two", "q three"], "B sees the stack");
      await tid(a, "composer-input").fill("q four");
      await tid(a, "composer-input").press("Enter");
      await tid(a, "toast").filter({ hasText: /queue is full/i }).waitFor();
      await waitFor(async () => (await tid(a, "composer-input").inputValue()) === "q four", "draft kept on QUEUE_FULL");
      await tid(a, "composer-input").fill("");
      await shot(a, "queue-desktop-stack");

      // Edit in place: id and position kept; B sees the new text.
      const idsBefore = await chipIds(a);
      await chip(a, "q two").getByTestId("chip-edit").click();
      const editor = tid(a, "chip-editor-input");
      expect(await editor.inputValue()).toBe("q two");
      await editor.fill("q two, edited in place");
      await shot(a, "queue-desktop-editor");
      await editor.press("Enter");
      await waitChips(b, ["q one", "q two, edited in place", "q three"], "B sees the edit");
      expect(await chipIds(b)).toEqual(idsBefore);
      expect(await chipIds(a)).toEqual(idsBefore);

      // Keyboard reorder: Alt+↑ twice on the focused third chip (focus follows the chip).
      await chip(a, "q three").focus();
      await a.keyboard.press("Alt+ArrowUp");
      await waitChips(b, ["q one", "q three", "q two, edited in place"], "B sees the first move");
      await a.keyboard.press("Alt+ArrowUp");
      await waitChips(b, ["q three", "q one", "q two, edited in place"], "B sees the second move");
      await waitChips(a, ["q three", "q one", "q two, edited in place"], "A agrees");

      // Mouse drag by the grip: "q two…" to the top.
      await mouseDrag(a, chip(a, "q two").getByTestId("chip-grip"), -120);
      await waitChips(b, ["q two, edited in place", "q three", "q one"], "B sees the drag");

      // Steer from B: the entry lands in the running turn, marked for everyone; the agent says so.
      await chip(b, "q one").getByTestId("chip-steer").click();
      await tid(a, "row-steered").filter({ hasText: /steered mid-turn/ }).waitFor({ timeout: 20_000 });
      await tid(b, "row-agent").filter({ hasText: "↪ steered: q one" }).first().waitFor({ timeout: 20_000 });
      await waitChips(a, ["q two, edited in place", "q three"], "steered entry left the queue");

      // Cancel from B; take back to draft from A (through the editor's "To draft").
      await chip(b, "q three").getByTestId("chip-cancel").click();
      await waitChips(a, ["q two, edited in place"], "cancelled on A");
      await chip(a, "q two").getByTestId("chip-edit").click();
      await tid(a, "chip-edit-draft").click();
      await waitFor(async () => (await tid(a, "composer-input").inputValue()) === "q two, edited in place", "taken back to A's draft");
      await waitChips(b, [], "B's stack empty");
      await tid(a, "composer-input").fill("");

      // Stop drops two; A re-queues (first runs at once, the other behind it).
      await say(a, "r one");
      await say(b, "r two");
      await waitChips(a, ["r one", "r two"], "two queued");
      await tid(a, "stop-button").click();
      await tid(a, "dropped-offer").filter({ hasText: "Dropped by Stop (2)" }).waitFor();
      await tid(b, "dropped-offer").filter({ hasText: "Dropped by Stop (2)" }).waitFor();
      await idle(a);
      await shot(a, "queue-desktop-dropped");
      await new Promise((r) => setTimeout(r, 400));
      expect(count(await userRows(a), "r one")).toBe(0); // no auto-send after Stop
      // A re-queues: the offer goes for B too (each dropped entry goes one way, once).
      await tid(a, "requeue-dropped").click();
      await waitFor(async () => (await tid(b, "dropped-offer").count()) === 0, "B's offer settled by A's re-queue", 20_000);
      await tid(b, "row-user").filter({ hasText: "r two" }).waitFor({ timeout: 20_000 });
      await idle(b);
      await tid(a, "row-agent").filter({ hasText: "r two" }).first().waitFor({ timeout: 20_000 });
      for (const p of [a, b]) {
        const rows = await userRows(p);
        expect(count(rows, "r one")).toBe(1);
        expect(count(rows, "r two")).toBe(1);
        expect(rows.indexOf("r one")).toBeLessThan(rows.indexOf("r two"));
        expect(count(rows, "q one")).toBe(1);
        expect(count(rows, "q three")).toBe(0);
        expect(count(rows, "q two, edited in place")).toBe(0);
      }
      expect(await tid(a, "dropped-offer").count()).toBe(0);
    });

    it("races: cancel vs flush surfaces already_sent, edit vs flush loses nothing, two viewers reorder / re-queue at once — nothing runs twice", async () => {
      await setDepth(a, 4);

      // Cancel vs flush, flush first: B's view is stale, its × answers already_sent — surfaced, run once.
      await say(a, "sleep 16"); // 4 s: room to queue and act on a loaded machine
      await tid(a, "stop-button").waitFor();
      await say(a, "c one");
      await chip(b, "c one").waitFor();
      holdB = true;
      await tid(a, "row-user").filter({ hasText: "c one" }).waitFor({ timeout: 20_000 });
      await chip(b, "c one").getByTestId("chip-cancel").click();
      await tid(b, "toast").filter({ hasText: /already ran/i }).waitFor();
      releaseB();
      await tid(b, "row-user").filter({ hasText: "c one" }).waitFor();
      await idle(a);
      expect(count(await userRows(a), "c one")).toBe(1);

      // Edit vs flush, as close as a user can get: save the moment the turn ends. Either the edit won
      // (the edited text runs) or the flush did (the original runs and the edit lands in the draft).
      const doneBefore = await tid(a, "row-agent").filter({ hasText: "Done sleeping" }).count();
      await say(a, "sleep 16"); // 4 s: room to queue and act on a loaded machine
      await tid(a, "stop-button").waitFor();
      await say(a, "e one");
      await chip(a, "e one").getByTestId("chip-edit").click();
      await tid(a, "chip-editor-input").fill("e one v2");
      await waitFor(async () => (await tid(a, "row-agent").filter({ hasText: "Done sleeping" }).count()) > doneBefore, "the turn is ending", 20_000);
      await tid(a, "chip-editor-input")
        .press("Enter", { timeout: 2_000 })
        .catch(() => {}); // the editor may already be gone (the entry ran): its text went to the draft
      await a.locator("[data-testid=row-user] .user-text").filter({ hasText: /^e one/ }).first().waitFor({ timeout: 20_000 });
      await idle(a);
      await new Promise((r) => setTimeout(r, 300));
      {
        const rows = await userRows(a);
        const draft = await tid(a, "composer-input").inputValue();
        expect(count(rows, "e one") + count(rows, "e one v2")).toBe(1);
        // Nothing typed is lost: the edit either ran or sits in the draft.
        expect(count(rows, "e one v2") === 1 || draft.includes("e one v2")).toBe(true);
        await tid(a, "composer-input").fill("");
      }

      // Two viewers reorder at once (A by keyboard, B by a grip drag): one final order for both.
      await say(a, "sleep 400"); // ended by Stop below
      await tid(a, "stop-button").waitFor();
      for (const t of ["m1", "m2", "m3", "m4"]) await say(a, t);
      await waitChips(b, ["m1", "m2", "m3", "m4"], "B sees four");
      await chip(a, "m4").focus();
      await Promise.all([a.keyboard.press("Alt+ArrowUp"), mouseDrag(b, chip(b, "m1").getByTestId("chip-grip"), 170)]);
      await a.keyboard.press("Alt+ArrowUp");
      await waitFor(async () => {
        const [ta, tb] = [await chipTexts(a), await chipTexts(b)];
        return ta.length === 4 && JSON.stringify(ta) === JSON.stringify(tb) && JSON.stringify(ta) !== JSON.stringify(["m1", "m2", "m3", "m4"]);
      }, "one order on both");
      await new Promise((r) => setTimeout(r, 300));
      const final = await chipTexts(a);
      expect(await chipTexts(b)).toEqual(final);
      expect([...final].sort()).toEqual(["m1", "m2", "m3", "m4"]);

      // Stop drops them in that order; both viewers re-queue at once: each runs once, in the final order.
      await tid(a, "stop-button").click();
      await tid(a, "requeue-dropped").waitFor();
      await tid(b, "requeue-dropped").waitFor();
      await idle(a);
      // Both tap at once. The one whose answer lands first takes the offer off every screen, so the other's
      // tap may find its button gone mid-click: a lost race, not a failure (at least one must land).
      const tap = (p: Page) => tid(p, "requeue-dropped").click({ timeout: 10_000 }).then(() => true, () => false);
      expect((await Promise.all([tap(a), tap(b)])).some(Boolean), "a re-queue tap landed").toBe(true);
      await tid(b, "row-user").filter({ hasText: final[3]! }).waitFor({ timeout: 20_000 });
      await waitChips(a, [], "drained");
      await idle(a);
      await new Promise((r) => setTimeout(r, 500));
      for (const p of [a, b]) {
        const rows = (await userRows(p)).filter((r) => /^m\d$/.test(r));
        expect(rows).toEqual(final);
      }
      expect(await chipTexts(b)).toEqual([]);
    });
  });

  it("phone: touch reorder by the grip, ⋯ menu moves and steers, edit in place, Stop → re-queue — 44 px targets, no overflow", async () => {
    const sessionId = await createSession(e2e.stack.url);
    const { ctx, page: p } = await openViewer(e2e, PHONE, sessionId);
    await idle(p);
    await tid(p, "settings-button").tap();
    await tid(p, "queue-depth").selectOption("3");
    await tid(p, "settings-button").tap();
    await tid(p, "settings-panel").waitFor({ state: "hidden" }); // a popover: it stays in the page, hidden

    await say(p, "sleep 400", true); // ended by Stop below
    await tid(p, "stop-button").waitFor();
    for (const t of ["p one", "p two", "p three with a much longer text that has to be cut off on a phone screen"]) await say(p, t, true);
    await waitChips(p, ["p one", "p two", "p three with a much longer text that has to be cut off on a phone screen"], "three queued");
    await shot(p, "queue-phone-stack");

    // Touch targets and no horizontal overflow at 390 px.
    const first = chip(p, "p one");
    for (const id of ["chip-grip", "chip-more", "chip-edit", "chip-cancel"]) await expectTouchTarget(first.getByTestId(id), id);
    expect(await pageWidth(p)).toBeLessThanOrEqual(390);
    for (const box of await tid(p, "queue-chip").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))) expect(box).toBeLessThanOrEqual(390);

    // A finger drag on the grip: "p three…" to the top.
    await touchDrag(ctx, p, chip(p, "p three").getByTestId("chip-grip"), -130);
    await waitChips(p, ["p three with a much longer text that has to be cut off on a phone screen", "p one", "p two"], "touch reorder");

    // The ⋯ menu: move "p two" earlier, then steer "p one".
    await openMenu(chip(p, "p two"));
    await shot(p, "queue-phone-menu");
    const earlier = chip(p, "p two").getByRole("button", { name: "Move earlier" });
    await expectTouchTarget(earlier, "menu: move earlier");
    await earlier.tap();
    await waitChips(p, ["p three with a much longer text that has to be cut off on a phone screen", "p two", "p one"], "menu move");

    // Edit in place by tap.
    await chip(p, "p two").getByTestId("chip-edit").tap();
    await tid(p, "chip-editor-input").fill("p two, from the phone");
    await shot(p, "queue-phone-editor");
    for (const id of ["chip-edit-draft", "chip-edit-cancel", "chip-edit-save"]) await expectTouchTarget(tid(p, id), id);
    expect(await pageWidth(p)).toBeLessThanOrEqual(390);
    await tid(p, "chip-edit-save").tap();
    await waitChips(p, ["p three with a much longer text that has to be cut off on a phone screen", "p two, from the phone", "p one"], "edited");

    await openMenu(chip(p, "p one"));
    await chip(p, "p one").getByTestId("chip-steer").tap();
    await tid(p, "row-steered").waitFor({ timeout: 20_000 });
    await waitChips(p, ["p three with a much longer text that has to be cut off on a phone screen", "p two, from the phone"], "steered");

    // Stop → the dropped banner → Re-queue: the first runs now, the other behind it.
    await tid(p, "stop-button").tap();
    await tid(p, "dropped-offer").waitFor();
    await idle(p);
    await shot(p, "queue-phone-dropped");
    for (const id of ["requeue-dropped", "restore-dropped", "dismiss-dropped"]) await expectTouchTarget(tid(p, id), id);
    expect(await pageWidth(p)).toBeLessThanOrEqual(390);
    await tid(p, "requeue-dropped").tap();
    await tid(p, "row-user").filter({ hasText: "p two, from the phone" }).waitFor({ timeout: 20_000 });
    await idle(p);
    const rows = await userRows(p);
    expect(count(rows, "p two, from the phone")).toBe(1);
    expect(count(rows, "p three with a much longer text that has to be cut off on a phone screen")).toBe(1);
    expect(count(rows, "p one")).toBe(1);
    await ctx.close();
  });
});
