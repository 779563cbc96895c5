import { createRoot } from "solid-js";
import { describe, expect, it } from "vitest";
import { createFollow } from "./create-follow";

/**
 * A scroller as a browser lays it out: `scrollTop` clamped to the content, a scroll event only when the
 * page dispatches one (a browser does so at the next frame, once for every change since the last).
 */
function scroller(height = 800) {
  const el = document.createElement("div");
  let top = 0;
  let content = 5_000;
  Object.defineProperty(el, "clientHeight", { get: () => height });
  Object.defineProperty(el, "scrollHeight", { get: () => content });
  Object.defineProperty(el, "scrollTop", {
    get: () => top,
    set: (v: number) => (top = Math.max(0, Math.min(v, content - height))),
  });
  return {
    el,
    grow: (px: number) => (content += px),
    /** The frame's scroll event, for whatever moved the position since the last. */
    frame: () => el.dispatchEvent(new Event("scroll")),
  };
}

const nextFrame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));

function follow(s: ReturnType<typeof scroller>) {
  return createRoot((dispose) => ({ f: createFollow(() => s.el, () => undefined), dispose }));
}

describe("createFollow", () => {
  it("starts at the bottom, following; the reader scrolling up stops it, back near the bottom starts it", async () => {
    const s = scroller();
    const { f, dispose } = follow(s);
    await Promise.resolve();
    s.frame(); // the event for the page's own scroll to the bottom
    await nextFrame();
    expect(s.el.scrollTop).toBe(4_200);
    expect(f.following()).toBe(true);
    s.el.scrollTop = 3_000;
    s.frame();
    expect(f.following()).toBe(false);
    s.el.scrollTop = 4_150;
    s.frame();
    expect(f.following()).toBe(true);
    dispose();
  });

  it("content growing below the reader (no scroll of theirs) keeps following", async () => {
    const s = scroller();
    const { f, dispose } = follow(s);
    await Promise.resolve();
    s.grow(2_000);
    s.frame();
    expect(f.following()).toBe(true);
    dispose();
  });

  it("the reader scrolling up in the same frame as the page keeping the bottom still stops following", async () => {
    const s = scroller();
    const { f, dispose } = follow(s);
    await Promise.resolve();
    // The page keeps the bottom for new content (the ResizeObserver's scroll); before that frame's scroll
    // event, the reader scrolls far up (a loaded phone, a join's rows still mounting step by step).
    s.grow(600);
    f.keepBottom();
    s.el.scrollTop = 1_000;
    s.frame();
    expect(f.following()).toBe(false);
    // The next growth (an older page mounted above) must not take the reader to the bottom.
    s.grow(3_000);
    f.keepBottom();
    expect(s.el.scrollTop).toBe(1_000);
    dispose();
  });
});
