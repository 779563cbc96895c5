/**
 * Pure rules for a session's worktree: names (the suffix on a clash, the
 * folder under the managed directory) and the readings of git's porcelain output. No I/O: git-run.ts runs git.
 */

/** Suffixes tried on a clash before giving up (`name-2` … `name-99`): beyond that something else is wrong. */
export const MAX_NAME_SUFFIX = 99;
/** `wanted`, or `wanted-2`, `wanted-3`… the first that `taken` refuses; null when every suffix is taken. */
export function firstFree(wanted: string, taken: (name: string) => boolean): string | null {
  if (!taken(wanted)) return wanted;
  for (let i = 2; i <= MAX_NAME_SUFFIX; i++) {
    const next = `${wanted}-${i}`;
    if (!taken(next)) return next;
  }
  return null;
}

/** The worktree's folder name for a branch: one path segment (slashes become dashes). */
export function folderFor(branch: string): string {
  return branch.replace(/[/\\]+/g, "-").replace(/^[.-]+/, "") || "worktree";
}

/**
 * Branch names Baton refuses before git sees them (git's own `check-ref-format --branch` is the final word):
 * empty, an option-looking name, whitespace or control characters. Null when acceptable.
 */
export function branchRefusal(name: string): string | null {
  if (!name.trim()) return "the branch name is empty";
  if (name.startsWith("-")) return `"${name}" is not a branch name (it starts with a dash)`;
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f]/.test(name)) return `"${name}" is not a branch name (it has spaces or control characters)`;
  return null;
}

export type PorcelainStatus = { files: number; untracked: number };

/** `git status --porcelain=v1 -z` read as counts: every entry is a changed file; `??` ones are untracked. */
export function readStatus(z: string): PorcelainStatus {
  const entries = z.split("\0").filter(Boolean);
  let files = 0;
  let untracked = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    files++;
    if (e.startsWith("??")) untracked++;
    // A rename / copy carries its source as the next entry.
    if (e[0] === "R" || e[0] === "C") i++;
  }
  return { files, untracked };
}

export type ListedWorktree = { path: string; branch: string | null; prunable: boolean };

/** `git worktree list --porcelain` as worktrees (the first is the main checkout). */
export function readWorktreeList(text: string): ListedWorktree[] {
  const out: ListedWorktree[] = [];
  for (const block of text.split(/\n\n+/)) {
    let path: string | null = null;
    let branch: string | null = null;
    let prunable = false;
    for (const line of block.split("\n")) {
      if (line.startsWith("worktree ")) path = line.slice("worktree ".length);
      else if (line.startsWith("branch ")) branch = line.slice("branch ".length).replace(/^refs\/heads\//, "");
      else if (line.startsWith("prunable")) prunable = true;
    }
    if (path) out.push({ path, branch, prunable });
  }
  return out;
}

/** Why a worktree is kept rather than removed (null: nothing would be lost). */
export function keepReason(dirtyFiles: number, unpushedCommits: number): string | null {
  const parts: string[] = [];
  if (dirtyFiles) parts.push(`${dirtyFiles} uncommitted ${dirtyFiles === 1 ? "file" : "files"}`);
  if (unpushedCommits) parts.push(`${unpushedCommits} ${unpushedCommits === 1 ? "commit" : "commits"} on no remote`);
  return parts.length ? `the worktree holds ${parts.join(" and ")}` : null;
}
