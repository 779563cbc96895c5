import { describe, expect, it } from "vitest";
import { markdownReply } from "../../../daemon/demo-agent/demo-script";
import { renderMarkdown } from "./markdown";
import { plainInlineHtml, plainMarkdownHtml } from "./markdown-plain";

/**
 * Not a speed target: the bound of a frozen page. The quadratic version took 17 s over this test's input here, the
 * linear one 0.06 s, so a run past this is the old fault back, not a slow machine.
 */
const FREEZE_MS = 5_000;

/** The blocks and inline tags of some HTML and their text, links as their text (what sets the layout). */
function layoutOf(html: string): string {
  const div = document.createElement("div");
  div.innerHTML = html;
  const walk = (n: Node): string => {
    if (n.nodeType === Node.TEXT_NODE) {
      const text = n.textContent ?? "";
      const holder = n.parentElement?.tagName;
      if (holder === "CODE" && n.parentElement?.parentElement?.tagName === "PRE") return text.replace(/\n$/, ""); // a last newline draws no line
      // Whitespace between blocks draws nothing; in a line, any run of it is one space.
      if (!text.trim() && (n.parentElement === div || holder === "UL" || holder === "OL" || holder === "BLOCKQUOTE")) return "";
      return text.replace(/\s+/g, " ");
    }
    if (!(n instanceof Element)) return "";
    const inner = [...n.childNodes].map(walk).join("");
    return n.tagName === "A" ? inner : `<${n.tagName.toLowerCase()}>${inner}</${n.tagName.toLowerCase()}>`;
  };
  return [...div.childNodes].map(walk).join("");
}

describe("plainMarkdownHtml (markdown before the renderer loads)", () => {
  it("paragraphs on blank lines, their lines joined as the renderer joins them", () => {
    expect(plainMarkdownHtml("Hello\nthere\n\nagain")).toBe("<p>Hello there</p><p>again</p>");
  });

  it("quotes", () => {
    expect(plainMarkdownHtml("> You said:\n> hi <b>\n\nok")).toBe("<blockquote><p>You said: hi &lt;b&gt;</p></blockquote><p>ok</p>");
  });

  it("headings and list items as the blocks the renderer draws, with their inline markup", () => {
    expect(plainMarkdownHtml("## Demo reply\nIt **streams**:\n- one `x`\n- two\n  continued\n1. first\n2) second")).toBe(
      "<h2>Demo reply</h2><p>It <strong>streams</strong>:</p><ul><li>one <code>x</code></li><li>two continued</li></ul><ol><li>first</li><li>second</li></ol>",
    );
  });

  it("inline markup as the renderer draws it: code spans (their text literal), strong, emphasis, strikethrough, a link's text", () => {
    expect(plainInlineHtml("run `npm **test**` or ``a ` b`` now")).toBe("run <code>npm **test**</code> or <code>a ` b</code> now");
    expect(plainInlineHtml("**bold** and __bold__, *em* and _em_, ~~gone~~")).toBe(
      "<strong>bold</strong> and <strong>bold</strong>, <em>em</em> and <em>em</em>, <del>gone</del>",
    );
    expect(plainInlineHtml('see [the docs](https://example.com "Docs") and ![a chart](x.png)')).toBe("see the docs and ![a chart](x.png)");
    // Not markup: snake_case words, a lone star, an unclosed code span, a star-spaced product.
    expect(plainInlineHtml("snake_case_name 2 * 3 * 4 `open")).toBe("snake_case_name 2 * 3 * 4 `open");
  });

  it("hostile text of an item's full size (256 Ki chars of unclosed delimiters, backtick runs of every length) stays as typed, read in one pass", () => {
    // Each of these took seconds when a span's match ran lazily to the end from every unclosed delimiter.
    const size = 256 * 1024;
    for (const unit of ["**a ", "__a ", "~~a ", "[a](b \""]) {
      const src = unit.repeat(size / unit.length);
      expect(plainInlineHtml(src)).not.toMatch(/<(strong|em|del)>/);
    }
    const runs = Array.from({ length: 700 }, (_, i) => `${"`".repeat(i + 1)}a `).join("");
    expect(plainInlineHtml(runs)).not.toContain("<code>");
    expect(plainInlineHtml("`a ``".repeat(size / 5))).toContain("<code>a </code>");
    // A heading line of spaces before its text (3,000 of them took 3 s, 6,000 took 22 s: cubic).
    expect(plainMarkdownHtml(`# a${" ".repeat(5_000)}b`)).toBe(`<h1>a${" ".repeat(5_000)}b</h1>`);
  }, FREEZE_MS);

  it("a heading's closing #s go, other #s stay", () => {
    expect(plainMarkdownHtml("## Demo reply ##")).toBe("<h2>Demo reply</h2>");
    expect(plainMarkdownHtml("# C# and F#\n# a #b\n# #\n#not a heading")).toBe("<h1>C# and F#</h1><h1>a #b</h1><h1></h1><p>#not a heading</p>");
  });

  it("lays out as the renderer's output for the markup agents write (the swap moves nothing)", () => {
    const samples = [
      markdownReply("show me some markdown"),
      "Try `sleep 30`, `tool`, `plan` or `burst 1000`.",
      "## Changes in `worker/index.ts`\n\nI **renamed** the handler and *moved* the check:\n\n1. `parse()` now returns ~~null~~ a result\n2. see [the PR](https://example.com/pr/1)\n\n> Note: __tests__ pass",
      "Fixed the `snake_case_name` bug; 2 * 3 is *six*.",
      "## Plan ##\n# C# and F#\n# a #b\n\ntext",
    ];
    for (const md of samples) expect(layoutOf(plainMarkdownHtml(md)), md).toBe(layoutOf(renderMarkdown(md)));
  });

  it("escapes everything: no markup from the source becomes HTML", () => {
    const html = plainMarkdownHtml(`<img src=x onerror="x()"> & 'q' **b** \`<i>\` [<u>x</u>](javascript:y)`);
    expect(html).toBe("<p>&lt;img src=x onerror=&quot;x()&quot;&gt; &amp; &#39;q&#39; <strong>b</strong> <code>&lt;i&gt;</code> &lt;u&gt;x&lt;/u&gt;</p>");
    const div = document.createElement("div");
    div.innerHTML = plainMarkdownHtml("<script>window.__x=1</script>\n```\n<b>hi</b>\n```");
    expect(div.querySelector("script, b")).toBeNull();
    expect(div.querySelector("pre code")?.textContent).toBe("<b>hi</b>");
  });

  it("fenced code keeps its lines and blank lines; an open fence (still streaming) shows as code", () => {
    expect(plainMarkdownHtml("Run:\n```sh\nnpm test\n\nnpm run build\n```\ndone")).toBe(
      "<p>Run:</p><pre><code>npm test\n\nnpm run build</code></pre><p>done</p>",
    );
    expect(plainMarkdownHtml("~~~\na\n```\nb")).toBe("<pre><code>a\n```\nb</code></pre>");
  });

  it("empty text is nothing", () => {
    expect(plainMarkdownHtml("")).toBe("");
    expect(plainMarkdownHtml("\n\n")).toBe("");
  });
});
