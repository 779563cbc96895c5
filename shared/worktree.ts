/**
 * A session's git worktree (issue 28 #1): what the daemon says about a directory's repository, the worktree
 * it made for a session, and what removing one did. Wire shapes only (zod); the rules live in daemon/src/git/.
 */
import { z } from "zod";

const Path = z.string().min(1).max(4096);
const Ref = z.string().min(1).max(255);
/** Branches listed for the base picker: a repository with more shows the current one and the first of the rest. */
export const MAX_LISTED_BRANCHES = 200;

/** The repository a directory lies in, or why a worktree cannot be made there (`repo` null, `reason` set). */
export const RepoInfo = z.object({
  repo: z
    .object({
      /** The checkout's top directory (real path). */
      root: Path,
      /** Its folder name, as the header shows it. */
      name: z.string().min(1).max(255),
      /** The checked-out branch; null when HEAD is detached. */
      branch: Ref.nullable(),
      branches: z.array(Ref).max(MAX_LISTED_BRANCHES),
    })
    .nullable(),
  reason: z.string().max(2000).nullable(),
});
export type RepoInfo = z.infer<typeof RepoInfo>;

/** The worktree a session runs in. `path` is the agent's directory (the worktree, or the same sub-folder in it). */
export const SessionWorktree = z.object({
  repoRoot: Path,
  repoName: z.string().min(1).max(255),
  /** The worktree's top directory (what `git worktree remove` takes). */
  worktreePath: Path,
  path: Path,
  branch: Ref,
  base: Ref,
});
export type SessionWorktree = z.infer<typeof SessionWorktree>;

/** What "remove the worktree" did: kept (with why) when it holds work and the person did not confirm. */
export const WorktreeRemoval = z.object({
  removed: z.boolean(),
  /** Set when kept: uncommitted files or commits on no remote. */
  reason: z.string().max(2000).nullable(),
  /** Files changed but not committed, and commits reachable from no remote (what "force" would lose). */
  dirtyFiles: z.number().int().min(0),
  unpushedCommits: z.number().int().min(0),
});
export type WorktreeRemoval = z.infer<typeof WorktreeRemoval>;

/** Asked with a new session: make a worktree of `base` on a new branch (a taken name gets a suffix). */
export const WorktreeRequest = z.object({ base: Ref, branch: Ref });
export type WorktreeRequest = z.infer<typeof WorktreeRequest>;
