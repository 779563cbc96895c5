/**
 * A session's git worktree on this machine (issue 28 #1): what repository a directory is in, a new worktree
 * for a session under the managed directory, and its removal (kept when it holds work, unless forced). Every
 * path is confined to the machine's roots (allowed-roots.ts); a failed creation leaves no worktree or branch.
 */
import fs from "node:fs";
import path from "node:path";
import { type ChangedFile, type CommitResult, type DiffAgainst, type GitStatus, MAX_DIFF_FILES, MAX_LISTED_BRANCHES, type TurnTrees, type WorktreeDiff, type RepoInfo, type SessionWorktree, type WorktreeRemoval } from "../../../shared/worktree";
import { checkCwd, isInside } from "../allowed-roots";
import { branchRefusal, firstFree, folderFor, keepReason, readStatus } from "./git-rules";
import { GitFailed, GitMissing, type GitRun, gitRunBounded } from "./git-run";
import { isBinary, newFilePatch, splitPatch, withinBudget } from "./diff-rules";

/** A refusal the person can act on (not a repository, a name git refuses, outside the roots…). */
export class WorktreeRefused extends Error {}

export type WorktreeContext = {
  git: GitRun;
  /** Real paths; the managed directory is one of them (the daemon adds it). */
  roots: readonly string[];
  /** Where new worktrees go (real path); null: this daemon makes none. */
  dir: string | null;
};

/** Git config key on the new branch naming the session it was made for (`baton doctor` finds orphans by it). */
export const SESSION_KEY = "batonsession";
/** … and the base it was made from (status and diffs compare against it). */
export const BASE_KEY = "batonbase";

const lines = (s: string) => s.split("\n").map((l) => l.trim()).filter(Boolean);

async function topOf(git: GitRun, cwd: string): Promise<string | null> {
  try {
    return fs.realpathSync((await git(["rev-parse", "--show-toplevel"], cwd)).trim());
  } catch (err) {
    if (err instanceof GitMissing) throw err;
    return null;
  }
}

/** The repository `cwd` lies in, or the reason a worktree cannot be offered there. */
export async function repoInfo(ctx: WorktreeContext, cwd: string): Promise<RepoInfo> {
  const checked = checkCwd(cwd, ctx.roots);
  if (!checked.ok) return { repo: null, reason: checked.message };
  if (!ctx.dir) return { repo: null, reason: "this machine's daemon makes no worktrees (no worktrees folder configured)" };
  let root: string | null;
  try {
    root = await topOf(ctx.git, checked.cwd);
  } catch (err) {
    return { repo: null, reason: (err as Error).message };
  }
  if (!root) return { repo: null, reason: "not inside a git repository" };
  if (!ctx.roots.some((r) => isInside(root, r))) return { repo: null, reason: `the repository (${root}) reaches outside the machine's roots` };
  if (isInside(root, ctx.dir)) return { repo: null, reason: "this is already a session's worktree" };
  const branch = (await ctx.git(["symbolic-ref", "--quiet", "--short", "HEAD"], root).catch(() => "")).trim() || null;
  const all = lines(await ctx.git(["for-each-ref", "--format=%(refname:short)", "refs/heads"], root));
  if (!all.length) return { repo: null, reason: "the repository has no commits yet" };
  const branches = [...new Set([...(branch ? [branch] : []), ...all])].slice(0, MAX_LISTED_BRANCHES);
  return { repo: { root, name: path.basename(root), branch, branches }, reason: null };
}

export type CreateWorktree = { cwd: string; base: string; branch: string; sessionId: string };

/** Makes the worktree (a new branch from `base`; a taken name gets a suffix); throws WorktreeRefused / GitMissing. */
export async function createWorktree(ctx: WorktreeContext, req: CreateWorktree): Promise<SessionWorktree> {
  const info = await repoInfo(ctx, req.cwd);
  if (info.reason === new GitMissing().message) throw new GitMissing();
  if (!info.repo || !ctx.dir) throw new WorktreeRefused(info.reason ?? "not inside a git repository");
  const { root, name } = info.repo;
  const { git } = ctx;
  const refused = branchRefusal(req.branch);
  if (refused) throw new WorktreeRefused(refused);
  try {
    await git(["check-ref-format", "--branch", req.branch], root);
  } catch (err) {
    if (err instanceof GitFailed) throw new WorktreeRefused(`git refuses the branch name "${req.branch}"`);
    throw err;
  }
  let baseCommit: string;
  try {
    baseCommit = (await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${req.base}^{commit}`], root)).trim();
  } catch (err) {
    if (err instanceof GitFailed) throw new WorktreeRefused(`no branch or commit "${req.base}" in ${name}`);
    throw err;
  }
  const existing = new Set(lines(await git(["for-each-ref", "--format=%(refname:short)", "refs/heads"], root)));
  const repoDir = path.join(ctx.dir, folderFor(name));
  fs.mkdirSync(repoDir, { recursive: true });
  // The repo's folder under the managed directory must really be there (not a symlink out of it).
  const realRepoDir = fs.realpathSync(repoDir);
  if (!isInside(realRepoDir, ctx.dir)) throw new WorktreeRefused(`${repoDir} leads outside the worktrees folder`);
  const branch = firstFree(req.branch, (b) => existing.has(b) || fs.existsSync(path.join(realRepoDir, folderFor(b))));
  if (!branch) throw new WorktreeRefused(`every name from "${req.branch}" to "${req.branch}-99" is taken`);
  const worktreePath = path.join(realRepoDir, folderFor(branch));
  try {
    await git(["worktree", "add", "-b", branch, "--", worktreePath, baseCommit], root);
    await git(["config", `branch.${branch}.${BASE_KEY}`, req.base], root);
    await git(["config", `branch.${branch}.${SESSION_KEY}`, req.sessionId], root);
  } catch (err) {
    // Nothing half-made: the worktree and the branch go again.
    await git(["worktree", "remove", "--force", "--", worktreePath], root).catch(() => {});
    await git(["branch", "-D", "--", branch], root).catch(() => {});
    if (err instanceof GitFailed) throw new WorktreeRefused(`git worktree add failed: ${err.message}`);
    throw err;
  }
  const sub = path.relative(root, fs.realpathSync(req.cwd));
  const agentDir = path.join(worktreePath, sub);
  return { repoRoot: root, repoName: name, worktreePath, path: fs.existsSync(agentDir) ? agentDir : worktreePath, branch, base: req.base };
}

/** The worktree folder `p` names, confined to the managed directory; throws WorktreeRefused otherwise. */
function managedWorktree(ctx: WorktreeContext, p: string): string {
  if (!ctx.dir) throw new WorktreeRefused("this machine's daemon makes no worktrees");
  const checked = checkCwd(p, [ctx.dir]);
  if (!checked.ok) throw new WorktreeRefused(checked.message.replace("the allowed roots", "the worktrees folder"));
  const top = path.relative(ctx.dir, checked.cwd).split(path.sep);
  if (top.length !== 2) throw new WorktreeRefused(`${p} is not a session's worktree`);
  return path.join(ctx.dir, ...top);
}

/** How much work a worktree holds that removing it would lose. */
export async function worktreeWork(git: GitRun, worktreePath: string): Promise<{ dirtyFiles: number; unpushedCommits: number; branch: string | null }> {
  const status = readStatus(await git(["status", "--porcelain=v1", "-z", "--untracked-files=all"], worktreePath));
  const branch = (await git(["symbolic-ref", "--quiet", "--short", "HEAD"], worktreePath).catch(() => "")).trim() || null;
  const base = branch ? (await git(["config", "--get", `branch.${branch}.${BASE_KEY}`], worktreePath).catch(() => "")).trim() : "";
  // Commits on this branch that neither its base nor any remote has.
  const not = ["--not", "--remotes", ...(base ? [base] : [])];
  const unpushed = Number((await git(["rev-list", "--count", "HEAD", ...not], worktreePath).catch(() => "0")).trim()) || 0;
  return { dirtyFiles: status.files, unpushedCommits: unpushed, branch };
}

/**
 * Removes a session's worktree. Kept (removed false, with why) when it has uncommitted files or unpushed
 * commits and `force` is not set. The branch goes too when it holds nothing the base lacks.
 */
export async function removeWorktree(ctx: WorktreeContext, p: string, force: boolean): Promise<WorktreeRemoval> {
  const wt = managedWorktree(ctx, p);
  const work = await worktreeWork(ctx.git, wt);
  const reason = keepReason(work.dirtyFiles, work.unpushedCommits);
  if (reason && !force) return { removed: false, reason, ...pick(work) };
  const main = (await ctx.git(["rev-parse", "--path-format=absolute", "--git-common-dir"], wt)).trim();
  const mainRoot = path.dirname(main);
  await ctx.git(["worktree", "remove", "--force", "--", wt], mainRoot);
  if (work.branch && work.unpushedCommits === 0) await ctx.git(["branch", "-D", "--", work.branch], mainRoot).catch(() => {});
  return { removed: true, reason: null, ...pick(work) };
}

const pick = (w: { dirtyFiles: number; unpushedCommits: number }) => ({ dirtyFiles: w.dirtyFiles, unpushedCommits: w.unpushedCommits });

/** A checkout inside the roots (a session's worktree, or any repository directory); throws WorktreeRefused. */
function checkedRepoDir(ctx: WorktreeContext, p: string): string {
  const checked = checkCwd(p, ctx.roots);
  if (!checked.ok) throw new WorktreeRefused(checked.message);
  return checked.cwd;
}

/** The top of the repository `dir` lies in, itself inside the roots (a root can be a sub-folder of a larger checkout). */
async function checkedTop(ctx: WorktreeContext, dir: string): Promise<string> {
  const top = await topOf(ctx.git, dir);
  if (!top) throw new WorktreeRefused("not inside a git repository");
  if (!ctx.roots.some((r) => isInside(top, r))) throw new WorktreeRefused(`the repository (${top}) reaches outside the machine's roots`);
  return top;
}

/** The checkout at `p` against its base (the branch's recorded base; none: 0 / 0) and its upstream. */
export async function gitStatus(ctx: WorktreeContext, p: string): Promise<GitStatus> {
  const dir = checkedRepoDir(ctx, p);
  const { git } = ctx;
  await checkedTop(ctx, dir);
  const status = readStatus(await git(["status", "--porcelain=v1", "-z", "--untracked-files=all"], dir));
  const branch = (await git(["symbolic-ref", "--quiet", "--short", "HEAD"], dir).catch(() => "")).trim() || null;
  const base = branch ? (await git(["config", "--get", `branch.${branch}.${BASE_KEY}`], dir).catch(() => "")).trim() || null : null;
  let ahead = 0;
  let behind = 0;
  if (base) {
    const counts = (await git(["rev-list", "--left-right", "--count", `${base}...HEAD`, "--"], dir).catch(() => "0\t0")).trim().split(/\s+/);
    behind = Number(counts[0]) || 0;
    ahead = Number(counts[1]) || 0;
  }
  const upstream = (await git(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"], dir).catch(() => "")).trim() || null;
  return { branch, base, ahead, behind, files: status.files, untracked: status.untracked, upstream };
}

/** Stages every change in the checkout at `p` (untracked files too) and commits it with `message`. */
export async function commitAll(ctx: WorktreeContext, p: string, message: string): Promise<CommitResult> {
  const dir = checkedRepoDir(ctx, p);
  const { git } = ctx;
  await checkedTop(ctx, dir);
  if (!message.trim()) throw new WorktreeRefused("write a commit message");
  const before = readStatus(await git(["status", "--porcelain=v1", "-z", "--untracked-files=all"], dir));
  if (!before.files) throw new WorktreeRefused("nothing to commit: the worktree has no changes");
  await git(["add", "--all", "--", "."], dir);
  try {
    await git(["commit", "--quiet", "-m", message], dir);
  } catch (err) {
    // Nothing half-done: what was staged for this commit is unstaged again (the files keep their changes).
    await git(["reset", "--quiet"], dir).catch(() => {});
    if (err instanceof GitFailed) throw new WorktreeRefused(`git commit failed: ${err.message}`);
    throw err;
  }
  const commit = (await git(["rev-parse", "HEAD"], dir)).trim();
  const summary = (await git(["log", "-1", "--format=%s"], dir)).trim();
  return { commit, summary, status: await gitStatus(ctx, dir) };
}

/** Characters of patch text in one diff answer: inside the tunnel's ask reply (MAX_ASK_REPLY_BYTES) with room for JSON. */
export const DIFF_BUDGET_CHARS = 160 * 1024;

/** An untracked file as a changed file: a regular file's lines, anything else (symlink, binary) named only. */
function untrackedFile(dir: string, rel: string, budget: number): ChangedFile {
  const named: ChangedFile = { path: rel, oldPath: null, status: "untracked", binary: true, patch: null, truncated: false };
  const full = path.join(dir, rel);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(full);
  } catch {
    return named;
  }
  if (!st.isFile()) return named; // a symlink is never followed out of the worktree
  if (st.size > budget) return { ...named, binary: false, truncated: true };
  const bytes = fs.readFileSync(full);
  if (isBinary(bytes)) return named;
  return { ...named, binary: false, patch: newFilePatch(bytes.toString("utf8")) };
}

/** git's empty tree: what a repository without a commit yet is diffed against. */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/**
 * The checkout at `p` against its base (`against` "base": from where it branched off; no base: HEAD) or against
 * HEAD ("head": the uncommitted work in a person's own checkout), untracked files included, patches within
 * `budget` characters; binary files named, not shown.
 */
export async function worktreeDiff(ctx: WorktreeContext, p: string, against: DiffAgainst = "base", budget = DIFF_BUDGET_CHARS): Promise<WorktreeDiff> {
  const dir = checkedRepoDir(ctx, p);
  const { git } = ctx;
  const top = await checkedTop(ctx, dir);
  const branch = (await git(["symbolic-ref", "--quiet", "--short", "HEAD"], top).catch(() => "")).trim() || null;
  const base = against === "base" && branch ? (await git(["config", "--get", `branch.${branch}.${BASE_KEY}`], top).catch(() => "")).trim() || null : null;
  const head = (await git(["rev-parse", "--verify", "--quiet", "HEAD"], top).catch(() => "")).trim() ? "HEAD" : EMPTY_TREE;
  const from = base ? (await git(["merge-base", base, "HEAD"], top).catch(() => head)).trim() : head;
  // Twice the budget read: what is over it is cut by withinBudget per file, the rest of git's output is not read at all.
  const raw = await gitRunBounded(["diff", "--no-color", "--no-ext-diff", "-M", from, "--"], top, budget * 2);
  const tracked = splitPatch(raw.text);
  const last = tracked.at(-1);
  if (raw.truncated && last) tracked[tracked.length - 1] = { ...last, patch: null, truncated: true };
  const others = (await git(["ls-files", "--others", "--exclude-standard", "-z"], top)).split("\0").filter(Boolean);
  const untracked = others.slice(0, MAX_DIFF_FILES).map((rel) => untrackedFile(top, rel, budget));
  const all = [...tracked, ...untracked];
  const kept = withinBudget(all, budget, MAX_DIFF_FILES);
  const extra = others.length > MAX_DIFF_FILES ? `${others.length - MAX_DIFF_FILES} more untracked files not listed` : null;
  const cutNote = raw.truncated ? `the diff is larger than ${Math.round((budget * 2) / 1024)} KB: the rest was not read` : null;
  const note = [kept.note, extra, cutNote].filter(Boolean).join("; ") || null;
  return { base, files: kept.files, note };
}

/**
 * Issue 28 #2, one turn: the changes between two snapshots of the checkout at `p` (`turn.tree`), bounded like
 * `worktreeDiff`. Untracked files are in both trees already (the snapshot adds them), so git's patch is all of it.
 */
export async function turnDiff(ctx: WorktreeContext, p: string, trees: TurnTrees, budget = DIFF_BUDGET_CHARS): Promise<WorktreeDiff> {
  const dir = checkedRepoDir(ctx, p);
  const { git } = ctx;
  const top = await checkedTop(ctx, dir);
  for (const id of [trees.from, trees.to]) {
    const type = (await git(["cat-file", "-t", id], top).catch(() => "")).trim();
    if (type !== "tree") throw new WorktreeRefused(`${id.slice(0, 12)} is not a snapshot of this worktree`);
  }
  const raw = await gitRunBounded(["diff", "--no-color", "--no-ext-diff", "-M", trees.from, trees.to, "--"], top, budget * 2);
  const files = splitPatch(raw.text);
  const last = files.at(-1);
  if (raw.truncated && last) files[files.length - 1] = { ...last, patch: null, truncated: true };
  const kept = withinBudget(files, budget, MAX_DIFF_FILES);
  const cutNote = raw.truncated ? `the diff is larger than ${Math.round((budget * 2) / 1024)} KB: the rest was not read` : null;
  return { base: null, files: kept.files, note: [kept.note, cutNote].filter(Boolean).join("; ") || null };
}
