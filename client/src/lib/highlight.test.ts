import { describe, expect, it } from "vitest";
import { patchLines } from "../../../shared/patch-lines";
import { highlightRows, MAX_HIGHLIGHT_CHARS } from "./highlight";
import { languageOf } from "./highlight-languages";

const classesOf = (tokens: { text: string; cls: string | null }[] | null) => (tokens ?? []).filter((t) => t.cls).map((t) => `${t.cls}:${t.text}`);
const textOf = (tokens: { text: string }[] | null) => (tokens ?? []).map((t) => t.text).join("");

describe("languageOf", () => {
  it("by extension or a well-known name; unknown is plain", () => {
    expect(languageOf("src/a.ts")).toBe("typescript");
    expect(languageOf("web/App.TSX")).toBe("typescript");
    expect(languageOf("deploy/Dockerfile")).toBe("dockerfile");
    expect(languageOf("a/b.py")).toBe("python");
    expect(languageOf("notes.weird")).toBeNull();
    expect(languageOf(".bashrc")).toBeNull();
    expect(languageOf("LICENSE")).toBeNull();
  });
});

describe("highlightRows", () => {
  it("colours each side and gives every row its own tokens, whose text is the row's text", async () => {
    const rows = patchLines("@@ -1,3 +1,3 @@\n /* a comment\n-   spanning */ const a = 1;\n+   spanning */ let b = \"two\";\n export {};");
    const tokens = (await highlightRows("x.ts", rows))!;
    expect(tokens).toHaveLength(rows.length);
    expect(tokens[0]).toBeNull(); // the hunk row
    rows.forEach((r, i) => r.op !== "@@" && expect(textOf(tokens[i]!)).toBe(r.text));
    // The comment started on the row before still colours the next one (highlighted as one text per side).
    expect(classesOf(tokens[2]!)).toEqual(expect.arrayContaining(["hljs-comment:   spanning */", "hljs-keyword:const", "hljs-number:1"]));
    expect(classesOf(tokens[3]!)).toEqual(expect.arrayContaining(["hljs-comment:   spanning */", "hljs-keyword:let", 'hljs-string:"two"']));
    expect(classesOf(tokens[4]!)).toContain("hljs-keyword:export");
  });

  it("hostile content stays text: markup in a file is a token's text, never an element", async () => {
    const evil = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const rows = patchLines(`@@ -0,0 +1 @@\n+${evil}`);
    const html = (await highlightRows("page.html", rows))!;
    expect(textOf(html[1]!)).toBe(evil);
    const js = (await highlightRows("x.js", patchLines(`@@ -0,0 +1 @@\n+const s = '${evil}';`)))!;
    expect(textOf(js[1]!)).toBe(`const s = '${evil}';`);
    for (const t of [...html[1]!, ...js[1]!]) expect(t.cls === null || /^[A-Za-z0-9_ -]+$/.test(t.cls)).toBe(true);
  });

  it("unknown languages and files too large to highlight are plain (null)", async () => {
    expect(await highlightRows("notes.weird", patchLines("@@ -0,0 +1 @@\n+x"))).toBeNull();
    const big = "x".repeat(MAX_HIGHLIGHT_CHARS + 1);
    expect(await highlightRows("a.ts", patchLines(`@@ -0,0 +1 @@\n+${big}`))).toBeNull();
  });
});
