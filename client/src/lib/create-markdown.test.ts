import { createRoot, createSignal } from "solid-js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMarkdown, type MarkdownRenderer, markdownRenderer } from "./create-markdown";

afterEach(() => vi.useRealTimers());

describe("createMarkdown", () => {
  it("shows escaped plain text until the renderer arrives, then the rendered markdown", () => {
    const [render, setRender] = createSignal<MarkdownRenderer | null>(null);
    const { html, dispose } = createRoot((dispose) => ({
      html: createMarkdown(
        () => "**hi** <b>x</b>",
        () => false,
        render,
      ),
      dispose,
    }));
    expect(html()).toBe("<p><strong>hi</strong> &lt;b&gt;x&lt;/b&gt;</p>");
    setRender(() => (s: string) => `rendered:${s}`);
    expect(html()).toBe("rendered:**hi** <b>x</b>");
    dispose();
  });

  it("while streaming, re-renders at most once a frame; a finished message renders at once", () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const r: MarkdownRenderer = (s) => (calls.push(s), s);
    const [text, setText] = createSignal("a");
    const [streaming, setStreaming] = createSignal(true);
    const { html, dispose } = createRoot((dispose) => ({ html: createMarkdown(text, streaming, () => r), dispose }));
    setText("ab");
    setText("abc");
    expect(html()).toBe("a");
    vi.advanceTimersByTime(100);
    expect(html()).toBe("abc");
    expect(calls).toEqual(["a", "abc"]);
    setStreaming(false);
    setText("abcd");
    expect(html()).toBe("abcd");
    dispose();
  });

  it("the app's renderer is loaded (test setup): markdown, sanitised", () => {
    const r = markdownRenderer();
    expect(r).not.toBeNull();
    expect(r!("**b** <script>x()</script>").trim()).toBe("<p><strong>b</strong> </p>");
  });
});
