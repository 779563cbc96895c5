/**
 * Review comments (issue 28 #3): a comment on a line or a range of a changed file, and "Send review" — every
 * comment in one message to the agent, each with `path:line` and the quoted lines. Pure.
 */
import { z } from "zod";

/** Comments one review holds: a careful review, not a dump. */
export const MAX_REVIEW_COMMENTS = 50;
/** One comment's text, and the lines it quotes (a long range is quoted up to this). */
export const MAX_COMMENT_CHARS = 4000;
export const MAX_QUOTED_CHARS = 4000;

export const ReviewCommentBody = z
  .object({
    path: z.string().min(1).max(4096),
    /** Lines in the new file (the old file's for a removed line): first and last, 1-based. */
    line: z.number().int().min(1),
    endLine: z.number().int().min(1),
    quoted: z.string().max(MAX_QUOTED_CHARS),
    text: z.string().trim().min(1, "write a comment").max(MAX_COMMENT_CHARS),
  })
  .refine((c) => c.endLine >= c.line, { message: "the range ends before it starts" });
export type ReviewCommentBody = z.infer<typeof ReviewCommentBody>;

export const ReviewComment = z.object({
  id: z.string(),
  path: z.string(),
  line: z.number(),
  endLine: z.number(),
  quoted: z.string(),
  text: z.string(),
  author: z.string(),
  createdAt: z.number(),
});
export type ReviewComment = z.infer<typeof ReviewComment>;

const where = (c: Pick<ReviewComment, "path" | "line" | "endLine">) => (c.endLine > c.line ? `${c.path}:${c.line}-${c.endLine}` : `${c.path}:${c.line}`);

/** The one message "Send review" sends: comments ordered by file and line, each quoting its lines. */
export function reviewMessage(comments: readonly Pick<ReviewComment, "path" | "line" | "endLine" | "quoted" | "text">[]): string {
  const sorted = [...comments].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.endLine - b.endLine));
  const parts = sorted.map((c) => {
    const quote = c.quoted
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => `> ${l}`)
      .join("\n");
    return `${where(c)}\n${quote}\n\n${c.text.trim()}`;
  });
  const n = comments.length;
  return `Review of your changes (${n} ${n === 1 ? "comment" : "comments"}):\n\n${parts.join("\n\n---\n\n")}`;
}
