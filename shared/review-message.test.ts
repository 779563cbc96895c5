import { describe, expect, it } from "vitest";
import { ReviewCommentBody, reviewMessage } from "./review-message";

describe("the review message", () => {
  it("one message: comments by file and line, each with path:line and its quoted lines", () => {
    const msg = reviewMessage([
      { path: "src/b.ts", line: 3, endLine: 4, quoted: "const x = 1;\nconst y = 2;\n", text: "Merge these." },
      { path: "src/a.ts", line: 10, endLine: 10, quoted: "return null;", text: "  Throw instead?  " },
    ]);
    expect(msg).toBe(
      "Review of your changes (2 comments):\n\nsrc/a.ts:10\n> return null;\n\nThrow instead?\n\n---\n\nsrc/b.ts:3-4\n> const x = 1;\n> const y = 2;\n\nMerge these.",
    );
  });

  it("says one comment in the singular", () => {
    expect(reviewMessage([{ path: "a", line: 1, endLine: 1, quoted: "x", text: "y" }])).toMatch(/^Review of your changes \(1 comment\):/);
  });

  it("refuses an empty comment and a backwards range", () => {
    expect(ReviewCommentBody.safeParse({ path: "a", line: 1, endLine: 1, quoted: "", text: "  " }).success).toBe(false);
    expect(ReviewCommentBody.safeParse({ path: "a", line: 5, endLine: 2, quoted: "", text: "x" }).success).toBe(false);
  });
});
