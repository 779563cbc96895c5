import { assertNever } from "./assert-never";
import type { PromptBlock } from "./blocks";

/** Plain-text preview of a prompt (chip preview, session list). Its own module, without zod: the client imports it. */
export function promptPreview(blocks: readonly PromptBlock[], max = 200): string {
  const parts: string[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case "text":
        parts.push(b.text);
        break;
      case "image":
        parts.push("[image]");
        break;
      case "resource_link":
        parts.push(`@${b.name}`);
        break;
      default:
        assertNever(b);
    }
  }
  const s = parts.join(" ").replace(/\s+/g, " ").trim();
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}
