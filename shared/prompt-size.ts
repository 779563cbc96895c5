/** A prompt's sizes against its two budgets. Its own module, without zod: the client checks a draft with it. */
import { assertNever } from "./assert-never";

/** The blocks' shapes as far as size goes (blocks.ts's PromptBlock fits it; a block type added there must be added here). */
export type SizedBlock =
  | { type: "text"; text: string }
  | { type: "image"; mimeType: string; data: string }
  | { type: "resource_link"; uri: string; name: string }
  | { type: "resource"; resource: { uri: string; text: string } };

/** A block's characters against the text budget (MAX_PROMPT_BYTES); images have their own (promptImageChars). */
export function blockTextChars(b: SizedBlock): number {
  switch (b.type) {
    case "text":
      return b.text.length;
    case "image":
      return b.mimeType.length;
    case "resource_link":
      return b.uri.length + b.name.length;
    case "resource":
      return b.resource.uri.length + b.resource.text.length;
    default:
      return assertNever(b);
  }
}

/** Text, links and embedded files: the budget that bounds a prompt's UTF-8 (up to 3 bytes a character). */
export function promptBytes(blocks: readonly SizedBlock[]): number {
  let n = 0;
  for (const b of blocks) n += blockTextChars(b);
  return n;
}

/** Base64 characters of a prompt's images (ASCII: characters are bytes). */
export function promptImageChars(blocks: readonly SizedBlock[]): number {
  let n = 0;
  for (const b of blocks) if (b.type === "image") n += b.data.length;
  return n;
}
