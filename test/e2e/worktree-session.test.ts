// Issue 28 #1: a git worktree per session. New session offers "Work in a new worktree" in a repository (off,
// with the reason, elsewhere); the agent runs in the worktree; the header shows repository · branch ← base;
// two sessions on one repository in two worktrees do not see each other's edits and the original checkout is
// untouched; Delete removes the worktree, keeping a dirty one until the person confirms; Archive offers the same
// (a worktree with a commit on no remote kept until confirmed). Desktop and phone.
import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { SessionSummary } from "../../shared/api";
import { git, tempRepo } from "../daemon/git-repo";
import { DESKTOP, PHONE, shot } from "./browser";
import { useStackAndBrowser } from "./file-stack";
import { idle } from "./session-page";
import { FAST_DEMO, waitFor } from "./support";

let repo: ReturnType<typeof tempRepo>;
let dataDir: string;
let plainDir: string;

const e2e = useStackAndBrowser({
  timeout: 300_000,
  daemonEnv: () => {
    dataDir = realpathSync(mkdtempSync(join(tmpdir(), "baton-wt-data-")));
    // The daemon's own git commands need no identity; the test's commits use gitEnv's.
    return { ...FAST_DEMO, XDG_DATA_HOME: dataDir };
  },
  setup() {
    repo = tempRepo();
    plainDir = realpathSync(mkdtempSync(join(tmpdir(), "baton-wt-plain-")));
  },
  cleanup: () => repo?.cleanup(),
});

const save = (page: Page, name: string) => shot(page, `worktree-${name}`);

async function sessionOf(id: string): Promise<SessionSummary> {
  return ((await (await fetch(`${e2e.stack.url}/api/sessions/${id}`)).json()) as { session: SessionSummary }).session;
}

/** New session in `cwd` through the form, in a worktree on `branch`; returns the session's id. */
async function startInWorktree(page: Page, name: string, branch: string): Promise<string> {
  await page.goto(`${e2e.stack.url}/`);
  await page.getByTestId("agent-select").selectOption("demo");
  // Not a repository: the option is off, and says why.
  await page.getByTestId("cwd-input").fill(plainDir);
  await page.getByTestId("worktree-note").filter({ hasText: "Off: not inside a git repository" }).waitFor({ timeout: 20_000 });
  expect(await page.getByRole("checkbox", { name: "Work in a new worktree" }).isDisabled()).toBe(true);
  await page.getByTestId("cwd-input").fill(repo.repo);
  const toggle = page.getByRole("checkbox", { name: "Work in a new worktree" });
  await waitFor(async () => (await toggle.isEnabled()) && (await toggle.isChecked()), "the worktree option on", 20_000);
  expect(await page.getByRole("combobox", { name: "Base branch" }).inputValue()).toBe("main");
  const branchInput = page.getByRole("textbox", { name: "New branch" });
  expect(await branchInput.inputValue()).toBe("baton/demo-agent-repo");
  await branchInput.fill(branch);
  await page.getByTestId("worktree-fields").scrollIntoViewIfNeeded();
  await save(page, `${name}-new-session-worktree`);
  await page.getByTestId("create-session").click();
  await page.waitForURL(/\/s\//, { timeout: 30_000 });
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  const header = page.getByTestId("session-worktree");
  await header.waitFor({ timeout: 20_000 });
  expect(await header.textContent()).toMatch(new RegExp(`repo.*${branch.replace("/", "\\/")}.*← main`));
  return id;
}

async function write(page: Page, file: string, text: string) {
  await page.getByTestId("composer-input").fill(`write ${file} ${text}`);
  await page.getByTestId("send-button").click();
  await page.getByTestId("row-agent").filter({ hasText: `I wrote ${file}` }).first().waitFor({ timeout: 30_000 });
}

describe("a worktree per session", () => {
  for (const [name, profile] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: two sessions in two worktrees of one repository do not see each other's edits; delete removes the worktree`, async () => {
      // Two people, two contexts (browser.ts: the tab behind in one context is slow to act on).
      const ctx = await e2e.browser.newContext(profile);
      const ctxB = await e2e.browser.newContext(profile);
      const a = await ctx.newPage();
      const b = await ctxB.newPage();
      const idA = await startInWorktree(a, name, `${name}/a`);
      await a.getByTestId("connection-state").filter({ hasText: /live/i }).waitFor({ timeout: 20_000 });
      await save(a, `${name}-session-header-worktree`);
      const idB = await startInWorktree(b, name, `${name}/a`); // the same name: the daemon suffixes it
      await b.getByTestId("session-worktree").filter({ hasText: `${name}/a-2` }).waitFor();

      await write(a, "notes.md", `from ${name} A`);
      await write(b, "notes.md", `from ${name} B`);
      const [wa, wb] = [(await sessionOf(idA)).worktree!, (await sessionOf(idB)).worktree!];
      expect(wa.branch).toBe(`${name}/a`);
      expect(wb.branch).toBe(`${name}/a-2`);
      expect(wa.worktreePath.startsWith(join(dataDir, "baton", "worktrees", "repo"))).toBe(true);
      expect(readFileSync(join(wa.path, "notes.md"), "utf8")).toBe(`from ${name} A\n`);
      expect(readFileSync(join(wb.path, "notes.md"), "utf8")).toBe(`from ${name} B\n`);
      // The original checkout is untouched, still on main.
      expect(existsSync(join(repo.repo, "notes.md"))).toBe(false);
      expect(git(repo.repo, "status", "--porcelain")).toBe("");
      expect(git(repo.repo, "symbolic-ref", "--short", "HEAD").trim()).toBe("main");

      // Issue 28 #2: A's changes view lists its own new file (not B's), from git, then from the log.
      await a.getByRole("button", { name: "Changes" }).click();
      const panel = a.getByRole("dialog", { name: "Changes" });
      const file = panel.getByRole("button", { name: /notes\.md/ });
      await file.waitFor({ timeout: 20_000 });
      expect(await panel.getByRole("list", { name: "Changed files" }).getByRole("listitem").count()).toBe(1);
      expect(await file.textContent()).toContain("untracked");
      await file.click();
      await panel.getByTestId("file-diff").getByText(`from ${name} A`).waitFor();
      await save(a, `${name}-changes-git`);
      if (name === "phone") await panel.getByRole("button", { name: "All files" }).click();
      await panel.getByRole("button", { name: "From the log" }).click();
      await panel.getByRole("button", { name: /notes\.md/ }).click();
      await panel.getByTestId("file-diff").getByText(`from ${name} A`).waitFor({ timeout: 20_000 });
      // The machine is online and the turn has its snapshots: the turn's diff comes from git.
      await panel.getByRole("combobox", { name: "Turn" }).selectOption({ label: "Turn 1 · from git" });
      if (name === "phone") await panel.getByRole("button", { name: "All files" }).click();
      await panel.getByRole("button", { name: /notes\.md\s*added/ }).click();
      await panel.getByTestId("file-diff").getByText(`from ${name} A`).waitFor({ timeout: 20_000 });
      await save(a, `${name}-changes-turn-git`);

      // Issue 28 #3: two comments on the git diff, kept with the session, sent as one message queued behind a running turn.
      await panel.getByRole("combobox", { name: "Turn" }).selectOption({ label: "Whole session" });
      if (name === "phone") await panel.getByRole("button", { name: "All files" }).click();
      await panel.getByRole("button", { name: "From git" }).click();
      await panel.getByRole("button", { name: /notes\.md/ }).click();
      // A second viewer (another browser context) has the changes view open: the review reaches it live.
      const ctx2 = await e2e.browser.newContext(profile);
      const other = await ctx2.newPage();
      await other.goto(a.url());
      await other.getByRole("button", { name: "Changes" }).click();
      const otherPanel = other.getByRole("dialog", { name: "Changes" });
      await otherPanel.waitFor();
      const line = panel.getByTestId("file-diff").locator('[data-line="1"]');
      for (const text of [`first remark ${name}`, `second remark ${name}`]) {
        await line.click();
        await panel.getByRole("textbox", { name: "Comment on notes.md:1" }).fill(text);
        await panel.getByRole("button", { name: "Add comment" }).click();
        await panel.getByRole("region", { name: "Review" }).getByText(text).waitFor();
        await otherPanel.getByRole("region", { name: "Review" }).getByText(text).waitFor({ timeout: 10_000 });
      }
      await save(other, `${name}-review-other-viewer`);
      const stored = (await (await fetch(`${e2e.stack.url}/api/sessions/${idA}/review`)).json()) as { comments: unknown[] };
      expect(stored.comments).toHaveLength(2);
      await save(a, `${name}-review`);
      await panel.getByRole("button", { name: "Close changes" }).click();
      // A turn held on a permission card: running, whatever the machine's load, until the card is answered.
      await a.getByTestId("composer-input").fill("permission");
      await a.getByTestId("send-button").click();
      const card = a.getByTestId("permission-card");
      await card.waitFor({ timeout: 20_000 });
      await a.getByRole("button", { name: "Changes" }).click();
      await panel.getByRole("button", { name: "Send review (2)" }).click();
      await panel.getByRole("region", { name: "Review" }).waitFor({ state: "detached", timeout: 20_000 });
      // Sent and cleared: gone from the other viewer's screen too, without a reload.
      await otherPanel.getByRole("region", { name: "Review" }).waitFor({ state: "detached", timeout: 10_000 });
      await ctx2.close();
      await panel.getByRole("button", { name: "Close changes" }).click();
      // Sent while the turn runs: queued behind it (a chip), then run after it.
      await a.getByTestId("queue-chip").filter({ hasText: "Review of your changes" }).waitFor({ timeout: 10_000 });
      await card.getByRole("button", { name: "Allow once" }).click();
      const answered = a.getByTestId("row-agent").filter({ hasText: "Review of your changes (2 comments)" });
      await answered.first().waitFor({ timeout: 60_000 });
      // The answer streams: read it once the turn is over, not at its first words.
      await idle(a, 60_000);
      const said = (await answered.first().textContent()) ?? "";
      expect(said).toContain("notes.md:1");
      expect(said).toContain(`first remark ${name}`);
      expect(said).toContain(`second remark ${name}`);
      const cleared = (await (await fetch(`${e2e.stack.url}/api/sessions/${idA}/review`)).json()) as { comments: unknown[] };
      expect(cleared.comments).toEqual([]);

      // Issue 28 #4: B's header counts the changed file after the turn; "Commit…" commits it with the person's message.
      const status = b.getByTestId("git-status");
      await status.filter({ hasText: /↑0 ↓0\s*·\s*1 changed/ }).waitFor({ timeout: 20_000 });
      await save(b, `${name}-git-status`);
      await b.getByRole("button", { name: "Commit…" }).click();
      const commit = b.getByRole("dialog", { name: "Commit the worktree" });
      await commit.getByRole("textbox", { name: "Commit message" }).fill(`Notes from the ${name}`);
      await save(b, `${name}-commit-dialog`);
      await commit.getByRole("button", { name: "Commit" }).click();
      await commit.waitFor({ state: "detached", timeout: 20_000 });
      await status.filter({ hasText: /↑1 ↓0\s*·\s*clean/ }).waitFor({ timeout: 20_000 });
      expect(git(wb.path, "log", "-1", "--format=%s").trim()).toBe(`Notes from the ${name}`);
      expect(await b.getByRole("button", { name: "Commit…" }).count()).toBe(0);

      // Delete A: its worktree holds an uncommitted file, so it is kept until "remove it anyway".
      const title = `worktree A on the ${name}`;
      await fetch(`${e2e.stack.url}/api/sessions/${idA}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ title }) });
      const listed = (await (await fetch(`${e2e.stack.url}/api/sessions`)).json()) as { sessions: SessionSummary[] };
      expect(listed.sessions.find((s) => s.id === idA)?.worktree).toEqual(wa);
      await a.goto(`${e2e.stack.url}/`);
      await a.getByRole("button", { name: `Actions for ${title}` }).click();
      await a.getByRole("menuitem", { name: "Delete…" }).click();
      const dialog = a.getByRole("dialog", { name: "Delete session?" });
      await dialog.waitFor();
      await save(a, `${name}-delete-dialog`);
      expect(await dialog.getByRole("checkbox", { name: /Also remove its worktree/ }).isChecked()).toBe(true);
      await dialog.getByRole("button", { name: "Delete" }).click();
      await dialog.getByText("Kept: the worktree holds 1 uncommitted file").waitFor({ timeout: 20_000 });
      await save(a, `${name}-delete-worktree-kept`);
      expect(existsSync(wa.worktreePath)).toBe(true);
      await dialog.getByRole("checkbox", { name: /Remove it anyway/ }).check();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await dialog.waitFor({ state: "detached", timeout: 20_000 });
      await waitFor(async () => (await fetch(`${e2e.stack.url}/api/sessions/${idA}`)).status === 404, "session A deleted");
      expect(existsSync(wa.worktreePath)).toBe(false);
      // B's worktree and work are still there.
      expect(readFileSync(join(wb.path, "notes.md"), "utf8")).toBe(`from ${name} B\n`);

      // Archive B: its branch holds the commit made above, on no remote, so the worktree is kept until confirmed.
      const titleB = `worktree B on the ${name}`;
      await fetch(`${e2e.stack.url}/api/sessions/${idB}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: titleB }) });
      await a.goto(`${e2e.stack.url}/`);
      await a.getByRole("button", { name: `Actions for ${titleB}` }).click();
      await a.getByRole("menuitem", { name: "Archive" }).click();
      const archive = a.getByRole("dialog", { name: "Archive session?" });
      await archive.waitFor();
      expect(await archive.getByRole("checkbox", { name: /Also remove its worktree/ }).isChecked()).toBe(true);
      await archive.getByRole("button", { name: "Archive" }).click();
      await archive.getByText("Kept: the worktree holds 1 commit on no remote").waitFor({ timeout: 20_000 });
      await save(a, `${name}-archive-worktree-kept`);
      expect(existsSync(wb.worktreePath)).toBe(true);
      await archive.getByRole("checkbox", { name: /Remove it anyway/ }).check();
      await archive.getByRole("button", { name: "Archive" }).click();
      await archive.waitFor({ state: "detached", timeout: 20_000 });
      await waitFor(async () => {
        const only = (await (await fetch(`${e2e.stack.url}/api/sessions?archived=only`)).json()) as { sessions: { id: string }[] };
        return only.sessions.some((s) => s.id === idB);
      }, "session B archived");
      expect(existsSync(wb.worktreePath)).toBe(false);
      // The branch keeps its commit.
      expect(git(repo.repo, "log", "-1", "--format=%s", `${name}/a-2`).trim()).toBe(`Notes from the ${name}`);
      await ctx.close();
      await ctxB.close();
    }, 240_000);
  }

  for (const [name, profile] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: a session in the person's own checkout shows its uncommitted changes (no Commit…), highlighted; comments from git and from the log`, async () => {
      const { machines } = (await (await fetch(`${e2e.stack.url}/api/machines`)).json()) as { machines: { id: string; online: boolean }[] };
      const machineId = machines.find((m) => m.online)!.id;
      const r = await fetch(`${e2e.stack.url}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ machineId, agentId: "demo", cwd: join(repo.repo, "src") }),
      });
      const { session } = (await r.json()) as { session: SessionSummary };
      expect(session.worktree ?? null).toBeNull();
      const ctx = await e2e.browser.newContext(profile);
      const page = await ctx.newPage();
      await page.goto(`${e2e.stack.url}/s/${encodeURIComponent(session.id)}`);
      await page.getByTestId("session-checkout").filter({ hasText: "repo" }).filter({ hasText: "main" }).waitFor({ timeout: 20_000 });
      await write(page, "a.ts", `export const a = "${name}"; // edited on the ${name}`);
      await page.getByTestId("git-status").filter({ hasText: /\d+ uncommitted/ }).waitFor({ timeout: 20_000 });
      expect(await page.getByRole("button", { name: "Commit…" }).count()).toBe(0);
      expect(readFileSync(join(repo.repo, "src", "a.ts"), "utf8")).toBe(`export const a = "${name}"; // edited on the ${name}\n`);

      await page.getByRole("button", { name: "Changes" }).click();
      const panel = page.getByRole("dialog", { name: "Changes" });
      await panel.getByRole("button", { name: /src\/a\.ts/ }).click();
      const diff = panel.getByTestId("file-diff");
      await diff.locator(".hljs-keyword").first().waitFor({ timeout: 20_000 });
      expect(await diff.locator(".hljs-string").filter({ hasText: `"${name}"` }).count()).toBe(1);
      await save(page, `${name}-changes-highlighted`);
      const gitComment = `git remark ${name}`;
      if (name === "desktop") {
        await panel.getByRole("button", { name: "Side by side" }).click();
        const split = panel.getByTestId("diff-split");
        await split.locator(".hljs-keyword").first().waitFor();
        expect(await split.locator('[data-side="old"][data-line="1"]').textContent()).toBe("1export const a = 1;");
        await save(page, "desktop-changes-side-by-side");
        await split.locator('[data-side="new"][data-line="1"]').click();
      } else {
        expect(await panel.getByRole("button", { name: "Side by side" }).count()).toBe(0);
        await diff.locator('.diff-add[data-line="1"]').click();
      }
      await panel.getByRole("textbox", { name: "Comment on src/a.ts:1" }).fill(gitComment);
      await panel.getByRole("button", { name: "Add comment" }).click();
      await panel.getByRole("region", { name: "Review" }).getByText(gitComment).waitFor();

      // Issue 28 #5 of this pass: the log's diff takes comments the same way.
      if (name === "phone") await panel.getByRole("button", { name: "All files" }).click();
      await panel.getByRole("button", { name: "From the log" }).click();
      await panel.getByRole("button", { name: /^a\.ts/ }).click();
      await diff.locator('.diff-add[data-line="1"]').click();
      await panel.getByRole("textbox", { name: "Comment on a.ts:1" }).fill(`log remark ${name}`);
      await panel.getByRole("button", { name: "Add comment" }).click();
      await panel.getByRole("region", { name: "Review" }).getByText(`log remark ${name}`).waitFor();
      await save(page, `${name}-review-git-and-log`);
      const stored = (await (await fetch(`${e2e.stack.url}/api/sessions/${session.id}/review`)).json()) as { comments: { path: string; line: number; quoted: string }[] };
      expect(stored.comments.map((c) => [c.path, c.line, c.quoted])).toEqual([
        ["src/a.ts", 1, `export const a = "${name}"; // edited on the ${name}`],
        ["a.ts", 1, `export const a = "${name}"; // edited on the ${name}`],
      ]);
      await ctx.close();
    }, 150_000);
  }

  it("a branch name git refuses is a clear error and leaves no worktree or session", async () => {
    const { machines } = (await (await fetch(`${e2e.stack.url}/api/machines`)).json()) as { machines: { id: string; online: boolean }[] };
    const machineId = machines.find((m) => m.online)!.id;
    const before = git(repo.repo, "worktree", "list", "--porcelain");
    const r = await fetch(`${e2e.stack.url}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ machineId, agentId: "demo", cwd: repo.repo, worktree: { base: "main", branch: "bad..name" } }),
    });
    expect(r.status).toBe(422);
    expect(((await r.json()) as { error: { message: string } }).error.message).toBe('git refuses the branch name "bad..name"');
    expect(git(repo.repo, "worktree", "list", "--porcelain")).toBe(before);
    const list = (await (await fetch(`${e2e.stack.url}/api/sessions`)).json()) as { sessions: { cwd: string }[] };
    expect(list.sessions.filter((s) => s.cwd.includes("bad"))).toEqual([]);
  });
});
