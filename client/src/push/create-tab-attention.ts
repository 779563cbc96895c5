/** Counts, while the page is hidden, what would have notified (rules in `tab-attention.ts`); shows it on the favicon. */
import { createEffect, createSignal, onCleanup } from "solid-js";
import { type AttentionMark, type AttentionSource, attentionEvents, faviconFor, markOf } from "./tab-attention";

// The page's title rule comes with the counter (SessionView loads both after the first paint).
export { attentionTitle } from "./tab-attention";

export function createTabAttention(source: () => AttentionSource): () => number {
  const [count, setCount] = createSignal(0);
  let mark: AttentionMark | null = null;
  createEffect(() => {
    const s = source();
    // Read every field the rules look at, so the effect follows them.
    void s.rows.length;
    if (document.visibilityState === "hidden") {
      const n = attentionEvents(mark, s);
      if (n) setCount((c) => c + n);
    }
    mark = markOf(s);
  });
  const onVisibility = () => {
    if (document.visibilityState === "visible") setCount(0);
  };
  document.addEventListener("visibilitychange", onVisibility);
  onCleanup(() => {
    document.removeEventListener("visibilitychange", onVisibility);
    setFavicon(0);
  });
  createEffect(() => setFavicon(count()));
  return count;
}

function setFavicon(count: number): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    link.type = "image/svg+xml";
    document.head.append(link);
  }
  const href = faviconFor(count);
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}
