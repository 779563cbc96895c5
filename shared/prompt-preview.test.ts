import { describe, expect, it } from "vitest";
import { fileName, promptPreview } from "./prompt-preview";

describe("a prompt's preview", () => {
  it("names an embedded file by its last path segment, without its query or fragment", () => {
    expect(fileName("file:///repo/src/a%20b.ts?line=3#L3")).toBe("a b.ts");
    expect(fileName("file:///repo/src/#anchor")).toBe("src");
    expect(fileName("https://x.test/docs/")).toBe("docs");
    // A URI with a line break after its #s (4 KB, the schema's limit) is cut at the first of them.
    expect(fileName(`file:///r/x.ts${"#".repeat(4000)}\nmore`)).toBe("x.ts");
  });
  it("reads a prompt of many such blocks", () => {
    const uri = `file:///r/y.ts${"?".repeat(4000)}\nz`;
    const blocks = Array.from({ length: 32 }, () => ({ type: "resource" as const, resource: { uri, text: "" } }));
    expect(promptPreview(blocks, 60)).toBe(`${"@y.ts ".repeat(9)}@y.ts…`);
  });
});
