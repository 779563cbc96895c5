import { describe, expect, it } from "vitest";
import { insideRoots, normalizePosix, withoutTrailingSlashes } from "./paths";

describe("normalizePosix", () => {
  it("folds dots, repeated and trailing slashes; refuses relative paths", () => {
    expect(normalizePosix("/a//b/./c/")).toBe("/a/b/c");
    expect(normalizePosix("/a/b/../../..")).toBe("/");
    expect(normalizePosix("a/b")).toBeNull();
  });
});

describe("insideRoots", () => {
  const roots = ["/home/ana/src", "/work"];
  it("admits a root and what is below it", () => {
    expect(insideRoots("/work", roots)).toBe(true);
    expect(insideRoots("/home/ana/src/app/", roots)).toBe(true);
  });
  it("refuses siblings with a shared prefix, escapes with .., and relative paths", () => {
    expect(insideRoots("/workbench", roots)).toBe(false);
    expect(insideRoots("/work/../etc", roots)).toBe(false);
    expect(insideRoots("/tmp", roots)).toBe(false);
    expect(insideRoots("work/app", roots)).toBe(false);
  });
  it("leaves non-POSIX roots (a Windows daemon) to the daemon", () => {
    expect(insideRoots("C:\\src", ["C:\\src"])).toBe(true);
  });
});

describe("withoutTrailingSlashes", () => {
  it("drops the slashes that end a string, only those, in one pass", () => {
    expect(withoutTrailingSlashes("/repo/src///")).toBe("/repo/src");
    expect(withoutTrailingSlashes("https://x.test/")).toBe("https://x.test");
    expect(withoutTrailingSlashes("/")).toBe("");
    expect(withoutTrailingSlashes("a//b")).toBe("a//b");
    // A long run of slashes that does not end the string (the pattern it replaces backtracked from each of them).
    const slashes = `${"/".repeat(128 * 1024)}x`;
    expect(withoutTrailingSlashes(slashes)).toBe(slashes);
  });
});
