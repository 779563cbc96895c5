import { z } from "zod";
import { MAX_PROMPT_BLOCKS, MAX_PROMPT_BYTES, MAX_PROMPT_IMAGE_CHARS } from "./limits";
import { promptBytes, promptImageChars } from "./prompt-size";

export { blockTextChars, promptBytes, promptImageChars } from "./prompt-size";

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
/** A text file's content handed over whole (ACP embedded resource; only to agents advertising `embeddedContext`). */
export const EmbeddedResourceBlock = z.object({
  type: z.literal("resource"),
  resource: z.object({ uri: z.string().max(4096), text: z.string(), mimeType: z.string().max(100).optional() }),
});
export const PromptBlock = z.discriminatedUnion("type", [TextBlock, ImageBlock, ResourceLinkBlock, EmbeddedResourceBlock]);
export type PromptBlock = z.infer<typeof PromptBlock>;

export const PromptBlocks = z
  .array(PromptBlock)
  .min(1)
  .max(MAX_PROMPT_BLOCKS)
  .refine((bs) => promptBytes(bs) <= MAX_PROMPT_BYTES && promptImageChars(bs) <= MAX_PROMPT_IMAGE_CHARS, { message: "PROMPT_TOO_LARGE" })
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
