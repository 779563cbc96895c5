import { describe, expect, it } from "vitest";
import { patchLines } from "./patch-lines";

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
