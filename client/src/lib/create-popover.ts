/**
 * A panel opened by a button (the header's settings, members and notifications, the composer's agent
 * options) as a native popover (`popover="auto"`, the button its `popovertarget`): the browser closes it on
 * Escape and on a press outside, and gives the focus back to the button. This keeps `open` in step (the
 * panel's content renders only while open), moves the focus into the panel when it opens (onto the panel
 * itself: a control first would raise a phone's keyboard), and places it by what opened it, since in the
 * top layer it is no longer positioned by its parent: CSS reads the `--anchor-*` properties set here.
 */
import { createSignal, createUniqueId, onCleanup, onMount } from "solid-js";

/** Below its button, right edges aligned (header panels); or above the composer card, its width (agent options). */
export type Placement = "below-button" | "above-composer";

/** The gap between the panel and what it opens from, as the CSS had it before the top layer. */
const GAP_PX = { "below-button": 6, "above-composer": 8 } as const;

export function createPopover(placement: Placement) {
  const id = `popover-${createUniqueId()}`;
  const [open, setOpen] = createSignal(false);
  let button: HTMLElement | undefined;
  let panel: HTMLElement | undefined;

  const place = () => {
    if (!panel || !button) return;
    const gap = GAP_PX[placement];
    if (placement === "below-button") {
      const r = button.getBoundingClientRect();
      panel.style.setProperty("--anchor-top", `${r.bottom + gap}px`);
      panel.style.setProperty("--anchor-right", `${Math.max(0, window.innerWidth - r.right)}px`);
    } else {
      const r = (button.closest(".composer") ?? button).getBoundingClientRect();
      panel.style.setProperty("--anchor-left", `${r.left}px`);
      panel.style.setProperty("--anchor-width", `${r.width}px`);
      panel.style.setProperty("--anchor-bottom", `${Math.max(0, window.innerHeight - r.top + gap)}px`);
    }
  };
  onMount(() => {
    const onResize = () => open() && place();
    window.addEventListener("resize", onResize);
    onCleanup(() => window.removeEventListener("resize", onResize));
  });

  return {
    id,
    open,
    /** The button's ref. */
    button: (el: HTMLElement) => (button = el),
    /** The panel's ref. */
    panel: (el: HTMLElement) => {
      panel = el;
      el.addEventListener("beforetoggle", (e) => e.newState === "open" && place());
      el.addEventListener("toggle", (e) => {
        const now = e.newState === "open";
        setOpen(now);
        if (now) el.focus();
      });
    },
  };
}
