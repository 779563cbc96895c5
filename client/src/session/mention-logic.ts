/**
 * The Sender's "@" mentions (issue 29 #3), kept out of the .tsx: when the file picker opens, what a pick writes
 * into the draft (an `@path` token in the text and an ACP `resource_link` among the attachments), what the
 * chips in the text are, and when an edit drops a mention's link. The files come from the daemon
 * (GET /api/sessions/:id/files → the `files.list` ask).
 */
import type { PromptBlock } from "../../../shared/blocks";
import type { Attachment, Draft } from "./composer-logic";
import { withoutTrailingSlashes } from "../../../shared/paths";

/** The "@…" word the caret is in (at the start or after whitespace), else null: "see @sr|" → {start: 4, query: "sr"}. */
export function mentionQuery(text: string, caret: number): { start: number; end: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!m) return null;
  const start = before.length - m[2]!.length - 1;
  const after = /^[^\s]*/.exec(text.slice(caret))![0];
  return { start, end: caret + after.length, query: m[2]! };
}

type ResourceLink = Extract<PromptBlock, { type: "resource_link" }>;

/** A file under the session's directory as an ACP resource link: `file://` URI of its real path, its relative path as the name. */
export function mentionLink(root: string, rel: string): ResourceLink {
  const abs = `${withoutTrailingSlashes(root)}/${rel}`;
  return { type: "resource_link", uri: `file://${abs.split("/").map(encodeURIComponent).join("/")}`, name: rel };
}

/** The draft after picking `link` for the "@…" word at `at`: the word becomes `@name ` and the link joins the attachments (once). */
export function applyMention(draft: Draft, at: { start: number; end: number }, link: ResourceLink): { draft: Draft; caret: number } {
  const token = `@${link.name} `;
  const rest = draft.text.slice(at.end).replace(/^ /, "");
  const text = draft.text.slice(0, at.start) + token + rest;
  const has = draft.attachments.some((a) => a.type === "resource_link" && a.uri === link.uri);
  return { draft: { text, attachments: has ? draft.attachments : [...draft.attachments, link] }, caret: at.start + token.length };
}

const isLink = (a: Attachment | PromptBlock): a is ResourceLink => a.type === "resource_link";

/** Whether `text` holds `@name` as a word of its own (followed by whitespace, the end, or punctuation that ends a sentence). */
function mentions(text: string, name: string): boolean {
  let i = text.indexOf(`@${name}`);
  while (i >= 0) {
    const before = text[i - 1];
    const after = text[i + name.length + 1];
    if ((before === undefined || /\s/.test(before)) && (after === undefined || /[\s,.;:!?)]/.test(after))) return true;
    i = text.indexOf(`@${name}`, i + 1);
  }
  return false;
}

/**
 * A text edit: a link whose `@name` was in the text before and is gone after is dropped with it (deleting the
 * chip deletes the mention). Links never named in the text (an attached file) are left alone.
 */
export function pruneMentions(before: string, draft: Draft): Draft {
  const attachments = draft.attachments.filter((a) => !isLink(a) || !mentions(before, a.name) || mentions(draft.text, a.name));
  return attachments.length === draft.attachments.length ? draft : { ...draft, attachments };
}

export type Segment = { text: string; mention: boolean };

/** The text cut into plain runs and `@name` chips, one per word naming a link among `blocks`; joined, the segments are the text. */
export function mentionSegments(text: string, blocks: readonly (Attachment | PromptBlock)[]): Segment[] {
  const names = [...new Set(blocks.filter(isLink).map((l) => l.name))].filter((n) => n).sort((a, b) => b.length - a.length);
  if (!names.length || !text.includes("@")) return [{ text, mention: false }];
  const out: Segment[] = [];
  let plain = "";
  let i = 0;
  while (i < text.length) {
    const name = text[i] === "@" && (i === 0 || /\s/.test(text[i - 1]!)) ? names.find((n) => text.startsWith(n, i + 1) && (i + 1 + n.length === text.length || /[\s,.;:!?)]/.test(text[i + 1 + n.length]!))) : undefined;
    if (name) {
      if (plain) out.push({ text: plain, mention: false });
      plain = "";
      out.push({ text: `@${name}`, mention: true });
      i += name.length + 1;
    } else {
      plain += text[i];
      i++;
    }
  }
  if (plain) out.push({ text: plain, mention: false });
  return out;
}
