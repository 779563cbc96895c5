/** A unified patch's hunks (git's `@@ … @@` and the lines under them) as rows to show, with line numbers. Pure. */

export type PatchLine =
  | { op: "@@"; text: string }
  | { op: " " | "-" | "+"; text: string; /** In the old file (null for an added line). */ oldLine: number | null; /** In the new file (null for a removed line). */ newLine: number | null };

export function patchLines(patch: string): PatchLine[] {
  const out: PatchLine[] = [];
  let o = 0;
  let n = 0;
  for (const line of patch.split("\n")) {
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/.exec(line);
    if (h) {
      o = Number(h[1]);
      n = Number(h[2]);
      out.push({ op: "@@", text: line });
      continue;
    }
    if (line.startsWith("\\")) continue; // "\ No newline at end of file"
    const op = line[0];
    if (op === "+") out.push({ op: "+", text: line.slice(1), oldLine: null, newLine: n++ });
    else if (op === "-") out.push({ op: "-", text: line.slice(1), oldLine: o++, newLine: null });
    else if (op === " " || line === "") {
      if (!out.length) continue;
      out.push({ op: " ", text: line.slice(1), oldLine: o++, newLine: n++ });
    }
  }
  // A patch ends with its last line; a trailing empty string from the split is not a context line.
  const last = out.at(-1);
  if (last && last.op === " " && last.text === "" && patch.endsWith("\n")) out.pop();
  return out;
}

/** One side of a side-by-side row: the unified row it shows (its index, so a selection means the same in both views). */
export type SideCell = { index: number; line: Extract<PatchLine, { op: " " | "-" | "+" }> };
/** A row of the side-by-side view: a hunk header across both sides, or the old line beside the new one. */
export type SideRow = { kind: "hunk"; index: number; text: string } | { kind: "pair"; left: SideCell | null; right: SideCell | null };

/**
 * The unified rows side by side: a context line on both sides; a run of removed lines beside the run of added
 * lines that follows it, paired in order (the longer run's rest beside nothing). Pure.
 */
export function sideBySide(rows: readonly PatchLine[]): SideRow[] {
  const out: SideRow[] = [];
  let dels: SideCell[] = [];
  let adds: SideCell[] = [];
  const flush = () => {
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) out.push({ kind: "pair", left: dels[k] ?? null, right: adds[k] ?? null });
    dels = [];
    adds = [];
  };
  rows.forEach((line, index) => {
    if (line.op === "@@") {
      flush();
      out.push({ kind: "hunk", index, text: line.text });
    } else if (line.op === "-") {
      if (adds.length) flush(); // a removal after additions starts a new change
      dels.push({ index, line });
    } else if (line.op === "+") adds.push({ index, line });
    else {
      flush();
      out.push({ kind: "pair", left: { index, line }, right: { index, line } });
    }
  });
  flush();
  return out;
}
