import { assertNever } from "./assert-never";
import type { PromptBlock } from "./blocks";

/**
 * Plain-text preview of a prompt (chip preview, session list). Its own module, without zod: the client imports it.
 * `images: false` leaves images out (where they show as thumbnails beside the text).
 */
export function promptPreview(blocks: readonly PromptBlock[], max = 200, opts: { images?: boolean } = {}): string {
  const parts: string[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case "text":
        parts.push(b.text);
        break;
      case "image":
        if (opts.images !== false) parts.push("[image]");
        break;
      case "resource_link":
        parts.push(`@${b.name}`);
        break;
      case "resource":
        parts.push(`@${fileName(b.resource.uri)}`);
        break;
      default:
        assertNever(b);
    }
  }
  const s = parts.join(" ").replace(/\s+/g, " ").trim();
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/** The last path segment of a file URI (what a chip or preview names an embedded file by). */
export function fileName(uri: string): string {
  // Cut at the first ? or #, found once (a pattern `[?#].*$` backtracked from each of them: a 4 KB URI of #s then a
  // line break cost 8 ms per block in the room, 0.4 s for a prompt's 32).
  const query = uri.search(/[?#]/);
  const tail = (query < 0 ? uri : uri.slice(0, query)).split("/").filter(Boolean).pop() ?? uri;
  try {
    return decodeURIComponent(tail);
  } catch {
    return tail;
  }
}
