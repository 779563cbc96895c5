/**
 * The phone keyboard never hides the composer: Android Chrome resizes the page for it (`interactive-widget=
 * resizes-content` in index.html); iOS Safari only shrinks the visual viewport, so the part of the page under the
 * keyboard is measured here (`--keyboard-inset` on <html>) and the session page is that much shorter. The
 * transcript's scroller shrinks from the bottom (its scroll position is kept; a reader at the bottom stays there).
 * With the keyboard up, a tap outside the composer closes it (blurs the field), as the user expects.
 */

/** Pixels of the layout viewport's bottom hidden under the on-screen keyboard (0 when none). */
export function keyboardInset(innerHeight: number, vv: { height: number; offsetTop: number } | null): number {
  if (!vv) return 0;
  const hidden = Math.round(innerHeight - (vv.height + vv.offsetTop));
  // Below this, it is the browser's toolbar moving or a pinch-zoom rounding, not a keyboard.
  return hidden > KEYBOARD_MIN_PX ? hidden : 0;
}
/** The smallest on-screen keyboard (a phone's suggestion strip alone) is taller than this. */
const KEYBOARD_MIN_PX = 80;

/** Keeps `--keyboard-inset` current while the session page is open; returns the cleanup. */
export function watchKeyboardInset(win: Window = window): () => void {
  const vv = win.visualViewport;
  if (!vv) return () => {};
  const root = win.document.documentElement;
  let inset = 0;
  const update = () => {
    const next = keyboardInset(win.innerHeight, vv);
    if (next === inset) return;
    inset = next;
    if (inset) root.style.setProperty("--keyboard-inset", `${inset}px`);
    else root.style.removeProperty("--keyboard-inset");
  };
  // A tap outside the composer with the keyboard up dismisses it (iOS keeps it up otherwise).
  const onPointerDown = (e: PointerEvent) => {
    if (!inset) return;
    const field = win.document.activeElement;
    const target = e.target instanceof Element ? e.target : null;
    if (field instanceof HTMLTextAreaElement && !target?.closest(".dock")) field.blur();
  };
  vv.addEventListener("resize", update);
  vv.addEventListener("scroll", update);
  win.document.addEventListener("pointerdown", onPointerDown, true);
  update();
  return () => {
    vv.removeEventListener("resize", update);
    vv.removeEventListener("scroll", update);
    win.document.removeEventListener("pointerdown", onPointerDown, true);
    root.style.removeProperty("--keyboard-inset");
  };
}
