import { describe, expect, it } from "vitest";
import { isBinary, newFilePatch, splitPatch, withinBudget } from "./diff-rules";

const PATCH = `diff --git a/src/a.ts b/src/a.ts
index 1111111..2222222 100644
--- a/src/a.ts
+++ b/src/a.ts
@@ -1 +1 @@
-export const a = 1;
+export const a = 2;
diff --git a/old.md b/new.md
similarity index 90%
rename from old.md
rename to new.md
index 3333333..4444444 100644
--- a/old.md
+++ b/new.md
@@ -1,2 +1,2 @@
 # t
-x
+y
diff --git a/img.png b/img.png
new file mode 100644
index 0000000..5555555
Binary files /dev/null and b/img.png differ
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 6666666..0000000
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
`;

describe("diff rules", () => {
  it("cuts git's diff into files: modified, renamed, binary, deleted", () => {
    expect(splitPatch(PATCH)).toEqual([
      { path: "src/a.ts", oldPath: null, status: "modified", binary: false, patch: "@@ -1 +1 @@\n-export const a = 1;\n+export const a = 2;", truncated: false },
      { path: "new.md", oldPath: "old.md", status: "renamed", binary: false, patch: "@@ -1,2 +1,2 @@\n # t\n-x\n+y", truncated: false },
      { path: "img.png", oldPath: null, status: "added", binary: true, patch: null, truncated: false },
      { path: "gone.txt", oldPath: null, status: "deleted", binary: false, patch: "@@ -1 +0,0 @@\n-bye", truncated: false },
    ]);
    expect(splitPatch("")).toEqual([]);
  });

  it("makes a new file's patch", () => {
    expect(newFilePatch("a\nb\n")).toBe("@@ -0,0 +1,2 @@\n+a\n+b");
    expect(newFilePatch("one")).toBe("@@ -0,0 +1 @@\n+one\n\\ No newline at end of file");
    expect(newFilePatch("")).toBe("");
  });

  it("calls a file with a NUL in its first bytes binary", () => {
    expect(isBinary(new Uint8Array([65, 0, 66]))).toBe(true);
    expect(isBinary(new TextEncoder().encode("plain text"))).toBe(false);
  });

  it("keeps patches while the budget lasts and lists the rest", () => {
    const f = (path: string, n: number) => ({ path, oldPath: null, status: "modified" as const, binary: false, patch: "x".repeat(n), truncated: false });
    const out = withinBudget([f("a", 60), f("b", 60), f("c", 30)], 100, 10);
    expect(out.files.map((x) => [x.path, x.patch?.length ?? null, x.truncated])).toEqual([
      ["a", 60, false],
      ["b", null, true],
      ["c", 30, false],
    ]);
    expect(out.note).toBe("1 file's diff left out: the diff is larger than 0 KB");
    expect(withinBudget([f("a", 1), f("b", 1)], 100, 1).note).toBe("1 more files not listed");
  });
});
