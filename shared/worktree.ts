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

/** Worktrees one `baton doctor` asks about: more than a machine plausibly holds; D1 binds stay under its limit. */
export const MAX_DOCTOR_WORKTREES = 90;
export const KnownSessionsBody = z.object({ ids: z.array(z.string().min(1).max(128)).max(MAX_DOCTOR_WORKTREES) });

/** A worktree's state against its base (issue 28 #4). `upstream` is where a later "push the branch" would go. */
export const GitStatus = z.object({
  branch: Ref.nullable(),
  base: Ref.nullable(),
  /** Commits on the branch that the base lacks, and the other way round (0 / 0 without a base). */
  ahead: z.number().int().min(0),
  behind: z.number().int().min(0),
  /** Changed files (staged, unstaged and untracked), and how many of them are untracked. */
  files: z.number().int().min(0),
  untracked: z.number().int().min(0),
  /** The branch's upstream (`origin/x`), null when it has none yet. */
  upstream: z.string().max(255).nullable(),
});
export type GitStatus = z.infer<typeof GitStatus>;

/** The longest commit message taken: a few paragraphs, not a file. */
export const MAX_COMMIT_MESSAGE_CHARS = 10_000;
export const CommitBody = z.object({ message: z.string().trim().min(1, "write a commit message").max(MAX_COMMIT_MESSAGE_CHARS) });
export const CommitResult = z.object({ commit: z.string().min(7).max(64), summary: z.string().max(2000), status: GitStatus });
export type CommitResult = z.infer<typeof CommitResult>;

/** One file the worktree changed against its base (issue 28 #2); a binary file is named, never shown. */
export const ChangedFile = z.object({
  path: z.string().min(1).max(4096),
  /** The path before a rename. */
  oldPath: z.string().max(4096).nullable(),
  status: z.enum(["added", "modified", "deleted", "renamed", "untracked"]),
  binary: z.boolean(),
  /** The unified diff (git's hunks); null for a binary file or one past the byte budget. */
  patch: z.string().nullable(),
  /** Left out for the budget (the file is still listed). */
  truncated: z.boolean(),
});
export type ChangedFile = z.infer<typeof ChangedFile>;

/** A git tree's id (SHA-1 or SHA-256, lower-case hex): a turn's snapshot of its worktree (`turn.tree`). */
export const GitTreeId = z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, "a git object id");
/** A turn's two snapshots: its changes are the diff from `from` to `to`. */
export const TurnTrees = z.object({ from: GitTreeId, to: GitTreeId });
export type TurnTrees = z.infer<typeof TurnTrees>;

/** Most files one diff lists: a mass rename lists this many and says how many more. */
export const MAX_DIFF_FILES = 500;
export const WorktreeDiff = z.object({
  base: Ref.nullable(),
  files: z.array(ChangedFile).max(MAX_DIFF_FILES),
  /** Why something is missing (the byte budget reached, more files than listed), null when complete. */
  note: z.string().max(500).nullable(),
});
export type WorktreeDiff = z.infer<typeof WorktreeDiff>;

/**
 * What a diff compares the checkout with: `base` — where a session's worktree branched off its base (no base
 * recorded: HEAD); `head` — the last commit, for a session in the person's own checkout (its uncommitted work).
 */
export const DiffAgainst = z.enum(["base", "head"]);
export type DiffAgainst = z.infer<typeof DiffAgainst>;

/**
 * The repository a session's changes come from (issue 28 #2): its worktree, or the checkout its directory lies in
 * (a session without a worktree); `repo` null, with why, when there is none.
 */
export const SessionRepo = z.object({
  repo: z
    .object({
      name: z.string().min(1).max(255),
      root: Path,
      /** The checked-out branch (the worktree's own); null when HEAD is detached. */
      branch: Ref.nullable(),
      /** A Baton worktree (diffed against its base, committable) or the person's own checkout (against HEAD, read-only). */
      worktree: z.boolean(),
    })
    .nullable(),
  reason: z.string().max(2000).nullable(),
});
export type SessionRepo = z.infer<typeof SessionRepo>;
