import { describe, expect, it } from "vitest";
import { plainMarkdownHtml } from "./markdown-plain";

describe("plainMarkdownHtml (markdown before the renderer loads)", () => {
  it("paragraphs on blank lines, their lines joined as the renderer joins them", () => {
    expect(plainMarkdownHtml("Hello\nthere\n\nagain")).toBe("<p>Hello there</p><p>again</p>");
  });

  it("quotes", () => {
    expect(plainMarkdownHtml("> You said:\n> hi <b>\n\nok")).toBe("<blockquote><p>You said: hi &lt;b&gt;</p></blockquote><p>ok</p>");
  });

  it("headings and list items as the blocks the renderer draws, inline markup as typed", () => {
    expect(plainMarkdownHtml("## Demo reply\nIt **streams**:\n- one `x`\n- two\n  continued\n1. first\n2) second")).toBe(
      "<h2>Demo reply</h2><p>It **streams**:</p><ul><li>one `x`</li><li>two continued</li></ul><ol><li>first</li><li>second</li></ol>",
    );
  });

  it("escapes everything: no markup from the source becomes HTML", () => {
    const html = plainMarkdownHtml(`<img src=x onerror="x()"> & 'q' **b**`);
    expect(html).toBe("<p>&lt;img src=x onerror=&quot;x()&quot;&gt; &amp; &#39;q&#39; **b**</p>");
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
