import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageSize, receivedLines } from "./demo-received";

const encoded = async (format: "png" | "jpeg" | "gif" | "webp", width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 1, g: 2, b: 3 } } }).toFormat(format).toBuffer();

describe("what the demo agent says it received", () => {
  it("reads the size from the image's own header (PNG, JPEG, GIF, WebP)", async () => {
    expect(imageSize(await encoded("png", 640, 480))).toEqual({ width: 640, height: 480 });
    expect(imageSize(await encoded("jpeg", 1568, 1176))).toEqual({ width: 1568, height: 1176 });
    expect(imageSize(await encoded("gif", 33, 7))).toEqual({ width: 33, height: 7 });
    expect(imageSize(await encoded("webp", 300, 200))).toEqual({ width: 300, height: 200 });
    expect(imageSize(new Uint8Array([1, 2, 3]))).toBeNull();
    expect(imageSize(Buffer.from("iVBORw0KGgo=", "base64"))).toBeNull(); // a PNG signature and nothing else
  });

  it("one line for the images, one per file", async () => {
    const png = (await encoded("png", 20, 10)).toString("base64");
    expect(
      receivedLines([
        { type: "text", text: "hi" },
        { type: "image", mimeType: "image/png", data: png },
        { type: "image", mimeType: "image/jpeg", data: "bm90IGFuIGltYWdl" },
        { type: "resource", resource: { uri: "attachment:///notes.md", text: "abc" } },
        { type: "resource_link", uri: "attachment:///a.pdf", name: "a.pdf" },
      ]),
    ).toEqual([
      "I received 2 images (image/png, 20×10; image/jpeg).",
      "I received the file attachment:///notes.md embedded (3 characters).",
      "I received a link to a.pdf (attachment:///a.pdf).",
    ]);
    expect(receivedLines([{ type: "text", text: "only words" }])).toEqual([]);
  });
});
