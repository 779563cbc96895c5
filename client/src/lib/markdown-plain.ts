/**
 * Markdown shown as plain text while the renderer (marked + DOMPurify, loaded off the first paint's
 * path) is not there yet: escaped text only — no markup from the source survives — in the blocks the
 * renderer will draw (paragraphs, headings, list items, quotes, fenced code) and with the common inline
 * markup drawn as it will (code spans, strong, emphasis, strikethrough; a link as its text), so the swap
 * moves nothing: a row's first paint is its layout. (A larger swapped-in block was also a new largest
 * contentful paint: the session page's LCP waited for the renderer's chunk.) The only tags are this file's own.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// The text after the #s is taken whole and its closing #s cut by `headingText`: a pattern doing both (lazy text,
// then optional spaces, #s, spaces) backtracked cubically over a line of spaces (3,000 of them: 3 s).
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
/** A heading's text without its optional closing sequence (#s after a space, or only #s). */
function headingText(raw: string): string {
  const text = raw.trim();
  const closing = /(?:^|[ \t])#+$/.exec(text);
  return closing ? text.slice(0, closing.index).trimEnd() : text;
}
const BULLET = /^ {0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^ {0,3}\d{1,9}[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

/**
 * Strong, emphasis, strikethrough and link text in escaped text without code spans (CommonMark's common cases).
 * No span crosses its own delimiter, so each match looks no further than the next one: linear in the text, also
 * for an agent's thousands of unclosed `**` (a lazy match to the end from each of them was quadratic).
 */
const EMPHASIS: [RegExp, string][] = [
  // A link shows its text (the renderer's <a> adds no size); an image its alt text is left as typed.
  [/(^|[^!])\[([^[\]]+)\]\([^()\s]*(?:\s+&quot;(?:(?!&quot;)[^()])*&quot;)?\)/g, "$1$2"],
  [/\*\*(?=\S)((?:(?!\*\*)[\s\S])*?\S)\*\*/g, "<strong>$1</strong>"],
  [/(^|[^\w])__(?=\S)((?:(?!__)[\s\S])*?\S)__(?!\w)/g, "$1<strong>$2</strong>"],
  [/(^|[^*\w])\*(?=[^\s*])([^*]*?[^\s*])\*(?!\*)/g, "$1<em>$2</em>"],
  [/(^|[^\w])_(?=[^\s_])([^_]*?[^\s_])_(?!\w)/g, "$1<em>$2</em>"],
  [/~~(?=\S)((?:(?!~~)[\s\S])*?\S)~~/g, "<del>$1</del>"],
];
const emphasis = (escaped: string) => EMPHASIS.reduce((s, [re, to]) => s.replace(re, to), escaped);

/** A run's inline markup: code spans first (their text literal), the rest through EMPHASIS. */
export function plainInlineHtml(src: string): string {
  // Every backtick run once; an opening run's closer is the next run exactly as long, found for all runs in one pass
  // from the end, so the text is read once however many runs stay unclosed.
  const runs: { at: number; len: number }[] = [];
  for (let i = src.indexOf("`"); i >= 0; ) {
    let j = i;
    while (src[j] === "`") j++;
    runs.push({ at: i, len: j - i });
    i = src.indexOf("`", j);
  }
  const closer: number[] = [];
  const nextOfLength = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    closer[i] = nextOfLength.get(runs[i]!.len) ?? -1;
    nextOfLength.set(runs[i]!.len, i);
  }
  let out = "";
  let at = 0;
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i]!;
    const close = closer[i]!;
    // Without a closer, the backticks are text.
    if (close < 0) continue;
    let code = src.slice(open.at + open.len, runs[close]!.at);
    // One space each side is stripped when both are there and the span is not only spaces.
    if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim()) code = code.slice(1, -1);
    out += `${emphasis(escape(src.slice(at, open.at)))}<code>${escape(code)}</code>`;
    at = runs[close]!.at + open.len;
    i = close;
  }
  return out + emphasis(escape(src.slice(at)));
}

export function plainMarkdownHtml(src: string): string {
  const out: string[] = [];
  let para: string[] = [];
  let quote: string[] = [];
  let list: { tag: "ul" | "ol"; items: string[] } | null = null;
  let code: string[] | null = null;
  let fence = "";
  const flush = () => {
    // Lines of a paragraph join with a space, as the renderer joins them (no `breaks`).
    if (para.length) out.push(`<p>${plainInlineHtml(para.join(" "))}</p>`);
    para = [];
    if (quote.length) out.push(`<blockquote><p>${plainInlineHtml(quote.join(" "))}</p></blockquote>`);
    quote = [];
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${plainInlineHtml(i)}</li>`).join("")}</${list.tag}>`);
    list = null;
  };
  const item = (tag: "ul" | "ol", text: string) => {
    if (para.length || quote.length || list?.tag !== tag) flush();
    list ??= { tag, items: [] };
    list.items.push(text);
  };
  /** A line under a list item continues it (lazy continuation). */
  const continues = (text: string) => {
    if (!list) return false;
    list.items[list.items.length - 1] += ` ${text}`;
    return true;
  };
  for (const line of src.split("\n")) {
    const f = FENCE.exec(line)?.[1];
    if (code) {
      if (f && f[0] === fence[0] && f.length >= fence.length && line.trim() === f) {
        out.push(`<pre><code>${escape(code.join("\n"))}</code></pre>`);
        code = null;
      } else code.push(line);
      continue;
    }
    const heading = HEADING.exec(line);
    const bullet = BULLET.exec(line);
    const numbered = NUMBERED.exec(line);
    const quoted = QUOTE.exec(line);
    if (f) {
      flush();
      code = [];
      fence = f;
    } else if (line.trim() === "") flush();
    else if (heading) {
      flush();
      out.push(`<h${heading[1]!.length}>${plainInlineHtml(headingText(heading[2] ?? ""))}</h${heading[1]!.length}>`);
    } else if (quoted) {
      if (para.length || list) flush();
      quote.push(quoted[1]!);
    } else if (bullet) item("ul", bullet[1]!);
    else if (numbered) item("ol", numbered[1]!);
    else if (quote.length) quote.push(line.trim());
    else if (!continues(line.trim())) para.push(line);
  }
  // A fence still open (text streaming in) shows as code so far.
  if (code) out.push(`<pre><code>${escape(code.join("\n"))}</code></pre>`);
  flush();
  return out.join("");
}
