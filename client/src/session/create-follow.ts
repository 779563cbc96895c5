/**
 * Stick-to-bottom for the transcript: follows new content while the reader is at the bottom, stops
 * when they scroll up, and offers `jump()` back. Reactive primitive (`create*`).
 *
 * Only the reader moving UP stops following. Growth never moves the scroll position up, but it can leave
 * the bottom out of reach for a moment (content landing between our scroll and its scroll event, a smooth
 * `jump()` still on its way down): deciding by distance alone read those moments as "the reader left".
 */
import { createSignal, onCleanup, onMount } from "solid-js";

const NEAR_PX = 96;

export function createFollow(scroller: () => HTMLElement | undefined, content: () => HTMLElement | undefined) {
  const [following, setFollowing] = createSignal(true);
  let programmatic = false;
  const toBottom = () => {
    const el = scroller();
    if (!el) return;
    programmatic = true;
    el.scrollTop = el.scrollHeight;
    requestAnimationFrame(() => (programmatic = false));
  };
  onMount(() => {
    const el = scroller();
    const inner = content();
    if (!el) return;
    let lastTop = el.scrollTop;
    const onScroll = () => {
      const top = el.scrollTop;
      const movedUp = top < lastTop - 1;
      lastTop = top;
      if (programmatic) return;
      if (el.scrollHeight - top - el.clientHeight < NEAR_PX) setFollowing(true);
      else if (movedUp) setFollowing(false);
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    // Content grows (streamed text, new rows) or the viewport shrinks (keyboard): keep the bottom.
    const ro = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => following() && toBottom());
    if (inner) ro?.observe(inner);
    ro?.observe(el);
    toBottom();
    onCleanup(() => {
      el.removeEventListener("scroll", onScroll);
      ro?.disconnect();
    });
  });
  return {
    following,
    /** The page is about to show something above (a search result): stop keeping the bottom. */
    release() {
      setFollowing(false);
    },
    jump() {
      setFollowing(true);
      const el = scroller();
      el?.scrollTo({ top: el.scrollHeight, behavior: "smooth" });
    },
  };
}
