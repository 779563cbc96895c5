/**
 * Reactive sanitised markdown. While text streams, re-render at most every FRAME_MS (re-parsing a
 * long message on every chunk is quadratic); a finished message renders once, right away.
 *
 * The renderer (marked + DOMPurify, markdown.ts) is a chunk of its own, loaded and warmed once the page
 * has painted: until it is there, text shows as escaped plain text laid out alike (markdown-plain.ts).
 */
import { type Accessor, createEffect, createSignal, onCleanup } from "solid-js";
import { plainMarkdownHtml } from "./markdown-plain";
import { onDemand } from "./on-demand";

const FRAME_MS = 60;

export type MarkdownRenderer = (src: string) => string;

/** A first parse and sanitise (DOMPurify's hook, the parser's code paths) before a real message needs one. */
const WARM_UP = "# t\n\n**b** _i_ `c` [l](https://example.com)\n\n- a\n\n```\nx\n```";

const markdown = onDemand(() =>
  import("./markdown").then((m) => {
    m.renderMarkdown(WARM_UP);
    return m.renderMarkdown;
  }),
);
/** The loaded renderer, or null while it loads. */
export const markdownRenderer: Accessor<MarkdownRenderer | null> = markdown.current;
/** Loads and warms the renderer now (tests; the app lets `warmMarkdown` pick the moment). */
export const loadMarkdown = (): Promise<unknown> => markdown.load();
/** Loads and warms the renderer once the page has painted (idempotent). */
export const warmMarkdown = (): void => markdown.warm();

export function createMarkdown(text: Accessor<string>, streaming: Accessor<boolean>, render: Accessor<MarkdownRenderer | null> = markdownRenderer): Accessor<string> {
  if (render === markdownRenderer) warmMarkdown();
  const toHtml = (t: string, r: MarkdownRenderer | null) => (r ? r(t) : plainMarkdownHtml(t));
  let last = text();
  let lastRender = render();
  const [html, setHtml] = createSignal(toHtml(last, lastRender));
  let timer: ReturnType<typeof setTimeout> | undefined;
  createEffect(() => {
    const t = text();
    const r = render();
    if (t === last && r === lastRender) return;
    // The renderer arriving, or a finished message: render now.
    if (r !== lastRender || !streaming()) {
      clearTimeout(timer);
      timer = undefined;
      last = t;
      lastRender = r;
      setHtml(toHtml(t, r));
      return;
    }
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      last = text();
      setHtml(toHtml(last, lastRender));
    }, FRAME_MS);
  });
  onCleanup(() => clearTimeout(timer));
  return html;
}
