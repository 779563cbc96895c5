/**
 * What may be attached to a draft, and as which ACP block: images (where the agent advertises them, within the
 * prompt's image budget and the agent's own stated limits) and files (a text file embedded where the agent
 * advertises `embeddedContext`, else — and for a PDF or other binary — a resource link with its name). Pure:
 * the Sender's adapters read the files and call these.
 */
import type { PromptBlock } from "../../../shared/blocks";
import { promptBytes, promptImageChars } from "../../../shared/prompt-size";
import { MAX_IMAGE_DATA_CHARS, MAX_IMAGE_LONG_SIDE_PX, MAX_PROMPT_BLOCKS, MAX_PROMPT_BYTES, MAX_PROMPT_IMAGE_CHARS } from "../../../shared/limits";
import type { ConfigState } from "../../../shared/viewer-protocol";
import type { Attachment, Draft } from "../session/composer-logic";

/** Whether images can be attached now, and if not, why (the attach control says it). */
export type ImageOffer = { ok: true } | { ok: false; why: string };

export function imageOffer(config: ConfigState | null, canAct: boolean): ImageOffer {
  if (!canAct) return { ok: false, why: "Read-only: you cannot add to this session" };
  if (!config) return { ok: false, why: "Images: waiting for the agent to start" };
  if (!config.images) return { ok: false, why: "This agent does not take images (it did not advertise image prompts)" };
  return { ok: true };
}

/** How large one image may be after re-encoding, and how many a message may carry. */
export type ImageBudget = { maxChars: number; longSide: number; maxImages: number };

/** Ours, narrowed by what the agent states itself (qwen's `_meta.imageCapability`: bytes of the decoded image). */
export function imageBudget(config: ConfigState | null): ImageBudget {
  const stated = config?.imageLimits;
  // base64 is 4 characters per 3 bytes.
  const agentChars = stated?.maxBytes ? Math.floor(stated.maxBytes / 3) * 4 : Infinity;
  return {
    maxChars: Math.min(MAX_IMAGE_DATA_CHARS, agentChars),
    longSide: MAX_IMAGE_LONG_SIDE_PX,
    maxImages: Math.min(stated?.maxImagesPerTurn ?? Infinity, MAX_PROMPT_BLOCKS - 1),
  };
}

/** Why `add` cannot join the draft (the draft is kept as it is), or null when it can. */
export function cannotAdd(draft: Draft, add: Attachment, config: ConfigState | null): string | null {
  const blocks: PromptBlock[] = [{ type: "text", text: draft.text }, ...draft.attachments, add];
  if (blocks.length > MAX_PROMPT_BLOCKS) return `A message holds at most ${MAX_PROMPT_BLOCKS - 1} attachments.`;
  if (add.type === "image") {
    const { maxImages } = imageBudget(config);
    const images = blocks.filter((b) => b.type === "image").length;
    if (images > maxImages) return `This agent takes at most ${maxImages} ${maxImages === 1 ? "image" : "images"} per message.`;
    if (promptImageChars(blocks) > MAX_PROMPT_IMAGE_CHARS)
      return `The images would not fit one message (${kb(MAX_PROMPT_IMAGE_CHARS)} in all): send this one in the next message.`;
  }
  if (promptBytes(blocks) > MAX_PROMPT_BYTES) return `That file is too large to go with this message (text and files: ${kb(MAX_PROMPT_BYTES)} in all).`;
  return null;
}

const kb = (chars: number) => `${Math.round(chars / 1024)} KB`;

/** A URI naming a file from this browser (it is not on the agent's machine: the agent has only its name or content). */
export function attachedUri(name: string): string {
  return `attachment:///${encodeURIComponent(name)}`;
}

/** Extensions read as text whatever the browser's type says (it often has none for source files). */
const TEXT_EXTENSIONS = new Set(
  "txt md markdown json jsonc yaml yml toml ini cfg conf csv tsv log xml html htm css scss js mjs cjs jsx ts tsx py rb go rs java kt c h cc cpp hpp cs swift php sh bash zsh sql graphql proto env gitignore dockerfile makefile lua r pl vue svelte".split(" "),
);

export function looksLikeText(name: string, mimeType: string): boolean {
  if (mimeType.startsWith("text/")) return true;
  if (/^application\/(json|xml|javascript|x-yaml|yaml|toml|x-sh|sql)/.test(mimeType)) return true;
  const ext = name.toLowerCase().split(".").pop() ?? "";
  return TEXT_EXTENSIONS.has(ext) || TEXT_EXTENSIONS.has(name.toLowerCase());
}

/** Decoded file content, or null when it is not text after all (binary bytes: NUL or invalid UTF-8). */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** A non-image file as a block: its content where the agent takes embedded context and it is text, else a link by name. */
export function fileBlock(file: { name: string; type: string }, text: string | null, config: ConfigState | null): Attachment {
  const uri = attachedUri(file.name);
  if (text !== null && config?.embeddedContext) return { type: "resource", resource: { uri, text, mimeType: file.type || "text/plain" } };
  return { type: "resource_link", uri, name: file.name };
}

/** A file's kind as the Sender routes it. */
export function isImageFile(file: { type: string }): boolean {
  return file.type.startsWith("image/");
}
