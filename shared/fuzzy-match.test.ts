import { describe, expect, it } from "vitest";
import { fuzzyFilter, fuzzyScore } from "./fuzzy-match";

const PATHS = ["src/app.ts", "src/api/apple.ts", "README.md", "docs/ARCHITECTURE.md", "src/views/AppShell.tsx", "test/app.test.ts"];

describe("fuzzy-match", () => {
  it("matches the query's characters in order, case-insensitive; out of order does not match", () => {
    expect(fuzzyScore("src/app.ts", "sat")).not.toBeNull();
    expect(fuzzyScore("src/app.ts", "APP")).not.toBeNull();
    expect(fuzzyScore("src/app.ts", "tsa")).toBeNull();
    expect(fuzzyScore("src/app.ts", "x")).toBeNull();
  });

  it("ranks a hit in the file name and at word starts above a scattered one", () => {
    const app = fuzzyFilter(PATHS, "app", 10);
    expect(app[0]).toBe("src/app.ts");
    expect(new Set(app)).toEqual(new Set(["src/app.ts", "src/api/apple.ts", "test/app.test.ts", "src/views/AppShell.tsx"]));
    expect(fuzzyScore("src/app.ts", "app")!).toBeGreaterThan(fuzzyScore("src/api/apple.ts", "app")!);
    expect(fuzzyFilter(PATHS, "arch", 10)).toEqual(["docs/ARCHITECTURE.md"]);
    // camelCase humps count as word starts: "as" finds AppShell before the scattered "docs/ARCHITECTURE.md".
    expect(fuzzyFilter(PATHS, "as", 10)[0]).toBe("src/views/AppShell.tsx");
  });

  it("an empty query lists every path, shorter first, and the limit bounds the answer", () => {
    expect(fuzzyFilter(PATHS, "", 3)).toEqual(["README.md", "src/app.ts", "src/api/apple.ts"]);
    expect(fuzzyFilter(PATHS, "", 100)).toHaveLength(PATHS.length);
    expect(fuzzyFilter(PATHS, "zzz", 10)).toEqual([]);
  });
});
