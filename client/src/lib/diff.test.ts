import { describe, expect, it } from "vitest";
import { textPatchLines } from "./diff";

describe("textPatchLines: a logged edit as numbered rows", () => {
  it("numbers old and new lines, and marks left-out unchanged runs", () => {
    const old = ["1", "2", "3", "4", "5", "6", "7", "8", "9"].join("\n");
    const now = ["1", "2", "3", "4", "5", "6", "7", "EIGHT", "9"].join("\n");
    expect(textPatchLines(old, now, 1)).toEqual([
      { op: "@@", text: "⋯ 6 unchanged lines" },
      { op: " ", text: "7", oldLine: 7, newLine: 7 },
      { op: "-", text: "8", oldLine: 8, newLine: null },
      { op: "+", text: "EIGHT", oldLine: null, newLine: 8 },
      { op: " ", text: "9", oldLine: 9, newLine: 9 },
    ]);
  });

  it("a final newline is no extra line", () => {
    expect(textPatchLines("a\n", "a\nb\n")).toEqual([
      { op: " ", text: "a", oldLine: 1, newLine: 1 },
      { op: "+", text: "b", oldLine: null, newLine: 2 },
    ]);
  });

  it("a new file is all added lines from 1", () => {
    expect(textPatchLines(null, "a\nb")).toEqual([
      { op: "+", text: "a", oldLine: null, newLine: 1 },
      { op: "+", text: "b", oldLine: null, newLine: 2 },
    ]);
  });
});
