/** The daemon's answers to the git asks (shared/tunnel-ask.ts `git.*`): worktrees.ts's operations as replies. */
import { assertNever } from "../../../shared/assert-never";
import { AskErrorCode, type AskKind, GitAskRequest } from "../../../shared/tunnel-ask";
import { errorMessage } from "../log";
import type { AskAnswer } from "../tunnel/tunnel-client";
import { GitFailed, GitMissing } from "./git-run";
import { commitAll, createWorktree, gitStatus, removeWorktree, repoInfo, worktreeDiff, turnDiff, WorktreeRefused, type WorktreeContext } from "./worktrees";

/** The git kinds, for the daemon's ask router. */
export const GIT_ASK_KINDS = GitAskRequest.options.map((o) => o.shape.kind.value) satisfies AskKind[];

/** The handler for every git kind: the request checked, then answered. */
export function createGitAskHandler(ctx: WorktreeContext): (raw: unknown) => Promise<AskAnswer> {
  return async (raw) => {
    const parsed = GitAskRequest.safeParse(raw);
    if (!parsed.success) return { ok: false, code: AskErrorCode.BAD_REQUEST, message: parsed.error.issues[0]?.message ?? "invalid request" };
    return answerGitAsk(ctx, parsed.data);
  };
}

export async function answerGitAsk(ctx: WorktreeContext, req: GitAskRequest): Promise<AskAnswer> {
  try {
    switch (req.kind) {
      case "git.repo":
        return { ok: true, result: await repoInfo(ctx, req.cwd) };
      case "git.worktree.create":
        return { ok: true, result: await createWorktree(ctx, req) };
      case "git.worktree.remove":
        return { ok: true, result: await removeWorktree(ctx, req.path, req.force) };
      case "git.status":
        return { ok: true, result: await gitStatus(ctx, req.path) };
      case "git.commit":
        return { ok: true, result: await commitAll(ctx, req.path, req.message) };
      case "git.diff":
        return {
          ok: true,
          result: req.from && req.to ? await turnDiff(ctx, req.path, { from: req.from, to: req.to }) : await worktreeDiff(ctx, req.path, req.against ?? "base"),
        };
      default:
        return assertNever(req);
    }
  } catch (err) {
    if (err instanceof GitMissing) return { ok: false, code: AskErrorCode.GIT_MISSING, message: err.message };
    if (err instanceof WorktreeRefused || err instanceof GitFailed) return { ok: false, code: AskErrorCode.GIT_REFUSED, message: err.message };
    return { ok: false, code: AskErrorCode.GIT_REFUSED, message: `git failed: ${errorMessage(err)}` };
  }
}
