/**
 * New session's worktree option (issue 28 #1): asks the machine which repository the directory is in (once the
 * typing settles), offers "Work in a new worktree" on by default there, a base (the current branch) and a branch
 * proposed from the session's title (editable; the daemon suffixes a taken one).
 */
import { createEffect, createResource, createSignal, onCleanup } from "solid-js";
import type { MachineSummary } from "../../../shared/api";
import { proposeBranch } from "../../../shared/branch-name";
import type { RepoInfo, WorktreeRequest } from "../../../shared/worktree";
import { gitApi } from "../lib/git-api";

/** The directory is asked about this long after the last keystroke: one request per pause, not per letter. */
const CWD_SETTLE_MS = 400;

export type WorktreeChoice = ReturnType<typeof createWorktreeChoice>;

export function createWorktreeChoice(machine: () => MachineSummary | undefined, cwd: () => string, title: () => string) {
  const current = () => {
    const m = machine();
    const dir = cwd().trim();
    return m?.online && dir.startsWith("/") ? { machineId: m.id, cwd: dir } : null;
  };
  const [settled, setSettled] = createSignal<{ machineId: string; cwd: string } | null>(null);
  createEffect(() => {
    const next = current();
    const timer = setTimeout(() => setSettled(next), CWD_SETTLE_MS);
    onCleanup(() => clearTimeout(timer));
  });
  /** The form shows (and sends) the answer for the directory as typed now, not the one before. */
  const stale = () => {
    const a = current();
    const b = settled();
    return a?.machineId !== b?.machineId || a?.cwd !== b?.cwd;
  };
  const [info] = createResource(settled, (q): Promise<RepoInfo> =>
    gitApi.repoInfo(q.machineId, q.cwd).catch((err: unknown) => ({ repo: null, reason: (err as Error).message || "could not ask the machine" })),
  );
  const [wanted, setWanted] = createSignal(true);
  const [typedBase, setBase] = createSignal<string | null>(null);
  const [typedBranch, setBranch] = createSignal<string | null>(null);
  const repo = () => (info.loading || stale() ? null : (info()?.repo ?? null));
  const base = () => {
    const r = repo();
    const b = typedBase();
    return r && b && r.branches.includes(b) ? b : (r?.branch ?? r?.branches[0] ?? "");
  };
  const branch = () => typedBranch() ?? proposeBranch(title());
  return {
    /** Checking, a repository, or why not (null before a directory was asked about). */
    state: (): { kind: "idle" } | { kind: "checking" } | { kind: "repo"; repo: NonNullable<RepoInfo["repo"]> } | { kind: "none"; reason: string } => {
      if (!current()) return { kind: "idle" };
      if (stale() || info.loading) return { kind: "checking" };
      const r = info();
      if (r?.repo) return { kind: "repo", repo: r.repo };
      return { kind: "none", reason: r?.reason ?? "not inside a git repository" };
    },
    on: () => wanted() && repo() !== null,
    /** Still asking the machine: Start waits (it would otherwise start without the worktree). */
    checking: () => current() !== null && (stale() || info.loading),
    setOn: setWanted,
    base,
    setBase,
    branch,
    setBranch,
    /** What the POST carries: the worktree wanted, or nothing (the session runs in the directory). */
    request: (): WorktreeRequest | undefined => (wanted() && repo() && base() && branch().trim() ? { base: base(), branch: branch().trim() } : undefined),
  };
}
