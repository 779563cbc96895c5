/** Temporary git repositories for daemon tests (real git, no global config read). */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8" });
}

/** A temp folder (real path) with `repo/` (one commit on main: README.md, src/a.ts) and an empty `worktrees/`. */
export function tempRepo(): { base: string; repo: string; worktrees: string; cleanup(): void } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "baton-git-")));
  const repo = path.join(base, "repo");
  const worktrees = path.join(base, "worktrees");
  fs.mkdirSync(path.join(repo, "src"), { recursive: true });
  fs.mkdirSync(worktrees);
  git(repo, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(repo, "README.md"), "# demo\n");
  fs.writeFileSync(path.join(repo, "src", "a.ts"), "export const a = 1;\n");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "first");
  return { base, repo, worktrees, cleanup: () => fs.rmSync(base, { recursive: true, force: true }) };
}
