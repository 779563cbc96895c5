/**
 * The HTTP calls of issue 28 (worktrees, git status / commit / diff, the changes from the log, review comments):
 * apart from api.ts so a page's first paint does not carry them (they load with the views that use them).
 */
import type { LoggedChanges } from "../../../shared/changes-from-log";
import type { ReviewComment, ReviewCommentBody } from "../../../shared/review-message";
import type { CommitResult, GitStatus, RepoInfo, SessionRepo, TurnTrees, WorktreeDiff, WorktreeRemoval } from "../../../shared/worktree";
import { call } from "./api";

const sessionPath = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

export const gitApi = {
  /** Issue 28: the git repository `cwd` is in on the machine (or why a worktree is not offered). */
  repoInfo: (machineId: string, cwd: string) =>
    call<RepoInfo>(`/api/machines/${encodeURIComponent(machineId)}/git?${new URLSearchParams({ cwd }).toString()}`),
  /** Removes the session's worktree; without `force` one holding work is kept (removed false, with why). */
  removeWorktree: (id: string, force: boolean) => call<WorktreeRemoval>(`${sessionPath(id)}/worktree/remove`, { method: "POST", body: JSON.stringify({ force }) }),
  /** Issue 28 #2: the repository the session's changes come from (its worktree, or the checkout its directory is in). */
  sessionRepo: (id: string) => call<SessionRepo>(`${sessionPath(id)}/git/repo`),
  /** Issue 28 #4: the worktree against its base (a session's own checkout: its uncommitted files); commit everything with a message. */
  gitStatus: (id: string) => call<GitStatus>(`${sessionPath(id)}/git/status`),
  /** Issue 28 #2: the worktree's changes against its base (a session's own checkout: against HEAD), or one turn's (`trees`), from git on the machine. */
  gitDiff: (id: string, trees?: TurnTrees) => call<WorktreeDiff>(`${sessionPath(id)}/git/diff${trees ? `?${new URLSearchParams(trees).toString()}` : ""}`),
  /** Issue 28 #3: the session's review comments (kept until sent). */
  review: (id: string) => call<{ comments: ReviewComment[] }>(`${sessionPath(id)}/review`).then((r) => r.comments),
  addReviewComment: (id: string, body: ReviewCommentBody) =>
    call<{ comments: ReviewComment[] }>(`${sessionPath(id)}/review`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.comments),
  clearReview: (id: string, commentId?: string) =>
    call<{ comments: ReviewComment[] }>(`${sessionPath(id)}/review${commentId ? `/${encodeURIComponent(commentId)}` : ""}`, { method: "DELETE" }).then((r) => r.comments),
  /** The changes from the room's log (the machine may be offline). */
  loggedChanges: (id: string) => call<LoggedChanges>(`${sessionPath(id)}/changes`),
  commit: (id: string, message: string) => call<CommitResult>(`${sessionPath(id)}/git/commit`, { method: "POST", body: JSON.stringify({ message }) }),
};
