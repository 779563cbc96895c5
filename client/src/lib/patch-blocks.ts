/**
 * Puts `html` (already sanitised) into `el`, keeping the leading top-level nodes that did not change.
 * A streaming answer re-renders as it grows; replacing the whole subtree each time made the browser
 * restyle, lay out and paint every paragraph again (the throttled phone-class stream's long tasks).
 * Kept nodes are the same DOM nodes: only the changed tail is new.
 */
export function patchBlocks(el: Element, html: string): void {
  const tpl = el.ownerDocument.createElement("template");
  tpl.innerHTML = html;
  const next = Array.from(tpl.content.childNodes);
  const current = Array.from(el.childNodes);
  let same = 0;
  while (same < current.length && same < next.length && current[same]!.isEqualNode(next[same]!)) same++;
  for (let i = current.length - 1; i >= same; i--) current[i]!.remove();
  el.append(...next.slice(same));
}
