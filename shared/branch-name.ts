/** The branch New session proposes for a session's worktree (issue 28): `baton/<slug of the session's title>`. */

/** A proposed branch's slug stays short enough to read in a phone's header. */
const MAX_SLUG_CHARS = 40;

export function proposeBranch(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_CHARS)
    .replace(/-+$/, "");
  return `baton/${slug || "session"}`;
}
