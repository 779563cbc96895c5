/**
 * `baton doctor`'s orphan worktrees (issue 28 #1): the worktrees under the managed folder, each with the session
 * it was made for (the branch's `batonsession` config); the server says which sessions are gone.
 */
import fs from "node:fs";
import path from "node:path";
import type { Check } from "../cli/doctor-check";
import type { GitRun } from "./git-run";
import { SESSION_KEY } from "./worktrees";

export type ManagedWorktree = { path: string; branch: string | null; sessionId: string | null };

/** Every `<dir>/<repo>/<worktree>` that git knows as a worktree, with its session id (null when unknown). */
export async function managedWorktrees(git: GitRun, dir: string): Promise<ManagedWorktree[]> {
  const out: ManagedWorktree[] = [];
  const folders = (p: string) => {
    try {
      return fs.readdirSync(p, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(p, e.name));
    } catch {
      return [];
    }
  };
  for (const repo of folders(dir))
    for (const wt of folders(repo)) {
      if (!fs.existsSync(path.join(wt, ".git"))) continue;
      const branch = (await git(["symbolic-ref", "--quiet", "--short", "HEAD"], wt).catch(() => "")).trim() || null;
      const sessionId = branch ? (await git(["config", "--get", `branch.${branch}.${SESSION_KEY}`], wt).catch(() => "")).trim() || null : null;
      out.push({ path: wt, branch, sessionId });
    }
  return out;
}

/** The doctor's line: worktrees whose session the server no longer has (or that name none). */
export function orphanCheck(worktrees: readonly ManagedWorktree[], known: ReadonlySet<string>): Check {
  const orphans = worktrees.filter((w) => !w.sessionId || !known.has(w.sessionId));
  if (!orphans.length) return { name: "worktrees", ok: true, detail: `${worktrees.length} session worktree${worktrees.length === 1 ? "" : "s"}, none orphaned` };
  return {
    name: "worktrees",
    ok: true,
    warn: true,
    detail: `${orphans.length} worktree${orphans.length === 1 ? "" : "s"} whose session is gone: ${orphans.map((o) => `${o.path}${o.branch ? ` (${o.branch})` : ""}`).join(", ")}`,
    fix: "look inside, then `git worktree remove <path>` from the repository (uncommitted work there is lost)",
  };
}
