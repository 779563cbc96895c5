// axe-core over the main views, desktop and phone: the session list, the session view (idle, mid-turn
// with queue chips, a permission card) and the session settings. Fails on every violation of every rule,
// whatever its impact, unless the rule is waived below with the reason.
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { idle, openViewer, say, tid } from "./session-page";
import { createSession } from "./support";

const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

const e2e = useStackAndBrowser({ shared: true });

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] };

/** Rules not applied, each with why (none today: a new entry needs a reason a reviewer accepts). */
const WAIVED: Readonly<Record<string, string>> = {};

/** Axe violations on the page as it is now (any impact, waived rules aside), one line each. */
async function violations(page: Page, state: string): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.addScriptTag({ path: AXE_PATH });
  // Runs in the page, where the injected script defined `axe` (this file's types have no DOM).
  const found = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(opts: { resultTypes: string[] }): Promise<{ violations: unknown }> } }).axe;
    const r = await axe.run({ resultTypes: ["violations"] });
    return JSON.parse(JSON.stringify(r.violations)) as unknown;
  });
  return (found as Violation[])
    .filter((v) => !(v.id in WAIVED))
    .map((v) => `${state}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

describe("accessibility (axe-core)", () => {
  for (const [name, profile] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: no axe violations on the main views`, async () => {
      const sessionId = await createSession(e2e.stack.url);
      // The app's CSP (script-src 'self') would refuse the injected axe script.
      const { ctx, page } = await openViewer(e2e, { ...profile, bypassCSP: true }, sessionId, "idle");
      const found: string[] = [];

      await say(page, "tool");
      await idle(page, 30_000);
      found.push(...(await violations(page, "session idle")));
      await shot(page, `a11y-${name}-idle-tool-row`);

      await say(page, "sleep 80"); // ended by Stop
      await tid(page, "stop-button").waitFor();
      await say(page, "a queued follow-up");
      await tid(page, "queue-chip").waitFor();
      await page.waitForTimeout(400); // the chip's fade-in (a half-transparent chip is not what a reader sees)
      found.push(...(await violations(page, "mid-turn with a chip")));
      await tid(page, "stop-button").click();
      await idle(page, 30_000);
      found.push(...(await violations(page, "dropped by Stop")));

      await say(page, "permission");
      await page.getByRole("button", { name: /allow once/i }).first().waitFor({ timeout: 30_000 });
      found.push(...(await violations(page, "permission card")));
      await shot(page, `a11y-${name}-permission`);
      await page.getByRole("button", { name: /allow once/i }).first().click();
      await idle(page, 30_000);

      await tid(page, "settings-button").click();
      await tid(page, "queue-depth").waitFor();
      found.push(...(await violations(page, "session settings")));
      await page.keyboard.press("Escape");

      await page.goto(e2e.stack.url);
      await tid(page, "session-link").first().waitFor({ timeout: 20_000 });
      found.push(...(await violations(page, "session list")));

      expect(found).toEqual([]);
      await ctx.close();
    });
  }
});
