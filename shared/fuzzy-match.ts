/**
 * Fuzzy matching of file paths for the Sender's `@` picker (issue 29 #3): the query's characters in order,
 * case-insensitive, anywhere in the path. Shared by the daemon (which ranks the machine's files) and the client
 * (which re-filters the last answer while the next is on its way), so both order a list the same way.
 */

/** Score bonuses: a hit at a word start or in the file's own name reads as what the user meant. */
const BONUS_WORD_START = 8;
const BONUS_CONSECUTIVE = 5;
const BONUS_IN_BASENAME = 3;
/** Per character of the path: among equal hits, the shorter path first. */
const PENALTY_PER_CHAR = 0.05;

const isBoundary = (ch: string | undefined) => ch === undefined || ch === "/" || ch === "_" || ch === "-" || ch === "." || ch === " ";

/** A match's score (higher is better), or null when `query` is not a subsequence of `path`. An empty query matches all. */
export function fuzzyScore(path: string, query: string): number | null {
  const q = query.toLowerCase();
  if (!q) return -path.length * PENALTY_PER_CHAR;
  const p = path.toLowerCase();
  const baseStart = path.lastIndexOf("/") + 1;
  let score = 0;
  let at = 0;
  let prev = -2;
  for (const ch of q) {
    const i = p.indexOf(ch, at);
    if (i < 0) return null;
    score += 1;
    if (isBoundary(path[i - 1]) || (path[i - 1] !== undefined && /[a-z]/.test(path[i - 1]!) && /[A-Z]/.test(path[i]!))) score += BONUS_WORD_START;
    if (i === prev + 1) score += BONUS_CONSECUTIVE;
    if (i >= baseStart) score += BONUS_IN_BASENAME;
    prev = i;
    at = i + 1;
  }
  return score - path.length * PENALTY_PER_CHAR;
}

/** The paths matching `query`, best first (ties: shorter, then alphabetical), at most `limit`. */
export function fuzzyFilter(paths: readonly string[], query: string, limit: number): string[] {
  const scored: { path: string; score: number }[] = [];
  for (const path of paths) {
    const score = fuzzyScore(path, query);
    if (score !== null) scored.push({ path, score });
  }
  scored.sort((a, b) => b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return scored.slice(0, limit).map((s) => s.path);
}
