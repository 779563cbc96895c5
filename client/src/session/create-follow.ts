/**
 * Stick-to-bottom for the transcript: follows new content while the reader is at the bottom, stops
 * when they scroll up, and offers `jump()` back. Reactive primitive (`create*`).
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
    const onScroll = () => {
      if (programmatic) return;
      setFollowing(el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_PX);
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
    jump() {
      setFollowing(true);
      const el = scroller();
      el?.scrollTo({ top: el.scrollHeight, behavior: "smooth" });
    },
  };
}
