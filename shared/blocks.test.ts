import { describe, expect, it } from "vitest";
import { PromptBlocks, promptBytes, promptImageChars } from "./blocks";
import { MAX_IMAGE_DATA_CHARS, MAX_PROMPT_BYTES, MAX_PROMPT_IMAGE_CHARS, MAX_QUEUE_BYTES, MAX_TUNNEL_FRAME_BYTES, MAX_VIEWER_FRAME_BYTES } from "./limits";

const image = (chars: number) => ({ type: "image" as const, mimeType: "image/jpeg", data: "A".repeat(chars) });

describe("a prompt's two budgets: text (and files) and images", () => {
  it("images are counted apart from text: a long paste and two full-size images are one valid prompt", () => {
    const blocks = [{ type: "text" as const, text: "x".repeat(MAX_PROMPT_BYTES - 100) }, image(MAX_IMAGE_DATA_CHARS), image(MAX_IMAGE_DATA_CHARS)];
    expect(promptImageChars(blocks)).toBe(MAX_PROMPT_IMAGE_CHARS);
    expect(PromptBlocks.safeParse(blocks).success).toBe(true);
  });
  it("one character over either budget is PROMPT_TOO_LARGE", () => {
    const tooManyPixels = [image(MAX_PROMPT_IMAGE_CHARS + 1)];
    const tooMuchText = [{ type: "resource" as const, resource: { uri: "attachment:///a.txt", text: "x".repeat(MAX_PROMPT_BYTES) } }];
    for (const bs of [tooManyPixels, tooMuchText]) expect(PromptBlocks.safeParse(bs).error?.issues[0]?.message).toBe("PROMPT_TOO_LARGE");
    expect(promptBytes(tooMuchText)).toBeGreaterThan(MAX_PROMPT_BYTES);
  });
  it("the limits fit together: the largest prompt fits a viewer frame, the queue and a tunnel frame", () => {
    const worstUtf8 = 3 * MAX_PROMPT_BYTES + MAX_PROMPT_IMAGE_CHARS;
    expect(MAX_PROMPT_BYTES + MAX_PROMPT_IMAGE_CHARS).toBeLessThan(MAX_VIEWER_FRAME_BYTES);
    expect(worstUtf8).toBeLessThan(MAX_QUEUE_BYTES);
    expect(MAX_QUEUE_BYTES + 64 * 1024).toBeLessThanOrEqual(MAX_TUNNEL_FRAME_BYTES);
  });
});
