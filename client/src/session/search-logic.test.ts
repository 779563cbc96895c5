import { describe, expect, it } from "vitest";
import { queryProblem, snippetPieces } from "./search-logic";

describe("search logic", () => {
  it("cuts a snippet into marked and plain pieces, clamping bad marks", () => {
    expect(snippetPieces("a cat and a cat", [[2, 5], [12, 15]])).toEqual([
      { text: "a ", mark: false },
      { text: "cat", mark: true },
      { text: " and a ", mark: false },
      { text: "cat", mark: true },
    ]);
    expect(snippetPieces("short", [[3, 99], [1, 4], [50, 60]])).toEqual([
      { text: "s", mark: false },
      { text: "hor", mark: true },
      { text: "t", mark: true },
    ]);
    expect(snippetPieces("", [])).toEqual([]);
  });
  it("says why a query cannot run", () => {
    expect(queryProblem("  ")).toBe("Type something to search for.");
    expect(queryProblem("x".repeat(201))).toBe("A search can be at most 200 characters.");
    expect(queryProblem("ok")).toBeNull();
  });
});
