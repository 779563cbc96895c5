// Issue 26: "Continue a past session" in New session lists the agent's own sessions for the directory (through
// the daemon, ACP session/list) and opens one as a Baton session: the agent's history appears once, as ordinary
// rows (the user's message, the agent's answer), and the next prompt continues it. Desktop and phone.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { NodeViewer, text, waitFor } from "./support";

/** A directory of this file's own inside the shared stack's root: the agent's list there holds only what we make. */
let cwd: string;
const PROMPT = "remember the word pineapple";

const e2e = useStackAndBrowser({
  shared: true,
  timeout: 120_000,
  async setup() {
    cwd = mkdtempSync(join(tmpdir(), "baton-import-e2e-"));
    const { machines } = (await (await fetch(`${e2e.stack.url}/api/machines`)).json()) as { machines: { id: string; online: boolean }[] };
    const machineId = machines.find((m) => m.online)!.id;
    // "An earlier run": a session made in that directory, prompted and answered.
    const r = await fetch(`${e2e.stack.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ machineId, agentId: "demo", cwd }) });
    const id = ((await r.json()) as { session: { id: string } }).session.id;
    const v = await new NodeViewer(e2e.stack.url, id).open();
    await waitFor(() => v.status() === "idle", "ready");
    await v.op({ op: "message.send", id: "past-1", blocks: text(PROMPT) });
    await waitFor(() => v.ofKind("session_status").some((s) => s.state === "idle" && s.stopReason), "answered", 30_000);
    v.close();
  },
});

describe("import an agent's past session", () => {
  for (const [name, profile] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: listed under New session, opened, its history shown once, and the next prompt continues it`, async () => {
      const ctx = await e2e.browser.newContext(profile);
      const page = await ctx.newPage();
      await page.goto(`${e2e.stack.url}/`);
      await page.getByTestId("agent-select").selectOption("demo");
      await page.getByTestId("cwd-input").fill(cwd);
      await page.getByRole("button", { name: "Continue a past session" }).click();
      const open = page.getByRole("button", { name: `Open ${PROMPT}` });
      await open.waitFor({ timeout: 30_000 });
      await expect(page.getByTestId("past-session").count()).resolves.toBe(1);
      await page.getByTestId("past-sessions").scrollIntoViewIfNeeded();
      await shot(page, `${name}-import-list`);

      await open.click();
      await page.waitForURL(/\/s\//, { timeout: 30_000 });
      // The agent's history, once: the earlier prompt as a user row from "imported", then its answer.
      const user = page.getByTestId("row-user").filter({ hasText: PROMPT });
      await user.waitFor({ timeout: 30_000 });
      await expect(user.textContent()).resolves.toContain("imported");
      await page.getByTestId("row-agent").filter({ hasText: PROMPT }).first().waitFor();
      await page.getByTestId("row-notice").filter({ hasText: "Imported" }).waitFor();
      // Each message of the agent's session once (the phone's import also holds the prompt the desktop's import added).
      await expect(page.getByTestId("row-user").filter({ hasText: PROMPT }).count()).resolves.toBe(1);
      await expect(page.getByTestId("row-user").count()).resolves.toBe(name === "desktop" ? 1 : 2);
      await shot(page, `${name}-import-opened`);

      // The next prompt continues the agent's session: answered, and the history is still there once.
      const next = `next from the ${name}`;
      await page.getByTestId("composer-input").fill(next);
      await page.getByTestId("send-button").click();
      await page.getByTestId("row-agent").filter({ hasText: next }).first().waitFor({ timeout: 30_000 });
      await expect(page.getByTestId("row-user").filter({ hasText: PROMPT }).count()).resolves.toBe(1);
      await ctx.close();
    }, 90_000);
  }
});
