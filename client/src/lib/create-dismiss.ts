import { onCleanup, onMount } from "solid-js";

/**
 * Closes a popover when the pointer goes down outside it or Escape is pressed. `inside` decides
 * what counts as the popover (its root element, or a selector test for per-item menus).
 */
export function createDismiss(opts: { isOpen: () => boolean; close: () => void; inside: (target: Node) => boolean }): void {
  onMount(() => {
    const onPointer = (e: Event) => {
      if (opts.isOpen() && !opts.inside(e.target as Node)) opts.close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && opts.isOpen()) opts.close();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    onCleanup(() => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    });
  });
}
