/** A small line diff for tool-call diffs (LCS; large inputs fall back to old-then-new). Plain. */
import type { PatchLine } from "../../../shared/patch-lines";
export type DiffLine = { op: " " | "-" | "+"; text: string };

const MAX_CELLS = 250_000;

export function lineDiff(oldText: string | null, newText: string): DiffLine[] {
  const b = newText.split("\n");
  if (oldText === null || oldText === "") return b.map((text) => ({ op: "+", text }));
  const a = oldText.split("\n");
  if (a.length * b.length > MAX_CELLS) return [...a.map((text) => ({ op: "-" as const, text })), ...b.map((text) => ({ op: "+" as const, text }))];
  // lcs[i][j] = LCS length of a[i..], b[j..]
  const lcs: Uint32Array[] = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: " ", text: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ op: "-", text: a[i++]! });
    else out.push({ op: "+", text: b[j++]! });
  }
  while (i < a.length) out.push({ op: "-", text: a[i++]! });
  while (j < b.length) out.push({ op: "+", text: b[j++]! });
  return out;
}

/** Keeps changed lines and `context` lines around them; collapsed runs become a `…` marker. */
export function trimContext(lines: DiffLine[], context = 3): (DiffLine | { op: "…"; count: number })[] {
  const keep = new Uint8Array(lines.length);
  lines.forEach((l, i) => {
    if (l.op === " ") return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = 1;
  });
  const out: (DiffLine | { op: "…"; count: number })[] = [];
  let skipped = 0;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (skipped) out.push({ op: "…", count: skipped });
      skipped = 0;
      out.push(l);
    } else skipped++;
  });
  if (skipped) out.push({ op: "…", count: skipped });
  return out;
}

/**
 * A text edit (a tool's `diff` content) as numbered rows like a git patch's (shared/patch-lines.ts), so the changes
 * view shows, highlights and comments on it the same way: numbers are lines of the texts the tool reported;
 * a run of unchanged lines left out is a `⋯` row where git would start a hunk.
 */
export function textPatchLines(oldText: string | null, newText: string, context = 3): PatchLine[] {
  const out: PatchLine[] = [];
  let o = 1;
  let n = 1;
  // A text's final newline ends its last line; it does not start an empty one.
  const body = (t: string) => (t.endsWith("\n") ? t.slice(0, -1) : t);
  for (const l of trimContext(lineDiff(oldText === null ? null : body(oldText), body(newText)), context)) {
    if (l.op === "…") {
      o += l.count;
      n += l.count;
      out.push({ op: "@@", text: `⋯ ${l.count} unchanged line${l.count === 1 ? "" : "s"}` });
    } else if (l.op === "+") out.push({ op: "+", text: l.text, oldLine: null, newLine: n++ });
    else if (l.op === "-") out.push({ op: "-", text: l.text, oldLine: o++, newLine: null });
    else out.push({ op: " ", text: l.text, oldLine: o++, newLine: n++ });
  }
  return out;
}
