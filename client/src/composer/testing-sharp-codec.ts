/** The component tests' image codec: sharp (libvips), a real decoder and JPEG encoder where jsdom has no canvas. */
import sharp from "sharp";
import type { ImageBudget } from "./attachments";
import { fitImage, type ImageCodec } from "./image-resize";

type SharpImage = { width: number; height: number; bytes: Buffer };

const bytesOf = async (blob: Blob) => Buffer.from(await blob.arrayBuffer());

export const sharpCodec: ImageCodec<SharpImage> = {
  async decode(file) {
    const bytes = await bytesOf(file);
    const m = await sharp(bytes).metadata();
    if (!m.width || !m.height) throw new Error("not an image");
    return { width: m.width, height: m.height, bytes };
  },
  async encodeJpeg(image, width, height, quality) {
    const out = await sharp(image.bytes).resize(width, height, { fit: "fill" }).flatten({ background: "#fff" }).jpeg({ quality: Math.round(quality * 100) }).toBuffer();
    return out.toString("base64");
  },
  original: async (file) => (await bytesOf(file)).toString("base64"),
};

export const sharpFitter = (file: Blob, budget: ImageBudget) => fitImage(file, budget, sharpCodec);

/** A `width` × `height` image of `format`: noise (a photo's worst case for JPEG) or one flat colour (a screenshot's best). */
export async function testImage(width: number, height: number, format: "png" | "jpeg", kind: "noise" | "flat" = "noise"): Promise<Blob> {
  const base =
    kind === "noise"
      ? sharp({ create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } } })
      : sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 220 } } });
  const buf = format === "png" ? await base.png().toBuffer() : await base.jpeg({ quality: 92 }).toBuffer();
  return new Blob([new Uint8Array(buf)], { type: `image/${format}` });
}

/** Width and height of base64 image data, read by sharp. */
export async function sizeOf(data: string): Promise<{ width: number; height: number; format: string }> {
  const m = await sharp(Buffer.from(data, "base64")).metadata();
  return { width: m.width ?? 0, height: m.height ?? 0, format: m.format ?? "" };
}
