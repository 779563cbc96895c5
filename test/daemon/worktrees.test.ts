/** A session's worktree with real git in temporary repositories (issue 28 #1). */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gitRunner } from "../../daemon/src/git/git-run";
import { commitAll, createWorktree, gitStatus, removeWorktree, repoInfo, worktreeDiff, type WorktreeContext } from "../../daemon/src/git/worktrees";
import { managedWorktrees, orphanCheck } from "../../daemon/src/git/orphans";
import { git, gitEnv, tempRepo } from "./git-repo";

let t: ReturnType<typeof tempRepo>;
let ctx: WorktreeContext;
const savedEnv = { ...process.env };

beforeEach(() => {
  Object.assign(process.env, gitEnv);
  t = tempRepo();
  ctx = { git: gitRunner(), roots: [path.join(t.base, "repo"), t.worktrees], dir: t.worktrees };
});
afterEach(() => {
  t.cleanup();
  process.env = { ...savedEnv };
});

const branches = () => git(t.repo, "for-each-ref", "--format=%(refname:short)", "refs/heads").trim().split("\n");

describe("repoInfo", () => {
  it("names the repository, its branch and branches", async () => {
    git(t.repo, "branch", "feature");
    const info = await repoInfo(ctx, path.join(t.repo, "src"));
    expect(info).toEqual({ repo: { root: t.repo, name: "repo", branch: "main", branches: ["main", "feature"] }, reason: null });
  });

  it("says why not: outside the roots, not a repository, git missing, no worktrees folder", async () => {
    expect((await repoInfo(ctx, t.base)).reason).toMatch(/outside the allowed roots/);
    const plain = path.join(t.worktrees, "plain");
    fs.mkdirSync(plain);
    expect(await repoInfo(ctx, plain)).toEqual({ repo: null, reason: "not inside a git repository" });
    expect((await repoInfo({ ...ctx, git: gitRunner("/nonexistent/git") }, t.repo)).reason).toMatch(/git is not installed/);
    expect((await repoInfo({ ...ctx, dir: null }, t.repo)).reason).toMatch(/no worktrees folder/);
  });

  it("refuses a path that reaches outside the roots through a symlink", async () => {
    const outside = path.join(t.base, "outside");
    fs.mkdirSync(outside);
    git(outside, "init", "-q");
    fs.symlinkSync(outside, path.join(t.repo, "link"));
    expect((await repoInfo(ctx, path.join(t.repo, "link"))).reason).toMatch(/outside the allowed roots/);
  });
});

describe("createWorktree", () => {
  it("makes a branch from the base under the managed folder; the checkout is untouched", async () => {
    const wt = await createWorktree(ctx, { cwd: path.join(t.repo, "src"), base: "main", branch: "baton/fix", sessionId: "s1" });
    expect(wt).toEqual({
      repoRoot: t.repo,
      repoName: "repo",
      worktreePath: path.join(t.worktrees, "repo", "baton-fix"),
      path: path.join(t.worktrees, "repo", "baton-fix", "src"),
      branch: "baton/fix",
      base: "main",
    });
    expect(fs.readFileSync(path.join(wt.path, "a.ts"), "utf8")).toBe("export const a = 1;\n");
    fs.writeFileSync(path.join(wt.path, "a.ts"), "changed\n");
    expect(fs.readFileSync(path.join(t.repo, "src", "a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(git(t.repo, "symbolic-ref", "--short", "HEAD").trim()).toBe("main");
    expect(git(t.repo, "config", "branch.baton/fix.batonsession").trim()).toBe("s1");
  });

  it("suffixes a name that is taken", async () => {
    git(t.repo, "branch", "baton/x");
    const a = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "baton/x", sessionId: "s1" });
    const b = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "baton/x", sessionId: "s2" });
    expect([a.branch, b.branch]).toEqual(["baton/x-2", "baton/x-3"]);
    expect(a.worktreePath).not.toBe(b.worktreePath);
  });

  it("refuses a name git refuses, an unknown base, and leaves nothing behind", async () => {
    await expect(createWorktree(ctx, { cwd: t.repo, base: "main", branch: "bad..name", sessionId: "s" })).rejects.toThrow(/git refuses the branch name "bad..name"/);
    await expect(createWorktree(ctx, { cwd: t.repo, base: "main", branch: "--force", sessionId: "s" })).rejects.toThrow(/dash/);
    await expect(createWorktree(ctx, { cwd: t.repo, base: "nope", branch: "ok", sessionId: "s" })).rejects.toThrow(/no branch or commit "nope"/);
    expect(branches()).toEqual(["main"]);
    expect(git(t.repo, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
  });

  it("refuses outside the roots and without git, creating nothing", async () => {
    await expect(createWorktree(ctx, { cwd: t.base, base: "main", branch: "b", sessionId: "s" })).rejects.toThrow(/outside the allowed roots/);
    await expect(createWorktree({ ...ctx, git: gitRunner("/nonexistent/git") }, { cwd: t.repo, base: "main", branch: "b", sessionId: "s" })).rejects.toThrow(
      /git is not installed/,
    );
    expect(fs.readdirSync(t.worktrees)).toEqual([]);
  });

  it("refuses a managed repo folder that is a symlink out of the worktrees folder", async () => {
    const elsewhere = path.join(t.base, "elsewhere");
    fs.mkdirSync(elsewhere);
    fs.symlinkSync(elsewhere, path.join(t.worktrees, "repo"));
    await expect(createWorktree(ctx, { cwd: t.repo, base: "main", branch: "b", sessionId: "s" })).rejects.toThrow(/leads outside the worktrees folder/);
    expect(branches()).toEqual(["main"]);
  });
});

describe("removeWorktree", () => {
  it("removes a clean worktree and its branch", async () => {
    const wt = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "b", sessionId: "s" });
    expect(await removeWorktree(ctx, wt.worktreePath, false)).toEqual({ removed: true, reason: null, dirtyFiles: 0, unpushedCommits: 0 });
    expect(fs.existsSync(wt.worktreePath)).toBe(false);
    expect(branches()).toEqual(["main"]);
  });

  it("keeps a dirty worktree unless forced", async () => {
    const wt = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "b", sessionId: "s" });
    fs.writeFileSync(path.join(wt.path, "new.txt"), "x");
    fs.writeFileSync(path.join(wt.path, "README.md"), "edited");
    expect(await removeWorktree(ctx, wt.worktreePath, false)).toEqual({ removed: false, reason: "the worktree holds 2 uncommitted files", dirtyFiles: 2, unpushedCommits: 0 });
    expect(fs.existsSync(path.join(wt.path, "new.txt"))).toBe(true);
    expect((await removeWorktree(ctx, wt.worktreePath, true)).removed).toBe(true);
    expect(fs.existsSync(wt.worktreePath)).toBe(false);
  });

  it("keeps one with commits on no remote; forced, the branch with them stays", async () => {
    const wt = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "b", sessionId: "s" });
    fs.writeFileSync(path.join(wt.path, "c.txt"), "c");
    git(wt.path, "add", ".");
    git(wt.path, "commit", "-q", "-m", "work");
    expect(await removeWorktree(ctx, wt.worktreePath, false)).toMatchObject({ removed: false, unpushedCommits: 1, reason: "the worktree holds 1 commit on no remote" });
    expect((await removeWorktree(ctx, wt.worktreePath, true)).removed).toBe(true);
    expect(branches()).toEqual(["b", "main"]);
  });

  it("refuses a path that is not a worktree under the managed folder", async () => {
    await expect(removeWorktree(ctx, t.repo, true)).rejects.toThrow(/outside the worktrees folder/);
    await expect(removeWorktree(ctx, t.worktrees, true)).rejects.toThrow(/not a session's worktree/);
  });
});

describe("baton doctor's orphan worktrees", () => {
  it("lists the managed worktrees with their sessions and names those whose session is gone", async () => {
    const a = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "a", sessionId: "s-live" });
    const b = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "b", sessionId: "s-gone" });
    fs.mkdirSync(path.join(t.worktrees, "repo", "not-a-worktree"));
    const listed = await managedWorktrees(gitRunner(), t.worktrees);
    expect(listed.sort((x, y) => x.path.localeCompare(y.path))).toEqual([
      { path: a.worktreePath, branch: "a", sessionId: "s-live" },
      { path: b.worktreePath, branch: "b", sessionId: "s-gone" },
    ]);
    expect(orphanCheck(listed, new Set(["s-live", "s-gone"]))).toMatchObject({ ok: true, detail: "2 session worktrees, none orphaned" });
    const check = orphanCheck(listed, new Set(["s-live"]));
    expect(check).toMatchObject({ ok: true, warn: true });
    expect(check.detail).toBe(`1 worktree whose session is gone: ${b.worktreePath} (b)`);
  });
});

describe("status and commit (issue 28 #4)", () => {
  it("counts changed files and commits ahead / behind the base; commit stages everything", async () => {
    const wt = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "b", sessionId: "s" });
    expect(await gitStatus(ctx, wt.worktreePath)).toEqual({ branch: "b", base: "main", ahead: 0, behind: 0, files: 0, untracked: 0, upstream: null });
    fs.writeFileSync(path.join(wt.worktreePath, "new.txt"), "n\n");
    fs.writeFileSync(path.join(wt.worktreePath, "README.md"), "# changed\n");
    // main moves on meanwhile: the worktree is one behind.
    fs.writeFileSync(path.join(t.repo, "other.txt"), "o\n");
    git(t.repo, "add", ".");
    git(t.repo, "commit", "-q", "-m", "on main");
    expect(await gitStatus(ctx, wt.worktreePath)).toMatchObject({ ahead: 0, behind: 1, files: 2, untracked: 1 });

    const done = await commitAll(ctx, wt.worktreePath, "Add new.txt\n\nand change the readme");
    expect(done.summary).toBe("Add new.txt");
    expect(done.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(done.status).toMatchObject({ ahead: 1, behind: 1, files: 0, untracked: 0 });
    expect(git(wt.worktreePath, "show", "--name-only", "--format=", "HEAD").trim().split("\n").sort()).toEqual(["README.md", "new.txt"]);
    // The original checkout is untouched by the commit.
    expect(git(t.repo, "log", "-1", "--format=%s").trim()).toBe("on main");
  });

  it("refuses an empty commit, an empty message, a path outside the roots; a failed commit stages nothing", async () => {
    const wt = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "b", sessionId: "s" });
    await expect(commitAll(ctx, wt.worktreePath, "x")).rejects.toThrow(/nothing to commit/);
    fs.writeFileSync(path.join(wt.worktreePath, "f.txt"), "f");
    await expect(commitAll(ctx, wt.worktreePath, "  ")).rejects.toThrow(/write a commit message/);
    await expect(commitAll(ctx, t.base, "x")).rejects.toThrow(/outside the allowed roots/);
    await expect(gitStatus(ctx, t.base)).rejects.toThrow(/outside the allowed roots/);
    // A hook that refuses: git's message, and nothing left staged.
    const hooks = path.join(t.repo, ".git", "hooks");
    fs.writeFileSync(path.join(hooks, "pre-commit"), "#!/bin/sh\necho 'lint says no' >&2\nexit 1\n", { mode: 0o755 });
    await expect(commitAll(ctx, wt.worktreePath, "try")).rejects.toThrow(/git commit failed/);
    expect(git(wt.worktreePath, "diff", "--cached", "--name-only")).toBe("");
    expect((await gitStatus(ctx, wt.worktreePath)).files).toBe(1);
  });
});

describe("the worktree's diff (issue 28 #2)", () => {
  it("lists committed and uncommitted changes against the base, untracked files included, binaries named", async () => {
    const wt = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "b", sessionId: "s" });
    fs.writeFileSync(path.join(wt.worktreePath, "src", "a.ts"), "export const a = 2;\n");
    git(wt.worktreePath, "commit", "-qam", "two");
    fs.writeFileSync(path.join(wt.worktreePath, "README.md"), "# demo\nmore\n");
    fs.writeFileSync(path.join(wt.worktreePath, "new.txt"), "hello\n");
    fs.writeFileSync(path.join(wt.worktreePath, "blob.bin"), Buffer.from([1, 0, 2, 3]));
    fs.symlinkSync("/etc/passwd", path.join(wt.worktreePath, "link"));
    // main moving on does not show up as a change of this worktree.
    fs.writeFileSync(path.join(t.repo, "later.txt"), "l\n");
    git(t.repo, "add", ".");
    git(t.repo, "commit", "-qm", "later");
    const d = await worktreeDiff(ctx, wt.worktreePath);
    expect(d.base).toBe("main");
    expect(d.note).toBeNull();
    const by = Object.fromEntries(d.files.map((f) => [f.path, f]));
    expect(Object.keys(by).sort()).toEqual(["README.md", "blob.bin", "link", "new.txt", "src/a.ts"]);
    expect(by["src/a.ts"]).toMatchObject({ status: "modified", patch: "@@ -1 +1 @@\n-export const a = 1;\n+export const a = 2;" });
    expect(by["README.md"]!.patch).toContain("+more");
    expect(by["new.txt"]).toMatchObject({ status: "untracked", binary: false, patch: "@@ -0,0 +1 @@\n+hello" });
    expect(by["blob.bin"]).toMatchObject({ status: "untracked", binary: true, patch: null });
    expect(by["link"]).toMatchObject({ binary: true, patch: null }); // never followed
  });

  it("bounds a huge diff: the files listed, their patches cut, with a note", async () => {
    const wt = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "b", sessionId: "s" });
    const big = Array.from({ length: 200_000 }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n");
    fs.writeFileSync(path.join(wt.worktreePath, "src", "a.ts"), big); // ~10 MB of tracked change
    git(wt.worktreePath, "add", ".");
    fs.writeFileSync(path.join(wt.worktreePath, "small.txt"), "s\n");
    fs.writeFileSync(path.join(wt.worktreePath, "huge.log"), big);
    const d = await worktreeDiff(ctx, wt.worktreePath, "base", 16 * 1024);
    const by = Object.fromEntries(d.files.map((f) => [f.path, f]));
    expect(by["src/a.ts"]).toMatchObject({ patch: null, truncated: true });
    expect(by["huge.log"]).toMatchObject({ patch: null, truncated: true });
    expect(by["small.txt"]).toMatchObject({ patch: "@@ -0,0 +1 @@\n+s" });
    expect(d.note).toMatch(/larger than/);
    expect(JSON.stringify(d).length).toBeLessThan(64 * 1024);
  });

  it("refuses outside the roots", async () => {
    await expect(worktreeDiff(ctx, t.base)).rejects.toThrow(/outside the allowed roots/);
  });
});

describe("a session in the person's own checkout (issue 28 #2: changes without a worktree)", () => {
  it("diffs the working tree against HEAD: staged, unstaged and untracked; committed work is not a change", async () => {
    fs.writeFileSync(path.join(t.repo, "src", "a.ts"), "export const a = 2;\n");
    git(t.repo, "commit", "-qam", "committed before");
    fs.writeFileSync(path.join(t.repo, "README.md"), "# demo\nstaged\n");
    git(t.repo, "add", "README.md");
    fs.writeFileSync(path.join(t.repo, "src", "a.ts"), "export const a = 3;\n");
    fs.writeFileSync(path.join(t.repo, "src", "new.ts"), "export const n = 1;\n");
    fs.writeFileSync(path.join(t.repo, "ignored.log"), "x\n");
    fs.writeFileSync(path.join(t.repo, ".gitignore"), "*.log\n");
    // From a sub-folder (the session's cwd): the whole checkout's changes.
    const d = await worktreeDiff(ctx, path.join(t.repo, "src"), "head");
    expect(d.base).toBeNull();
    const by = Object.fromEntries(d.files.map((f) => [f.path, f]));
    expect(Object.keys(by).sort()).toEqual([".gitignore", "README.md", "src/a.ts", "src/new.ts"]);
    expect(by["src/a.ts"]).toMatchObject({ status: "modified", patch: "@@ -1 +1 @@\n-export const a = 2;\n+export const a = 3;" });
    expect(by["README.md"]!.patch).toContain("+staged");
    expect(by["src/new.ts"]).toMatchObject({ status: "untracked", patch: "@@ -0,0 +1 @@\n+export const n = 1;" });
    // Nothing changed: an empty list. The status counts the same files, with no base (0 / 0).
    const status = await gitStatus(ctx, t.repo);
    expect(status).toMatchObject({ branch: "main", base: null, ahead: 0, behind: 0, files: 4, untracked: 2 });
    git(t.repo, "add", ".");
    git(t.repo, "commit", "-qm", "all");
    expect((await worktreeDiff(ctx, t.repo, "head")).files).toEqual([]);
  });

  it("a worktree asked for 'head' shows only its uncommitted work, not its commits on the branch", async () => {
    const wt = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "b", sessionId: "s" });
    fs.writeFileSync(path.join(wt.worktreePath, "src", "a.ts"), "export const a = 2;\n");
    git(wt.worktreePath, "commit", "-qam", "two");
    fs.writeFileSync(path.join(wt.worktreePath, "README.md"), "# demo\nmore\n");
    expect((await worktreeDiff(ctx, wt.worktreePath, "head")).files.map((f) => f.path)).toEqual(["README.md"]);
    expect((await worktreeDiff(ctx, wt.worktreePath, "base")).files.map((f) => f.path).sort()).toEqual(["README.md", "src/a.ts"]);
  });

  it("a repository with no commit yet: everything is new", async () => {
    const fresh = path.join(t.repo, "src", "fresh");
    fs.mkdirSync(fresh);
    git(fresh, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(fresh, "one.txt"), "1\n");
    fs.writeFileSync(path.join(fresh, "two.txt"), "2\n");
    git(fresh, "add", "one.txt");
    const d = await worktreeDiff(ctx, fresh, "head");
    expect(d.files.map((f) => [f.path, f.status])).toEqual([
      ["one.txt", "added"],
      ["two.txt", "untracked"],
    ]);
  });

  it("refuses a repository reaching outside the roots (a root inside a larger checkout), and a symlink out", async () => {
    const narrow = { ...ctx, roots: [path.join(t.repo, "src"), t.worktrees] };
    await expect(worktreeDiff(narrow, path.join(t.repo, "src"), "head")).rejects.toThrow(/reaches outside the machine's roots/);
    await expect(gitStatus(narrow, path.join(t.repo, "src"))).rejects.toThrow(/reaches outside the machine's roots/);
    const outside = path.join(t.base, "outside");
    fs.mkdirSync(outside);
    git(outside, "init", "-q");
    fs.symlinkSync(outside, path.join(t.repo, "out"));
    await expect(worktreeDiff(ctx, path.join(t.repo, "out"), "head")).rejects.toThrow(/outside the allowed roots/);
  });

  it("the ask takes 'against'; without it, the base (an older server's request)", async () => {
    const { createGitAskHandler } = await import("../../daemon/src/git/git-asks");
    const ask = createGitAskHandler(ctx);
    const wt = await createWorktree(ctx, { cwd: t.repo, base: "main", branch: "b", sessionId: "s" });
    fs.writeFileSync(path.join(wt.worktreePath, "src", "a.ts"), "export const a = 2;\n");
    git(wt.worktreePath, "commit", "-qam", "two");
    expect(await ask({ kind: "git.diff", path: wt.worktreePath })).toMatchObject({ ok: true, result: { base: "main", files: [{ path: "src/a.ts" }] } });
    expect(await ask({ kind: "git.diff", path: wt.worktreePath, against: "head" })).toMatchObject({ ok: true, result: { base: null, files: [] } });
    expect(await ask({ kind: "git.diff", path: wt.worktreePath, against: "yesterday" })).toMatchObject({ ok: false, code: "BAD_REQUEST" });
  });
});

describe("the git asks", () => {
  it("answers through the handler: a result, git's refusal, a bad request, git missing", async () => {
    const { createGitAskHandler } = await import("../../daemon/src/git/git-asks");
    const ask = createGitAskHandler(ctx);
    const info = await ask({ kind: "git.repo", cwd: t.repo });
    expect(info).toMatchObject({ ok: true, result: { repo: { name: "repo", branch: "main" } } });
    expect(await ask({ kind: "git.worktree.create", cwd: t.repo, base: "main", branch: "bad..name", sessionId: "s" })).toEqual({
      ok: false,
      code: "GIT_REFUSED",
      message: 'git refuses the branch name "bad..name"',
    });
    expect(await ask({ kind: "git.status" })).toMatchObject({ ok: false, code: "BAD_REQUEST" });
    const missing = createGitAskHandler({ ...ctx, git: gitRunner("/nonexistent/git") });
    expect(await missing({ kind: "git.worktree.create", cwd: t.repo, base: "main", branch: "b", sessionId: "s" })).toMatchObject({ ok: false, code: "GIT_MISSING", message: /git is not installed/ });
  });
});
