/**
 * Markdown shown as plain text while the renderer (marked + DOMPurify, loaded off the first paint's
 * path) is not there yet: escaped text only — no markup from the source survives — laid out close to
 * what the renderer will draw (paragraphs, line breaks, fenced code as a code block) so the swap barely moves.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function plainMarkdownHtml(src: string): string {
  const out: string[] = [];
  let para: string[] = [];
  let code: string[] | null = null;
  let fence = "";
  const flush = () => {
    if (para.length) out.push(`<p>${para.map(escape).join("<br>")}</p>`);
    para = [];
  };
  for (const line of src.split("\n")) {
    const f = FENCE.exec(line)?.[1];
    if (code) {
      if (f && f[0] === fence[0] && f.length >= fence.length && line.trim() === f) {
        out.push(`<pre><code>${escape(code.join("\n"))}</code></pre>`);
        code = null;
      } else code.push(line);
    } else if (f) {
      flush();
      code = [];
      fence = f;
    } else if (line.trim() === "") flush();
    else para.push(line);
  }
  // A fence still open (text streaming in) shows as code so far.
  if (code) out.push(`<pre><code>${escape(code.join("\n"))}</code></pre>`);
  flush();
  return out.join("");
}
