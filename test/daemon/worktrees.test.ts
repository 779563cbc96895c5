/** A session's worktree with real git in temporary repositories (issue 28 #1). */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gitRunner } from "../../daemon/src/git/git-run";
import { createWorktree, removeWorktree, repoInfo, type WorktreeContext } from "../../daemon/src/git/worktrees";
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
