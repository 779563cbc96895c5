import { describe, expect, it } from "vitest";
import { promptBlocksOf } from "./acp-to-room";

describe("ACP prompt → room blocks", () => {
  it("keeps text, images, links and embedded text files", () => {
    expect(
      promptBlocksOf([
        { type: "text", text: "look at" },
        { type: "resource", resource: { uri: "file:///a.ts", text: "x = 1" } },
        { type: "resource_link", uri: "file:///b.ts", name: "b.ts" },
        { type: "image", mimeType: "image/png", data: "AAAA" },
      ]),
    ).toEqual({
      ok: true,
      blocks: [
        { type: "text", text: "look at" },
        { type: "resource", resource: { uri: "file:///a.ts", text: "x = 1" } },
        { type: "resource_link", uri: "file:///b.ts", name: "b.ts" },
        { type: "image", mimeType: "image/png", data: "AAAA" },
      ],
    });
  });

  it.each([
    [[], "the prompt is empty"],
    [[{ type: "text" as const, text: "   " }], "the prompt is empty"],
    [[{ type: "audio" as const, mimeType: "audio/wav", data: "AA" }], "audio cannot be sent"],
    [[{ type: "text" as const, text: "x".repeat(2_000_000) }], "larger than a Baton session accepts"],
  ])("refuses %j with a reason", (prompt, reason) => {
    const r = promptBlocksOf(prompt);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(reason);
  });
});
