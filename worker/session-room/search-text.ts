/**
 * What a session search finds in a row, and how a hit reads: pure rules over one compacted item.
 *
 * Searched: a user message's text, an agent answer's text, a tool call's title and command — not
 * thoughts, tool output or JSON keys. Case-insensitive (Unicode), the query trimmed and its runs of
 * white space read as one space. The SQL prefilter (`likePattern`) only narrows the rows read; every
 * hit is confirmed on the row as the fold renders it, so a match inside a JSON key or escape never counts.
 */
import { fold, initialSessionState, permissionSubject, type Row } from "../../shared/fold";
import { SEARCH_SNIPPET_CONTEXT } from "../../shared/limits";
import type { SearchHit, SessionEvent } from "../../shared/viewer-protocol";

export type SearchItem = { pos: number; events: SessionEvent[] };

/** The query as matched: trimmed, white space collapsed. */
export function normalQuery(query: string): string {
  return query.trim().replace(/\s+/g, " ");
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A LIKE pattern (ESCAPE '\') matching a stored item body (JSON) that may hold the query; null when
 *  SQLite's LIKE cannot prefilter it (its case folding is ASCII-only: a non-ASCII query reads every row). */
export function likePattern(query: string): string | null {
  const q = normalQuery(query);
  if (!q || /[^\x20-\x7e]/.test(q)) return null;
  // The body is JSON: the text appears in it as JSON.stringify writes it (quotes and backslashes escaped).
  const inJson = JSON.stringify(q).slice(1, -1);
  // A space stands for any run of white space in the text (a newline is `\n` in the JSON): a wildcard here.
  return `%${inJson.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/ /g, "%")}%`;
}

/** The row an item renders, folded alone (as a history page folds it: the same row id). */
export function rowOfItem(item: SearchItem): Row | null {
  const state = fold(initialSessionState(), { type: "snapshot", seq: 0, events: item.events, at: item.events.map(() => item.pos) });
  return state.rows[0] ?? null;
}

/** A tool's command line, from its (latest) raw input. */
export function toolCommand(events: readonly SessionEvent[]): string | null {
  let raw: unknown = undefined;
  for (const e of events) if (e.kind === "acp" && e.update["rawInput"] !== undefined && e.update["rawInput"] !== null) raw = e.update["rawInput"];
  return raw === undefined ? null : permissionSubject({ rawInput: raw }).command;
}

/**
 * An answer's Markdown as a reader sees it: the text without its markup (emphasis, inline code ticks, link
 * and image syntax, heading / quote / list markers, code fences), so a snippet reads like the transcript
 * and a search matches the words shown. Underscores inside words (snake_case) stay.
 */
export function readableMarkdown(md: string): string {
  // No pattern here crosses what ends it (a line's end, its own closing delimiter), so each match looks no further
  // than that: linear in the text. A fence line's `^\s*` that ran across blank lines, a strong span taken lazily
  // to the end from every unclosed `**`, a link's text or target to the end from every `[`, were quadratic: 80 KB
  // of any took 0.5-3 s of the room's CPU.
  return md
    .replace(/^[ \t]*(```|~~~).*$/gm, "")
    .replace(/!\[([^[\]]*)\]\([^()]*\)/g, "$1")
    .replace(/\[([^[\]]+)\]\([^()]*\)/g, "$1")
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+(\[[ xX]\]\s+)?)/gm, "")
    .replace(/\*\*(?=\S)((?:(?!\*\*)[^])*?\S)\*\*/g, "$1")
    .replace(/__(?=\S)((?:(?!__)[^])*?\S)__/g, "$1")
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?!\w)/g, "$1$2")
    .replace(/(^|\W)_(?=\S)([^_\n]*?\S)_(?!\w)/g, "$1$2")
    .replace(/`([^`\n]+)`/g, "$1");
}

/** The searchable fields of a row, in the order a hit prefers them; null for rows a search skips. */
export function searchFields(row: Row, events: readonly SessionEvent[]): { kind: SearchHit["kind"]; fields: string[]; label?: string } | null {
  switch (row.kind) {
    case "user":
      return { kind: "user", fields: [row.blocks.map((b) => (b.type === "text" ? b.text : "")).join("\n")], label: row.author.name };
    case "agent":
      return { kind: "agent", fields: [readableMarkdown(row.text)] };
    case "tool":
      return { kind: "tool", fields: [row.title, toolCommand(events) ?? ""], label: row.title };
    default:
      return null;
  }
}

/** Plain text around the first match of `q` in `text`, with the [start, end) of every match in it. */
export function snippetOf(text: string, q: string): { snippet: string; marks: [number, number][] } | null {
  const re = new RegExp(escapeRegExp(q).replace(/ /g, "\\s+"), "giu");
  const first = re.exec(text);
  if (!first) return null;
  let from = Math.max(0, first.index - SEARCH_SNIPPET_CONTEXT);
  let to = Math.min(text.length, first.index + first[0].length + SEARCH_SNIPPET_CONTEXT);
  // Whole words at the edges (never cut inside the match).
  if (from > 0) {
    const space = text.slice(from, first.index).search(/\s/);
    if (space >= 0) from += space + 1;
  }
  if (to < text.length) {
    const tail = text.slice(first.index + first[0].length, to);
    const space = tail.search(/\s\S*$/);
    if (space >= 0) to = first.index + first[0].length + space;
  }
  const body = text.slice(from, to).replace(/\s+/g, " ");
  const snippet = `${from > 0 ? "…" : ""}${body}${to < text.length ? "…" : ""}`;
  const marks: [number, number][] = [];
  const inSnippet = new RegExp(escapeRegExp(q), "giu");
  for (let m = inSnippet.exec(snippet); m; m = inSnippet.exec(snippet)) {
    if (!m[0].length) break;
    marks.push([m.index, m.index + m[0].length]);
  }
  return { snippet, marks };
}

/** The hit an item makes for `query`, or null (no match in its searchable text, or not a searched row). */
export function hitOf(item: SearchItem, query: string): SearchHit | null {
  const q = normalQuery(query);
  if (!q) return null;
  const row = rowOfItem(item);
  if (!row) return null;
  const found = searchFields(row, item.events);
  if (!found) return null;
  for (const [i, text] of found.fields.entries()) {
    const s = snippetOf(text, q);
    if (!s) continue;
    // A tool matched in its command: the title says which tool; a user row says who wrote it.
    const label = found.kind === "user" ? found.label : found.kind === "tool" && i > 0 ? found.label : undefined;
    return { at: item.pos, rowId: row.id, kind: found.kind, snippet: s.snippet, marks: s.marks, ...(label ? { label } : {}) };
  }
  return null;
}
