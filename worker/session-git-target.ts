/**
 * Where a session's git status and diff come from (issue 28 #2): its Baton worktree, against its base; or, for a
 * session without one whose directory lies in a git repository (learnt with the `git.repo` ask, as New session
 * does, and remembered in `RepoCache`), the person's own checkout, its working tree against HEAD.
 */
import { AskErrorCode } from "../shared/tunnel-ask";
import type { SessionSummary } from "../shared/api";
import type { DiffAgainst, RepoInfo, SessionRepo } from "../shared/worktree";
import { ask, askRefusal } from "./agent-session-routes";
import type { Env } from "./env";
import { RepoCache } from "./repo-cache";

const repos = new RepoCache();

/** The checkout to ask about: its path and what to diff against. */
export type GitTarget = { path: string; against: DiffAgainst; worktree: boolean };

export type TargetOutcome =
  | { ok: true; target: GitTarget; repo: NonNullable<SessionRepo["repo"]> }
  | { ok: false; status: 404 | 409 | 422 | 502 | 504; code: string; message: string };

/** The repository `cwd` on `machineId` lies in, as the daemon says (remembered), or why it could not say. */
async function repoOf(env: Env, machineId: string, cwd: string, now = Date.now()): Promise<{ ok: true; info: RepoInfo } | { ok: false; status: 409 | 422 | 502 | 504; code: string; message: string }> {
  const known = repos.get(machineId, cwd, now);
  if (known) return { ok: true, info: known };
  const out = await ask(env, machineId, { kind: "git.repo", cwd });
  if (out.ok) {
    repos.set(machineId, cwd, out.result, now);
    return { ok: true, info: out.result };
  }
  if (out.code === AskErrorCode.UNKNOWN_ASK) return { ok: false, status: 422, code: "NO_REPO", message: "the machine's daemon is too old to show changes (update it)" };
  const r = askRefusal(out);
  const status = r.status === 409 || r.status === 422 || r.status === 504 ? r.status : 502;
  return { ok: false, status, code: r.code, message: r.message };
}

/** The session's git target, or why it has none (404 NO_REPO: not in a repository; 409: the machine is offline). */
export async function gitTargetOf(env: Env, session: Pick<SessionSummary, "machineId" | "cwd" | "worktree">): Promise<TargetOutcome> {
  const wt = session.worktree;
  if (wt) return { ok: true, target: { path: wt.worktreePath, against: "base", worktree: true }, repo: { name: wt.repoName, root: wt.worktreePath, branch: wt.branch, worktree: true } };
  const found = await repoOf(env, session.machineId, session.cwd);
  if (!found.ok) return found;
  const repo = found.info.repo;
  if (!repo) return { ok: false, status: 404, code: "NO_REPO", message: `this session's directory is not in a git repository (${found.info.reason ?? "no reason given"})` };
  return { ok: true, target: { path: session.cwd, against: "head", worktree: false }, repo: { name: repo.name, root: repo.root, branch: repo.branch, worktree: false } };
}
