import { describe, expect, it } from "vitest";
import { patchLines, sideBySide } from "./patch-lines";

describe("patchLines", () => {
  it("numbers old and new lines through the hunks", () => {
    expect(patchLines("@@ -1,3 +1,3 @@ fn\n a\n-b\n+B\n c\n@@ -10 +10,2 @@\n x\n+y\n\\ No newline at end of file")).toEqual([
      { op: "@@", text: "@@ -1,3 +1,3 @@ fn" },
      { op: " ", text: "a", oldLine: 1, newLine: 1 },
      { op: "-", text: "b", oldLine: 2, newLine: null },
      { op: "+", text: "B", oldLine: null, newLine: 2 },
      { op: " ", text: "c", oldLine: 3, newLine: 3 },
      { op: "@@", text: "@@ -10 +10,2 @@" },
      { op: " ", text: "x", oldLine: 10, newLine: 10 },
      { op: "+", text: "y", oldLine: null, newLine: 11 },
    ]);
    expect(patchLines("")).toEqual([]);
  });
});

describe("sideBySide", () => {
  it("puts context on both sides and a removed run beside the added run after it", () => {
    const rows = patchLines("@@ -1,4 +1,3 @@\n a\n-b\n-c\n+B\n d\n+e\n-f");
    const view = sideBySide(rows).map((r) => (r.kind === "hunk" ? `@@${r.index}` : `${r.left ? `${r.left.index}${r.left.line.op}${r.left.line.text}` : "_"}|${r.right ? `${r.right.index}${r.right.line.op}${r.right.line.text}` : "_"}`));
    expect(view).toEqual(["@@0", "1 a|1 a", "2-b|4+B", "3-c|_", "5 d|5 d", "_|6+e", "7-f|_"]);
  });

  it("every unified row appears once per side it belongs to (a selection maps back by index)", () => {
    const rows = patchLines("@@ -1,3 +1,3 @@\n-x\n-y\n+X\n+Y\n+Z\n z");
    const pairs = sideBySide(rows).flatMap((r) => (r.kind === "pair" ? [r.left?.index, r.right?.index] : [r.index]));
    expect(new Set(pairs.filter((i) => i !== undefined))).toEqual(new Set(rows.map((_, i) => i)));
  });
});
