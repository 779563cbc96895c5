import { describe, expect, it } from "vitest";
import { patchBlocks } from "./patch-blocks";

describe("patchBlocks", () => {
  it("keeps the unchanged leading blocks as the same nodes and replaces only the tail", () => {
    const el = document.createElement("div");
    patchBlocks(el, "<h2>Title</h2><p>one</p><p>tw</p>");
    const [h2, p1, p2] = Array.from(el.childNodes);
    patchBlocks(el, "<h2>Title</h2><p>one</p><p>two</p><ul><li>x</li></ul>");
    expect(el.innerHTML).toBe("<h2>Title</h2><p>one</p><p>two</p><ul><li>x</li></ul>");
    expect(el.childNodes[0]).toBe(h2);
    expect(el.childNodes[1]).toBe(p1);
    expect(el.childNodes[2]).not.toBe(p2);
  });

  it("shrinks and rewrites when the text changed earlier on (an edit, the renderer arriving)", () => {
    const el = document.createElement("div");
    patchBlocks(el, "<p>a</p><p>b</p><p>c</p>");
    patchBlocks(el, "<p>A</p>");
    expect(el.innerHTML).toBe("<p>A</p>");
    patchBlocks(el, "");
    expect(el.childNodes).toHaveLength(0);
  });
});
