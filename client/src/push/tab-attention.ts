/**
 * While the tab is hidden, the events that would have notified (a turn ended, a permission waits) are
 * counted into the title and a dot on the favicon, until the person looks again (pure rules here; the
 * page wiring is `create-tab-attention.ts`).
 */
import type { Row } from "../../../shared/fold";

export const FAVICON = "/favicon.svg";
/** The same mark with a red dot (scripts/make-icons.mjs). */
export const FAVICON_ALERT = "/favicon-alert.svg";

/** What of the session the count follows. */
export type AttentionSource = { ready: boolean; turnActive: boolean; rows: readonly Row[] };
export type AttentionMark = { turnActive: boolean; rowCount: number };

export const markOf = (s: AttentionSource): AttentionMark | null => (s.ready ? { turnActive: s.turnActive, rowCount: s.rows.length } : null);

/**
 * Events between two marks: the turn ended, and each new permission request still open. Nothing before
 * the replay finished (joining is not news) or across a re-snapshot (fewer rows than before).
 */
export function attentionEvents(prev: AttentionMark | null, next: AttentionSource): number {
  if (!prev || !next.ready || next.rows.length < prev.rowCount) return 0;
  let n = prev.turnActive && !next.turnActive ? 1 : 0;
  for (let i = prev.rowCount; i < next.rows.length; i++) {
    const r = next.rows[i];
    if (r?.kind === "permission" && r.resolved === null) n++;
  }
  return n;
}

export function attentionTitle(base: string, count: number): string {
  return count > 0 ? `(${count}) ${base}` : base;
}

export const faviconFor = (count: number): string => (count > 0 ? FAVICON_ALERT : FAVICON);
