// The agent's form (ACP elicitation) through the whole stack in Chromium: the demo agent's `ask` (what claude's
// AskUserQuestion sends) reaches a desktop and a phone viewer; the phone answers; both see who answered what
// and the agent gets the answer.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { idle, openSession, tid } from "./session-page";
import { createSession, waitFor } from "./support";

const e2e = useStackAndBrowser({ shared: true });

describe("agent form in Chromium", () => {
  it("desktop asks, both see the form, the phone answers, everyone sees the answer and the agent uses it", async () => {
    const sessionId = await createSession(e2e.stack.url);
    const desk = await (await e2e.browser.newContext(DESKTOP)).newPage();
    const phone = await (await e2e.browser.newContext(PHONE)).newPage();
    await openSession(desk, e2e.stack.url, sessionId);
    await openSession(phone, e2e.stack.url, sessionId);
    await idle(desk, 20_000);

    await tid(desk, "composer-input").fill("ask");
    await tid(desk, "send-button").click();
    const form = (p: Page) => p.getByRole("form", { name: "A few questions before I scaffold the project" });
    await form(desk).waitFor({ timeout: 20_000 });
    await form(phone).waitFor({ timeout: 20_000 });
    await form(desk).scrollIntoViewIfNeeded();
    await shot(desk, "elicitation-open-desktop");

    // A required field missing is named on the card; nothing is sent.
    await form(phone).getByRole("button", { name: "Submit" }).tap();
    await form(phone).getByRole("alert").filter({ hasText: "Project name is required" }).waitFor();
    await form(phone).getByRole("textbox", { name: /Project name/ }).fill("baton");
    await form(phone).getByRole("combobox", { name: /Language/ }).selectOption("py");
    await form(phone).getByRole("spinbutton", { name: "Workers" }).fill("3");
    await form(phone).getByRole("checkbox", { name: "CI" }).check();
    await form(phone).scrollIntoViewIfNeeded();
    await shot(phone, "elicitation-open-phone");
    await form(phone).getByRole("button", { name: "Submit" }).tap();

    const resolved = (p: Page) => tid(p, "elicitation-resolved");
    await resolved(desk).waitFor({ timeout: 20_000 });
    await resolved(phone).waitFor({ timeout: 20_000 });
    const text = await resolved(desk).innerText();
    expect(text).toMatch(/^Answered by .+ — Project name: baton · Language: Python · Workers: 3 · Add tests: yes · Extras: CI$/);
    await tid(desk, "row-agent").filter({ hasText: 'You answered: {"name":"baton","language":"py","workers":3,"tests":true,"extras":["ci"]}' }).waitFor({ timeout: 20_000 });
    await waitFor(async () => (await form(desk).count()) === 0, "form gone on desktop");
    await resolved(phone).scrollIntoViewIfNeeded();
    await shot(phone, "elicitation-answered-phone");
    await shot(desk, "elicitation-answered-desktop");
  });
});
