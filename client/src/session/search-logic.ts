/**
 * The search panel's rules, without the DOM: a snippet cut into marked / plain pieces (rendered as
 * text, never HTML), and the walk of a search over the room's bounded answers (each reads one slice of
 * the session; the next continues where it stopped) until enough hits, the session's start, or a bound.
 */
import { MAX_SEARCH_QUERY_CHARS, MAX_SEARCH_RESULTS } from "../../../shared/limits";
import type { SearchAck, SearchHit } from "../../../shared/viewer-protocol";

/** Answers one search walks at most before it asks the reader ("Search further back"): ~120,000 rows. */
export const MAX_ANSWERS_PER_WALK = 30;
/** Typing pauses this long before the search runs by itself (Enter runs it at once). */
export const SEARCH_DEBOUNCE_MS = 350;
/** Shorter queries run on Enter only: one letter matches nearly every row. */
export const MIN_AUTO_QUERY_CHARS = 2;

export type Piece = { text: string; mark: boolean };

/** The snippet as pieces in order, the [start, end) ranges of `marks` marked (out-of-range or overlapping marks are clamped). */
export function snippetPieces(snippet: string, marks: readonly (readonly [number, number])[]): Piece[] {
  const out: Piece[] = [];
  let at = 0;
  for (const [a, b] of [...marks].sort((x, y) => x[0] - y[0])) {
    const start = Math.max(at, Math.min(a, snippet.length));
    const end = Math.max(start, Math.min(b, snippet.length));
    if (end === start) continue;
    if (start > at) out.push({ text: snippet.slice(at, start), mark: false });
    out.push({ text: snippet.slice(start, end), mark: true });
    at = end;
  }
  if (at < snippet.length) out.push({ text: snippet.slice(at), mark: false });
  return out;
}

/** Why a query cannot be searched, or null when it can. */
export function queryProblem(query: string): string | null {
  if (!query.trim()) return "Type something to search for.";
  if (query.length > MAX_SEARCH_QUERY_CHARS) return `A search can be at most ${MAX_SEARCH_QUERY_CHARS} characters.`;
  return null;
}

export type Ask = (query: string, before: number | undefined) => Promise<SearchAck | { error: string }>;
export type WalkState = { hits: SearchHit[]; continueBefore: number | null; done: boolean; error: string | null };

/**
 * Asks answer after answer from `before` (newest when unset) until MAX_SEARCH_RESULTS more hits (after `have`), the session's
 * first row, MAX_ANSWERS_PER_WALK answers, an error, or `stale()` (a newer search began). `onProgress`
 * sees the hits so far after each answer. Resolves with where it stopped (`continueBefore` null: the start).
 */
export async function walkSearch(ask: Ask, query: string, opts: { before?: number; have?: SearchHit[]; stale: () => boolean; onProgress: (s: WalkState) => void }): Promise<WalkState> {
  const state: WalkState = { hits: [...(opts.have ?? [])], continueBefore: opts.before ?? null, done: false, error: null };
  const had = state.hits.length;
  let before = opts.before;
  for (let n = 0; n < MAX_ANSWERS_PER_WALK; n++) {
    const answer = await ask(query, before);
    if (opts.stale()) return state;
    if ("error" in answer) return { ...state, error: answer.error };
    state.hits = [...state.hits, ...answer.hits];
    state.continueBefore = answer.continueBefore;
    state.done = answer.continueBefore === null;
    opts.onProgress({ ...state });
    if (state.done || state.hits.length - had >= MAX_SEARCH_RESULTS) return state;
    before = answer.continueBefore ?? undefined;
  }
  return state;
}
