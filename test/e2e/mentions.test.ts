/**
 * Issue 29 #3 in Chromium on the real local stack: in a session whose directory is a real git repository,
 * typing "@" lists its files (not the ignored ones), a pick by keyboard (desktop) or by tap (phone) puts a chip
 * in the text, and the demo agent receives the file as a resource link and says so; the user's row shows the
 * chip. Screenshots with the picker open at 1280 and 390 px.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContextOptions } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { idle, openViewer, tid } from "./session-page";
import { createSession } from "./support";

const e2e = useStackAndBrowser({ shared: true });
let repo: string;

beforeAll(() => {
  // Under tmpdir(): the local stack's daemon has it among its roots.
  repo = realpathSync(mkdtempSync(join(tmpdir(), "baton-mentions-")));
  for (const [rel, text] of [
    ["src/app.ts", "export const app = 1;\n"],
    ["src/api/apple.ts", "export {};\n"],
    ["README.md", "# demo\n"],
    [".gitignore", "dist/\n"],
    ["dist/app.js", "ignored\n"],
  ] as const) {
    mkdirSync(join(repo, rel, ".."), { recursive: true });
    writeFileSync(join(repo, rel), text);
  }
  execFileSync("git", ["init", "-q"], { cwd: repo });
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

async function mention(profile: BrowserContextOptions, name: string, byTap: boolean) {
  const sessionId = await createSession(e2e.stack.url, "demo", repo);
  const { ctx, page } = await openViewer(e2e, profile, sessionId);
  try {
    await idle(page, 20_000);
    const input = page.getByRole("textbox", { name: "Message" });
    if (byTap) await input.tap();
    else await input.click();
    await input.pressSequentially("what is in @app");
    const files = page.getByRole("listbox", { name: "Files" });
    await files.getByRole("option").first().waitFor();
    // The repository's files, best match first; the .gitignore'd build output is not offered.
    await expect.poll(() => files.getByRole("option").allInnerTexts(), { timeout: 10_000 }).toEqual(["app.ts\nsrc", "apple.ts\nsrc/api"]);
    await shot(page, `mentions-${name}-picker-open`);
    if (byTap) await files.getByRole("option", { name: /^app\.ts/ }).tap();
    else await page.keyboard.press("Enter");
    await expect.poll(() => input.inputValue()).toBe("what is in @src/app.ts ");
    await expect(page.getByRole("listbox", { name: "Files" }).count()).resolves.toBe(0);
    await expect(tid(page, "mention-chips").locator("mark").innerText()).resolves.toBe("@src/app.ts");
    // Shown once: the chip in the text, no pill for the same file above the field.
    await expect(tid(page, "attachments").count()).resolves.toBe(0);
    // The chip lies on the text it tints: inside the message field, on its line.
    await expect
      .poll(async () => {
        const [chip, field] = await Promise.all([tid(page, "mention-chips").locator("mark").boundingBox(), input.boundingBox()]);
        return !!chip && !!field && chip.y >= field.y && chip.y + chip.height <= field.y + field.height && chip.x >= field.x;
      }, { timeout: 10_000 })
      .toBe(true);
    await shot(page, `mentions-${name}-chip`);
    if (byTap) await tid(page, "send-button").tap();
    else await page.keyboard.press("Enter");
    // The agent got a resource link (not just the text) and says so.
    await tid(page, "row-agent").filter({ hasText: `I received a link to src/app.ts (file://${repo}/src/app.ts).` }).first().waitFor({ timeout: 20_000 });
    const row = tid(page, "row-user").filter({ hasText: "what is in" });
    await expect(row.locator("mark.mention-chip").innerText()).resolves.toBe("@src/app.ts");
    await idle(page, 20_000);
    await shot(page, `mentions-${name}-sent`);
  } finally {
    await ctx.close();
  }
}

describe("@-mentions in Chromium", () => {
  it("desktop: '@' lists the repository's files, Enter picks, the demo agent receives a resource link", async () => {
    await mention(DESKTOP, "desktop", false);
  });

  it("phone: the same by tap", async () => {
    await mention(PHONE, "phone", true);
  });
});
