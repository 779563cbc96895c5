/**
 * Issue 28 #2, per turn from git: the session's worktree as a git tree, taken at a turn's start and end
 * (`turn.tree`). A temporary index (a copy of the worktree's own, so unchanged files are not hashed again) takes
 * `git add -A` and `git write-tree`: untracked files are included, .gitignore is respected, and neither the
 * worktree's index nor its files are touched. Only sessions in the daemon's managed worktrees are snapshotted
 * (the objects land in that repository's store, as a commit's would; a person's own checkout is left alone).
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isInside } from "../allowed-roots";
import type { GitRun } from "./git-run";

/** The tree of everything in the checkout at `dir` now (tracked, changed and untracked; ignored files not). */
export async function snapshotTree(git: GitRun, dir: string): Promise<string> {
  const top = (await git(["rev-parse", "--show-toplevel"], dir)).trim();
  const index = path.resolve(top, (await git(["rev-parse", "--git-path", "index"], top)).trim());
  const tmp = path.join(os.tmpdir(), `baton-turn-index-${randomUUID()}`);
  try {
    try {
      fs.copyFileSync(index, tmp);
    } catch {
      /* no index yet: git starts an empty one */
    }
    const env = { GIT_INDEX_FILE: tmp };
    await git(["add", "-A", "--", "."], top, env);
    return (await git(["write-tree"], top, env)).trim();
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * How long a prompt waits for its start snapshot: a small worktree takes tens of milliseconds; a huge untracked
 * folder must not hold the turn back (the turn then has no snapshots and its changes come from the log).
 */
export const SNAPSHOT_TIMEOUT_MS = 5_000;

/**
 * The snapshot a session in `cwd` takes at each turn's edges: a tree id, or null when `cwd` is not one of the
 * managed worktrees, git failed or took longer than `timeoutMs` (the turn runs the same; its changes then come
 * from the log only).
 */
export function turnSnapshots(git: GitRun, worktreesDir: string | null, timeoutMs = SNAPSHOT_TIMEOUT_MS): (cwd: string) => Promise<string | null> {
  return async (cwd) => {
    if (!worktreesDir || !isInside(cwd, worktreesDir)) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
    try {
      return await Promise.race([snapshotTree(git, cwd).catch(() => null), late]);
    } finally {
      clearTimeout(timer);
    }
  };
}
