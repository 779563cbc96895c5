import { describe, expect, it } from "vitest";
import { draftBlocks, type Draft } from "./composer-logic";
import { applyMention, mentionLink, mentionQuery, mentionSegments, pruneMentions } from "./mention-logic";

const ROOT = "/home/me/proj";

describe("mentionQuery: when the @ picker is open", () => {
  it("an @ at the start or after whitespace, with the caret inside its word", () => {
    expect(mentionQuery("@", 1)).toEqual({ start: 0, end: 1, query: "" });
    expect(mentionQuery("see @sr", 7)).toEqual({ start: 4, end: 7, query: "sr" });
    expect(mentionQuery("see @src/app now", 9)).toEqual({ start: 4, end: 12, query: "src/"});
    expect(mentionQuery("line\n@a", 7)).toEqual({ start: 5, end: 7, query: "a" });
  });

  it("not in an e-mail address, not after a space ended the word, not before the @", () => {
    expect(mentionQuery("me@example.com", 14)).toBeNull();
    expect(mentionQuery("@src done", 9)).toBeNull();
    expect(mentionQuery("see @src", 3)).toBeNull();
    expect(mentionQuery("", 0)).toBeNull();
  });
});

describe("a pick → the draft → the prompt's blocks", () => {
  it("mentionLink: a file:// URI of the real path (each segment encoded) named by the relative path", () => {
    expect(mentionLink(ROOT, "src/app.ts")).toEqual({ type: "resource_link", uri: "file:///home/me/proj/src/app.ts", name: "src/app.ts" });
    expect(mentionLink("/r/", "a b/c#1.md").uri).toBe("file:///r/a%20b/c%231.md");
  });

  it("the @word becomes @path plus a space, the link joins the attachments once; the send carries the text and the resource link", () => {
    const draft: Draft = { text: "look at @ap and tell me", attachments: [] };
    const link = mentionLink(ROOT, "src/app.ts");
    const picked = applyMention(draft, mentionQuery(draft.text, 11)!, link);
    expect(picked.draft.text).toBe("look at @src/app.ts and tell me");
    expect(picked.caret).toBe("look at @src/app.ts ".length);
    expect(picked.draft.attachments).toEqual([link]);
    // The same file again: a second token, one link.
    const again = applyMention({ ...picked.draft, text: `${picked.draft.text} @a` }, { start: picked.draft.text.length + 1, end: picked.draft.text.length + 3 }, link);
    expect(again.draft.attachments).toHaveLength(1);
    expect(draftBlocks(picked.draft)).toEqual([
      { type: "text", text: "look at @src/app.ts and tell me" },
      { type: "resource_link", uri: "file:///home/me/proj/src/app.ts", name: "src/app.ts" },
    ]);
  });

  it("a mention alone still sends: its link, and the token as text", () => {
    const picked = applyMention({ text: "@", attachments: [] }, { start: 0, end: 1 }, mentionLink(ROOT, "README.md"));
    expect(draftBlocks(picked.draft)).toEqual([
      { type: "text", text: "@README.md" },
      { type: "resource_link", uri: "file:///home/me/proj/README.md", name: "README.md" },
    ]);
  });
});

describe("pruneMentions: deleting the chip deletes the link", () => {
  const link = mentionLink(ROOT, "src/app.ts");
  const image = { type: "image" as const, mimeType: "image/png", data: "AAAA" };
  const attached = { type: "resource_link" as const, uri: "file:///elsewhere/report.pdf", name: "report.pdf" };

  it("a token edited away drops its link; other attachments and links never named in the text stay", () => {
    const before = "see @src/app.ts now";
    const out = pruneMentions(before, { text: "see @src/app. now", attachments: [link, image, attached] });
    expect(out.attachments).toEqual([image, attached]);
  });

  it("typing elsewhere keeps the link (the same draft object comes back)", () => {
    const d: Draft = { text: "see @src/app.ts now!", attachments: [link] };
    expect(pruneMentions("see @src/app.ts now", d)).toBe(d);
  });
});

describe("mentionSegments: the chips in the text", () => {
  const links = [mentionLink(ROOT, "src/app.ts"), mentionLink(ROOT, "src/app.tsx")];

  it("cuts each @name of a link into a chip, the longest name first; joined they are the text", () => {
    const text = "fix @src/app.tsx, then @src/app.ts.\nnot me@src/app.ts nor @other";
    const segs = mentionSegments(text, links);
    expect(segs.filter((s) => s.mention).map((s) => s.text)).toEqual(["@src/app.tsx", "@src/app.ts"]);
    expect(segs.map((s) => s.text).join("")).toBe(text);
  });

  it("no links or no @: one plain segment", () => {
    expect(mentionSegments("hi @src/app.ts", [])).toEqual([{ text: "hi @src/app.ts", mention: false }]);
    expect(mentionSegments("hi", links)).toEqual([{ text: "hi", mention: false }]);
  });
});
