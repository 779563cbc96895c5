/**
 * Markdown shown as plain text while the renderer (marked + DOMPurify, loaded off the first paint's
 * path) is not there yet: escaped text only — no markup from the source survives — in the blocks the
 * renderer will draw (paragraphs, headings, list items, quotes, fenced code) so the swap barely moves anything.
 * Inline markup (`**`, backticks, links) stays as typed.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^ {0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^ {0,3}\d{1,9}[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

export function plainMarkdownHtml(src: string): string {
  const out: string[] = [];
  let para: string[] = [];
  let quote: string[] = [];
  let list: { tag: "ul" | "ol"; items: string[] } | null = null;
  let code: string[] | null = null;
  let fence = "";
  const flush = () => {
    // Lines of a paragraph join with a space, as the renderer joins them (no `breaks`).
    if (para.length) out.push(`<p>${escape(para.join(" "))}</p>`);
    para = [];
    if (quote.length) out.push(`<blockquote><p>${escape(quote.join(" "))}</p></blockquote>`);
    quote = [];
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${escape(i)}</li>`).join("")}</${list.tag}>`);
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
      out.push(`<h${heading[1]!.length}>${escape(heading[2]!)}</h${heading[1]!.length}>`);
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
