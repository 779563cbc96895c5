import { z } from "zod";
import { assertNever } from "./assert-never";
import { MAX_PROMPT_BLOCKS, MAX_PROMPT_BYTES } from "./limits";

/** Prompt blocks a viewer may send: a subset of ACP ContentBlock. */
export const TextBlock = z.object({ type: z.literal("text"), text: z.string() });
export const ImageBlock = z.object({
  type: z.literal("image"),
  mimeType: z.string().max(100),
  data: z.string(),
});
export const ResourceLinkBlock = z.object({
  type: z.literal("resource_link"),
  uri: z.string().max(4096),
  name: z.string().max(1024),
});
export const PromptBlock = z.discriminatedUnion("type", [TextBlock, ImageBlock, ResourceLinkBlock]);
export type PromptBlock = z.infer<typeof PromptBlock>;

export function promptBytes(blocks: readonly PromptBlock[]): number {
  let n = 0;
  for (const b of blocks) {
    switch (b.type) {
      case "text":
        n += b.text.length;
        break;
      case "image":
        n += b.data.length + b.mimeType.length;
        break;
      case "resource_link":
        n += b.uri.length + b.name.length;
        break;
      default:
        assertNever(b);
    }
  }
  return n;
}

export const PromptBlocks = z
  .array(PromptBlock)
  .min(1)
  .max(MAX_PROMPT_BLOCKS)
  .refine((bs) => promptBytes(bs) <= MAX_PROMPT_BYTES, { message: "PROMPT_TOO_LARGE" })
  .refine((bs) => bs.some((b) => b.type !== "text" || b.text.trim().length > 0), {
    message: "EMPTY_PROMPT",
  });

/** Joins prompts for the "merge queued into one turn" mode: text blocks separated by a blank line. */
export function mergePrompts(prompts: readonly (readonly PromptBlock[])[]): PromptBlock[] {
  const out: PromptBlock[] = [];
  prompts.forEach((blocks, i) => {
    if (i > 0) out.push({ type: "text", text: "\n\n" });
    out.push(...blocks);
  });
  // Coalesce adjacent text blocks so the agent sees one paragraph-separated text.
  const merged: PromptBlock[] = [];
  for (const b of out) {
    const last = merged[merged.length - 1];
    if (b.type === "text" && last?.type === "text") merged[merged.length - 1] = { type: "text", text: last.text + b.text };
    else merged.push(b);
  }
  return merged;
}
