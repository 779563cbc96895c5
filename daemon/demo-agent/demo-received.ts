/**
 * What the demo agent says it received besides text — "received 1 image (image/png, 640×480)" — so a test can
 * see an image reach the agent as an image block with the size the browser made of it. Dimensions are read from
 * the image's own header (PNG, JPEG, GIF, WebP), not trusted from anywhere else.
 */

export type ReceivedBlock = { type: string; text?: unknown; mimeType?: unknown; data?: unknown; uri?: unknown; name?: unknown; resource?: unknown };

export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const size = headerSize(bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}

function headerSize(bytes: Uint8Array): { width: number; height: number } | null {
  const u16be = (i: number) => ((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0);
  const u16le = (i: number) => (bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8);
  const u32be = (i: number) => (bytes[i] ?? 0) * 2 ** 24 + ((bytes[i + 1] ?? 0) << 16) + ((bytes[i + 2] ?? 0) << 8) + (bytes[i + 3] ?? 0);
  // PNG: signature, then the IHDR chunk's width and height.
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return { width: u32be(16), height: u32be(20) };
  // GIF: logical screen size.
  if (bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) return { width: u16le(6), height: u16le(8) };
  // JPEG: walk the markers to the first start-of-frame.
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) return null;
      const marker = bytes[i + 1] ?? 0;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { width: u16be(i + 7), height: u16be(i + 5) };
      i += 2 + u16be(i + 2);
    }
    return null;
  }
  // WebP (lossy VP8 only; enough for a demo).
  if (bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[12] === 0x56 && bytes[15] === 0x20) return { width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff };
  return null;
}

function describeImage(b: ReceivedBlock): string {
  const type = typeof b.mimeType === "string" ? b.mimeType : "?";
  const size = typeof b.data === "string" ? imageSize(Buffer.from(b.data, "base64")) : null;
  return size ? `${type}, ${size.width}×${size.height}` : type;
}

/** One line per kind of non-text block received; empty when the prompt was text only. */
export function receivedLines(blocks: readonly ReceivedBlock[]): string[] {
  const images = blocks.filter((b) => b.type === "image");
  const lines: string[] = [];
  if (images.length) lines.push(`I received ${images.length} image${images.length === 1 ? "" : "s"} (${images.map(describeImage).join("; ")}).`);
  for (const b of blocks) {
    if (b.type === "resource") {
      const r = typeof b.resource === "object" && b.resource ? (b.resource as Record<string, unknown>) : {};
      const text = typeof r["text"] === "string" ? r["text"] : "";
      lines.push(`I received the file ${String(r["uri"] ?? "?")} embedded (${text.length} characters).`);
    } else if (b.type === "resource_link") lines.push(`I received a link to ${String(b.name ?? "?")} (${String(b.uri ?? "?")}).`);
  }
  return lines;
}
