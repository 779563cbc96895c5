// What a Stop dropped is offered to every viewer once (issue 18, bug 2): a restore to one viewer's
// draft settles the offer for all (a late Re-queue runs nothing), and a later turn clears the offer.
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { idle, openViewer, say, tid, userRows } from "./session-page";
import { createSession, waitFor } from "./support";

const e2e = useStackAndBrowser({ shared: true });

describe("dropped by Stop, two viewers", () => {
  it("A restores to its draft: B's offer goes away (no Re-queue left to press), X runs once; a later turn clears any offer", async () => {
    const sessionId = await createSession(e2e.stack.url);
    const { ctx: ctxA, page: a } = await openViewer(e2e, DESKTOP, sessionId);
    const { ctx: ctxB, page: b } = await openViewer(e2e, DESKTOP, sessionId);
    await idle(a);

    await say(a, "sleep 80"); // ended by Stop
    await tid(a, "stop-button").waitFor();
    await say(a, "X once");
    await tid(b, "queue-chip").waitFor();
    await tid(a, "stop-button").click();
    await tid(a, "dropped-offer").waitFor();
    await tid(b, "dropped-offer").waitFor();
    await idle(a);

    await tid(a, "restore-dropped").click();
    await waitFor(async () => (await tid(a, "composer-input").inputValue()) === "X once", "restored to A's draft");
    await waitFor(async () => (await tid(b, "dropped-offer").count()) === 0, "B's offer settled by A's restore");
    await shot(b, "dropped-settled-by-other");

    // A sends its restored draft; it runs once.
    await tid(a, "composer-input").press("Enter");
    await tid(b, "row-user").filter({ hasText: "X once" }).waitFor({ timeout: 20_000 });
    await idle(a);
    await new Promise((r) => setTimeout(r, 500));
    for (const p of [a, b]) expect((await userRows(p)).filter((t) => t === "X once")).toHaveLength(1);

    // Another Stop drop that nobody acts on: the next turn clears the offer for everyone.
    await say(a, "sleep 80");
    await tid(a, "stop-button").waitFor();
    await say(b, "Y dropped");
    await tid(a, "queue-chip").waitFor();
    await tid(a, "stop-button").click();
    await tid(b, "dropped-offer").waitFor();
    await idle(a);
    await say(a, "next turn");
    await tid(b, "row-user").filter({ hasText: "next turn" }).waitFor({ timeout: 20_000 });
    await waitFor(async () => (await tid(a, "dropped-offer").count()) === 0 && (await tid(b, "dropped-offer").count()) === 0, "offer cleared by the next turn");
    await idle(a);
    expect((await userRows(a)).filter((t) => t === "Y dropped")).toHaveLength(0);
    await ctxA.close();
    await ctxB.close();
  });

  for (const [name, profile] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`${name}: the chip confirms a queue (no toast that outlives it); a mid-turn setting says so beside the control; feedback does not cover the transcript`, async () => {
      const sessionId = await createSession(e2e.stack.url);
      const { ctx, page: p } = await openViewer(e2e, profile, sessionId);
      await idle(p);
      await say(p, "sleep 80"); // ended by Stop
      await tid(p, "stop-button").waitFor();
      await say(p, "X queued");
      await tid(p, "queue-chip").waitFor();
      await new Promise((r) => setTimeout(r, 300));
      expect(await tid(p, "toast").count()).toBe(0);

      // A refusal is feedback worth a toast: it sits clear of the transcript.
      await tid(p, "composer-input").fill("Y does not fit");
      await tid(p, "composer-input").press("Enter");
      const full = tid(p, "toast").filter({ hasText: /queue is full/i });
      await full.waitFor();
      const [t, scroll] = [(await full.boundingBox())!, (await p.locator("main.scroll").boundingBox())!];
      expect(t.y >= scroll.y + scroll.height || t.y + t.height <= scroll.y || t.x >= scroll.x + scroll.width || t.x + t.width <= scroll.x).toBe(true);
      await shot(p, `feedback-${name}-queue-full`);
      await full.getByRole("button", { name: "Dismiss" }).click();
      await tid(p, "composer-input").fill("");

      if (name === "desktop") {
        await tid(p, "model-select").selectOption("demo-smart");
        await tid(p, "applies-next-turn").filter({ hasText: /applies from the next turn/i }).waitFor();
        await shot(p, `feedback-${name}-applies-next-turn`);
        expect(await tid(p, "toast").count()).toBe(0);
      }

      await tid(p, "stop-button").click();
      await tid(p, "dropped-offer").waitFor();
      expect(await tid(p, "toast").filter({ hasText: /queued/i }).count()).toBe(0);
      await idle(p);
      await waitFor(async () => (await tid(p, "applies-next-turn").count()) === 0, "the note goes with the turn");
      await shot(p, `feedback-${name}-after-stop`);
      await ctx.close();
    });
  }
});
