// What real agents send, played by the demo agent through the whole stack in Chromium: codex-style terminal
// output (ANSI, streamed in _meta), claude's warning chunk without a messageId and its fenced tool output,
// copilot's permission whose command is only in rawInput, slash commands, every config option by type.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { idle, openViewer, tid } from "./session-page";
import { createSession, FAST_DEMO, waitFor } from "./support";

const e2e = useStackAndBrowser({ daemonEnv: { ...FAST_DEMO, DEMO_EXTRA_OPTIONS: "1" } });

async function send(page: Page, text: string) {
  await tid(page, "composer-input").fill(text);
  await page.keyboard.press("Enter");
}

describe("what real agents send, shown", () => {
  it("terminal output, messageId rows, fenced output, the command on a permission card, slash commands, options", async () => {
    const sessionId = await createSession(e2e.stack.url);
    const { ctx, page } = await openViewer(e2e, DESKTOP, sessionId);
    await idle(page, 20_000);

    // Slash commands from available_commands_update.
    await tid(page, "composer-input").click();
    await page.keyboard.type("/rev");
    await tid(page, "slash-list").getByRole("option", { name: /review/ }).waitFor();
    await page.keyboard.press("Enter");
    expect(await tid(page, "composer-input").inputValue()).toBe("/review what to focus on");
    await tid(page, "composer-input").fill("");

    // codex: terminal content, output deltas in _meta, exit status.
    await send(page, "terminal");
    const term = tid(page, "terminal-output");
    await term.filter({ hasText: "2 passed" }).waitFor();
    await tid(page, "terminal-exit").filter({ hasText: "exit 0" }).waitFor();
    // Plain text first; the colours come with the ANSI chunk, loaded after the first paint.
    await term.locator('span[style*="color: var(--ansi-green)"]', { hasText: "2 passed" }).waitFor();
    expect(await tid(page, "row-tool").filter({ hasText: /Terminal call_/ }).count()).toBe(0);
    await idle(page, 20_000);

    // claude: the warning chunk without a messageId is its own row.
    await send(page, "warning");
    await tid(page, "row-agent").filter({ hasText: "in its own message." }).waitFor();
    await idle(page, 20_000);
    const answer = tid(page, "row-agent").filter({ hasText: "Here is the answer" });
    expect(await answer.innerText()).not.toMatch(/Warning/);

    // claude: fenced tool output renders as a code block.
    await send(page, "fence");
    const fenced = tid(page, "row-tool").filter({ hasText: "demo.txt" });
    await fenced.locator("pre code").waitFor();
    expect(await fenced.innerText()).not.toContain("```");
    await idle(page, 20_000);

    // copilot: the permission card shows the command, not only the model's title.
    await send(page, "blind");
    const card = tid(page, "permission-card");
    await tid(page, "permission-command").filter({ hasText: "echo hello from baton" }).waitFor();
    expect(await card.innerText()).toContain("print a greeting");
    await shot(page, "agents-output-desktop");
    await card.getByRole("button", { name: "Allow" }).click();
    await tid(page, "row-agent").filter({ hasText: "hello from baton" }).waitFor();
    await idle(page, 20_000);

    // Every config option by type: the boolean as a switch; the one-option select hidden.
    await tid(page, "options-button").click();
    const sheet = page.getByRole("dialog", { name: "Agent options" });
    const fast = sheet.getByRole("switch", { name: "Fast mode" });
    await fast.waitFor();
    expect(await sheet.getByText("Variant").count()).toBe(0);
    await fast.click();
    await waitFor(() => fast.isChecked(), "the agent reports Fast mode on");
    await shot(page, "agents-options-desktop");

    // A new viewer (a compacted snapshot of the log) sees the same terminal text and rows.
    const { ctx: phone, page: p2 } = await openViewer(e2e, PHONE, sessionId);
    await tid(p2, "terminal-exit").filter({ hasText: "exit 0" }).waitFor();
    expect(await tid(p2, "terminal-output").innerText()).toBe(await term.innerText());
    expect(await tid(p2, "row-agent").filter({ hasText: "Here is the answer" }).innerText()).not.toMatch(/Warning/);
    await tid(p2, "composer-input").tap();
    await p2.keyboard.type("/");
    await tid(p2, "slash-list").waitFor();
    await shot(p2, "agents-slash-phone");
    await ctx.close();
    await phone.close();
  });
});
