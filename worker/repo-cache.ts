/**
 * What the Worker remembers of "is this directory in a git repository" (the daemon's `git.repo` answer), per
 * machine and directory, so a session page does not ask the machine each time it opens (issue 28 #2: changes
 * for a session without a worktree). Per isolate, bounded; a fresh isolate asks again.
 */
import type { RepoInfo } from "../shared/worktree";

/** A repository stays one for long: a session page opened within this reuses the answer. */
export const REPO_TTL_MS = 10 * 60_000;
/** "Not a repository" may change with a `git init`: asked again sooner. */
export const NO_REPO_TTL_MS = 60_000;
/** Directories remembered per isolate: a few hundred sessions' worth; the oldest goes first. */
export const REPO_CACHE_MAX = 500;

type Entry = { info: RepoInfo; until: number };

export class RepoCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly max = REPO_CACHE_MAX) {}

  private static key(machineId: string, cwd: string): string {
    return `${machineId}\n${cwd}`;
  }

  /** The remembered answer, or undefined when there is none or it is stale. */
  get(machineId: string, cwd: string, now: number): RepoInfo | undefined {
    const k = RepoCache.key(machineId, cwd);
    const e = this.entries.get(k);
    if (!e) return undefined;
    if (e.until <= now) {
      this.entries.delete(k);
      return undefined;
    }
    return e.info;
  }

  /** Remembers the daemon's answer (a refusal to ask — offline, timeout — is never an answer to keep). */
  set(machineId: string, cwd: string, info: RepoInfo, now: number): void {
    const k = RepoCache.key(machineId, cwd);
    this.entries.delete(k);
    this.entries.set(k, { info, until: now + (info.repo ? REPO_TTL_MS : NO_REPO_TTL_MS) });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
