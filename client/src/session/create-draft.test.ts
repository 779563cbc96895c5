import { createRoot } from "solid-js";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_IMAGE_DATA_CHARS } from "../../../shared/limits";
import type { Draft } from "./composer-logic";
import { createDraft } from "./create-draft";

/** A page's life: the draft signal under its own root, disposed as a reload does. */
function page<T>(fn: (d: ReturnType<typeof createDraft>) => T): T {
  return createRoot((dispose) => {
    const out = fn(createDraft("s1"));
    dispose();
    return out;
  });
}
const flush = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => localStorage.clear());

describe("the draft survives a reload", () => {
  it("with its images and files, even at the largest size a message may have", async () => {
    const image = (n: number) => ({ type: "image" as const, mimeType: "image/jpeg", data: String(n).repeat(MAX_IMAGE_DATA_CHARS) });
    const draft: Draft = {
      text: "look at these",
      attachments: [image(1), image(2), { type: "resource", resource: { uri: "attachment:///notes.md", text: "# notes" } }, { type: "resource_link", uri: "attachment:///a.pdf", name: "a.pdf" }],
    };
    await createRoot(async (dispose) => {
      const [, setDraft] = createDraft("s1");
      await flush(); // the page is up; then the user attaches
      setDraft(draft);
      await flush();
      dispose();
    });
    expect(page(([d]) => d())).toEqual(draft);
  });

  it("an emptied draft is forgotten", async () => {
    await createRoot(async (dispose) => {
      const [, setDraft] = createDraft("s1");
      setDraft({ text: "x", attachments: [] });
      await flush();
      setDraft({ text: "", attachments: [] });
      await flush();
      dispose();
    });
    expect(localStorage.getItem("baton:draft:s1")).toBeNull();
  });
});
