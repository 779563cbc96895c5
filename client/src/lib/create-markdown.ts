/**
 * Reactive sanitised markdown. While text streams, re-render at most every FRAME_MS (re-parsing a
 * long message on every chunk is quadratic); a finished message renders once, right away.
 */
import { type Accessor, createEffect, createSignal, onCleanup } from "solid-js";
import { renderMarkdown } from "./markdown";

const FRAME_MS = 60;

export function createMarkdown(text: Accessor<string>, streaming: Accessor<boolean>): Accessor<string> {
  const [html, setHtml] = createSignal(renderMarkdown(text()));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = text();
  createEffect(() => {
    const t = text();
    if (t === last) return;
    if (!streaming()) {
      clearTimeout(timer);
      timer = undefined;
      last = t;
      setHtml(renderMarkdown(t));
      return;
    }
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      last = text();
      setHtml(renderMarkdown(last));
    }, FRAME_MS);
  });
  onCleanup(() => clearTimeout(timer));
  return html;
}
