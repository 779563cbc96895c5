/**
 * Stick-to-bottom for the transcript: follows new content while the reader is at the bottom, stops
 * when they scroll up, and offers `jump()` back. Reactive primitive (`create*`).
 *
 * Only the reader moving UP stops following. Growth never moves the scroll position up, but it can leave
 * the bottom out of reach for a moment (content landing between our scroll and its scroll event, a smooth
 * `jump()` still on its way down): deciding by distance alone read those moments as "the reader left".
 * "Up" is measured from where the page last put the position itself: a browser sends one scroll event per
 * frame for everything since the last, so the reader's scroll in the same frame as ours (a loaded phone while
 * a join's rows mount step by step) is in that one event, and ignoring the event as "ours" lost it.
 */
import { createSignal, onCleanup, onMount } from "solid-js";

const NEAR_PX = 96;

export function createFollow(scroller: () => HTMLElement | undefined, content: () => HTMLElement | undefined) {
  const [following, setFollowing] = createSignal(true);
  /** The scroll position last seen: a scroll event's, or where the page itself put it. */
  let lastTop = 0;
  const toBottom = () => {
    const el = scroller();
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    lastTop = el.scrollTop;
  };
  /** Content or viewport changed size: back to the bottom if following. */
  const keepBottom = () => following() && toBottom();
  onMount(() => {
    const el = scroller();
    const inner = content();
    if (!el) return;
    const onScroll = () => {
      const top = el.scrollTop;
      const movedUp = top < lastTop - 1;
      lastTop = top;
      if (el.scrollHeight - top - el.clientHeight < NEAR_PX) setFollowing(true);
      else if (movedUp) setFollowing(false);
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    // Content grows (streamed text, new rows) or the viewport shrinks (keyboard): keep the bottom.
    const ro = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(keepBottom);
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
    keepBottom,
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
