/**
 * `history.search`: the session's rows searched newest first, over the `compacted` table.
 *
 * Bounded per answer: at most `limit` hits and SEARCH_SLICE_ROWS rows read (one synchronous slice of
 * a few ms — the room serves live events and other ops between two answers); `continueBefore` says
 * where the next answer goes on, so a client walks a 100,000-event session slice by slice. The log is
 * compacted first (as a join does), so the rows searched are the rows a viewer sees.
 */
import { MAX_SEARCH_RESULTS, SEARCH_SLICE_ROWS } from "../../shared/limits";
import type { SearchAck, SearchHit } from "../../shared/viewer-protocol";
import type { RoomStore } from "./room-store";
import { hitOf, likePattern } from "./search-text";

export function searchHistory(store: RoomStore, query: string, opts: { before?: number; limit?: number } = {}, sliceRows = SEARCH_SLICE_ROWS): SearchAck {
  store.compact();
  const limit = Math.min(opts.limit ?? MAX_SEARCH_RESULTS, MAX_SEARCH_RESULTS);
  const before = opts.before ?? store.headSeq() + 1;
  const slice = store.searchSlice(before, sliceRows, likePattern(query));
  const hits: SearchHit[] = [];
  for (const item of slice.items) {
    const hit = hitOf(item, query);
    if (!hit) continue;
    hits.push(hit);
    // Full: the next answer continues below this row (rows between it and the slice's end are unread).
    if (hits.length >= limit) return { hits, continueBefore: item.pos, truncated: true };
  }
  const continueBefore = slice.more ? slice.lowest : null;
  return { hits, continueBefore, truncated: continueBefore !== null };
}
