/**
 * Terminal output that agents put in a tool call's `_meta` (ACP leaves `_meta` to implementations; the
 * tool's `content` only names the terminal: `{type: "terminal", terminalId}`):
 * - codex `terminal_output_delta: {terminal_id, data}` and pi `terminal_output: {terminal_id, data}` — both
 *   pieces to append (pi sends what its command printed since the last update, not the whole text);
 * - `terminal_exit: {terminal_id, exit_code, signal}` once the command ended.
 * One home for the rule: the fold accumulates it, the room's compaction merges it the same way.
 */
import { MAX_TERMINAL_OUTPUT_CHARS } from "./limits";

const OUTPUT_KEYS = ["terminal_output_delta", "terminal_output"] as const;

export type TerminalChunk = { terminalId: string; data: string; /** Older output was cut before this piece (a compacted merge). */ truncated: boolean };
export type TerminalExit = { terminalId: string; exitCode: number | null; signal: string | null };

function record(v: unknown): Record<string, unknown> | null {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** The output piece a tool call's `_meta` carries, if any (with the key it came under). */
function outputEntry(meta: Record<string, unknown> | null): { key: (typeof OUTPUT_KEYS)[number]; chunk: TerminalChunk } | null {
  if (!meta) return null;
  for (const key of OUTPUT_KEYS) {
    const o = record(meta[key]);
    if (o && typeof o["data"] === "string")
      return { key, chunk: { terminalId: typeof o["terminal_id"] === "string" ? o["terminal_id"] : "", data: o["data"], truncated: o["truncated"] === true } };
  }
  return null;
}

export function terminalChunk(meta: unknown): TerminalChunk | null {
  return outputEntry(record(meta))?.chunk ?? null;
}

export function terminalExit(meta: unknown): TerminalExit | null {
  const e = record(record(meta)?.["terminal_exit"]);
  if (!e) return null;
  return {
    terminalId: typeof e["terminal_id"] === "string" ? e["terminal_id"] : "",
    exitCode: typeof e["exit_code"] === "number" ? e["exit_code"] : null,
    signal: typeof e["signal"] === "string" && e["signal"] ? e["signal"] : null,
  };
}

/**
 * `prev + data`, keeping at most `cap` characters: the tail, from the first line start inside it (no
 * half line, no half escape sequence at the top). `cut`: something was dropped.
 */
export function appendTail(prev: string, data: string, cap: number = MAX_TERMINAL_OUTPUT_CHARS): { text: string; cut: boolean } {
  const all = prev + data;
  if (all.length <= cap) return { text: all, cut: false };
  const tail = all.slice(all.length - cap);
  const nl = tail.indexOf("\n");
  return { text: nl >= 0 && nl < tail.length - 1 ? tail.slice(nl + 1) : tail, cut: true };
}

/** False when both carry output of different terminals: merging those would lose the first one's text. */
export function canMergeToolMeta(base: unknown, update: unknown): boolean {
  const before = outputEntry(record(base));
  const after = outputEntry(record(update));
  return !before || !after || before.chunk.terminalId === after.chunk.terminalId;
}

/**
 * A tool call update's `_meta` merged into the earlier one's (for compaction): keys of the update win,
 * except that output pieces of the same terminal are concatenated (bounded like the fold, and marked
 * `truncated` when cut, so the folded result shows the same text and the same "cut" note).
 */
export function mergeToolMeta(base: unknown, update: unknown): unknown {
  const b = record(base);
  const u = record(update);
  if (!b || !u) return update ?? base;
  const merged: Record<string, unknown> = { ...b, ...u };
  const before = outputEntry(b);
  const after = outputEntry(u);
  if (before && !after) return merged;
  // Different terminals (see canMergeToolMeta): the update's wins.
  if (!before || !after || before.chunk.terminalId !== after.chunk.terminalId) return merged;
  const { text, cut } = appendTail(before.chunk.data, after.chunk.data);
  for (const key of OUTPUT_KEYS) delete merged[key];
  merged[after.key] = { ...record(u[after.key]), data: text, ...(cut || before.chunk.truncated || after.chunk.truncated ? { truncated: true } : {}) };
  return merged;
}
