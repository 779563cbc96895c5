/**
 * Syntax highlighting for the changes view (issue 28 #2): lowlight (highlight.js grammars, output as a tree, never
 * HTML) over each side of a diff, cut back into one list of tokens per row. Tokens render as text nodes, so a
 * file's content is never markup. Loaded with the first file shown; grammars load per language.
 */
import type { Element, ElementContent, Root } from "hast";
import { createLowlight } from "lowlight";
import type { PatchLine } from "../../../shared/patch-lines";
import { type Language, languageOf, loadGrammar } from "./highlight-languages";

/** A piece of a line and highlight.js's class for it (null: plain). */
export type Token = { text: string; cls: string | null };

/** Text past this many characters per side is left plain: highlighting it would hold the page up. */
export const MAX_HIGHLIGHT_CHARS = 256 * 1024;

const lowlight = createLowlight();
const loading = new Map<Language, Promise<void>>();

function ensure(language: Language): Promise<void> {
  let p = loading.get(language);
  if (!p) {
    p = loadGrammar(language).then((fn) => lowlight.register(language, fn));
    p.catch(() => loading.delete(language)); // a failed chunk load is tried again next time
    loading.set(language, p);
  }
  return p;
}

const CLASS = /^[A-Za-z0-9_-]+$/;

function classOf(el: Element): string | null {
  const raw = el.properties.className;
  const names = (Array.isArray(raw) ? raw : []).map(String).filter((c) => CLASS.test(c));
  return names.length ? names.join(" ") : null;
}

/** The tree as lines of tokens: each text piece keeps the innermost class around it; a newline ends a line. Pure. */
export function treeLines(tree: Root): Token[][] {
  const lines: Token[][] = [[]];
  const walk = (nodes: readonly ElementContent[] | Root["children"], cls: string | null) => {
    for (const node of nodes) {
      if (node.type === "text") {
        node.value.split("\n").forEach((piece, k) => {
          if (k > 0) lines.push([]);
          if (piece) lines[lines.length - 1]!.push({ text: piece, cls });
        });
      } else if (node.type === "element") walk(node.children, classOf(node) ?? cls);
    }
  };
  walk(tree.children, null);
  return lines;
}

/**
 * Tokens for each of `rows` (a hunk row: null), or null when the file's language is unknown or it is too large.
 * Each side (old: context + removed lines; new: context + added) is highlighted as one text, so a construct
 * spanning lines (a block comment, a template string) is coloured across them.
 */
export async function highlightRows(path: string, rows: readonly PatchLine[]): Promise<(Token[] | null)[] | null> {
  const language = languageOf(path);
  if (!language) return null;
  const oldSide: string[] = [];
  const newSide: string[] = [];
  for (const r of rows) {
    if (r.op === "@@") continue;
    if (r.op !== "+") oldSide.push(r.text);
    if (r.op !== "-") newSide.push(r.text);
  }
  const oldText = oldSide.join("\n");
  const newText = newSide.join("\n");
  if (oldText.length > MAX_HIGHLIGHT_CHARS || newText.length > MAX_HIGHLIGHT_CHARS) return null;
  await ensure(language);
  const oldLines = treeLines(lowlight.highlight(language, oldText));
  const newLines = treeLines(lowlight.highlight(language, newText));
  let o = 0;
  let n = 0;
  return rows.map((r) => {
    if (r.op === "@@") return null;
    if (r.op === "-") return oldLines[o++] ?? null;
    if (r.op === "+") return newLines[n++] ?? null;
    o++;
    return newLines[n++] ?? null;
  });
}
