/**
 * The live session list's state (issue 26): the first page, further pages and the feed's frames folded
 * into one sorted list under the active filter. Plain and immutable; `create-session-list.ts` wires it.
 *
 * The race rule: the feed is open before the first page is asked for, so a change racing the page is
 * never lost. Frames that arrive while the first page is on its way wait in `buffer` and are applied
 * after it; every row is taken only if its `version` is newer than what was seen of that session
 * (page or frame), so a change is never applied twice nor undone by an older page.
 */
import type { SessionFeedFrame, SessionListItem, SessionListPage, SessionListQuery } from "../../../shared/session-list";
import { matchesQuery } from "../../../shared/session-list-rules";

export type ListFilter = Pick<SessionListQuery, "text" | "agentId" | "machineId" | "status" | "archived">;

export const DEFAULT_FILTER: ListFilter = { archived: "hide" };

export type ListState = {
  filter: ListFilter;
  /** What the list shows: matches `filter`, newest activity first. */
  rows: readonly SessionListItem[];
  /** The cursor of the next page; null once the last page is in. */
  nextCursor: string | null;
  /** The first page for `filter` is on its way (frames wait in `buffer`). */
  loading: boolean;
  buffer: readonly SessionFeedFrame[];
  /** The newest version of every session seen (shown or not): the judge of stale rows. */
  latest: ReadonlyMap<string, SessionListItem>;
  /** Sessions the feed removed (deleted, access lost) and has not upserted since: no page brings them back. */
  gone: ReadonlySet<string>;
};

export function initialListState(filter: ListFilter = DEFAULT_FILTER): ListState {
  return { filter, rows: [], nextCursor: null, loading: true, buffer: [], latest: new Map(), gone: new Set() };
}

/** Newest activity first; ties by id, so every client (and the server's keyset) agrees on the order. */
export function byActivity(a: SessionListItem, b: SessionListItem): number {
  return b.lastActivityAt - a.lastActivityAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

export function sameFilter(a: ListFilter, b: ListFilter): boolean {
  const norm = (f: ListFilter) => [f.text?.trim() || "", f.agentId || "", f.machineId || "", f.status || "", f.archived];
  return norm(a).every((v, i) => v === norm(b)[i]);
}

/**
 * A first page is being asked for: a new filter (the rows go), or the same one again after the feed
 * reconnected (the rows stay on screen until the fresh page replaces them).
 */
export function beginLoad(s: ListState, filter: ListFilter): ListState {
  const keep = sameFilter(s.filter, filter);
  return { ...s, filter, loading: true, buffer: [], rows: keep ? s.rows : [], nextCursor: keep ? s.nextCursor : null };
}

/** The newest of what was seen and what arrived (a page row or an upsert). */
function newer(latest: ReadonlyMap<string, SessionListItem>, item: SessionListItem): SessionListItem {
  const held = latest.get(item.id);
  return held && held.version >= item.version ? held : item;
}

function remember(s: ListState, items: readonly SessionListItem[]): Map<string, SessionListItem> {
  const latest = new Map(s.latest);
  for (const it of items) latest.set(it.id, newer(latest, it));
  return latest;
}

/**
 * The first page for the current filter, asked for after the feed said hello: it replaces the rows (and
 * what the feed removed before it: the page is the newer word), then the frames that waited are applied.
 */
export function applyFirstPage(s: ListState, page: SessionListPage): ListState {
  const latest = remember(s, page.sessions);
  const rows = page.sessions.map((p) => latest.get(p.id)!).filter((r) => matchesQuery(r, s.filter));
  const base: ListState = { ...s, latest, gone: new Set(), rows: dedupe(rows.sort(byActivity)), nextCursor: page.nextCursor, loading: false, buffer: [] };
  return s.buffer.reduce(applyFrame, base);
}

/** The first page could not be had: the frames that waited are applied to the rows held (a retry asks again). */
export function abandonLoad(s: ListState): ListState {
  return s.buffer.reduce(applyFrame, { ...s, loading: false, buffer: [] });
}

/** A further page ("Load more"): rows not held yet join at their place. */
export function applyNextPage(s: ListState, page: SessionListPage): ListState {
  const latest = remember(s, page.sessions);
  const held = new Set(s.rows.map((r) => r.id));
  const added = page.sessions
    .filter((p) => !held.has(p.id) && !s.gone.has(p.id))
    .map((p) => latest.get(p.id)!)
    .filter((r) => matchesQuery(r, s.filter));
  return { ...s, latest, rows: dedupe([...s.rows, ...added].sort(byActivity)), nextCursor: page.nextCursor };
}

function dedupe(rows: SessionListItem[]): SessionListItem[] {
  const seen = new Set<string>();
  return rows.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)));
}

/**
 * Whether a row not held belongs in the loaded window: with more pages to come, a row that sorts after
 * the last one held is a later page's (it arrives with "Load more", at its place).
 */
function inWindow(s: ListState, item: SessionListItem): boolean {
  if (s.nextCursor === null) return true;
  const last = s.rows[s.rows.length - 1];
  return last !== undefined && byActivity(item, last) < 0;
}

/** One feed frame. While the first page is on its way, frames wait. */
export function applyFrame(s: ListState, f: SessionFeedFrame): ListState {
  if (f.type === "hello") return s;
  if (s.loading) return { ...s, buffer: [...s.buffer, f] };
  if (f.type === "remove") {
    const gone = new Set(s.gone).add(f.id);
    return { ...s, gone, rows: s.rows.filter((r) => r.id !== f.id) };
  }
  const id = f.item.id;
  const held = s.latest.get(id);
  // An upsert after a remove brings the session back (access granted again) even when the page already
  // held that version; otherwise an older or equal version is a change already applied.
  if (held && held.version >= f.item.version && !s.gone.has(id)) return s;
  const item = newer(s.latest, f.item);
  const latest = new Map(s.latest).set(id, item);
  let gone = s.gone;
  if (gone.has(id)) (gone = new Set(gone)).delete(id);
  const others = s.rows.filter((r) => r.id !== id);
  const shown = others.length !== s.rows.length;
  const take = matchesQuery(item, s.filter) && (shown || inWindow(s, item));
  return { ...s, latest, gone, rows: take ? [...others, item].sort(byActivity) : others };
}

// ---------------------------------------------------------------- selection (bulk archive)

export function toggleSelected(sel: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(sel);
  if (!next.delete(id)) next.add(id);
  return next;
}

/** Only rows still shown stay selected (a row archived, deleted or filtered out leaves the selection). */
export function pruneSelection(sel: ReadonlySet<string>, rows: readonly SessionListItem[]): ReadonlySet<string> {
  const shown = new Set(rows.map((r) => r.id));
  const kept = [...sel].filter((id) => shown.has(id));
  return kept.length === sel.size ? sel : new Set(kept);
}

/** What "Archive selected" can send: selected rows not archived yet, in list order. */
export function archivableSelection(sel: ReadonlySet<string>, rows: readonly SessionListItem[]): string[] {
  return rows.filter((r) => sel.has(r.id) && r.archivedAt === null && r.role !== "viewer").map((r) => r.id);
}

// ---------------------------------------------------------------- the page request

/** `GET /api/sessions`'s query for a filter (and a further page's cursor); blank fields are left out. */
export function listSearch(filter: ListFilter, cursor?: string | null): URLSearchParams {
  const q = new URLSearchParams();
  const text = filter.text?.trim();
  if (text) q.set("text", text);
  if (filter.agentId) q.set("agentId", filter.agentId);
  if (filter.machineId) q.set("machineId", filter.machineId);
  if (filter.status) q.set("status", filter.status);
  q.set("archived", filter.archived);
  if (cursor) q.set("cursor", cursor);
  return q;
}

/** The agents and machines seen (any row, shown or not) for the filter's choices, by label. */
export function filterChoices(latest: ReadonlyMap<string, SessionListItem>): { agents: { id: string; label: string }[]; machines: { id: string; label: string }[] } {
  const agents = new Map<string, string>();
  const machines = new Map<string, string>();
  for (const s of latest.values()) {
    agents.set(s.agentId, s.agentLabel);
    machines.set(s.machineId, s.machineName);
  }
  const list = (m: Map<string, string>) => [...m].map(([id, label]) => ({ id, label })).sort((a, b) => a.label.localeCompare(b.label));
  return { agents: list(agents), machines: list(machines) };
}
