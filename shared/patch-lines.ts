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
